package artifact

import (
	"strings"
	"testing"
)

// Round 10's layout forms (forms10b): what a page's layout does to the lines of a paste,
// undone for every reader at once. Snippets written for each class, not copied from a case.

const forms10bMeminfo = "MemTotal:       16384000 kB\nMemFree:          512000 kB\nMemAvailable:    1024000 kB\n" +
	"Buffers:           10000 kB\nCached:           400000 kB\nSwapCached:            0 kB\n" +
	"Active:          9000000 kB\nInactive:        5000000 kB\nSlab:             300000 kB\n"

func memOf(t *testing.T, text, key string) (int64, bool) {
	t.Helper()
	tl := ParseString(text, "t", Options{})
	for i := range tl.Samples {
		if v, ok := tl.Samples[i].Mem(key); ok {
			return v, true
		}
	}
	return 0, false
}

// A Markdown post's hard line breaks (a backslash at each line's end) keep the lines of
// the paste apart when rendered, and a copy of the post's source keeps them.
func TestHardBreakBackslashes(t *testing.T) {
	for name, end := range map[string]string{"spaced": " \\", "tight": "\\"} {
		text := strings.ReplaceAll(forms10bMeminfo, "\n", end+"\n")
		if v, ok := memOf(t, text, "MemFree"); !ok || v != 512000 {
			t.Errorf("%s: MemFree = %d %v, want 512000", name, v, ok)
		}
		if v, ok := memOf(t, text, "Slab"); !ok || v != 300000 {
			t.Errorf("%s: Slab = %d %v, want 300000", name, v, ok)
		}
	}
	// A backslash inside a line is the line's own: only the one at its end goes.
	if got := stripHardBreak(`C:\logs\net \`); got != `C:\logs\net` {
		t.Errorf("stripHardBreak = %q", got)
	}
	if got := stripHardBreak(`a \ b`); got != `a \ b` {
		t.Errorf("stripHardBreak kept no inner backslash: %q", got)
	}
}

// A forum that made each line a paragraph: a blank line (or a quoted blank line) between
// every two lines. The dump is one block again, and the original's blank line (three in
// the double-spaced paste) still separates two blocks.
func TestDoubleSpacedPaste(t *testing.T) {
	double := strings.ReplaceAll(forms10bMeminfo, "\n", "\n\n")
	quoted := "> " + strings.ReplaceAll(strings.TrimSuffix(forms10bMeminfo, "\n"), "\n", "\n>\n> ") + "\n"
	for name, text := range map[string]string{"blank lines": double, "quoted blank lines": quoted} {
		for key, want := range map[string]int64{"MemTotal": 16384000, "MemFree": 512000, "Slab": 300000} {
			if v, ok := memOf(t, text, key); !ok || v != want {
				t.Errorf("%s: %s = %d %v, want %d", name, key, v, ok, want)
			}
		}
	}
	in := "a\n\nb\n\nc\n\n\n\nd\n\ne\n\nf\n"
	if got, want := undoubleSpace(in), "a\nb\nc\n\nd\ne\nf\n"; got != want {
		t.Errorf("undoubleSpace(%q) = %q, want %q", in, got, want)
	}
}

// Counter-cases: a text with two lines of text in a row anywhere is not double-spaced,
// and a short post of one-line paragraphs is left as written.
func TestDoubleSpacedNotProse(t *testing.T) {
	for _, in := range []string{
		"Hello,\n\nSince the upgrade the box swaps.\n\nThanks\n",
		"one\n\ntwo\n\nthree\n\nfour\n\nfive\nsix\n\nseven\n\neight\n",
	} {
		if got := undoubleSpace(in); got != in {
			t.Errorf("undoubleSpace rewrote %q into %q", in, got)
		}
	}
	// A post of one-line paragraphs is joined, and still read as prose, not a table.
	post := "Hello,\n\nwe upgraded the kernel to 5.15 last week.\n\nSince then 3 of 12 hosts swap 40 MB/s.\n\nAny idea?\n\nThanks\n"
	tl := ParseString(post, "t", Options{})
	for _, sm := range tl.Samples {
		if !strings.Contains(sm.Source, "stated in the text") || sm.MemInfo != nil || sm.VMStat != nil || len(sm.NetStat) > 0 {
			t.Errorf("a double-spaced post read as a table: %+v", sm)
		}
	}
	if len(tl.Events) != 0 {
		t.Errorf("a double-spaced post read as events: %+v", tl.Events)
	}
}

// A chat client's inline code around every line, over a quoted kernel report: the span
// comes off before the quoting does.
func TestInlineCodeAroundQuotedLines(t *testing.T) {
	report := "> [  624.862777] ksoftirqd/0: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n" +
		"> [  624.863319] CPU: 0 PID: 3 Comm: ksoftirqd/0 Not tainted 4.9.0 #1\n"
	for name, wrap := range map[string]func(string) string{
		"plain":    func(l string) string { return "`" + l + "`" },
		"indented": func(l string) string { return "    `" + l + "`  " },
	} {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(report, "\n"), "\n") {
			b.WriteString(wrap(l) + "\n")
		}
		tl := ParseString(b.String(), "t", Options{})
		if len(tl.Events) == 0 || tl.Events[0].AllocFailure == nil || tl.Events[0].UptimeUsec != 624862777 {
			t.Errorf("%s: no allocation failure read: %+v", name, tl.Events)
		}
	}
	// A line that was a span already, spanned again.
	if got := unwrapLineCode("``        RX errors 0  dropped 198``"); got != "        RX errors 0  dropped 198" {
		t.Errorf("double span: %q", got)
	}
	// Counter-case: a sentence with two spans keeps them.
	for _, s := range []string{"`sysctl` and `ethtool`", "run `free -m`, then `vmstat 1`"} {
		if got := unwrapLineCode(s); got != s {
			t.Errorf("unwrapLineCode(%q) = %q", s, got)
		}
	}
}

// A forum's or a tracker's block markup around a paste only delimits, as a fence does: the
// dump inside reads, and a title above the block stays the text's title.
func TestBlockMarkupDelimits(t *testing.T) {
	for _, m := range [][2]string{{"[code]", "[/code]"}, {"{noformat}", "{noformat}"}, {"{code:bash}", "{code}"},
		{`[quote="user, post:3, topic:1234"]`, "[/quote]"}} {
		text := m[0] + "\n" + forms10bMeminfo + m[1] + "\n"
		if v, ok := memOf(t, text, "MemTotal"); !ok || v != 16384000 {
			t.Errorf("%s: MemTotal = %d %v", m[0], v, ok)
		}
		if got := stripFence(m[0]); got != "" {
			t.Errorf("stripFence(%q) = %q, want it blank", m[0], got)
		}
		if !fenceOpener(m[0]) {
			t.Errorf("fenceOpener(%q) = false", m[0])
		}
	}
	// Counter-cases: a dmesg stamp, a JSON record, a link's text and prose in brackets are
	// lines of their own.
	for _, s := range []string{"[  624.862777] eth0: link up", `{"code": 3}`, "[code review]", "[quote] said it all",
		"{code} is the macro", "[x] done", "{noformat} inline {noformat} here"} {
		if blockMarkup(s) {
			t.Errorf("blockMarkup(%q) = true", s)
		}
	}
}

// A ticket that lost the paste's newlines: the post's words, then the kernel's records on
// the same line. Each stamp starts a record again, the prose before them included.
func TestFlattenedLogBehindProse(t *testing.T) {
	text := "# Issue with install on the router Below is the output of dmesg, the process gets killed: " +
		"[10824.330000] tailscaled: page allocation failure: order:2, mode:0x40dc0(GFP_KERNEL|__GFP_COMP|__GFP_ZERO) " +
		"[10824.336452] Mem-Info: [10824.341086] active_anon:11304 inactive_anon:3753 isolated_anon:0 " +
		"[10824.341090] Normal free:1520kB min:1440kB low:1800kB high:2160kB present:131072kB managed:120000kB\n"
	ls := SplitLines(text)
	if len(ls) != 5 || ls[4].UptimeUsec != 10824341090 || !strings.HasPrefix(ls[4].Text, "Normal free:1520kB") {
		t.Fatalf("flattened log split into %d lines: %+v", len(ls), ls)
	}
	tl := ParseString(text, "t", Options{})
	if len(tl.Events) == 0 || tl.Events[0].AllocFailure == nil || tl.Events[0].AllocFailure.Order != 2 {
		t.Fatalf("no order-2 allocation failure read: %+v", tl.Events)
	}
	// Counter-case: a sentence that quotes one stamped line is one line of prose.
	prose := "After the upgrade we keep seeing [  12.345678] eth0: link down in dmesg, and then the box hangs for a while, any idea?"
	if ls := SplitLines(prose); len(ls) != 1 || flattenedLog(prose) {
		t.Errorf("prose split into %d lines", len(ls))
	}
}

// man(1)'s hyphenation at a line break, the lines then flattened into one: one word again.
// Counter-case: an ASCII hyphen before a space ("pre- and post-processing") stays.
func TestFlattenedManHyphenation(t *testing.T) {
	if got := fixLookalikes("the like\u2010 lihood of"); got != "the likelihood of" {
		t.Errorf("fixLookalikes = %q", got)
	}
	for in, want := range map[string]string{"pre- and post-processing": "pre- and post-processing",
		"OOM\u2010killing al\u2010 together": "OOM-killing altogether", "A\u2010 b": "A- b"} {
		if got := fixLookalikes(in); got != want {
			t.Errorf("fixLookalikes(%q) = %q, want %q", in, got, want)
		}
	}
}
