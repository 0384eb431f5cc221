package diagnose

import (
	"strings"
	"testing"
)

// fix50a: the stated out-of-memory's evidence names who states it: RouterOS's own log line
// (corpus 4143), not the author; the author's sentence stays "stated by the author". Both
// stay warnings cited at their line.
func TestFix50aStatedOOMNamesItsSource(t *testing.T) {
	for _, c := range []struct{ text, value, src string }{
		{"Периодически роутер перезагружается:\n2024-11-13 09:57:40 system,error,critical router was rebooted without proper shutdown, probably kernel failure\n2024-11-13 09:57:41 system,error,critical out of memory condition was detected\n",
			"stated by RouterOS's own log line, not the author;", "line 3 "},
		{"Our router ran out of memory last night and rebooted.\n", "stated by the author;", "line 1 "},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "oom-kill")
		if f == nil || f.Severity != Warning || len(f.Evidence) == 0 || !strings.HasPrefix(f.Evidence[0].Value, c.value) || !strings.HasPrefix(f.Evidence[0].Source, c.src) {
			t.Errorf("%q: oom-kill %+v, want a warning %q at %q", c.text, f, c.value, c.src)
		}
	}
	// a question about RouterOS's line: no finding
	d, _ := rootOf(t, "What does RouterOS mean by out of memory condition was detected in the log?\n")
	if f := findingOf(d, "oom-kill"); f != nil {
		t.Errorf("a question: oom-kill %+v, want none", f)
	}
}
