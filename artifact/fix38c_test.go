package artifact

import (
	"strings"
	"testing"
)

// fix38c: a modem driver's MTU drop line (length in hex), the OpenSSH client's banner-exchange
// close, and a JVM git server's unpack status naming the Java heap are named as unread with
// what they prove. Counter-cases: sentences that only name the words, other forms.
func TestFix38cNamed(t *testing.T) {
	for _, c := range []struct{ text, word string }{
		{"net wwan0: drop skb_len=58c larger than mtu=1400\n", "0x58c = 1420 bytes"},
		{"qmi_wwan_q 1-1:1.4 wwan0: drop skb_len=5dc larger than mtu=1500\n", "0x5dc = 1500 bytes"},
		{"```\ngit clone ssh://git@example.org/a/b.git ssh_exchange_identification: Connection closed by remote host\n```\n", "MaxStartups"},
		{"kex_exchange_identification: read: Connection reset by peer\n", "MaxStartups"},
		{"Writing objects: 100% (82/82), 112.65 MiB | 2.44 MiB/s, done.\nerror: unpack failed: error Java heap space\n", "-Xmx"},
	} {
		tl := ParseString(c.text, "t", Options{})
		found := false
		for _, u := range tl.Unparsed {
			if strings.Contains(u.Why, c.word) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: unparsed %+v: want named (%s)", c.text, tl.Unparsed, c.word)
		}
		checkAccount(t, tl)
	}
	for _, s := range []string{
		"I keep seeing drop skb_len errors on wwan0, is the MTU too small?",
		"net wwan0: drop skb_len=zz larger than mtu=1400",
		"net wwan0: drop skb_len=58c larger than mtu=big",
		"drop qmap unknow pkt, len=1420, pkt_len=1400",
	} {
		if why, ok := wwanMTUDropLine(s); ok {
			t.Errorf("%q: named %q, want not", s, why)
		}
	}
	for _, s := range []string{
		"I get ssh_exchange_identification errors when many clones run at once",
		"foo_exchange_identification: Connection closed by remote host",
		"ssh_exchange_identification: read: Connection timed out",
	} {
		if why, ok := connResetLine(s); ok {
			t.Errorf("%q: named %q, want not", s, why)
		}
	}
	for _, s := range []string{
		"error: unpack failed: index-pack abnormal exit",
		"the push failed with Java heap space, raise -Xmx",
	} {
		if why, ok := appHostLine(s); ok {
			t.Errorf("%q: named %q, want not", s, why)
		}
	}
}

// fix38c: a size figure after a usage verb states a program's memory; counter-cases: the verb
// with a count or a version, a size figure with no memory word or verb.
func TestFix38cUsageVerbFigure(t *testing.T) {
	for _, c := range []struct {
		text string
		want bool
	}{
		{"ModemManager is running in sys-net by default and it uses 10MB+ (which is significant given default 300MB for sys-net).", true},
		{"the daemon is consuming 2GB after a week", true},
		{"the installer uses 4 threads and 2 steps", false},
		{"it uses version 10 of the library", false},
		{"the download is 300MB", false},
	} {
		if got := statesDomainFigure(c.text); got != c.want {
			t.Errorf("%q: statesDomainFigure %v, want %v", c.text, got, c.want)
		}
	}
}
