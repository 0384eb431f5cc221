package diagnose

import (
	"strings"
	"testing"
)

// The host's memory state told in plain words (h31b): each sentence reaches the rule an
// expert lists, with its key words in the evidence; the counter-cases (advice, a question,
// a condition, a negation, a definition, another machine, a share below full, a program's
// own out-of-memory) fire nothing of this host's.
func TestH31bMemoryStateInWords(t *testing.T) {
	for _, c := range []struct{ rule, text, evidence string }{
		{"oom-kill", "The kernel's OOM killer terminated the backup job (restic) when it reached 7 GB.\n", "stated by the author"},
		{"oom-kill", "the node ran out of memory, the oom killer chose otelcol-contrib\n", "stated by the author"},
		{"oom-kill", "> The OOM killer picked mysqld again last night.\n", "stated by the author"},
		{"swap-under-load", "7.9 of 8 GB swap used while it serves traffic.\n", "swapping"},
		{"swap-under-load", "swap usage at 100% on the node\n", "swapping"},
		{"swap-under-load", "Our server uses 100% of swap and is very slow.\n", "swapping"},
		{"swap-under-load", "- swap: 3.9G/4G used\n", "swapping"},
		{"swap-under-load", "- swap: 1023M/1G used\n", "swapping"},
		{"swap-under-load", "our vps use 100% swap, very slow\n", "swapping"},
		{"swap-under-load", "web_1  | swap at 98%\n", "swapping"},
		{"swap-under-load", "After some hours the swap become full and server is very slow\n", "swapping"},
		{"kswapd-saturated", "> kswapd0 eats one core constantly\n", "kswapd busy"},
		{"kswapd-saturated", "- `kswapd0` pinning one CPU core\n", "kswapd busy"},
		{"direct-reclaim-stalls", "The system freezes for seconds while reclaiming memory.\n", "stalls in reclaim the author states"},
		{"direct-reclaim-stalls", "Our server is thrashing: load 80, all processes in D state waiting on memory reclaim\n", "stalls in reclaim the author states"},
		{"direct-reclaim-stalls", "Hello, our server is thrashing very bad, please help.\r\n", "stalls in reclaim the author states"},
		{"direct-reclaim-stalls", "our node thrash when backup run, ssh take minutes\n", "stalls in reclaim the author states"},
		{"direct-reclaim-stalls", "the box is thrashing, everything stalls for 10-20 seconds\n", "up to 20 s"},
		{"slab-unreclaimable-growth", "the unreclaimable slab grows to 18 GB on our server\n", "18"},
		{"slab-unreclaimable-growth", "our node: kernel slab (unreclaimable) is at 20 GB\n", "20"},
	} {
		// A stall stated without a duration is named as info (a timed one, a warning).
		want := Warning
		if strings.Contains(c.evidence, "the author states") {
			want = Info
		}
		f := mustFire(t, run(t, c.rule, parseText19b(t, c.text)), want)
		found := false
		for _, e := range f.Evidence {
			found = found || strings.Contains(e.What+" "+e.Value, c.evidence)
		}
		if !found {
			t.Errorf("%q: %s %v, want %q: %+v", c.text, c.rule, f.Severity, c.evidence, f.Evidence)
		}
	}
	for _, c := range []struct{ rule, text string }{
		{"oom-kill", "The OOM killer picks the process with the highest oom_score.\n"},
		{"oom-kill", "The OOM killer selects the largest process.\n"},
		{"oom-kill", "Out of memory, terminating.\n"},
		{"oom-kill", "java.lang.OutOfMemoryError: Java heap space\n"},
		{"oom-kill", "The process was killed by ulimit -v (virtual memory limit exceeded).\n"},
		{"oom-kill", "the container exited with code 137 after the liveness probe failed\n"},
		{"swap-under-load", "swap usage at 40% on the node\n"},
		{"swap-under-load", "If swap usage reaches 100%, the OOM killer runs.\n"},
		{"swap-under-load", "alert if swap is at 95%\n"},
		{"swap-under-load", "CPU 100% swap 0%\n"},
		{"swap-under-load", "Set swap to 100% of RAM.\n"},
		{"swap-under-load", "On the test box swap usage was 100%.\n"},
		{"swap-under-load", "vm.swappiness = 100\n"},
		{"swap-under-load", "Swap gets full when memory is low.\n"},
		{"swap-under-load", "I have 2 of 4 GB swap files configured\n"},
		{"swap-under-load", "- swap: 100M/1G used\n"},
		{"swap-under-load", "**Example output:**\n```\nMemory Pressure: HIGH\n  Swap Usage: 100% (0 MB free)\n```\n"},
		{"swap-under-load", "- **Severity**: Critical (99.9% swap utilization)\n"},
		{"kswapd-saturated", "If kswapd eats one core, add RAM.\n"},
		{"direct-reclaim-stalls", "To avoid thrashing, add more RAM.\n"},
		{"direct-reclaim-stalls", "Thrashing is when the system spends all its time swapping pages.\n"},
		{"direct-reclaim-stalls", "The box is not thrashing, load is fine.\n"},
		{"direct-reclaim-stalls", "Is the server thrashing?\n"},
		{"direct-reclaim-stalls", "The system thrash when memory is low.\n"},
		{"direct-reclaim-stalls", "If the box starts thrashing, restart it.\n"},
		{"direct-reclaim-stalls", "A system that is thrashing will look slow.\n"},
		{"direct-reclaim-stalls", "the daily indexes were painfully slow and thrashed the disks\n"},
		{"slab-unreclaimable-growth", "the reclaimable slab grows to 20 GB (dentries)\n"},
		{"slab-unreclaimable-growth", "alert when unreclaimable slab > 16 GB\n"},
		{"slab-unreclaimable-growth", "free shows 150 MB free but 20 GB cache\n"},
	} {
		res := run(t, c.rule, parseText19b(t, c.text))
		for i := range res.Findings {
			if f := &res.Findings[i]; !foreignOnly(f) {
				t.Errorf("%q: %s fired %v: %+v", c.text, c.rule, f.Severity, f.Evidence)
			}
		}
	}
}
