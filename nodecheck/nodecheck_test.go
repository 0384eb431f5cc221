package nodecheck

import (
	"strings"
	"testing"
)

func TestLineOneShortLine(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"ok", "ok"},
		{"two\nlines  and\ttabs\n", "two lines and tabs"},
		{strings.Repeat("a", 100), strings.Repeat("a", MaxMessage)},
		// A cut inside a UTF-8 sequence moves back to the rune's start.
		{strings.Repeat("a", 79) + "é" + "b", strings.Repeat("a", 79)},
	} {
		if got := (Result{Message: c.in}).Line(); got != c.want || len(got) > MaxMessage {
			t.Errorf("%q: %q", c.in, got)
		}
	}
}

func TestChecksNamedOnce(t *testing.T) {
	seen := map[string]bool{}
	conds := map[string]bool{}
	for _, c := range Checks() {
		if seen[c.Name] || conds[c.Condition] {
			t.Errorf("check %s or condition %s twice", c.Name, c.Condition)
		}
		seen[c.Name], conds[c.Condition] = true, true
		if c.Reason == "" || c.OKReason == "" || c.OKMessage == "" || c.run == nil {
			t.Errorf("check %s incomplete: %+v", c.Name, c)
		}
		if got, ok := Lookup(c.Name); !ok || got.Condition != c.Condition {
			t.Errorf("Lookup(%s)", c.Name)
		}
	}
	if _, ok := Lookup("nope"); ok {
		t.Error("Lookup(nope) found something")
	}
}
