package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// The prose-and-stated classes the held-out batches g14-g17 found (corpus 563-652), each on
// a minimal snippet written for the class (not the case's words); every test failed before
// its change.

// kswapd busy stated in prose: the thread's name shortened ("kswap"), and kswapd running hot
// without a figure (corpus 578 "kswapd winds up in a continuous cycle ... forever", 626
// "the kswap process is utilizing 100% of cpu", 649 "kswapd0 process is consuming a large
// amount of CPU resources"). Before: exit 3, nothing read.
func TestStatedSymptoms(t *testing.T) {
	rate := func(text, key string) float64 {
		t.Helper()
		tl := ParseString(text, "p", Options{})
		v := 0.0
		for _, s := range tl.Samples {
			if strings.Contains(s.Source, model.ForeignMark) {
				continue
			}
			v = max(v, s.Rates[key])
		}
		return v
	}
	const pct, busy, oom = model.RateKswapdCPUPct, model.RateStatedKswapdBusy, model.RateStatedOOM
	for _, c := range []struct {
		text, key string
		want      float64
	}{
		{"On our build VM htop shows kswap0 pinned at 98% of one cpu for hours.\n", pct, 98},
		{"Every evening the NAS becomes sluggish and top lists kswapd0 hogging the CPU.\n", busy, 1},
		{"After a day of uptime kswapd1 is eating most of the CPU and ssh times out.\n", busy, 1},
		{"The guest's Normal zone is tiny, so kswapd keeps trying to balance it: it loops forever\nand never sleeps.\n", busy, 1},
		{"kswapd0 shows high CPU on the database node even with 20 GB of page cache.\n", busy, 1},
		{"服务器卡死,top 看到 kswapd0 进程占用大量CPU。\n", busy, 1},
		// Counter-cases: a possibility, advice, a negation, and another machine's.
		{"If kswapd0 uses a lot of CPU, add some swap.\n", busy, 0},
		{"You should check whether kswapd is hogging the CPU before you blame the NIC.\n", busy, 0},
		{"kswapd0 is not hogging the CPU here; the load is all softirq.\n", busy, 0},
		{"> on my test box kswapd spins forever in balance_pgdat\n\nThanks, but my servers look fine.\n", busy, 0},
		// An out-of-memory stated without the kernel's report (corpus 646 "频繁因为OOM(Out Of
		// Memory)导致crash", 521 "偶爾,OOM-killer 會殺死一些程序"). Before: oom-kill not checked.
		{"Our 128 MB router reboots every night because of OOM.\n", oom, 1},
		{"Twice this week postgres was killed by the OOM killer on the replica.\n", oom, 1},
		{"这台 NAS 经常因为内存不足 OOM 导致崩溃。\n", oom, 1},
		{"If the heap grows past the limit, the OOM killer will kill the JVM.\n", oom, 0},
		{"Since the upgrade we have had no OOM crashes.\n", oom, 0},
		{"You should set oom_score_adj so that sshd is never killed by the OOM killer.\n", oom, 0},
	} {
		if got := rate(c.text, c.key); got != c.want {
			t.Errorf("%q: %s %v, want %v", c.text, c.key, got, c.want)
		}
	}
}
