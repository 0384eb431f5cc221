package diagnose

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"headroom/model"
)

// Family is the domain a rule belongs to; a rule's file name carries the matching prefix
// (mem_, net_). Its value is printed by `headroom explain` and in the alert descriptions.
type Family string

// The families. A rule file named mem_*.go registers FamilyMemory rules, net_*.go
// FamilyNetwork rules.
const (
	FamilyMemory  Family = "memory"
	FamilyNetwork Family = "network"
)

// Rule is one pathology. It registers itself from its file's init.
type Rule struct {
	ID     string // stable kebab-case id: "tcp-memory-pressure"
	Title  string // one line: what it looks for
	Family Family
	Check  func(tl *model.Timeline) Result
}

var (
	registry = map[string]Rule{}
)

// kebabCase reports whether id is words of [a-z0-9] joined by single hyphens
// (^[a-z0-9]+(-[a-z0-9]+)*$), tested by hand: Register runs in the initialisers of every
// command, and a regexp here would be compiled on every start (internal/lazyre).
func kebabCase(id string) bool {
	if id == "" || id[0] == '-' || id[len(id)-1] == '-' {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && id[i-1] != '-':
		default:
			return false
		}
	}
	return true
}

// Register adds a rule. It panics on a duplicate or malformed id: both are programming errors
// caught by any test run.
func Register(r Rule) {
	if !kebabCase(r.ID) {
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

// HostChecks are finding ids that doctor adds outside the registry, because they read the
// host's own state rather than the Timeline: settings-drifted compares headroom tune's
// journal with /proc/sys and the boot files (cmd/headroom/tune_status.go). They have rule
// pages like the rules.
var HostChecks = []string{"settings-drifted"}

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
// The kernel log has a present and a past (docs/architecture.md), and this is the one
// place that judges it, for every rule that reads it (logTiers):
//   - records logged while sampled or within LogRecentHorizon before the first sample are
//     the present: what fires on them keeps its severity;
//   - older records back to tl.LogCurrentSince (doctor --log-since, 1 h) are the recent
//     past: what fires only with them is a warning at most, with their age ("logged 21m
//     before the first sample, none in the 5m before it nor while sampled");
//   - records older than tl.LogCurrentSince are history: what fires only there is info,
//     without changes, the way rules report since-boot counters that did not move while
//     sampled.
func Run(tl *model.Timeline, skip map[string]bool) Diagnosis {
	d := runCurrentAndHistory(tl, skip)
	trimKernelLimits(d.Findings)
	dropAbsentSysctls(tl, d.Findings)
	d.Story = tellFinished(tl, d)
	return d
}

// LogRecentHorizon is how long before the first sample a kernel-log record still counts as
// the present: a failure logged a few minutes before doctor ran is most likely the one the
// operator is looking at (a burst of allocation failures and the stall they cause last
// minutes, and the kernel rate-limits the messages, net_ratelimit: 10 per 5 s). Older records
// are the recent past (warning at most) or history (info).
const LogRecentHorizon = 5 * time.Minute

// logRecentSince returns the start of the log's present for tl: LogRecentHorizon before its
// first timed sample, never earlier than LogCurrentSince; zero when the timeline has no
// clock to divide by (pasted text) or no timed sample.
func logRecentSince(tl *model.Timeline) time.Time {
	if tl.Source.Kind == model.SourceText {
		return time.Time{}
	}
	first := firstSampleTime(tl)
	if first.IsZero() {
		return time.Time{}
	}
	at := first.Add(-LogRecentHorizon)
	if !tl.LogCurrentSince.IsZero() && at.Before(tl.LogCurrentSince) {
		at = tl.LogCurrentSince
	}
	return at
}

func firstSampleTime(tl *model.Timeline) time.Time {
	for _, s := range tl.Samples {
		if !s.Time.IsZero() {
			return s.Time
		}
	}
	return time.Time{}
}

// Retell recomputes the story after the findings changed (placed in time by
// judge.PlaceFindings: the edges' time condition reads their intervals).
func (d *Diagnosis) Retell(tl *model.Timeline) { d.Story = tellFinished(tl, *d) }

// tellFinished is the story without the steps whose sysctl the host's kernel lacks
// (absent_sysctl.go).
func tellFinished(tl *model.Timeline, d Diagnosis) Story {
	s := TellDiagnosis(tl, d)
	DropAbsentSteps(tl, &s)
	s.NotRead = notRead(tl, d.Checks)
	return s
}

func runCurrentAndHistory(tl *model.Timeline, skip map[string]bool) Diagnosis {
	cur, hist := tl.SplitHistory()
	now, past := cur, (*model.Timeline)(nil)
	if at := logRecentSince(tl); !at.IsZero() {
		now, past = cur.SplitLogAt(at)
		if past != nil {
			past = cur // the recent past is judged with the present: rules that count records count them all
		}
	}
	d := runRules(now, skip)
	fired := map[string]bool{}
	for _, f := range d.Findings {
		fired[f.ID] = true
	}
	if past != nil {
		var added []string
		for _, f := range runRules(past, skip).Findings {
			if fired[f.ID] {
				continue
			}
			if f.Severity > Warning {
				f.Severity = Warning
			}
			f.Title += " (logged before this run)"
			f.Evidence = append(f.Evidence, Evidence{
				What:   "when",
				Value:  pastAge(tl, cur, logRecentSince(tl)),
				Source: "kernel log timestamps (doctor --log-since; present: " + humanAge(LogRecentHorizon) + " before the first sample and while sampled)",
			})
			d.Findings = append(d.Findings, f)
			added = append(added, f.ID)
		}
		for _, id := range added {
			fired[id] = true
			markFromLog(&d, id, "in the kernel log of the last "+humanAge(firstSampleTime(tl).Sub(tl.LogCurrentSince))+", not in its last "+humanAge(LogRecentHorizon))
		}
	}
	if hist == nil {
		sort.SliceStable(d.Findings, func(i, j int) bool { return d.Findings[i].Severity > d.Findings[j].Severity })
		return d
	}
	for _, f := range runRules(hist, skip).Findings {
		if fired[f.ID] {
			continue
		}
		f.Severity = Info
		f.Title += " (logged before this run)"
		f.Evidence = append(f.Evidence, Evidence{
			What:   "when",
			Value:  "logged before " + tl.LogCurrentSince.Format("2006-01-02 15:04:05") + ", not while sampled" + historyAge(tl, hist),
			Source: "kernel log timestamps (doctor --log-since)",
		})
		f.Changes = nil // history alone does not justify changing the host
		d.Findings = append(d.Findings, f)
		markFromLog(&d, f.ID, "in the kernel log before this run only")
	}
	sort.SliceStable(d.Findings, func(i, j int) bool { return d.Findings[i].Severity > d.Findings[j].Severity })
	return d
}

// markFromLog records in the checks that a rule fired on older kernel-log records.
func markFromLog(d *Diagnosis, id, why string) {
	for i := range d.Checks {
		if d.Checks[i].ID == id && d.Checks[i].Status != StatusFinding {
			d.Checks[i] = Check{ID: id, Status: StatusFinding, Why: why}
		}
	}
}

// pastAge says when the recent past's records were logged: "logged 21m before the first
// sample (newest line of that span); none in the 5m before it nor while sampled".
func pastAge(tl, cur *model.Timeline, at time.Time) string {
	var newest time.Time
	if _, older := cur.SplitLogAt(at); older != nil {
		newest = newestLogged(older)
	}
	first := firstSampleTime(tl)
	v := "logged before the last " + humanAge(LogRecentHorizon) + " before the first sample"
	if !newest.IsZero() && !first.IsZero() {
		v = "last logged " + humanAge(first.Sub(newest)) + " before the first sample (the newest line older than " + humanAge(LogRecentHorizon) + ")"
	}
	return v + "; not within " + humanAge(LogRecentHorizon) + " before it nor while sampled: a warning at most"
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
				weighStated(&res.Findings[i])
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

// StatedMark is what a source says when its numbers come from a sentence of the input, not a
// counter (artifact/stated.go).
const StatedMark = model.StatedMark

// weighStated keeps a finding that rests only on numbers a person wrote in prose below
// critical and says so: a sentence is weaker evidence than a counter. Done here once, so no
// rule needs to know where its numbers came from.
func weighStated(f *Finding) {
	if len(f.Evidence) == 0 {
		return
	}
	if foreignOnly(f) {
		// Another machine's numbers (a quote, a test box, a slide about other machines) are
		// context: they say nothing of this host's state (issue 29).
		f.Severity = Info
		f.Title += " (" + model.ForeignMark + ", not this host's)"
		f.Facts.Foreign = true
		return
	}
	// At least one number must be stated: a finding resting on a live counter alone
	// (/proc/vmstat's oom_kill since boot) is no sentence's.
	stated := false
	for _, e := range f.Evidence {
		switch {
		case strings.Contains(e.Source, StatedMark):
			stated = true
		case strings.HasPrefix(e.Source, "host facts: "):
			// The host's size (MemTotal), the basis a stated figure is divided by: it
			// measures nothing of the problem ("SUnreclaim is 2.3 GB" on a 4 GB system).
		case e.Source != "not in the input" && !strings.HasPrefix(e.Source, "kernel ") && !strings.HasPrefix(e.Source, "/proc/vmstat"):
			return
		}
	}
	if !stated {
		return
	}
	if f.Severity > Warning {
		f.Severity = Warning
	}
	f.Title += " (" + StatedMark + ")"
}

// foreignOnly: the finding rests on another machine's numbers and on nothing of this host's
// (its other evidence is computed, a kernel fact or a threshold).
func foreignOnly(f *Finding) bool {
	foreign := false
	for _, e := range f.Evidence {
		switch {
		case strings.Contains(e.Source, model.ForeignMark):
			foreign = true
		case e.Source == "not in the input", e.Source == "computed", strings.HasPrefix(e.Source, "kernel "),
			strings.HasPrefix(e.Source, "thresholds"), strings.HasPrefix(e.Source, "/proc/vmstat"),
			// The host's size or NICs a figure is judged against ("host facts: MemTotal",
			// memory-fragmented's "host NICs / input" for the order needed): a basis, no
			// measurement of the problem (as in weighStated below).
			strings.HasPrefix(e.Source, "host "):
		default:
			return false
		}
	}
	return foreign
}

// historyAge says how old the newest history record or event is, measured to the first
// sample (else to LogCurrentSince): "; newest line 3d4h59m before the first sample".
func historyAge(tl, hist *model.Timeline) string {
	newest := newestLogged(hist)
	if newest.IsZero() {
		return ""
	}
	ref, what := tl.LogCurrentSince, "--log-since"
	for _, s := range tl.Samples {
		if !s.Time.IsZero() {
			ref, what = s.Time, "the first sample"
			break
		}
	}
	return fmt.Sprintf("; newest line %s before %s", humanAge(ref.Sub(newest)), what)
}

// newestLogged is the clock time of tl's newest log record or event, zero when none has one.
func newestLogged(tl *model.Timeline) time.Time {
	var newest time.Time
	for _, r := range tl.Log.All() {
		if r.Time().After(newest) {
			newest = r.Time()
		}
	}
	for _, e := range tl.Events {
		if e.Time.After(newest) {
			newest = e.Time
		}
	}
	return newest
}

// humanAge writes a duration in days, hours and minutes: "3d4h59m", "2h0m", "5m".
func humanAge(d time.Duration) string {
	m := int64(d.Round(time.Minute) / time.Minute)
	if m < 0 {
		return "0m"
	}
	days, hours, mins := m/(24*60), m/60%24, m%60
	switch {
	case days > 0:
		return fmt.Sprintf("%dd%dh%dm", days, hours, mins)
	case hours > 0:
		return fmt.Sprintf("%dh%dm", hours, mins)
	}
	return fmt.Sprintf("%dm", mins)
}
