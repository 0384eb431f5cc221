package artifact

import (
	"fmt"
	"strings"
	"testing"
)

// The line-prefix forms of round 10 (forms10a): what a chat, a log multiplexer, dmesg's
// own options, a paste site's gutter and a page's HTML put before or after each line of a
// paste (internal/accuracy/forms_test.go applies them to the corpus). Each test failed
// before its change.

// lineTexts is the text of each line SplitLines makes of text.
func lineTexts(text string) []string {
	var out []string
	for _, l := range SplitLines(text) {
		out = append(out, l.Text)
	}
	return out
}

// A chat or IRC log's "HH:MM <nick> " and "[HH:MM] <nick> " (irssi's default log, HexChat's
// and Element's copy) before the kernel's lines: the stamp after them is the record's.
func TestChatStampPrefix(t *testing.T) {
	for _, p := range []string{"12:03 <jdoe> ", "[12:03] <jdoe> ", "[12:03:45] <j_doe> ", "12:03:45 <jdoe> "} {
		ls := SplitLines(p + "[ 2764.683565] Node 0 DMA32 free:249524kB min:2384kB low:4696kB high:7008kB\n" +
			p + "TCP: out of memory -- consider tuning tcp_mem\n")
		if len(ls) != 2 || ls[0].UptimeUsec != 2764683565 || !strings.HasPrefix(ls[0].Text, "Node 0 DMA32") ||
			ls[1].Text != "TCP: out of memory -- consider tuning tcp_mem" {
			t.Errorf("%q: %+v", p, ls)
		}
	}
	// A sentence that starts with a time is no chat line.
	if got := lineTexts("12:03 the host stopped answering <ping> replies\n"); got[0] != "12:03 the host stopped answering <ping> replies" {
		t.Errorf("prose read as chat: %q", got)
	}
}

// docker compose logs' "NAME  | " (compose v2 "service-1", v1 "project_service_1"; an
// empty line of the container is the prefix alone) and stern's "POD CONTAINER ".
func TestMultiplexerPrefix(t *testing.T) {
	got := lineTexts("netmon-1  | [ 2764.683565] lowmem_reserve[]: 0 0 61795 61795\nnetmon-1  | \nweb_db_1 | RX packets 12 dropped 3\n" +
		"npd-x2b9k npd [ 2764.683567] Node 0 Normal free:124kB min:10088kB\nnpd-x2b9k npd\n")
	want := []string{"lowmem_reserve[]: 0 0 61795 61795", "", "RX packets 12 dropped 3", "Node 0 Normal free:124kB min:10088kB", ""}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	// Not a multiplexer: a table's cells, a word that is no replica or pod, prose.
	for _, s := range []string{"rx_dropped | 1234", "eth0  | up", "well-known issue with the driver", "kube-proxy-abcde kube-proxy started", "br-bf2c7 1500 71 0 0 0 85 0 0 0 BMRU"} {
		if got := lineTexts(s + "\n"); got[0] != s {
			t.Errorf("%q read as %q", s, got[0])
		}
	}
}

// dmesg -H's "[Nov29 12:00] " on a minute's first record: a kernel line like the
// "[  +0.000123] " deltas after it.
func TestDmesgHumanMinuteStamp(t *testing.T) {
	ls := SplitLines("[Nov29 12:00] Node 0 Normal free:124kB min:10088kB low:12608kB high:15132kB\n[  +0.000006] lowmem_reserve[]: 0 0 0 0\n")
	if !ls[0].Kernel || ls[0].Stamp != "Nov29 12:00" || !strings.HasPrefix(ls[0].Text, "Node 0 Normal") {
		t.Errorf("%+v", ls[0])
	}
}

// A paste site's gutters: "  1 | " (a code viewer's rule) and "001: " (zero-padded, which
// outgrows its padding at 100).
func TestGutterBarAndZeroPadded(t *testing.T) {
	var bar, zero, want strings.Builder
	for i := 1; i <= 120; i++ {
		line := "Node 0 DMA: 1*4kB 1*8kB = 12kB"
		switch {
		case i%7 == 0:
			line = ""
		case i == 1 || i == 110:
			line = "Speed: 1000Mb/s" // a line ip -o link's "1: lo: " looks like
		}
		want.WriteString(line + "\n")
		bar.WriteString(fmt.Sprintf("%3d | %s", i, line) + "\n")
		fmt.Fprintf(&zero, "%03d: %s\n", i, line)
	}
	if got := stripLineGutters(bar.String()); got != want.String() {
		t.Errorf("bar gutter:\n%s", got[:200])
	}
	if got := stripLineGutters(zero.String()); got != want.String() {
		t.Errorf("zero-padded gutter:\n%s", got[:200])
	}
	// A Markdown table whose first column counts its rows keeps it.
	table := "1 | eth0 | 12 |\n2 | eth1 | 13 |\n3 | eth2 | 14 |\n"
	if got := stripLineGutters(table); got != table {
		t.Errorf("table read as a gutter: %q", got)
	}
}

// A page's source: "<br>" ending each line, the paste in "<pre>...</pre>".
func TestHTMLLineTags(t *testing.T) {
	got := lineTexts("<pre>[ 2764.683565] lowmem_reserve[]: 0 0 0 0<br>\n<br>\nRX packets 12<br />\nlast line</pre>\n")
	want := []string{"lowmem_reserve[]: 0 0 0 0", "", "RX packets 12", "last line"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q\nwant %q", got, want)
	}
	if !titleBlank("<br>") {
		t.Error("a line of '<br>' alone under a title is a blank line")
	}
}

// A chat's copy: the author and the time on the line above the message (Slack, Discord);
// the message's first line is a title as a post's is.
func TestChatAuthorLineAboveTitle(t *testing.T) {
	for _, h := range []string{"Jane Doe  12:03 PM", "jdoe — Today at 12:03 PM", "Jane Doe  9:41"} {
		if !chatAuthorLine(h) {
			t.Errorf("%q is a chat's author line", h)
		}
		text := h + "\nValidator oom-kill\n\nNode 0 Normal: 924*4kB (UME) 814*8kB (UME) 585*16kB (UME) = 19384kB\n"
		if !statesOOM(text) {
			t.Errorf("%q: the title under the chat's author line is not read", h)
		}
	}
	for _, s := range []string{"eth0 up since 12:03", "eth0: link up at 12:03", "[  12.345] 12:03 PM"} {
		if chatAuthorLine(s) {
			t.Errorf("%q read as a chat's author line", s)
		}
	}
}
