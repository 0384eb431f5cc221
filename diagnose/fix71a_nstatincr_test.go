package diagnose

import (
	"strconv"
	"strings"
	"testing"

	"headroom/artifact"
)

// fix71a (corpus 6180, 6865): nstat without -a prints each counter's increment since its
// previous run (iproute2 misc/nstat.c subtracts its history file), not the count since boot.
// A bare `nstat` table is judged as that increment and says so; `nstat -az` stays since
// boot; rows with no command line say both. Two bare runs: the second is itself the growth
// between them, so 600 of 30000 is 2% (differencing the two would make it 5%).
func TestNstatIncrementsAreNotSinceBoot(t *testing.T) {
	rows := func(out, re int) string {
		return "#kernel\nTcpOutSegs                      " + strconv.Itoa(out) + "             0.0\nTcpRetransSegs                  " + strconv.Itoa(re) + "              0.0\n"
	}
	for _, tc := range []struct {
		name, text string
		want       Severity
		has, not   string
	}{
		{"bare nstat", "$ nstat\n" + rows(853316, 94247), Warning, "since nstat's previous run", "since boot"},
		{"nstat -az", "$ nstat -az\n" + rows(853316, 94247), Warning, "since boot", "previous run"},
		{"nstat -s", "$ sudo nstat -s | grep Tcp\n" + rows(853316, 94247), Warning, "since nstat's previous run", "since boot"},
		{"no command", "Here are the counters:\n\n" + rows(853316, 94247), Warning, "since boot, or since nstat's previous run", "\x00"},
		{"two runs", "$ nstat\n" + rows(20000, 100) + "\n$ nstat\n" + rows(30000, 600), Warning, "600 / 30000 = 2.0%", "since boot"},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		d := Run(tl, nil)
		var got *Finding
		for i := range d.Findings {
			if d.Findings[i].ID == "retransmit-rate" {
				got = &d.Findings[i]
			}
		}
		if got == nil {
			t.Errorf("%s: no retransmit-rate among %v", tc.name, ids(d))
			continue
		}
		all := got.Title
		for _, e := range got.Evidence {
			all += " | " + e.What + ": " + e.Value
		}
		if got.Severity != tc.want || !strings.Contains(all, tc.has) || strings.Contains(all, tc.not) {
			t.Errorf("%s: %v %s\nwant %v with %q, without %q", tc.name, got.Severity, all, tc.want, tc.has, tc.not)
		}
	}
}
