package judge

import (
	"fmt"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/model"
)

// PlaceFindings places the findings of d in time on a timeline whose samples have clock
// times (a recording, a live run, a lab run): it re-runs each fired rule on sliding
// windows of the timeline and sets Finding.When to the span from the first to the last
// window in which the rule fired again, adding an evidence line that lists the separate
// stretches. Rules stay pure functions of a Timeline and never learn about windows; the
// placement is the same for every source.
//
// A finding that fires on the whole timeline but in no window (it compares phases that
// no window holds together, or rests on an event without a clock time) keeps When nil:
// "when" is then the whole recording, and the report says nothing more precise.
//
// Cost: at most maxWindows windows per fired rule, each a sub-slice of the samples (no
// copy); on a 24 h recording at 1 s that is 1000 runs of each fired rule over 2 minutes
// of samples (docs/record.md has the measured time).
func PlaceFindings(tl *model.Timeline, d *diagnose.Diagnosis) {
	// Only a recording spans enough time for "from ... to ..." to say something: a live
	// doctor run covers its own few seconds, and pasted tables have no clock.
	if tl.Source.Kind != model.SourceArchive {
		return
	}
	n := len(tl.Samples)
	if n < 3 || tl.Samples[0].Time.IsZero() || tl.Samples[n-1].Time.IsZero() || len(d.Findings) == 0 {
		return
	}
	w, step := windowSize(n)
	type run struct{ a, b int } // sample indexes, inclusive
	placed := map[string][]run{}
	done := map[string]bool{}
	for _, f := range d.Findings {
		if f.When != nil || done[f.ID] {
			continue
		}
		done[f.ID] = true
		rule, ok := diagnose.Lookup(f.ID)
		if !ok {
			continue // a finding id that is not a rule id (a rule with several ids)
		}
		var runs []run
		for a := 0; a < n; a += step {
			b := min(a+w, n) - 1
			if b-a < 1 {
				break
			}
			if firesIn(rule, Sub(tl, a, b), f.ID) {
				if k := len(runs) - 1; k >= 0 && a <= runs[k].b+1 {
					runs[k].b = b
				} else {
					runs = append(runs, run{a, b})
				}
			}
			if b == n-1 {
				break
			}
		}
		placed[f.ID] = runs
	}
	for i := range d.Findings {
		f := &d.Findings[i]
		runs := placed[f.ID]
		if f.When != nil || len(runs) == 0 {
			continue
		}
		from, to := tl.Samples[runs[0].a].Time, tl.Samples[runs[len(runs)-1].b].Time
		f.When = &diagnose.Interval{From: from, To: to}
		var parts []string
		for k, r := range runs {
			if k == 4 {
				parts = append(parts, fmt.Sprintf("and %d more", len(runs)-4))
				break
			}
			parts = append(parts, clock(tl.Samples[r.a].Time)+"–"+clock(tl.Samples[r.b].Time))
		}
		span := tl.Samples[min(w, n)-1].Time.Sub(tl.Samples[0].Time).Round(time.Second)
		f.Evidence = append(f.Evidence, diagnose.Evidence{
			What:   "when it held",
			Value:  strings.Join(parts, ", "),
			Source: fmt.Sprintf("rule re-run on %s windows of the %s", span, tl.Source.Kind),
		})
	}
}

// maxWindows bounds the rule runs per fired rule.
const maxWindows = 1000

// windowSize picks the window (samples) and step: a thirtieth of the timeline, at least 5
// samples (rates need two; sustained conditions a few) and at most 120 (2 minutes at 1 s),
// moved a third of a window at a time, or further when that would exceed maxWindows.
func windowSize(n int) (w, step int) {
	w = min(max(n/30, 5), 120, n)
	step = max(1, w/3, (n+maxWindows-1)/maxWindows)
	return w, min(step, w)
}

func clock(t time.Time) string { return t.Format("15:04:05") }

func firesIn(r diagnose.Rule, tl *model.Timeline, id string) (fired bool) {
	defer func() {
		if recover() != nil {
			fired = false
		}
	}()
	res := r.Check(tl)
	for _, f := range res.Findings {
		if f.ID == "" || f.ID == id {
			return true
		}
	}
	return false
}
