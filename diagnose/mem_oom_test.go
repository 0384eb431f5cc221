package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestOOMKill(t *testing.T) {
	t.Run("no killable processes", func(t *testing.T) {
		// Corpus 428 (tempesta #1789, 5.10): out_of_memory found no victim and panicked; the
		// report above the panic was not pasted. Before, the rule found no OOM line.
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{
			model.LogRecord{Message: "Out of memory and no killable processes..."}.WithSource("line 2"),
			model.LogRecord{Message: "Kernel panic - not syncing: System is deadlocked on memory"}.WithSource("line 3"),
		})
		f := mustFire(t, run(t, "oom-kill", tl), Critical)
		if !strings.Contains(f.Title, "no process to kill") {
			t.Errorf("title: %q", f.Title)
		}
	})
	t.Run("global", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Events = []model.Event{{Kind: model.EventOOMKill, Source: "lines 10-40", OOMKill: &model.OOMKill{
			Invoker: "java", Order: 0, Mode: "0x201da", Constraint: "CONSTRAINT_NONE", KilledPID: 4242, KilledComm: "java", AnonRSSKB: 7340032, TotalVMKB: 9437184}}}
		f := mustFire(t, run(t, "oom-kill", tl), Critical)
		if !evidenceHas(f, "global OOM kill", "killed java (pid 4242): anon-rss 7340032 kB") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	// Corpus 101/104: 2.4's "VM: killing process watchdog" and 2.6's "Out of Memory: Killed
	// process 9308 (l804.exe)." print no sizes (and 2.4 no pid): the evidence says only what
	// was printed, never "pid 0" or "anon-rss 0 kB".
	t.Run("sizes not printed", func(t *testing.T) {
		for _, o := range []*model.OOMKill{{KilledComm: "watchdog"}, {KilledComm: "l804.exe", KilledPID: 9308}} {
			tl := memTextTimeline()
			tl.Events = []model.Event{{Kind: model.EventOOMKill, Source: "line 3", OOMKill: o}}
			f := mustFire(t, run(t, "oom-kill", tl), Critical)
			for _, e := range f.Evidence {
				if strings.Contains(e.Value, "pid 0") || strings.Contains(e.Value, "rss 0 kB") || strings.Contains(e.Value, "total-vm 0") || strings.Contains(e.Value, "oom_score_adj 0") {
					t.Errorf("%s: evidence asserts what the kernel did not print: %q", o.KilledComm, e.Value)
				}
			}
			if !evidenceHas(f, "global OOM kill", "killed "+o.KilledComm) {
				t.Errorf("evidence: %+v", f.Evidence)
			}
		}
	})
	t.Run("memcg", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Events = []model.Event{{Kind: model.EventOOMKill, Source: "line 5", OOMKill: &model.OOMKill{
			Constraint: "CONSTRAINT_MEMCG", Memcg: "/system.slice/app.service", KilledPID: 7, KilledComm: "app"}}}
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if !strings.Contains(f.Title, "memory cgroup") || !strings.Contains(f.Changes[0].Recommended, "memory.max") {
			t.Errorf("%s %+v", f.Title, f.Changes)
		}
	})
	// Corpus 380: only dump_tasks' rows were pasted. An OOM kill happened, but nothing says
	// whether the host or a cgroup ran out: a warning that says so, not "the host ran out".
	t.Run("task table only", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Events = []model.Event{{Kind: model.EventOOMKill, Source: "lines 2-14", OOMKill: &model.OOMKill{Order: -1}}}
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if strings.Contains(f.Title, "host ran out") || !strings.Contains(f.Title, "not in the text") {
			t.Errorf("title %q", f.Title)
		}
	})
	t.Run("counter rising", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].VMStat = memCounters("oom_kill", 3)
		tl.Samples[1].VMStat = memCounters("oom_kill", 4)
		mustFire(t, run(t, "oom-kill", tl), Critical)
	})
	// A live host whose vmstat oom_kill is 3 and does not move while sampled: the verdict's
	// "what failed" must not read as a kill seen now, nor as the host running out.
	t.Run("since boot only", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].VMStat = memCounters("oom_kill", 3)
		tl.Samples[1].VMStat = memCounters("oom_kill", 3)
		f := mustFire(t, run(t, "oom-kill", tl), Warning)
		if !strings.Contains(f.Title, "3× since boot, none while sampled") {
			t.Errorf("title %q", f.Title)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].VMStat = memCounters("oom_kill", 0)
		tl.Samples[1].VMStat = memCounters("oom_kill", 0)
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "EXT4-fs (sda1): mounted filesystem"}.WithSource("seq 1")})
		mustBeHealthy(t, run(t, "oom-kill", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "oom-kill", timeline(2)), "oom_kill counter")
	})
}

func TestSlabAllocFailure(t *testing.T) {
	t.Run("network cache", func(t *testing.T) {
		tl := memTextTimeline()
		memHost64(tl, "5.10.0")
		tl.Host.Sysctls["vm.min_free_kbytes"] = "11264"
		tl.Events = []model.Event{{Kind: model.EventSlabFailure, Source: "lines 3-6", SlabFailure: &model.SlabFailure{
			Node: 0, Mode: "0x480020(GFP_ATOMIC)", Cache: "skbuff_head_cache", ObjectSize: 232, BufferSize: 256, DefaultOrder: 0, MinOrder: 0}}}
		f := mustFire(t, run(t, "slab-alloc-failure", tl), Critical)
		if !evidenceHas(f, "cache skbuff_head_cache", "a network cache") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if c, ok := changeFor(f, "vm.min_free_kbytes"); !ok || c.Kind != model.ChangeSysctl {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("log only", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "SLUB: Unable to allocate memory on node -1, gfp=0x20"}.WithSource("line 4")})
		mustFire(t, run(t, "slab-alloc-failure", tl), Critical)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "hello"}.WithSource("line 1")})
		mustBeHealthy(t, run(t, "slab-alloc-failure", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "slab-alloc-failure", memTextTimeline()), "kernel log")
	})
}
