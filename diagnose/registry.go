package diagnose

import (
	"fmt"
	"regexp"
	"sort"

	"headroom/model"
)

// Rule is one pathology. It registers itself from its file's init.
type Rule struct {
	ID     string // stable kebab-case id: "tcp-memory-pressure"
	Title  string // one line: what it looks for
	Family string // "memory" or "network"
	Check  func(tl *model.Timeline) Result
}

var (
	registry = map[string]Rule{}
	idRE     = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// Register adds a rule. It panics on a duplicate or malformed id: both are programming errors
// caught by any test run.
func Register(r Rule) {
	if !idRE.MatchString(r.ID) {
		panic(fmt.Sprintf("diagnose: rule id %q is not kebab-case", r.ID))
	}
	if _, dup := registry[r.ID]; dup {
		panic("diagnose: rule registered twice: " + r.ID)
	}
	if r.Check == nil {
		panic("diagnose: rule without Check: " + r.ID)
	}
	registry[r.ID] = r
}

// Rules returns every registered rule sorted by id.
func Rules() []Rule {
	out := make([]Rule, 0, len(registry))
	for _, r := range registry {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Lookup returns the rule with the given id.
func Lookup(id string) (Rule, bool) { r, ok := registry[id]; return r, ok }

// Diagnosis is the outcome of running the registry over a Timeline.
type Diagnosis struct {
	Findings []Finding `json:"findings"`
	Checks   []Check   `json:"checks"`
	// Story is the findings told as cause, chain and first change (story.go).
	Story Story `json:"diagnosis"`
}

// Worst returns the highest severity among the findings, and false when there are none.
func (d Diagnosis) Worst() (Severity, bool) {
	if len(d.Findings) == 0 {
		return Info, false
	}
	w := Info
	for _, f := range d.Findings {
		if f.Severity > w {
			w = f.Severity
		}
	}
	return w, true
}

// Run runs every registered rule not in skip over tl. A rule that panics is reported as not
// checked with the panic, so one broken rule never hides the others' findings.
//
// On a live host the kernel log holds everything since boot. Log records and events older
// than tl.LogCurrentSince are history: the rules run on them separately, and what fires
// only there is reported as info ("logged before this run"), the way rules report
// since-boot counters that did not move while sampled. A rule that fires on current data
// reports that finding alone.
func Run(tl *model.Timeline, skip map[string]bool) Diagnosis {
	d := runCurrentAndHistory(tl, skip)
	trimKernelLimits(d.Findings)
	d.Story = TellDiagnosis(tl, d)
	return d
}

// Retell recomputes the story after the findings changed (placed in time by
// record.PlaceFindings: the edges' time condition reads their intervals).
func (d *Diagnosis) Retell(tl *model.Timeline) { d.Story = TellDiagnosis(tl, *d) }

func runCurrentAndHistory(tl *model.Timeline, skip map[string]bool) Diagnosis {
	cur, hist := tl.SplitHistory()
	d := runRules(cur, skip)
	if hist == nil {
		return d
	}
	fired := map[string]bool{}
	for _, f := range d.Findings {
		fired[f.ID] = true
	}
	for _, f := range runRules(hist, skip).Findings {
		if fired[f.ID] {
			continue
		}
		f.Severity = Info
		f.Title += " (logged before this run)"
		f.Evidence = append(f.Evidence, Evidence{
			What:   "when",
			Value:  "logged before " + tl.LogCurrentSince.Format("2006-01-02 15:04:05") + ", not while sampled",
			Source: "kernel log timestamps (doctor --log-since)",
		})
		f.Changes = nil // history alone does not justify changing the host
		d.Findings = append(d.Findings, f)
		for i := range d.Checks {
			if d.Checks[i].ID == f.ID && d.Checks[i].Status != StatusFinding {
				d.Checks[i] = Check{ID: f.ID, Status: StatusFinding, Why: "in the kernel log before this run only"}
			}
		}
	}
	sort.SliceStable(d.Findings, func(i, j int) bool { return d.Findings[i].Severity > d.Findings[j].Severity })
	return d
}

func runRules(tl *model.Timeline, skip map[string]bool) Diagnosis {
	var d Diagnosis
	for _, r := range Rules() {
		if skip[r.ID] {
			continue
		}
		res := runOne(r, tl)
		switch {
		case len(res.Findings) > 0:
			for i := range res.Findings {
				if res.Findings[i].ID == "" {
					res.Findings[i].ID = r.ID
				}
				for j := range res.Findings[i].Changes {
					if res.Findings[i].Changes[j].Rule == "" {
						res.Findings[i].Changes[j].Rule = res.Findings[i].ID
					}
				}
			}
			d.Findings = append(d.Findings, res.Findings...)
			d.Checks = append(d.Checks, Check{ID: r.ID, Status: StatusFinding})
		case res.NotChecked != "":
			d.Checks = append(d.Checks, Check{ID: r.ID, Status: StatusNotChecked, Why: res.NotChecked})
		default:
			d.Checks = append(d.Checks, Check{ID: r.ID, Status: StatusOK, Why: res.Checked})
		}
	}
	sort.SliceStable(d.Findings, func(i, j int) bool { return d.Findings[i].Severity > d.Findings[j].Severity })
	return d
}

func runOne(r Rule, tl *model.Timeline) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = NotChecked("rule failed: %v (a bug: please report it with the input)", p)
		}
	}()
	return r.Check(tl)
}
