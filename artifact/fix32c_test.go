package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix32c: round 27's cases 2790 (ss -ltn whose last row is cut after the local address)
// and 2778 (the OOM killer's work in a colloquial verb). The lines are the cases' own form;
// the counter-cases must not change.

func fix32cListeners(tl *model.Timeline) map[string][2]int64 {
	out := map[string][2]int64{}
	for _, s := range tl.Samples {
		for _, k := range s.SocketList {
			if k.State == "LISTEN" {
				out[k.Local+" "+k.Remote] = [2]int64{k.RecvQ, k.SendQ}
			}
		}
	}
	return out
}

func TestFix32cSSRowCutAfterLocal(t *testing.T) {
	hdr := "Netid   State    Recv-Q   Send-Q    Local Address:Port   Peer Address:Port   Process\n"
	for _, c := range []struct {
		name, text string
		want       map[string][2]int64
	}{
		{"netid, last row cut", hdr +
			"tcp     LISTEN   0        80000     0.0.0.0:443          0.0.0.0:*\n" +
			"tcp     LISTEN   80001    80000     0.0.0.0:443\n",
			map[string][2]int64{"0.0.0.0:443 0.0.0.0:*": {0, 80000}, "0.0.0.0:443 ": {80001, 80000}}},
		{"no netid, last row cut, then a blank line", "State  Recv-Q Send-Q Local Address:Port Peer Address:Port\n" +
			"LISTEN 0      128    *:22               *:*\n" +
			"LISTEN 129    128    [::]:8080\n\nmore prose\n",
			map[string][2]int64{"*:22 *:*": {0, 128}, "[::]:8080 ": {129, 128}}},
		// counter-cases: a short row in the middle is no cut row (the table ends there, as before)
		{"short row mid-table", hdr +
			"tcp     LISTEN   0        80000     0.0.0.0:443          0.0.0.0:*\n" +
			"tcp     LISTEN   80001    80000     0.0.0.0:443\n" +
			"tcp     LISTEN   0        80000     0.0.0.0:80           0.0.0.0:*\n",
			map[string][2]int64{"0.0.0.0:443 0.0.0.0:*": {0, 80000}}},
		// the local column is no address with a port
		{"no port", hdr +
			"tcp     LISTEN   0        80000     0.0.0.0:443          0.0.0.0:*\n" +
			"tcp     LISTEN   80001    80000     sockets\n",
			map[string][2]int64{"0.0.0.0:443 0.0.0.0:*": {0, 80000}}},
		// a sentence with the words of a row
		{"sentence", hdr +
			"tcp     LISTEN   0        80000     0.0.0.0:443          0.0.0.0:*\n" +
			"tcp     LISTEN   many     80000     0.0.0.0:443\n",
			map[string][2]int64{"0.0.0.0:443 0.0.0.0:*": {0, 80000}}},
	} {
		got := fix32cListeners(ParseString(c.text, "t.txt", Options{}))
		if len(got) != len(c.want) {
			t.Errorf("%s: got %v, want %v", c.name, got, c.want)
			continue
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%s: %q got %v, want %v", c.name, k, got[k], v)
			}
		}
	}
}

func TestFix32cOOMKillerColloquialVerb(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"From time to time the OOM killer zaps some check process, even those that do not really use that much memory.\n", true},
		{"Last night the oom-killer nuked mysqld again.\n", true},
		{"The OOM killer shot down the JVM twice this week.\n", true},
		// counter-cases: a mechanism, a condition, a negation, a question, another word
		{"If the OOM killer zaps the agent, systemd restarts it.\n", false},
		{"The OOM killer should never zap sshd.\n", false},
		{"Does the OOM killer zap processes with oom_score_adj -1000?\n", false},
		{"No, the OOM killer did not zap anything; the process exited on its own.\n", false},
		{"We zap the cache before each OOM test run.\n", false},
	} {
		tl := ParseString("# t\n\n"+c.text, "t.txt", Options{})
		if got := statedOOM(tl); got != c.want {
			t.Errorf("%q: stated OOM %v, want %v", strings.TrimSpace(c.text), got, c.want)
		}
	}
}
