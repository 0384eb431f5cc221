package lab

import (
	"context"
	"testing"
	"time"

	"headroom/internal/contention"
	"headroom/lab/netlab/netlabtest"
)

// Tests in this file build real namespaces and need root. They keep every measurement short
// (a few seconds each; 84 s for the package on an idle 2-core VM) and leave headroom in their windows
// for a busy 2-core VM.

// needRoot and pair are netlabtest's, under the names this package's tests use.
var (
	needRoot = netlabtest.NeedRoot
	pair     = netlabtest.Pair
)

// TestLongFatPipe is the acceptance: on seed 004's path the seed's buffers and this
// kernel's own 4 MiB send buffer leave the link idle, and the headroom plan fills it.
func TestLongFatPipe(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("lab: long-fat-pipe comparison takes about a minute; skipped with -short")
	}
	sc, err := LookupScenario("long-fat-pipe")
	if err != nil {
		t.Fatal(err)
	}
	meter := contention.Start()
	run := func(rate uint64, set string) *RunResult {
		t.Helper()
		cases, err := sc.Cases(Overrides{RateBitsPerSec: rate, Streams: 1})
		if err != nil || len(cases) != 1 {
			t.Fatalf("cases: %v, %v", cases, err)
		}
		s, ok := LookupSettings(set)
		if !ok {
			t.Fatalf("no settings set %q", set)
		}
		r, err := RunCase(context.Background(), sc, cases[0], s, RunOptions{Progress: func(m string) { t.Log(m) }})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s at %s: %.1f Mbit/s, RTT %.1f ms, %d retransmits, peak %d pages, tcp_rmem %q tcp_wmem %q",
			set, FormatRate(rate), r.ThroughputMbps, r.Params.MeasuredRTTMs, r.Retransmits, r.PeakTCPMemPages, r.Params.TCPRmem, r.Params.TCPWmem)
		return r
	}
	// best of two for the "reaches" assertions: a busy VM only lowers throughput.
	best := func(rate uint64, set string, lo float64) float64 {
		got := run(rate, set).ThroughputMbps
		if got < lo {
			got = max(got, run(rate, set).ThroughputMbps)
		}
		return got
	}
	if got := run(100e6, "fermilab").ThroughputMbps; got >= 60 {
		t.Errorf("fermilab at 100 Mbit/s, 1 stream: %.1f Mbit/s, want < 60", got)
	}
	if got := best(100e6, "headroom", 85); got < 85 {
		meter.Fail(t, "headroom at 100 Mbit/s, 1 stream: %.1f Mbit/s, want ≥ 85", got)
	}
	if got := run(1e9, "kernel-default").ThroughputMbps; got >= 300 {
		t.Errorf("kernel-default at 1 Gbit/s, 1 stream: %.1f Mbit/s, want < 300 (4 MiB tcp_wmem max)", got)
	}
	if got := best(1e9, "headroom", 800); got < 800 {
		meter.Fail(t, "headroom at 1 Gbit/s, 1 stream: %.1f Mbit/s, want ≥ 800 (80%% of the shaped rate)", got)
	}
}

// TestManyFlowsShareABottleneck is issue 35's property on one small row: 64 flows through
// 300 Mbit/s over 20 ms (a share of 8 segments each) on a 256 MiB host. The headroom set
// gives them a loss-based congestion control, keeps its own sockets within the plan's TCP
// budget, and retransmits no larger share of its segments than the kernel's default set
// measured in the same test, with a margin of 1 percentage point (the issue's "plus 1% of
// segments"). Its verdict compares two runs of this test, never an absolute rate, and the
// budget is judged on the run's own sockets (SO_MEMINFO), not on the machine's.
func TestManyFlowsShareABottleneck(t *testing.T) {
	needRoot(t)
	if testing.Short() {
		t.Skip("lab: two 64-flow transfers take about 30 s; skipped with -short")
	}
	sc, err := LookupScenario("long-fat-pipe")
	if err != nil {
		t.Fatal(err)
	}
	cases, err := sc.Cases(Overrides{RateBitsPerSec: 300e6, RTT: 20 * time.Millisecond, Streams: 64,
		MemoryBytes: 256 << 20, Warmup: 2 * time.Second, Measure: 4 * time.Second})
	if err != nil || len(cases) != 1 {
		t.Fatalf("cases: %v, %v", cases, err)
	}
	meter := contention.Start()
	run := func(set string) *RunResult {
		t.Helper()
		s, ok := LookupSettings(set)
		if !ok {
			t.Fatalf("no settings set %q", set)
		}
		r, err := RunCase(context.Background(), sc, cases[0], s, RunOptions{Progress: func(m string) { t.Log(m) }})
		if err != nil {
			t.Fatal(err)
		}
		if r.DataSegmentsOut == 0 {
			t.Fatalf("%s: no data segments counted", set)
		}
		t.Logf("%s: %.1f Mbit/s, %d of %d segments retransmitted (%.2f%%), own sockets' peak %d pages of the budget %d, cc %s",
			set, r.ThroughputMbps, r.Retransmits, r.DataSegmentsOut, 100*retransmitRatio(r), r.PeakSocketMemPages, r.BudgetPages, r.Params.CongestionControl)
		return r
	}
	def := run("kernel-default")
	hr := run("headroom")
	if hr.Params.CongestionControl != "cubic" {
		t.Errorf("headroom's flows ran %q, want cubic: 64 flows of 8 segments each are many (plan.ManyFlows)", hr.Params.CongestionControl)
	}
	if hr.PeakSocketMemPages > hr.BudgetPages {
		t.Errorf("headroom's own sockets peaked at %d pages, over the budget %d", hr.PeakSocketMemPages, hr.BudgetPages)
	}
	if rd, rh := retransmitRatio(def), retransmitRatio(hr); rh > rd+0.01 {
		meter.Fail(t, "headroom retransmitted %.2f%% of its segments, the kernel default %.2f%%: want at most 1 point more", 100*rh, 100*rd)
	}
}

// retransmitRatio is the share of a run's data segments that were retransmissions.
func retransmitRatio(r *RunResult) float64 {
	if r.DataSegmentsOut == 0 {
		return 0
	}
	return float64(r.Retransmits) / float64(r.DataSegmentsOut)
}
