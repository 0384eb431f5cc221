package diagnose

import (
	"strings"
	"testing"
)

// memStat379 is corpus 379's cgroup v2 memory.stat (a container's, in a containerd issue),
// first lines: sock 0, 133 MB of anonymous memory and no file pages.
const memStat379 = `                           kernel 1298432
                           kernel_stack 81920
                           pagetables 507904
                           percpu 62600
                           sock 0
                           vmalloc 8192
                           shmem 2207744
                           file_mapped 2207744
                           inactive_anon 132820992
                           active_anon 16384
                           inactive_file 0
                           active_file 0
`

// memory.events as mm/memcontrol.c memory_events_show prints it (no corpus case holds
// one yet); the counts are this test's.
const memEvents = `$ cat /sys/fs/cgroup/kubepods.slice/memory.events
low 0
high 0
max 1523
oom 12
oom_kill 12
oom_group_kill 0
`

// Corpus 379: memory.stat alone. The socket memory charged (sock 0) is read, but whether the
// cgroup is at its limit is not in the input: not checked, never healthy; oom-kill has
// nothing to read either.
func TestCgroupMemStatAlone379(t *testing.T) {
	tl := pasteTimeline(t, "```bash\n"+memStat379+"```\n")
	if len(tl.CgroupMemory) != 1 || tl.CgroupMemory[0].Stat == nil {
		t.Fatalf("cgroup memory: %+v", tl.CgroupMemory)
	}
	mustNotCheck(t, run(t, "cgroup-tcp-limit", tl), "not its memory.events")
	mustNotCheck(t, run(t, "oom-kill", tl), "memory.events")
}

// memory.events with OOM kills is a memory-cgroup OOM, not the host's: oom-kill says so
// (warning, the cgroup's limit to raise). With a memory.stat that charges socket memory,
// the limit reached (max 1523) throttles the cgroup's TCP: cgroup-tcp-limit fires.
func TestCgroupMemEvents(t *testing.T) {
	tl := pasteTimeline(t, memEvents)
	if len(tl.CgroupMemory) != 1 || tl.CgroupMemory[0].Path != "/sys/fs/cgroup/kubepods.slice" || tl.CgroupMemory[0].Version != 2 {
		t.Fatalf("cgroup memory: %+v", tl.CgroupMemory)
	}
	f := mustFire(t, run(t, "oom-kill", tl), Warning)
	if !strings.Contains(f.Title, "memory cgroup hit its limit") || !evidenceHas(f, "memory.events oom_kill", "12 in /sys/fs/cgroup/kubepods.slice") {
		t.Errorf("%q %+v", f.Title, f.Evidence)
	}
	if !strings.Contains(f.Changes[0].Recommended, "the host is not short") {
		t.Errorf("change: %+v", f.Changes)
	}

	withSock := strings.Replace(memStat379, "sock 0", "sock 41943040", 1)
	tl = pasteTimeline(t, "$ cat /sys/fs/cgroup/kubepods.slice/memory.stat\n"+withSock+"\n"+memEvents)
	f = mustFire(t, run(t, "cgroup-tcp-limit", tl), Warning)
	if !evidenceHas(f, "memory charged to /sys/fs/cgroup/kubepods.slice", "sock 40 MiB") || !evidenceHas(f, "times at its limits", "max 1523") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// oom-kill cites what the cgroup's memory held, from its memory.stat.
	f = mustFire(t, run(t, "oom-kill", tl), Warning)
	if !evidenceHas(f, "what the cgroup's memory held", "sock 40 MiB") {
		t.Errorf("oom-kill evidence: %+v", f.Evidence)
	}
	// sock 0 with the same events: the limit was reached but no socket memory is charged.
	tl = pasteTimeline(t, "$ cat /sys/fs/cgroup/kubepods.slice/memory.stat\n"+memStat379+"\n"+memEvents)
	mustBeHealthyNaming(t, run(t, "cgroup-tcp-limit", tl), "max 1523")
}

// A /proc/vmstat excerpt holds oom_kill too (the host's, 4.13+): it must not be read as a
// cgroup's memory.events. v1's memory.oom_control is read, as v1.
func TestCgroupMemEventsNotVmstat(t *testing.T) {
	tl := pasteTimeline(t, "pgmajfault 2049\noom_kill 3\npgfault 912345\n")
	if len(tl.CgroupMemory) != 0 {
		t.Errorf("vmstat read as a cgroup file: %+v", tl.CgroupMemory)
	}
	tl = pasteTimeline(t, "oom_kill_disable 0\nunder_oom 0\noom_kill 4\n")
	if len(tl.CgroupMemory) != 1 || tl.CgroupMemory[0].Version != 1 {
		t.Fatalf("oom_control: %+v", tl.CgroupMemory)
	}
	f := mustFire(t, run(t, "oom-kill", tl), Warning)
	if !evidenceHas(f, "memory.oom_control oom_kill", "4 in the cgroup pasted") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}
