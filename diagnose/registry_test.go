package diagnose

import (
	"testing"

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
		if _, ok := Lookup(id); !ok {
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
