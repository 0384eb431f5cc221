package diagnose

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"headroom/docs"
	"headroom/model"
)

// Every registered rule has its documentation page, and every page a rule.
func TestEveryRuleHasDocs(t *testing.T) {
	ids, err := docs.RuleIDs()
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]bool{}
	for _, id := range ids {
		pages[id] = true
		if _, ok := Lookup(id); !ok && !slices.Contains(HostChecks, id) {
			t.Errorf("docs/rules/%s.md documents no registered rule", id)
		}
	}
	for _, r := range Rules() {
		if !pages[r.ID] {
			t.Errorf("rule %s has no docs/rules/%s.md", r.ID, r.ID)
		}
	}
}

// An empty timeline makes every rule say "not checked" (or healthy where nothing is
// needed), never fire: no rule may read absence as zero.
func TestEmptyTimelineFiresNothing(t *testing.T) {
	d := Run(&model.Timeline{}, nil)
	if len(d.Findings) > 0 {
		t.Fatalf("findings on an empty timeline: %+v", d.Findings)
	}
	for _, c := range d.Checks {
		if c.Status == StatusOK && c.Why == "" {
			t.Errorf("%s reports healthy on no data without saying what it checked", c.ID)
		}
	}
}

func TestRunRecoversFromPanickingRule(t *testing.T) {
	const id = "test-panics"
	registry[id] = Rule{ID: id, Check: func(*model.Timeline) Result { panic("boom") }}
	defer delete(registry, id)
	d := Run(&model.Timeline{}, nil)
	for _, c := range d.Checks {
		if c.ID == id {
			if c.Status != StatusNotChecked {
				t.Fatalf("panicking rule status %v", c.Status)
			}
			return
		}
	}
	t.Fatal("panicking rule missing from checks")
}

// Kernel log lines from before the run are history: reported as info with when they were
// logged, without changes; the same line during the run is current evidence.
func TestLogHistoryIsInfo(t *testing.T) {
	since := t0.Add(-time.Hour)
	mk := func(logged time.Time) *model.Timeline {
		tl := timeline(2)
		tl.LogCurrentSince = since
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "TCP: out of memory -- consider tuning tcp_mem"}.WithTime(logged).WithSource("/dev/kmsg seq 7")})
		return tl
	}
	find := func(d Diagnosis) *Finding {
		for i := range d.Findings {
			if d.Findings[i].ID == "tcp-memory-pressure" {
				return &d.Findings[i]
			}
		}
		return nil
	}
	old := find(Run(mk(since.Add(-time.Minute)), nil))
	if old == nil || old.Severity != Info || !strings.Contains(old.Title, "before this run") || len(old.Changes) != 0 {
		t.Fatalf("old log line: %+v", old)
	}
	if !evidenceHas(*old, "when", "logged before") {
		t.Errorf("old finding does not say when: %+v", old.Evidence)
	}
	cur := find(Run(mk(t0.Add(-time.Minute)), nil))
	if cur == nil || cur.Severity != Critical || strings.Contains(cur.Title, "before this run") {
		t.Fatalf("current log line: %+v", cur)
	}
	during := find(Run(mk(t0.Add(500*time.Millisecond)), nil))
	if during == nil || during.Severity != Critical {
		t.Fatalf("log line while sampled: %+v", during)
	}
	// Issue 27: lines of a lab run 20 minutes earlier made today's doctor critical while
	// sockstat showed 0 pages. Older than LogRecentHorizon, within --log-since: a warning
	// with its age.
	past := find(Run(mk(t0.Add(-21*time.Minute)), nil))
	if past == nil || past.Severity != Warning || !strings.Contains(past.Title, "before this run") {
		t.Fatalf("log line of 21 min ago: %+v", past)
	}
	if !evidenceHas(*past, "when", "last logged 21m before the first sample") {
		t.Errorf("past finding does not say its age: %+v", past.Evidence)
	}
	// No division for pasted text: it has no clock of its own to divide by, every line is
	// current.
	tl := mk(since.Add(-time.Minute))
	tl.LogCurrentSince = time.Time{}
	tl.Source.Kind = model.SourceText
	if f := find(Run(tl, nil)); f == nil || f.Severity != Critical {
		t.Fatalf("undivided log: %+v", f)
	}
	// A recording holds the lines logged while it recorded (current); a line logged before
	// its first sample (a recording made from a capture) is the recent past, as it is when
	// doctor reads the capture itself.
	tl.Source.Kind = model.SourceArchive
	if f := find(Run(tl, nil)); f == nil || f.Severity != Warning {
		t.Fatalf("recording, line before its first sample: %+v", f)
	}
	r := tl.Log.At(0)
	r.SetTime(t0.Add(2 * time.Second))
	tl.Log.Set(0, r)
	if f := find(Run(tl, nil)); f == nil || f.Severity != Critical {
		t.Fatalf("recording, line while recorded: %+v", f)
	}
}

// TestKebabCase: the hand-written test of rule ids agrees with the regexp it replaced.
func TestKebabCase(t *testing.T) {
	re := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	for _, id := range []string{"", "a", "tcp-memory-pressure", "a1-b2", "-a", "a-", "a--b", "A", "a_b", "a b", "é", "0", "a-b-c-d", "-"} {
		if got, want := kebabCase(id), re.MatchString(id); got != want {
			t.Errorf("kebabCase(%q) = %v, the regexp says %v", id, got, want)
		}
	}
	for id := range registry {
		if !kebabCase(id) {
			t.Errorf("registered id %q", id)
		}
	}
}
