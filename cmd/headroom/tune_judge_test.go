package main

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"headroom/input"
	"headroom/model"
	"headroom/plan"
	"headroom/tune"
)

// The judge of tune --verify is doctor's rules over a recorded window: a window whose
// evidence holds page allocation failures of GFP_ATOMIC skbuff allocations (corpus 042)
// after the change, and none before, rolls the change back by the new critical findings,
// although every counter guard stayed the same.
func TestTuneJudgeRollsBackOnNewCriticalFinding(t *testing.T) {
	dir := fakeProcSys(t, tuneVals)
	text := func(path string) *model.Timeline {
		tl, err := input.Open(context.Background(), path, input.Options{Kind: input.Text})
		if err != nil {
			t.Fatal(err)
		}
		return tl
	}
	failing := text("../../testdata/corpus/042-slub-skbuff-head-cache-2node-gfp-atomic.txt")
	windows := 0
	record := func(ctx context.Context, window, interval time.Duration) (*model.Timeline, error) {
		windows++
		if window != 4*time.Second || interval != time.Second {
			t.Errorf("recorded %s every %s", window, interval)
		}
		if v, _ := (tune.ProcSys{Dir: dir}).Read("net.core.somaxconn"); v == "8192" {
			return failing, nil
		}
		return &model.Timeline{}, nil
	}
	judge := tuneJudge(record)
	ids, err := judge(context.Background(), 4*time.Second, time.Second)
	if err != nil || len(ids) != 0 {
		t.Fatalf("healthy window: %v %v", ids, err)
	}

	// Counters that grow at a constant rate: no guard can trip.
	now := time.Date(2026, 11, 26, 12, 0, 0, 0, time.UTC)
	n := 0.0
	v := &tune.Verifier{Window: 4 * time.Second, Interval: time.Second, Judge: judge,
		Now:   func() time.Time { return now },
		Sleep: func(_ context.Context, d time.Duration) error { now = now.Add(d); n++; return nil },
		Sample: func(context.Context) (tune.Sample, error) {
			return tune.Sample{"TcpExt.PruneCalled": 0, "TcpExt.RcvPruned": 0, "TcpExt.TCPRcvQDrop": 0, "Tcp.RetransSegs": n,
				"Tcp.OutSegs": 100 * n, "IpExt.InOctets": 1e6 * n, "IpExt.OutOctets": 1e6 * n}, nil
		}}
	j, err := tune.OpenJournal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer j.Close()
	open := func(string) (tune.SysctlFS, func(), error) { return tune.ProcSys{Dir: dir}, func() {}, nil }
	a := &tune.Applier{FS: tune.ProcSys{Dir: dir}, Journal: j, Limits: plan.Limits{MemTotalKB: 16 << 20, PageSizeBytes: 4096}}
	rb := &tune.Rollbacker{Journal: j, OpenFS: open, Limits: a.Limits}
	change := model.Change{Kind: model.ChangeSysctl, Key: "net.core.somaxconn", Recommended: "8192", Why: "accept queue", Rule: "test"}
	e, _, ver, err := v.ApplyVerified(context.Background(), a, rb, []model.Change{change})
	if err != nil || e == nil || ver == nil {
		t.Fatalf("%v %+v %+v", err, e, ver)
	}
	if windows != 3 {
		t.Errorf("the judge recorded %d windows, want the baseline and the after window", windows-1)
	}
	if ver.Decision != "rolled-back" || e.State != tune.StateRolledBack || readProcSys(t, dir, "net.core.somaxconn") != "4096" {
		t.Fatalf("decision %s, entry %s, somaxconn %s", ver.Decision, e.State, readProcSys(t, dir, "net.core.somaxconn"))
	}
	want := "new critical finding: alloc-fail-reserve, slab-alloc-failure after the change"
	if len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], want) {
		t.Errorf("tripped %q, want %q", ver.Tripped, want)
	}
	for _, f := range ver.Figures {
		if f.Guard != "critical-findings" && f.Verdict == "worse" {
			t.Errorf("guard %s tripped on constant counters: %s", f.Guard, f.Describe())
		}
	}

	// A recording that fails is an error of the judge, which --verify reports as not measured.
	bad := tuneJudge(func(context.Context, time.Duration, time.Duration) (*model.Timeline, error) {
		return nil, errors.New("/proc/vmstat: permission denied")
	})
	if ids, err := bad(context.Background(), time.Second, time.Second); err == nil || ids != nil ||
		!strings.Contains(err.Error(), "recording the window for the rules: /proc/vmstat") {
		t.Errorf("%v %v", ids, err)
	}
}
