package artifact

import (
	"fmt"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The forms of issue 29's metamorphic test (internal/accuracy/forms_test.go), each on a
// minimal line, with the lines that look alike and must stay as they are.
func TestSplitLinesUndoesForms(t *testing.T) {
	for _, c := range []struct {
		name, raw, text string
		quote           int
		stamped         bool
		priority        int
	}{
		// Zero-width spaces of chat and wiki copy.
		{"zero-width", "\u200bNode 0 Normal free:\u200b1234kB min:\u200b56kB", "Node 0 Normal free:1234kB min:56kB", 0, false, -1},
		// HTML entities: quoting, a priority, quotes of ss.
		{"html-quote", "&gt; [  624.862777] ksoftirqd/0: page allocation failure: order:0", "ksoftirqd/0: page allocation failure: order:0", 1, true, -1},
		{"html-priority", "&lt;4&gt;[  12.500000] swapper/0: page allocation failure", "swapper/0: page allocation failure", 0, true, 4},
		{"html-quot", "users:((&quot;nginx&quot;,pid=1,fd=6))", `users:(("nginx",pid=1,fd=6))`, 0, false, -1},
		{"html-url-kept", "see https://example.org/?a=1&amp;b=2&gt;3 for more", "see https://example.org/?a=1&amp;b=2&gt;3 for more", 0, false, -1},
		{"ampersand-kept", "tx & rx: 5 &c", "tx & rx: 5 &c", 0, false, -1},
		// A wrapper around a quoted line.
		{"cri-quote", "2024-01-01T00:00:00.000000000Z stdout F > [    1.000000] oom-kill:constraint=CONSTRAINT_NONE", "oom-kill:constraint=CONSTRAINT_NONE", 1, true, -1},
		// Quoting behind an indent or a list marker.
		{"indented-quote", "    > [    1.000000] Mem-Info:", "Mem-Info:", 1, true, -1},
		{"bullet-quote", "- >> Mem-Info:", "Mem-Info:", 2, false, -1},
		{"indented-gt-kept", "    a > b", "    a > b", 0, false, -1},
		{"arrow-kept", "  -> 5 packets", "  -> 5 packets", 0, false, -1},
		// List markers.
		{"bullet", "- TCPBacklogDrop: 12", "TCPBacklogDrop: 12", 0, false, -1},
		{"star", "* Node 0 DMA: 1*4kB 2*8kB = 20kB", "Node 0 DMA: 1*4kB 2*8kB = 20kB", 0, false, -1},
		{"numbered", "1. MemTotal:        8041528 kB", "MemTotal:        8041528 kB", 0, false, -1},
		{"numbered-paren", "12) RX packets:7657 errors:0 dropped:228", "RX packets:7657 errors:0 dropped:228", 0, false, -1},
		{"negative-kept", "-1 is not a marker", "-1 is not a marker", 0, false, -1},
		{"rule-kept", "--- a/sysctl.conf", "--- a/sysctl.conf", 0, false, -1},
		{"diff-minus-kept", "-    00008e78 00000000", "-    00008e78 00000000", 0, false, -1},
		{"buddy-kept", "*4kB", "*4kB", 0, false, -1},
		{"decimal-kept", "1. 2 3 4", "1. 2 3 4", 0, false, -1},
		// A log indented as a Markdown code block, under prefixes the indent hid.
		{"indented-long-month", "    June 29 14:06:59 dkcphmx12 kernel: oom-killer: gfp_mask=0xd2", "oom-killer: gfp_mask=0xd2", 0, false, -1},
		{"indented-local-weekday", "    [四 3月 18 18:47:12 2021] Task in /kubepods killed", "Task in /kubepods killed", 0, false, -1},
		{"indented-word-kept", "    Junebug 29 things", "    Junebug 29 things", 0, false, -1},
		// A dmesg stamp without brackets behind the kernel tag.
		{"bare-stamp", "kernel: 4.708000 swapper: page allocation failure: order:0", "swapper: page allocation failure: order:0", 0, true, -1},
		{"bare-number-kept", "kernel: 4.7 GB free", "kernel: 4.7 GB free", 0, false, -1},
		{"untagged-number-kept", "4.708000 swapper: x", "4.708000 swapper: x", 0, false, -1},
	} {
		ls := SplitLines(c.raw)
		if len(ls) != 1 {
			t.Errorf("%s: %d lines, want 1", c.name, len(ls))
			continue
		}
		l := ls[0]
		if l.Text != c.text || l.Quote != c.quote || (l.UptimeUsec >= 0) != c.stamped || l.Priority != c.priority {
			t.Errorf("%s: %q read as text %q quote %d stamp %d priority %d; want %q quote %d stamped %v priority %d",
				c.name, c.raw, l.Text, l.Quote, l.UptimeUsec, l.Priority, c.text, c.quote, c.stamped, c.priority)
		}
	}
}

// TestFormsReachTheReport: a whole report in three of the forms is read as the plain one.
func TestFormsReachTheReport(t *testing.T) {
	plain := "[  624.862777] ksoftirqd/0: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n" +
		"[  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0 #1\n"
	for name, text := range map[string]string{
		"html":     "&gt; [  624.862777] ksoftirqd/0: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n&gt; [  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0 #1\n",
		"indented": "    > [  624.862777] ksoftirqd/0: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n    > [  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0 #1\n",
		"zw":       "\u200b[  624.862777] ksoftirqd/0: page allocation failure: order:\u200b0, mode:\u200b0x2080020(GFP_ATOMIC)\n\u200b[  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0 #1\n",
	} {
		want := allocFailures(ParseString(plain, "plain", Options{}))
		got := allocFailures(ParseString(text, name, Options{}))
		if want != "order 0 mode 0x2080020" || got != want {
			t.Errorf("%s: allocation failure %q, plain text gives %q", name, got, want)
		}
	}
}

// allocFailures names the allocation failures of a Timeline's events.
func allocFailures(tl *model.Timeline) string {
	var out []string
	for _, e := range tl.Events {
		if a := e.AllocFailure; a != nil {
			out = append(out, fmt.Sprintf("order %d mode %#x", a.Order, a.ModeValue))
		}
	}
	return strings.Join(out, "; ")
}

// Padding that an editor turned into tabs (unexpand -a): the kernel release after the taint
// flags, and show_mem's per-CPU lines, are read as with spaces.
func TestTabsForPadding(t *testing.T) {
	for _, line := range []string{
		"CPU: 5 PID: 1361 Comm: sManagerService Tainted: G\t      W       4.1.18-g1234 #1",
		"CPU: 5 PID: 1361 Comm: sManagerService Tainted: G        W       4.1.18-g1234 #1",
	} {
		if m := reTainted.FindStringSubmatch(line); m == nil || m[1] != "4.1.18-g1234" {
			t.Errorf("%q: kernel %v, want 4.1.18-g1234", line, m)
		}
	}
	for _, s := range []string{"CPU\t 0: hi:  186, btch:  31 usd: 208", "CPU    0: hi:  186, btch:  31 usd: 208"} {
		if k := showMemKind(s); k != "percpu" {
			t.Errorf("%q is %q, want percpu", s, k)
		}
	}
	if k := showMemKind("CPUs\t0: hi: 1, btch: 1"); k == "percpu" {
		t.Errorf("a word that starts with CPU read as a per-CPU line")
	}
}

// A kernel message named in a sentence that a mail client wrapped is read as the one line
// was (messageAcrossWrap); a hypothetical one and rows of numbers are not.
func TestMessageAcrossWrap(t *testing.T) {
	logged := func(text string) string {
		var out []string
		for _, r := range ParseString(text, "p", Options{}).Log.All() {
			out = append(out, r.Message)
		}
		return strings.Join(out, "; ")
	}
	for _, c := range []struct{ text, want string }{
		{"I would like just to consider chance that 'Out of\nsocket memory' is the possible issue here due I see that in dmesg when crash happens.\n", "Out of socket memory"},
		{"The kernel keeps printing\n\"TCP: too many orphaned sockets\" and then the service stops answering.\n", "too many orphaned sockets"},
		{"If the buffers run out, you may see 'Out of\nsocket memory' in dmesg later on.\n", ""},
		{"eth0 1234 0 0\neth1 5678 0 0\n", ""},
	} {
		got := logged(c.text)
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: logged %q, want %q", c.text, got, c.want)
		}
	}
}

