package artifact

import (
	"fmt"
	"strings"
	"testing"
)

// Round 10's reliability fixes (fix15c), each on a snippet written for its class.

// An inline code span a post spread over several lines of a pasted log: one backtick before
// the first line and one after the last, with syslog lines inside (corpus 1402). Both
// backticks are markup (stripOpenCode): the last line, a usual syslog line, must lose its
// closing backtick as the first loses its opening one, on the fast path (stripUsualSyslog)
// as on the general steps and in the reference splitter.
func TestCodeSpanOverSyslogLines(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"`warning: so-rcvbuf 4194304 was not granted\n" +
			"May 25 21:25:02 pihole1 unbound[3684]: [1621995902] unbound[3684:0] warning: so-sndbuf 4194304 was not granted`\n",
			[]string{"warning: so-rcvbuf 4194304 was not granted",
				"[1621995902] unbound[3684:0] warning: so-sndbuf 4194304 was not granted"}},
		{"`Aug  4 17:42:34 web1 kernel: [ 1234.567890] e1000: eth0: Reset adapter\n" +
			"Aug  4 17:42:35 web1 kernel: [ 1235.000001] e1000: eth0: NIC Link is Up 1000 Mbps Full Duplex ` \n",
			[]string{"e1000: eth0: Reset adapter", "e1000: eth0: NIC Link is Up 1000 Mbps Full Duplex"}},
	} {
		ls := SplitLines(c.text)
		if len(ls) != len(c.want) {
			t.Fatalf("%q: %d lines, want %d", c.text, len(ls), len(c.want))
		}
		for k, l := range ls {
			if l.Text != c.want[k] {
				t.Errorf("%q: line %d = %q, want %q", c.text, k+1, l.Text, c.want[k])
			}
		}
		if !ls[len(ls)-1].Syslog {
			t.Errorf("%q: the last line is not read as a syslog line", c.text)
		}
		if got, want := fmt.Sprintf("%#v", ls), fmt.Sprintf("%#v", refSplitLines(c.text)); got != want {
			t.Errorf("%q: SplitLines differs from the reference:\n got  %s\n want %s", c.text, got, want)
		}
	}
	// A pair on the line (`cmd` in a sentence) is no open span: the line keeps it.
	const pair = "May 25 21:25:02 pihole1 unbound[3684]: run `sysctl -w net.core.rmem_max=4194304`"
	if l := SplitLines(pair)[0]; !strings.HasSuffix(l.Text, "4194304`") || !l.Syslog {
		t.Errorf("%q read as %q", pair, l.Text)
	}
}
