package artifact

import (
	"strings"
	"testing"
)

// A paste cut inside the last record's dmesg stamp ("[21132.799070" without its ']', found by
// FuzzStream, testdata/fuzz/FuzzStream/r1-cut-stamp) was joined to the record before it as a
// wrapped piece; the window, which logged that record before the piece arrived, had already
// counted its "callbacks suppressed", so the streamed and whole-text parses differed. The cut
// line is now a record of its own that no reader took: reported unparsed, not joined, not prose.
func TestCutStampLastLineUnparsed(t *testing.T) {
	var b strings.Builder
	for k := 0; k < 7; k++ {
		b.WriteString("[16537.041547] wlan0: associate with <MAC C-01 bluesky2> (try 1/3) and more words\n")
	}
	b.WriteString("[17155.838912] net_ratelimit: 1 callbacks suppressed\n")
	for _, last := range []string{"[21132.799070ttttttttttttttttttt", "[21132.79", "[ 2113"} {
		text := b.String() + last
		sameAsWhole(t, "cut stamp", text)
		tl := ParseString(text, "cut", Options{})
		if n := tl.Log.Len(); n != 8 || tl.Log.At(7).Message != "net_ratelimit: 1 callbacks suppressed" {
			t.Fatalf("%q: %d records, last %q", last, n, tl.Log.At(n-1).Message)
		}
		if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 9 || !strings.Contains(tl.Unparsed[0].Why, "paste ends inside") {
			t.Errorf("%q: unparsed %+v, want line 9 reported cut", last, tl.Unparsed)
		}
	}
	for _, s := range []string{"[1/3] Installing", "[12 ] x", "[16537.041547] ok", "[x] done", "[2.2 with AA VM would have started"} {
		if cutStamp(s) {
			t.Errorf("cutStamp(%q) = true", s)
		}
	}
}

// A "callbacks suppressed" record logged before its wrapped piece was joined keeps no
// suppressed count the joined line does not have: relog reads the record's extras again.
func TestRelogRefreshesSuppressed(t *testing.T) {
	var b strings.Builder
	for k := 0; k < 8; k++ {
		b.WriteString("[16537.041547] wlan0: associate with <MAC C-01 bluesky2> (try 1/3) and a few more words here\n")
	}
	// The piece's one word would not have fitted on the line before: a wrapped piece.
	b.WriteString("[17155.838912] net_ratelimit: 1 callbacks suppressed\n" + strings.Repeat("t", 50) + "\n")
	text := b.String()
	sameAsWhole(t, "suppressed piece", text)
	tl := ParseString(text, "x", Options{})
	if m := tl.Log.At(tl.Log.Len() - 1).Message; !strings.HasSuffix(m, "ttt") {
		t.Fatalf("the piece was not joined (%q): the test no longer tests relog", m)
	}
}
