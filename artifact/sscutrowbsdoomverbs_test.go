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

// fix32c (corpus 2791): FreeBSD's sonewconn record and netstat -aL name the text as
// FreeBSD's, and the record is read since fix55b (it was listed unread). Counter-cases: the words in prose
// only, and a Linux text (its kernel release read) that quotes the record, stay Linux.
func TestFix32cBSDListenOverflowOtherOS(t *testing.T) {
	rec := "sonewconn: pcb 0xffffa00002ce3000 (0.0.0.0:443 (proto 6)): Listen queue overflow: 1 already in queue awaiting acceptance (4 occurrences), euid 0, rgid 0, jail 0\n"
	for _, c := range []struct {
		name, text string
		other      bool
	}{
		{"record in a FreeBSD post", "# httpd on FreeBSD\n\nThis error in /var/log/messages:\n```\n" + rec + "```\n", true},
		{"netstat -aL", "# q\n\n```\n# netstat -aL | grep http\ntcp4  0/0/128   *.https\n```\n", true},
		{"prose only", "# q\n\nWe saw a listen queue overflow on port 443 and raised the backlog.\n", false},
		{"Linux text quoting it", "[    0.000000] Linux version 5.15.0-91-generic (buildd@lcy02) (gcc 11.4.0) #101-Ubuntu SMP\n" +
			"[ 1234.5] TCP: request_sock_TCP: Possible SYN flooding on port 443. Sending cookies.  Check SNMP counters.\n\nOn FreeBSD this would read: " + rec, false},
	} {
		tl := ParseString(c.text, "t.txt", Options{})
		if got := tl.Host.OtherOS != ""; got != c.other {
			t.Errorf("%s: OtherOS %q, want other=%v", c.name, tl.Host.OtherOS, c.other)
		}
		if c.name == "record in a FreeBSD post" {
			// fix55b: the record is read (kernel.ParseBSDListenOverflow, listen-overflow
			// judges it), and the text is still FreeBSD's.
			if tl.Log.Len() != 1 || len(tl.Unparsed) > 0 {
				t.Errorf("%s: record not read: %d log records, unparsed %+v", c.name, tl.Log.Len(), tl.Unparsed)
			}
		}
	}
}
