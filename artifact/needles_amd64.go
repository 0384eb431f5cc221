//go:build !purego

package artifact

import "golang.org/x/sys/cpu"

// indexAnchorsAVX2 returns the first i in [0, (len(s)-2)&^31) at which s[i], s[i+1] and
// s[i+2] pass the nibble tables of one bucket (anchorSet), or -1 (needles_amd64.s).
// len(s) > 33.
//
//go:noescape
func indexAnchorsAVX2(s string, nib *[6][32]byte) int

var hasAVX2 = cpu.X86.HasAVX2

// indexAnchors returns the first i at which s[i:] starts with one of a's anchors, or -1.
func indexAnchors(s string, a *anchorSet) int {
	if a.n == 0 {
		return -1
	}
	from := 0
	if hasAVX2 {
		for len(s)-from > 33 {
			i := indexAnchorsAVX2(s[from:], &a.nib)
			if i < 0 {
				from = from + (len(s)-from-2)&^31
				break
			}
			if q := from + i; a.match(s, q) >= 0 {
				return q
			}
			from += i + 1 // a mix of a bucket's pairs
		}
	}
	if i := indexAnchorsGeneric(s[from:], a); i >= 0 {
		return from + i
	}
	return -1
}

// indexOddAVX2 returns the first i in [0, (len(s)-1)&^31) at which s[i] is not ASCII or is
// a backslash, or is '_' or '*' and s[i+1] a digit, or -1 (needles_amd64.s). len(s) > 32.
//
//go:noescape
func indexOddAVX2(s string) int

// indexOdd returns the index of the first byte of s that indexOddGeneric stops at, or -1:
// one pass for the three classes the fast path asks of every line.
func indexOdd(s string) int {
	from := 0
	if hasAVX2 && len(s) > 32 {
		if i := indexOddAVX2(s); i >= 0 {
			return i
		}
		from = (len(s) - 1) &^ 31
	}
	if i := indexOddGeneric(s[from:]); i >= 0 {
		return from + i
	}
	return -1
}
