//go:build !purego

package artifact

// indexAnchors16 returns the index of the first byte of s[:len(s)&^15] that equals one of
// set's bytes, or -1 (needles_amd64.s: SSE2, which every amd64 CPU has).
//
//go:noescape
func indexAnchors16(s string, set *[maxAnchors]byte) int

// indexAnchors returns the index of the first byte of s that is one of a's anchors, or -1.
func indexAnchors(s string, a *anchorSet) int {
	if a.n == 0 {
		return -1
	}
	if i := indexAnchors16(s, &a.bytes); i >= 0 {
		return i
	}
	for i := len(s) &^ 15; i < len(s); i++ {
		if a.is[s[i]] {
			return i
		}
	}
	return -1
}
