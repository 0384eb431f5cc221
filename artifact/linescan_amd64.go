//go:build !purego

package artifact

// lineScanAVX2 is lineScan over the first len(s)&^31 bytes of s: nl is -1 when no '\n' is in
// them (done is then that many bytes), else as lineScan's, as are hash and last
// (linescan_amd64.s).
//
//go:noescape
func lineScanAVX2(s string) (nl, hash, last, odd, done int)

// lineScan returns the index of the first '\n' of s (len(s) when none), and in the line before
// it the index of the first '#' and of the last '[', each -1 when none: the fast path's one
// pass over a raw line for its end and for the two bytes parseLineInto would otherwise search
// it for (the rsyslog escapes' '#', the '[' of a stamp embedded in it).
func lineScan(s string) (nl, hash, last, odd int) {
	if !hasAVX2 || len(s) < 33 {
		return lineScanGeneric(s)
	}
	nl, hash, last, odd, done := lineScanAVX2(s)
	if nl >= 0 {
		return nl, hash, last, odd
	}
	n, h, b, o := lineScanGeneric(s[done:])
	if hash < 0 && h >= 0 {
		hash = done + h
	}
	if b >= 0 {
		last = done + b
	}
	if odd < 0 && o >= 0 {
		odd = done + o
	}
	return done + n, hash, last, odd
}
