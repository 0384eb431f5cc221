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
	if ids, err := tune.Critical(&model.Timeline{}); err != nil || len(ids) != 0 {
		t.Fatalf("healthy window: %v %v", ids, err)
	}
	// One recording per window, for the guards and the judge alike: counters that grow at
	// a constant rate, so no guard can trip; the rules' evidence from the window.
	windows := 0
	record := func(ctx context.Context, window, interval time.Duration) (tune.Window, error) {
		windows++
		if window != 4*time.Second || interval != time.Second {
			t.Errorf("recorded %s every %s", window, interval)
		}
		w := tune.Window{Timeline: &model.Timeline{}}
		if v, _ := (tune.ProcSys{Dir: dir}).Read("net.core.somaxconn"); v == "8192" {
			w.Timeline = failing
		}
		for range 4 {
			w.Intervals = append(w.Intervals, model.Rates{tune.RateTCPPrune: 0, model.RateTCPRetransPerSec: 1,
				model.RateTCPOutSegsPerSec: 100, tune.RateIPInOctets: 1e6, tune.RateIPOutOctets: 1e6})
		}
		return w, nil
	}
	v := &tune.Verifier{Window: 4 * time.Second, Interval: time.Second, Judge: tune.Critical, Record: record}
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
	if windows != 2 {
		t.Errorf("%d windows recorded, want the baseline and the after window", windows)
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

	// A recording that fails is an error of the window: nothing is changed.
	v.Record = func(context.Context, time.Duration, time.Duration) (tune.Window, error) {
		return tune.Window{}, errors.New("/proc/vmstat: permission denied")
	}
	e, _, _, err = v.ApplyVerified(context.Background(), a, rb, []model.Change{change})
	if err == nil || e != nil || !strings.Contains(err.Error(), "baseline window, nothing was changed: reading the host: /proc/vmstat") {
		t.Errorf("%v %+v", err, e)
	}
}
