package lazyre

import (
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

func TestPrefilterLiterals(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string // nil: no filter
	}{
		{`(?i)\bthrash(?:es|ed|ing)?\s+(?:the\s+|its\s+)?swap\b`, []string{"thrash"}},
		{`page allocation failure`, []string{"page allocation failure"}},
		// The parser factors the branches' common "o" out: the alternation after it is the
		// concatenation's most selective part.
		{`(?i)(?:oom-killer|out of memory)`, []string{"om-killer", "ut of memory"}},
		{`(?:invoked oom-killer|\d+ pages)`, []string{"invoked oom-killer", " pages"}},
		{`(?:invoked oom-killer|\d+)`, nil},          // a branch that needs no literal
		{`^Mem-Info:`, nil},                          // anchored: the matcher fails it at once
		{`(?:ab|cd)`, nil},                           // literals too short to search for
		{`(?i)x*`, nil},                              // may match the empty text
		{`(?:kswapd){2,}\d`, []string{"kswapd"}},     // a repeat of at least one
		{`(?:kswapd)?\d+ pages`, []string{" pages"}}, // the optional part needs nothing
		{`(?i)Ǆungle`, nil},                          // a folded literal beyond ASCII
	} {
		p := newPrefilter(tc.expr)
		var got []string
		if p != nil {
			for _, l := range p.lits {
				got = append(got, l.s)
			}
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: literals %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// TestFoldTraps: the only runes beyond ASCII that Unicode simple folding makes equal to an
// ASCII letter are the two prefilter.may leaves to the matcher.
func TestFoldTraps(t *testing.T) {
	var traps []rune
	for r := rune(utf8Self); r <= unicode.MaxRune; r++ {
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < utf8Self {
				traps = append(traps, r)
				break
			}
		}
	}
	if !slices.Equal(traps, []rune{'\u017f', '\u212a'}) {
		t.Fatalf("runes folding to ASCII: %q", traps)
	}
}

const utf8Self = 0x80

func TestPrefilterRejectsLikeTheMatcher(t *testing.T) {
	long := strings.Repeat("the node ran low on free pages and reclaimed slowly. ", 10)
	r := New(`(?i)\b(?:was|got)\s+oom[- _]?killed\b`)
	if r.MayMatch(long) {
		t.Fatal("a text without the literals may match")
	}
	if !r.MayMatch(long[:100]) {
		t.Fatal("a short text was filtered")
	}
	re := regexp.MustCompile(r.String())
	if r.FindAllStringIndex(long, -1) != nil || r.MatchString(long) || r.FindStringSubmatch(long) != nil ||
		r.ReplaceAllString(long, "x") != re.ReplaceAllString(long, "x") || !slices.Equal(r.Split(long, -1), re.Split(long, -1)) ||
		r.Split(long, 0) != nil {
		t.Fatal("a filtered text's results differ from the matcher's")
	}
	hit := long + "It was OOM-Killed twice."
	if !r.MayMatch(hit) || !r.MatchString(hit) {
		t.Fatal("a text with a match was filtered")
	}
	// The Kelvin sign folds to k: the matcher finds "oom-\u212ailled", so must the filter.
	kelvin := long + "It was oom-\u212ailled."
	if !re.MatchString(kelvin) || !r.MatchString(kelvin) {
		t.Fatal("the Kelvin sign's match was filtered")
	}
}

// FuzzPrefilter: a text the expression matches is never filtered.
func FuzzPrefilter(f *testing.F) {
	f.Add(`(?i)oom[- _]?killed`, "was OOM_killed")
	f.Add(`(?:a|bcd)ef+`, "xxbcdeff")
	f.Add(`(?i)\bswap\s+is\s+full`, "SWAP  is FULL")
	f.Add(`(?i)ſtop`, "STOP")
	f.Fuzz(func(t *testing.T, expr, text string) {
		re, err := regexp.Compile(expr)
		if err != nil {
			return
		}
		text += strings.Repeat(" ", max(0, preMinText-len(text)))
		p := newPrefilter(expr)
		if re.MatchString(text) && !p.may(text) {
			t.Fatalf("%q matches %q but the filter (%+v) rejects it", expr, text, p)
		}
	})
}
