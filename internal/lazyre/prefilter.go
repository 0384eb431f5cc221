package lazyre

import (
	"regexp/syntax"
	"strings"
	"unicode/utf8"
)

// A prefilter is what RE2 calls one: literals of which a text must hold at least one for
// the expression to match it, read off the expression's syntax tree when the first text
// of preMinText bytes or more reaches it. A text that holds none of them cannot match, and
// the method returns what the regexp package returns for no match without running the
// matcher.
//
// Why: the readers of pasted prose (artifact's stated pass) run each of some hundred
// expressions over whole paragraphs. Most of them start with a word class or an
// alternation, so the regexp package cannot skip ahead by a literal prefix and steps its
// NFA through every byte. A substring search runs at memchr speed. Corpus 6310 (8 KB of
// kernel lines quoted as Go string literals, one paragraph of prose to the stated pass)
// took 70–90 ms of CPU against the reference case's 17 ms, and a loaded CI machine pushed
// it past the accuracy gate's 5×. Measured in process (the parse alone, the 4th best of
// 15): the ten slowest corpus cases 250 ms → 176 ms, 6310 43 → 31 ms; 300 random cases
// 807 ms → 739–800 ms.
//
// The filter is exact in one direction only, which is the one that matters: it never
// says "cannot match" of a text the expression matches. It is built from the parts of
// the tree every match must pass through:
//
//   - a literal is itself (case-folded when the expression folds case);
//   - a concatenation needs what its most selective part needs (the part whose shortest
//     literal is longest);
//   - an alternation needs what any of its branches needs (the union);
//   - a capture, a one-or-more or a repeat of at least one needs what its body needs;
//   - everything else (classes, any character, a part that may be empty, anchors,
//     word boundaries) needs nothing, and a concatenation of such parts needs nothing.
//
// Case folding: (?i) matches by Unicode simple folding, where 'k' also matches the
// Kelvin sign (U+212A) and 's' the long s (U+017F). A folded literal is kept only when it
// is ASCII, and a text holding either of those two runes is always left to the matcher.
type prefilter struct {
	lits []prelit // a match holds at least one of them
	trap bool     // some folded literal holds a 'k' or an 's'
}

type prelit struct {
	s    string // lower-case when fold
	fold bool
}

const (
	preMinLen  = 3  // shorter literals filter too little to be worth a search
	preMaxLits = 24 // a larger union costs more searches than it saves
	// preMinText: on a shorter text (a line) the matcher's own cost is no more than the
	// searches', and reading the filter off every expression a line meets would parse
	// each a second time: filtering every call cost the corpus CPU in both of two full
	// runs beside the unfiltered binary (104 → 124 s, 120 → 131 s).
	preMinText = 256
)

// newPrefilter returns the filter for expr, or nil when expr needs no literal.
func newPrefilter(expr string) *prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil // regexp.MustCompile reports it
	}
	re = re.Simplify()
	if anchoredStart(re) {
		return nil // the matcher fails such an expression at the text's first bytes
	}
	lits, ok := needs(re)
	if !ok || len(lits) == 0 {
		return nil
	}
	p := &prefilter{lits: lits}
	for _, l := range lits {
		if len(l.s) < preMinLen {
			return nil
		}
		if l.fold && strings.ContainsAny(l.s, "ks") {
			p.trap = true
		}
	}
	return p
}

// anchoredStart: re matches only at the text's start (^ without (?m), or \A).
func anchoredStart(re *syntax.Regexp) bool {
	for re.Op == syntax.OpConcat || re.Op == syntax.OpCapture {
		if len(re.Sub) == 0 {
			return false
		}
		re = re.Sub[0]
	}
	return re.Op == syntax.OpBeginText
}

// needs returns the literals a match of re must hold one of; ok is false when it needs none.
func needs(re *syntax.Regexp) (lits []prelit, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		s := string(re.Rune)
		fold := re.Flags&syntax.FoldCase != 0
		if fold {
			for _, r := range re.Rune {
				if r >= utf8.RuneSelf {
					return nil, false
				}
			}
			s = strings.ToLower(s)
		}
		if strings.ContainsRune(s, utf8.RuneError) {
			return nil, false // the matcher reads an invalid byte as U+FFFD
		}
		return []prelit{{s: s, fold: fold}}, true
	case syntax.OpCapture, syntax.OpPlus:
		return needs(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return needs(re.Sub[0])
		}
		return nil, false
	case syntax.OpConcat:
		var best []prelit
		for _, sub := range re.Sub {
			if l, ok := needs(sub); ok && (best == nil || shortest(l) > shortest(best)) {
				best = l
			}
		}
		return best, best != nil
	case syntax.OpAlternate:
		var all []prelit
		for _, sub := range re.Sub {
			l, ok := needs(sub)
			if !ok {
				return nil, false
			}
			all = append(all, l...)
		}
		if len(all) > preMaxLits {
			return nil, false
		}
		return all, true
	}
	return nil, false
}

func shortest(lits []prelit) int {
	n := -1
	for _, l := range lits {
		if n < 0 || len(l.s) < n {
			n = len(l.s)
		}
	}
	return n
}

// may reports whether s can hold a match: false only when it holds none of the literals.
func (p *prefilter) may(s string) bool {
	if p == nil {
		return true
	}
	if p.trap && (strings.Contains(s, "\u212a") || strings.Contains(s, "\u017f")) {
		return true
	}
	for _, l := range p.lits {
		if l.fold && indexFoldASCII(s, l.s) >= 0 || !l.fold && strings.Contains(s, l.s) {
			return true
		}
	}
	return false
}

// indexFoldASCII: the first index of lit (ASCII, lower case) in s, ASCII letters matched
// in either case, or -1. The next place of each case of the first byte is kept between
// candidates, so a text full of one case is not searched again for the other.
func indexFoldASCII(s, lit string) int {
	lo := lit[0]
	up := lo
	if 'a' <= lo && lo <= 'z' {
		up = lo - 'a' + 'A'
	}
	end := len(s) - len(lit) + 1 // a candidate starts before it
	if end <= 0 {
		return -1
	}
	next := func(c byte, from int) int {
		if i := strings.IndexByte(s[from:end], c); i >= 0 {
			return from + i
		}
		return end
	}
	a, b := next(lo, 0), end
	if up != lo {
		b = next(up, 0)
	}
	for {
		i := min(a, b)
		if i == end {
			return -1
		}
		k := 1
		for k < len(lit) && lower(s[i+k]) == lit[k] {
			k++
		}
		if k == len(lit) {
			return i
		}
		if i == a {
			a = next(lo, i+1)
		} else {
			b = next(up, i+1)
		}
	}
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
