package main

import (
	"fmt"
	"time"
)

// The CPU check (one case may not cost much more than a typical one) has to hold on a
// shared machine. A case's CPU time there is its own work times what the machine makes of
// it at that moment: steal time of a busy hypervisor host and cache contention inflated
// every case of one CI run two to five times (1.5 KB texts at 100–230 ms that take 30–60 ms
// on a quiet machine), so an absolute limit, even on the least of three runs, failed runs
// whose code was fine. The cure is the one benchmarks use: judge the case against a
// reference measured at the same moment on the same machine.
//
// A case whose first run is within -max-cpu passes at once (no extra runs on a quiet
// machine). One over it is re-run in pairs with the reference case, the reference first;
// it counts as over only when its least time is above -max-cpu-ratio times the reference's
// least time over the same pairs. The pairs stop as soon as the case is within the ratio.
//
// A burst of load can outlast four pairs (half a second) and fall on the case's runs more
// than on the reference's: a CI run with both CPUs burning measured corpus 6310 at 6.3× a
// reference it takes 4–5.3× of on a quiet machine. So a case still over after the pairs
// gets a second round of them after a pause, its least times kept from the first; a
// regression is over in both.

const (
	cpuPairs  = 4               // the most reference-and-case pairs in one round
	cpuRounds = 2               // rounds of pairs, cpuPause apart
	cpuPause  = 2 * time.Second // long enough for a test binary's burst to pass
)

// cpuJudge holds what a case's CPU time is judged against.
type cpuJudge struct {
	limit   time.Duration                            // a first run within it passes
	ratio   float64                                  // the most a case may cost per unit of the reference
	ref     string                                   // the reference case's text
	measure func(path string) (time.Duration, error) // one run's CPU time (user+system)
	pause   func()                                   // between rounds; time.Sleep(cpuPause)
}

// cpuVerdict is what the check made of one case.
type cpuVerdict struct {
	Least time.Duration // the least CPU time the case took
	Ref   time.Duration // the reference's least time beside it; 0 when it was not needed
	Over  bool
}

func (v cpuVerdict) String() string {
	if v.Ref == 0 {
		return v.Least.Round(time.Millisecond).String()
	}
	return fmt.Sprintf("%v, %.1f× the reference case's %v beside it", v.Least.Round(time.Millisecond),
		float64(v.Least)/float64(v.Ref), v.Ref.Round(time.Millisecond))
}

// judge decides on a case whose first run took first.
func (j cpuJudge) judge(path string, first time.Duration) (cpuVerdict, error) {
	v := cpuVerdict{Least: first}
	if first <= j.limit {
		return v, nil
	}
	for round := range cpuRounds {
		if round > 0 && j.pause != nil {
			j.pause()
		}
		for range cpuPairs {
			r, err := j.measure(j.ref)
			if err != nil {
				return v, fmt.Errorf("the CPU reference %s: %w", j.ref, err)
			}
			if v.Ref == 0 || r < v.Ref {
				v.Ref = r
			}
			c, err := j.measure(path)
			if err != nil {
				return v, err
			}
			v.Least = min(v.Least, c)
			if float64(v.Least) <= j.ratio*float64(v.Ref) {
				return v, nil
			}
		}
	}
	v.Over = true
	return v, nil
}

// refText is the text of the corpus case named stem, the CPU reference.
func refText(cases []corpusCase, stem string) (string, error) {
	for _, c := range cases {
		if c.Stem == stem {
			return c.TextPath, nil
		}
	}
	return "", fmt.Errorf("the CPU reference case %q is not in the corpus (-cpu-ref names another)", stem)
}
