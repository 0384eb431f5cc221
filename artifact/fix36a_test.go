package artifact

import (
	"testing"

	"headroom/model"
)

// fix36a (round 31, corpus 3086, 3089, 3091, 3103, 3118): OOM kills told by a kernel log
// in dmesg --time-format iso, by a reporter in prose, and a SIGKILL notice of bash's printed
// over a progress line.

// dmesg --time-format iso (with -x's facility and level, or without): the kernel's records.
func TestFix36aDmesgISOStamp(t *testing.T) {
	h := "pmoxs3backuprox invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0"
	for name, line := range map[string]string{
		"dmesg -x --time-format iso": "kern  :warn  : 2024-08-07T07:19:37,672782-04:00 " + h,
		"dmesg --time-format iso":    "2024-08-07T07:19:37,672782+02:00 " + h,
	} {
		l, _, _ := parseLine(1, line)
		if !l.Kernel || l.Text != h {
			t.Errorf("%s: read as %+v", name, l)
		}
		tl := ParseString(line+"\n", "p", Options{})
		if len(artifactsOf(tl, KindOOMKill)) != 1 {
			t.Errorf("%s: no OOM kill: %+v", name, tl.Artifacts)
		}
	}
	// counter-cases: RFC 3339 ('.' before the fraction), a CRI line, a date in prose, a
	// stamp with no offset: not taken as the kernel's.
	for _, line := range []string{
		"2024-08-07T07:19:37.672782-04:00 " + h,
		"2024-08-07T07:19:37,672782 " + h,
		"2024-08-07T07:19:37,672782-04:00",
		"2024-08-07 07:19:37,672782-04:00 " + h,
	} {
		if l, _, _ := parseLine(1, line); l.Kernel {
			t.Errorf("%q read as a kernel record: %+v", line, l)
		}
	}
}

func TestFix36aStatedOOM(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"The `signoz-otel-collector` pod is repeatedly OOMKilled despite being allocated 12Gi memory request.\n", 1},
		{"# Same tempo-ingester pod repeatedly resetting due to OOM\n\nbody text here.\n", 1},
		{"The worker keeps restarting due to OOM kills.\n", 1},
		{"The initial memory usage spikes up to 12GB, causing Out of Memory (OOM) issues on our VMs.\n", 1},
		// counter-cases: a restart to avoid an OOM, a possibility, a question, machines not
		// the author's, a negation, advice
		{"We restart the pod nightly to avoid OOM.\n", 0},
		{"A spike like this can cause OOM issues on the nodes.\n", 0},
		{"We run three replicas.\n\nIs the pod restarting due to OOM? Nobody knows.\n", 0},
		{"This causes OOM issues on VMs with less than 16GB of RAM.\n", 0},
		{"The pod is not restarting due to OOM but due to a failed liveness probe.\n", 0},
		{"If the pod is repeatedly OOMKilled, raise its limit.\n", 0},
	})
}

// bash's "Killed" over a progress line: a SIGKILL notice, named unread; no memory read.
func TestFix36aKilledOverProgress(t *testing.T) {
	for _, line := range []string{
		"Killed 86.85%  4.056 MiB/s  1.936 GiB / 2.229 GiB  120100 / 123958 items  0 errors  ETA 1:15",
		"Killed [0:45] 12.50%  3 files 1.2 MiB",
		"Killed 7% 120 MiB",
	} {
		if why, ok := shellKilledLine(line); !ok || why != killedOverProgressWhy {
			t.Errorf("%q not read as the notice (%q)", line, why)
		}
	}
	// counter-cases: a sentence with a count, a share in a sentence, the kernel's kill line,
	// the word alone
	for _, line := range []string{
		"Killed 3 processes that used 80% of memory",
		"Killed 50% of the jobs",
		"Killed process 1234 (restic) total-vm:123kB, anon-rss:100kB",
		"Killed",
		"Killed %d%%",
	} {
		if why, ok := shellKilledLine(line); ok && why == killedOverProgressWhy {
			t.Errorf("%q read as the notice", line)
		}
	}
	tl := ParseString("> scan [/]\n> Killed 86.85%  4.056 MiB/s  1.936 GiB / 2.229 GiB  120100 / 123958 items  0 errors  ETA 1:15\n", "p", Options{})
	if len(tl.Samples) != 0 || len(tl.Events) != 0 {
		t.Errorf("read %+v %+v", tl.Samples, tl.Events)
	}
}

// The OTel collector's memory_limiter block: named unread (no longer exit 3), no memory read.
func TestFix36aMemLimiterBlock(t *testing.T) {
	cfg := "processors:\n  memory_limiter:\n    ballast_size_mib: 192\n    check_interval: 5s\n    limit_mib: 448\n    spike_limit_mib: 64\n"
	tl := ParseString(cfg, "p", Options{})
	n := 0
	for _, u := range tl.Unparsed {
		if u.Why == memLimiterWhy {
			n += u.LastLine - u.FirstLine + 1
		}
	}
	if n != 3 || len(tl.Samples) != 0 {
		t.Errorf("unread %+v samples %+v", tl.Unparsed, tl.Samples)
	}
	// counter-cases: the keys under another block, a sentence naming the key, the log line
	for _, text := range []string{
		"resources:\n  limits:\n    limit_mib: 448\n",
		"Set limit_mib: 448 in the memory_limiter block.\n",
		`2024-02-12T12:13:15.730Z info memorylimiter/memorylimiter.go:77 Memory limiter configured {"limit_mib": 400, "spike_limit_mib": 250}` + "\n",
		"memory_limiter:\nlimit_mib: 448\n",
	} {
		for _, u := range ParseString(text, "p", Options{}).Unparsed {
			if u.Why == memLimiterWhy {
				t.Errorf("%q read as the block: %+v", text, u)
			}
		}
	}
}

// A report from its header whose stack goes through mem_cgroup_out_of_memory is a memory
// cgroup's OOM though its counters and constraint line were cut (corpus 3118); a stale
// "? " frame of it is not.
func TestFix36aHeaderTraceMemcg(t *testing.T) {
	head := "[  100.000000] foo invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0\n[  100.000001] Call Trace:\n[  100.000002]  oom_kill_process+0xb/0x10\n[  100.000003]  out_of_memory+0x1fd/0x4c0\n"
	for text, want := range map[string]string{
		head + "[  100.000004]  mem_cgroup_out_of_memory+0x134/0x150\n[  100.000005]  try_charge_memcg+0x696/0x780\n":         "CONSTRAINT_MEMCG",
		head + "[  100.000004]  ? mem_cgroup_out_of_memory+0x134/0x150\n[  100.000005]  __alloc_pages_slowpath+0x696/0x780\n": "CONSTRAINT_NONE",
		head + "[  100.000004]  __alloc_pages_slowpath+0x696/0x780\n":                                                         "CONSTRAINT_NONE",
	} {
		var got []string
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.OOMKill != nil {
				got = append(got, e.OOMKill.Constraint)
			}
		}
		if len(got) != 1 || got[0] != want {
			t.Errorf("constraint %v, want %s:\n%s", got, want, text)
		}
	}
}
