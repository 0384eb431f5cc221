package main

import (
	"strings"
	"testing"
	"time"
)

// loadedMachine fakes a machine whose contention multiplies every run's CPU time by a
// factor that changes from run to run, as steal time does; cost is each text's own work.
func loadedMachine(cost map[string]time.Duration, factors ...float64) (func(string) (time.Duration, error), *int) {
	runs := 0
	return func(path string) (time.Duration, error) {
		f := factors[runs%len(factors)]
		runs++
		return time.Duration(f * float64(cost[path])), nil
	}, &runs
}

func TestCPUJudge(t *testing.T) {
	cost := map[string]time.Duration{
		"ref":   20 * time.Millisecond,
		"heavy": 60 * time.Millisecond,  // 3× the reference: a heavy but normal case
		"slow":  400 * time.Millisecond, // 20× the reference: a regression
	}
	for _, tc := range []struct {
		name     string
		path     string
		first    time.Duration
		factors  []float64
		wantOver bool
		maxRuns  int
	}{
		// Quiet machine, first run within the limit: no re-run at all.
		{"quiet", "heavy", 60 * time.Millisecond, []float64{1}, false, 0},
		// Every run three times dearer: the heavy case is over the absolute limit but
		// within the ratio, decided by the first pair.
		{"loaded", "heavy", 180 * time.Millisecond, []float64{3}, false, 2},
		// The load changes between runs: least times on each side still decide.
		{"bursty", "heavy", 230 * time.Millisecond, []float64{1, 4, 2, 5, 1, 1, 3, 2}, false, 8},
		// A regression is over on a quiet machine and on a loaded one.
		// A burst that falls on the case's runs for a whole round (the reference's runs
		// are the even ones): the round after the pause decides.
		{"burst over a round", "heavy", 360 * time.Millisecond, []float64{1, 6, 1, 6, 1, 6, 1, 6, 1, 1}, false, 2*cpuPairs + 2},
		// A regression is over on a quiet machine and on a loaded one, in every round.
		{"regression quiet", "slow", 400 * time.Millisecond, []float64{1}, true, 2 * cpuPairs * cpuRounds},
		{"regression loaded", "slow", 1200 * time.Millisecond, []float64{3, 2, 4}, true, 2 * cpuPairs * cpuRounds},
	} {
		t.Run(tc.name, func(t *testing.T) {
			measure, runs := loadedMachine(cost, tc.factors...)
			pauses := 0
			j := cpuJudge{limit: 100 * time.Millisecond, ratio: 5, ref: "ref", measure: measure, pause: func() { pauses++ }}
			v, err := j.judge(tc.path, tc.first)
			if err != nil {
				t.Fatal(err)
			}
			if v.Over != tc.wantOver {
				t.Errorf("over = %v, want %v (%v)", v.Over, tc.wantOver, v)
			}
			if *runs > tc.maxRuns {
				t.Errorf("%d extra runs, want at most %d", *runs, tc.maxRuns)
			}
			if v.Least > tc.first {
				t.Errorf("least %v above the first run %v", v.Least, tc.first)
			}
			if want := min(1, max(0, *runs-2*cpuPairs)); pauses != want {
				t.Errorf("%d pauses after %d runs, want %d", pauses, *runs, want)
			}
		})
	}
}

// The measure that runs the binary: a first sample inflated past any real run (an hour)
// gives way to the re-runs, and a missing binary is an error, not a pass.
func TestCPUJudgeRunsTheBinary(t *testing.T) {
	j := cpuJudge{limit: 100 * time.Millisecond, ratio: 5, ref: "ref.txt", measure: func(p string) (time.Duration, error) {
		r, err := runDoctor("/bin/true", p)
		return r.CPU, err
	}}
	v, err := j.judge("unused.txt", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if v.Least >= time.Second || v.Over {
		t.Errorf("judge = %v, want the re-runs' time (well under 1 s) and not over", v)
	}
	j.measure = func(p string) (time.Duration, error) {
		r, err := runDoctor("/nonexistent/headroom", p)
		return r.CPU, err
	}
	if _, err := j.judge("unused.txt", time.Hour); err == nil || !strings.Contains(err.Error(), "reference") {
		t.Errorf("judge with a missing binary: err = %v, want the reference run's error", err)
	}
}

func TestRefTextNamesAMissingReference(t *testing.T) {
	cases := []corpusCase{{Stem: "002-a", TextPath: "x/002-a.txt"}}
	if p, err := refText(cases, "002-a"); err != nil || p != "x/002-a.txt" {
		t.Errorf("refText = %q, %v", p, err)
	}
	if _, err := refText(cases, "003-b"); err == nil || !strings.Contains(err.Error(), "-cpu-ref") {
		t.Errorf("refText of a missing case: err = %v", err)
	}
}
