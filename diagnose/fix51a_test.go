package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// fix51a (corpus 4292, 4302, 4314, 4282): a program's own line named unread
// (artifact/fix51aown.go) reaches no finding: no oom-kill, no alloc-fail, no network drop.
func TestFix51aOwnLinesReachNoFinding(t *testing.T) {
	for _, text := range []string{
		"`mail dovecot: master: Warning: Killed with signal 15 (by pid=1 uid=0 code=kill)`\n",
		"```\nLibClamAV Error: Can't load /var/lib/clamav/daily.cvd: Can't allocate memory\nfatal error: Can't allocate memory\n```\n",
		"```\nroot@a6a6b4d3c0fb:/# ros2 run demo_nodes_cpp listener\n[ros2run]: Killed\n```\n",
		"```\nEndpoint UART [7] {\n\tReceived messages {\n\t\tCRC error: 333 0% 62KBytes\n\t\tSequence lost: 45050 14%\n\t\tHandled: 276083 31344KBytes\n\t\tTotal: 321466\n\t}\n}\n```\n",
	} {
		tl, err := artifact.Parse(strings.NewReader(text), "t.txt", artifact.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(tl.Unparsed) == 0 {
			t.Errorf("%q: nothing named unread", text)
		}
		for _, f := range Run(tl, nil).Findings {
			if f.Severity >= Warning {
				t.Errorf("%q: finding %s (%v) from a program's own line", text, f.ID, f.Severity)
			}
		}
	}
}
