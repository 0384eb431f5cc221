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

// ifconfig output a page flattened into a paragraph and a mail client wrapped, with the
// kernel log going on right after it, no blank line between: the paragraph ends at the
// first log record, whose lines are logged, and the streamed parse (its window ends after
// tailLines quiet kernel lines) reads it as the whole-text loop does.
func TestWrappedParagraphEndsAtLog(t *testing.T) {
	q := quietLines(10)
	para := "Output of ifconfig: eth0 Link encap:Ethernet  HWaddr 00:0C:29:3B:5F:41 inet addr:192.0.2.10\n" +
		"Bcast:192.0.2.255  Mask:255.255.255.0 UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1\n" +
		"RX packets:9876543 errors:12 dropped:3456 overruns:3400 frame:0 TX packets:8765432\n" +
		"errors:0 dropped:0 overruns:0 carrier:0 collisions:0 txqueuelen:1000\n"
	text := q + "\n" + para + q // (a line right after a kernel line may be a wrapped piece of it: unwrapLast)
	defer func(c, b int) { windowChunk, maxBlockLines = c, b }(windowChunk, maxBlockLines)
	windowChunk = 4
	sameAsWhole(t, "wrapped ifconfig paragraph before a log", text)
	tl := ParseString(text, "t", Options{})
	if n := tl.Log.Len(); n != 20 {
		t.Errorf("%d kernel records logged, want the 20 around the paragraph", n)
	}
	found := false
	for _, a := range tl.Artifacts {
		if a.Kind != KindIfconfig {
			continue
		}
		found = true
		if a.FirstLine != 12 || a.LastLine != 15 {
			t.Errorf("ifconfig read from lines %d-%d, want the paragraph's 12-15", a.FirstLine, a.LastLine)
		}
	}
	if !found {
		t.Error("the wrapped paragraph's ifconfig block was not read")
	}
	if v, ok := ifaceCounter(text, "eth0", "rx_fifo_errors"); !ok || v != 3400 {
		t.Errorf("eth0 rx_fifo_errors = %d (%v), want 3400", v, ok)
	}
}

// A chat client's inline code around each line of a quoted paste ("`> [ 12.3] ...`",
// forms10b): the span comes off before the quoting is read (unwrapLineCode), in the
// reference splitter as in the real one (FuzzSplitLines found the reference reading the
// quote marks as text: "`>`").
func TestLineCodeAroundQuoteIsReference(t *testing.T) {
	for _, c := range []struct {
		line, text string
		quote      int
	}{
		{"`> [   12.345678] eth0: page allocation failure: order:0, mode:0x20`", "eth0: page allocation failure: order:0, mode:0x20", 1},
		{"``> Node 0 DMA: 1*4kB = 4kB``", "Node 0 DMA: 1*4kB = 4kB", 1},
		{"    `>> RX errors 0  dropped 198`  ", "RX errors 0  dropped 198", 2},
		{"`>`", "", 1},
	} {
		ls := SplitLines(c.line)
		if len(ls) != 1 || ls[0].Text != c.text || ls[0].Quote != c.quote {
			t.Errorf("%q read as %#v, want %q quoted %d deep", c.line, ls, c.text, c.quote)
		}
		if got, want := fmt.Sprintf("%#v", ls), fmt.Sprintf("%#v", refSplitLines(c.line)); got != want {
			t.Errorf("%q: SplitLines differs from the reference:\n got  %s\n want %s", c.line, got, want)
		}
	}
}