// A reply that quotes the whole post quotes its title too, and a paste fenced whole opens
// with the fence: the title that names an OOM stays the title (corpus 741, 742, 756 under
// the forms quote-mail, quote-mail-2, quote-mail-trimmed and code-fence; before, the quoted
// blank line (">") and the fence's opening line were lines of another kind, and the OOM
// the title states was lost).
func TestTitleNamesOOMInForms(t *testing.T) {
	body := "Node 0 Normal: 924*4kB (UME) 814*8kB (UME) 585*16kB (UME) = 19384kB\n"
	quote := func(prefix, text string) string {
		var b strings.Builder
		for _, l := range strings.SplitAfter(text, "\n") {
			if l != "" {
				b.WriteString(strings.TrimRight(prefix+l, " \n") + "\n")
			}
		}
		return b.String()
	}
	plain := "Validator oom-kill\n\n" + body
	for name, text := range map[string]string{
		"quoted":         quote("> ", plain),
		"quoted-twice":   quote(">> ", plain),
		"quoted-spaced":  strings.ReplaceAll(quote("> ", plain), ">\n", "> \n"),
		"fenced":         "```\n" + plain + "```\n",
		"fenced-lang":    "```text\n" + plain + "```\n",
		"fenced-tilde":   "~~~\n" + plain + "~~~\n",
		"quoted-fenced":  quote("> ", "```\n"+plain+"```\n"),
		"fenced-heading": "```\n## Out of memory on the build host\n" + body + "```\n",
	} {
		if !statesOOM(text) {
			t.Errorf("%s: no stated OOM in %q", name, text)
		}
	}
	// Counter-cases: a quoted title with quoted text right under it, a quoted question, a
	// fence's opening line that holds more than a language word, a fence below another
	// line, a fenced title with no blank line under it.
	for name, text := range map[string]string{
		"quoted-no-gap":     quote("> ", "Validator oom-kill\n"+body),
		"quoted-question":   quote("> ", "How does the OOM killer choose its victim?\n\n"+body),
		"fence-with-words":  "``` see the log below\nValidator oom-kill\n\n" + body + "```\n",
		"fence-under-line":  "Hi all\n```\nValidator oom-kill\n\n" + body + "```\n",
		"fenced-no-gap":     "```\nValidator oom-kill\n" + body + "```\n",
		"quoted-text-above": "> Hi all\n> Validator oom-kill\n>\n> " + body,
	} {
		if statesOOM(text) {
			t.Errorf("%s: read as a stated OOM: %q", name, text)
		}
	}
}

