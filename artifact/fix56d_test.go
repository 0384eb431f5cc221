package artifact

import (
	"strconv"
	"strings"
	"testing"

	"headroom/model"
)

// fix56d's classes (round 51), each on a minimal snippet in its form with a counter-case.

// retrans is the Tcp RetransSegs a parse of text reads, -1 for none.
func retrans(text string) int64 {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if s.NetStat == nil {
			continue
		}
		if v, ok := s.NetStat.Get("Tcp", "RetransSegs"); ok {
			return v
		}
	}
	return -1
}

// netstatTcp is a Linux 'netstat -s' Tcp block, its lines numbered from 1 by a paste site
// ("  1. Tcp:") when numbered.
func netstatTcp(numbered bool, prefix string) string {
	ls := []string{"Tcp:", "    133876 active connection openings", "    38637399 passive connection openings",
		"    63 failed connection attempts", "    260734223 segments received", "    249447041 segments sent out",
		"    5498657 segments retransmitted", "    12 bad segments received"}
	var b strings.Builder
	for i, l := range ls {
		b.WriteString(prefix)
		if numbered {
			b.WriteString("  " + strconv.Itoa(i+1) + ". " + strings.TrimLeft(l, " "))
		} else {
			b.WriteString(l)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// Corpus 4621: pastebin's "  N. " gutter under a form's prefix (mail quoting, a bar, a
// zero-width space, an inline code span, a list marker, a second gutter) hid the Tcp block
// from the netstat -s reader. Counter-case: a quoted numbered list of three steps keeps its
// words (only the markers go), and numbers that do not count up from 1 stay.
func TestFix56dPrefixedGutter(t *testing.T) {
	for _, prefix := range []string{"> ", ">> ", "| ", "\u200b", "* ", " * ", "- "} {
		if got := retrans(netstatTcp(true, prefix)); got != 5498657 {
			t.Errorf("prefix %q: RetransSegs %d, want 5498657", prefix, got)
		}
	}
	// A gutter over a gutter ("34.   30. 5498657 segments retransmitted").
	var b strings.Builder
	for i, l := range strings.Split("title\n\nby a guest\n\n"+strings.TrimSuffix(netstatTcp(true, ""), "\n"), "\n") {
		b.WriteString(strconv.Itoa(i+1) + ".   " + l + "\n")
	}
	if got := retrans(b.String()); got != 5498657 {
		t.Errorf("gutter over gutter: RetransSegs %d, want 5498657", got)
	}
	// Inline code spans around each numbered line.
	var c strings.Builder
	for _, l := range strings.Split(strings.TrimSuffix(netstatTcp(true, ""), "\n"), "\n") {
		c.WriteString("`" + l + "`\n")
	}
	if got := retrans(c.String()); got != 5498657 {
		t.Errorf("code spans: RetransSegs %d, want 5498657", got)
	}
	// Counter-cases.
	in := "> 1. stop the service\n> 2. raise the limit\n> 3. start it again\n"
	if got := stripPrefixedGutters(in); got != "> stop the service\n> raise the limit\n> start it again\n" {
		t.Errorf("quoted list: %q", got)
	}
	for _, in := range []string{
		"> 2. second\n> 3. third\n> 4. fourth\n", // not from 1
		"> 1. first\n> 3. third\n> 4. fourth\n",  // not consecutive
		"> 1. one\n> 2. two\n",                   // two lines
		"> 1. one\n| 2. two\n> 3. three\n",       // prefixes differ
		"    1. one\n    2. two\n    3. three\n", // an indent is stripLineGutters'
	} {
		if got := stripPrefixedGutters(in); got != in {
			t.Errorf("%q became %q", in, got)
		}
	}
}

// Corpus 4623 (and 4640): a bulleted paste ("- 353828 segments retransmited") indented as a
// code block or bulleted again. Counter-cases: a diff's removed indented line, a marker
// before a blank, a number after the marker's indent, and an indented numbered item.
func TestFix56dIndentedAndDoubleMarkers(t *testing.T) {
	bullet := func(prefix string) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(netstatTcp(false, ""), "\n"), "\n") {
			b.WriteString(prefix + "- " + strings.TrimLeft(l, " ") + "\n")
		}
		return b.String()
	}
	for _, prefix := range []string{"    ", "\t", "  ", "- ", "* "} {
		if got := retrans(bullet(prefix)); got != 5498657 {
			t.Errorf("prefix %q: RetransSegs %d, want 5498657", prefix, got)
		}
	}
	for in, want := range map[string]string{
		"    - 353828 segments retransmited": "    353828 segments retransmited",
		"\t* Tcp:":                           "\tTcp:",
		"    -   removed line":               "    -   removed line",
		"    - ":                             "    - ",
		"    -1 offset":                      "    -1 offset",
		"    1. step":                        "    1. step",
		" - one blank":                       " - one blank", // indentedMarker's
		"          - ten blanks":             "          - ten blanks",
		// A file's row of one name and a figure (corpus 4782: meminfo pasted as a list,
		// then indented): its marker goes; a nested item's prose with a colon keeps it.
		"    - MemTotal: 122220 kB":         "    MemTotal: 122220 kB",
		"    - net.core.rmem_max = 4194304": "    net.core.rmem_max = 4194304",
		"    - Note: 5 hosts were affected": "    - Note: 5 hosts were affected",
		"    - Update: the fix works":       "    - Update: the fix works",
		"    - step 2: raise it to 4096":    "    - step 2: raise it to 4096",
		// A prompt's command and atop's row (corpus 4788); a price and a word in capitals
		// keep theirs.
		"    - $ vmstat 10":                                               "    $ vmstat 10",
		"    - # cat /proc/meminfo":                                       "    # cat /proc/meminfo",
		"    - MEM | tot 7.7G | free 3.7G |":                              "    MEM | tot 7.7G | free 3.7G |",
		"    - r b swpd free buff cache si so bi bo in cs us sy id wa st": "    r b swpd free buff cache si so bi bo in cs us sy id wa st",
		"    - lockedpages 0 0 256 256 0":                                 "    lockedpages 0 0 256 256 0",
		"    - Version: 2.5":                                              "    Version: 2.5",
		"    - Ubuntu 22 LTS":                                             "    - Ubuntu 22 LTS",
		"    - $ 5 a month":                                               "    - $ 5 a month",
		"    - TODO: check the NIC":                                       "    - TODO: check the NIC",
	} {
		if got := stripDeepMarker(in); got != want {
			t.Errorf("stripDeepMarker(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"- 353828 segments": "353828 segments", "-- x": "-- x", "-  x": "-  x", "-1": "-1", "word": "word"} {
		if got := stripSecondMarker(in); got != want {
			t.Errorf("stripSecondMarker(%q) = %q, want %q", in, got, want)
		}
	}
}

// Corpus 4683: a reply quoting another's report, the whole mail then quoted again (every
// line one '>' deeper): the report's "processes are killed by the oom-killer" is still
// another message's, not the author's. Counter-case: the same sentence in the author's own
// lines of a reply quoted whole is the author's, and a reply at depth 0 is unchanged.
func TestFix56dBaseQuote(t *testing.T) {
	own := "We run overcommit mode 2 here.\nLast night processes were killed by the oom-killer on our database host.\nThe box has 64GB of memory.\n"
	quoted := "> I am getting reports that also in overcommit mode 2 (no overcommit,\n> no oom-killer ever needed) processes are killed by the oom-killer\n> (on 2.6.10).\n"
	reply := "On Thu, Jan 20, 2005, Andries Brouwer wrote:\n" + quoted + "\nHi Andries,\n\nThere is a user requirement for overcommit mode, you know.\nYou propose to remove the OOM killer and do what? Lockup solid?\nIt is way off right now: look at the amount of free pages.\n"
	requote := func(s string, n int) string {
		var b strings.Builder
		for _, l := range strings.Split(strings.TrimSuffix(s, "\n"), "\n") {
			b.WriteString(strings.Repeat(">", n) + " " + l + "\n")
		}
		return b.String()
	}
	for _, n := range []int{0, 1, 2} {
		in := reply
		if n > 0 {
			in = requote(reply, n)
		}
		if got := statedOOMSource(in); !strings.Contains(got, "quoted from another message") {
			t.Errorf("reply quoted %d times: stated OOM from %q, want it quoted from another message", n, got)
		}
	}
	for _, n := range []int{0, 2} {
		in := own
		if n > 0 {
			in = requote(own, n)
		}
		if got := statedOOMSource(in); got == "" || strings.Contains(got, "quoted") {
			t.Errorf("own lines quoted %d times: stated OOM from %q, want the author's", n, got)
		}
	}
	if b := baseQuote([]proseLine{{text: "a", quote: 2}, {text: "  ", quote: 0}, {text: "b", quote: 3}}); b != 2 {
		t.Errorf("baseQuote %d, want 2", b)
	}
}

// statedOOMSource is where the parse of text found a stated OOM, "" for none.
func statedOOMSource(text string) string {
	for _, s := range ParseString(text, "p", Options{}).Samples {
		if s.Rates[model.RateStatedOOM] > 0 {
			return s.Source
		}
	}
	return ""
}
