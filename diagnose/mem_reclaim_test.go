package diagnose

import (
	"strconv"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestKswapdSaturated(t *testing.T) {
	kswapd := func(ticks ...int64) []kernel.TaskStat {
		var out []kernel.TaskStat
		for i, tk := range ticks {
			out = append(out, kernel.TaskStat{PID: 100 + i, Comm: "kswapd" + strconv.Itoa(i), STimeTicks: tk})
		}
		return out
	}
	t.Run("seed 003: two kswapd at a full CPU", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Threads = kswapd(1000, 2000)
		tl.Samples[1].Threads = kswapd(1099, 2098)
		f := mustFire(t, run(t, "kswapd-saturated", tl), Critical)
		if !evidenceHas(f, "per thread", "kswapd0 99%, kswapd1 98%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("scanning without reclaiming", func(t *testing.T) {
		tl := timeline(3)
		for i := 1; i < 3; i++ {
			tl.Samples[i].Rates = model.Rates{model.RatePgscanKswapdPerSec: 50000, model.RatePgstealKswapdPerSec: 2000}
		}
		f := mustFire(t, run(t, "kswapd-saturated", tl), Warning)
		if !evidenceHas(f, "scan rate", "efficiency 4%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Threads = kswapd(5)
		tl.Samples[1].Threads = kswapd(5)
		mustBeHealthy(t, run(t, "kswapd-saturated", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "kswapd-saturated", timeline(2)), "kswapd")
	})
}

func TestDirectReclaimStalls(t *testing.T) {
	t.Run("allocstall rising", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].VMStat = memCounters("allocstall_normal", 10, "allocstall_movable", 5, "pgscan_direct", 1000)
		tl.Samples[1].VMStat = memCounters("allocstall_normal", 40, "allocstall_movable", 9, "pgscan_direct", 90000)
		f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning)
		if !evidenceHas(f, "allocstall", "+34 over 1.0 s") || !evidenceHas(f, "pgscan_direct", "+89000") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("PSI full", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].PSI = []kernel.Pressure{{Resource: "memory", Some: &kernel.PSILine{Avg10: 40}, Full: &kernel.PSILine{Avg10: 12.5}}}
		f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Critical)
		if !evidenceHas(f, "PSI memory full", "avg10 12.50%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].VMStat = memCounters("allocstall_normal", 0, "pgscan_direct", 0)
			tl.Samples[i].PSI = []kernel.Pressure{{Resource: "memory", Some: &kernel.PSILine{}, Full: &kernel.PSILine{}}}
		}
		mustBeHealthy(t, run(t, "direct-reclaim-stalls", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "direct-reclaim-stalls", timeline(2)), "allocstall")
	})
}

// A memory pressure entry with neither line parsed, and no allocstall: nothing was read that
// could show stalls, so the result must not be healthy (it was, with an empty text).
func TestDirectReclaimEmptyPSIIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].PSI = []kernel.Pressure{{Resource: "memory"}}
	mustNotCheck(t, run(t, "direct-reclaim-stalls", tl), "allocstall")

	// Only the full line: it is what was checked, and the healthy text says so.
	tl.Samples[0].PSI = []kernel.Pressure{{Resource: "memory", Full: &kernel.PSILine{Avg10: 0.5}}}
	mustBeHealthyNaming(t, run(t, "direct-reclaim-stalls", tl), "PSI memory full")
}

// The kernel's own "page allocation stalls for Nms" warning (4.1x: a request still in direct
// reclaim after 10 s) is measured stall time: direct-reclaim-stalls fires on it without any
// vmstat or PSI (corpus 413, quoted and hard-wrapped as pasted).
func TestDirectReclaimReadsAllocStall(t *testing.T) {
	text := "> Mar 26 12:32:15 monitoring-pi kernel: [126742.472373] python3: page allocation stalls for 10060ms, order:1,\n" +
		">  mode:0x15080c0(GFP_KERNEL_ACCOUNT|__GFP_ZERO), nodemask=(null)\n" +
		"> Mar 26 12:32:15 monitoring-pi kernel: [126742.472401] python3 cpuset=/ mems_allowed=0\n"
	f := mustFire(t, run(t, "direct-reclaim-stalls", pasteTimeline(t, text)), Warning)
	if !evidenceHas(f, "page allocation stalls", "10.1 s: python3, order 1") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// Without any of its inputs the rule still says what it lacks.
	mustNotCheck(t, run(t, "direct-reclaim-stalls", pasteTimeline(t, "hello\n")), "page allocation stalls")
}

// sar -B's pgscand/s (sysstat #343's rows: 141 and 65 pages/s scanned directly, pgscank/s
// 0): allocating tasks reclaimed themselves. Before, the rule had no allocstall and said
// "not checked" with the rate parsed.
func TestDirectReclaimReadsSarPgscand(t *testing.T) {
	tl := timeline(2)
	for i, v := range []float64{141, 65} {
		tl.Samples[i].Rates = model.Rates{model.RatePgscanDirectPerSec: v, model.RatePgscanKswapdPerSec: 0}
	}
	f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Info)
	if !strings.Contains(f.Evidence[0].Value, "peak 141/s") || !strings.Contains(f.Evidence[0].Value, "2 with direct reclaim") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	tl.Samples[1].Rates[model.RatePgscanDirectPerSec] = 5200
	mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning)
	tl = timeline(2)
	for i := range tl.Samples {
		tl.Samples[i].Rates = model.Rates{model.RatePgscanDirectPerSec: 0}
	}
	mustBeHealthy(t, run(t, "direct-reclaim-stalls", tl))
}