// /proc/pagetypeinfo under `unexpand -a` (the form spaces-to-tabs; corpus 860): "Node    0,
// zone" becomes "Node\t0, zone" and the rows are the table's all the same. Before, the table
// ended at the first tabbed row and another reader took the rows for buddy lists, a healthy
// zone's "critical fragmented".
func TestTabbedPageTypeInfo(t *testing.T) {
	const spaced = "Page block order: 9\nPages per block:  512\n\n" +
		"Free pages count per migrate type at order       0      1      2      3\n" +
		"Node    0, zone   Normal, type    Unmovable     66    160    177     31\n" +
		"Node    0, zone   Normal, type      Movable     10 >100000  70473   3338\n" +
		"Node    0, zone   Normal, type  Reclaimable    994    603    162     16\n\n" +
		"Number of blocks type     Unmovable      Movable  Reclaimable\n" +
		"Node 0, zone   Normal          841        29689          702\n"
	tabbed := strings.ReplaceAll(spaced, "Node    0", "Node\t0")
	want := one(t, ParseString(spaced, "p", Options{}), KindPageTypeInfo).(*kernel.PageTypeInfo)
	tl := ParseString(tabbed, "p", Options{})
	got := one(t, tl, KindPageTypeInfo).(*kernel.PageTypeInfo)
	if len(got.Free) != 3 || len(want.Free) != 3 || !got.Free[1].Capped || got.Free[1].Free[1] != 100000 || len(got.Blocks) != 1 {
		t.Errorf("tabbed table %+v, want %+v", got, want)
	}
	if len(tl.Artifacts) != 1 || len(tl.Unparsed) != 0 {
		t.Errorf("tabbed table read as %d artifacts, unparsed %+v", len(tl.Artifacts), tl.Unparsed)
	}
	// Counter-case: a line after the table that starts with "Node" and a tab but is no row
	// is not taken into it (the table before it is read, the line reported).
	tl = ParseString(tabbed+"Node\tnotes: none\n", "p", Options{})
	if got := one(t, tl, KindPageTypeInfo).(*kernel.PageTypeInfo); len(got.Free) != 3 || len(got.Blocks) != 1 {
		t.Errorf("table with a trailing line %+v", got)
	}
}
