//go:build !amd64 || purego

package artifact

// indexAnchors returns the index of the first byte of s that is one of a's anchors, or -1.
func indexAnchors(s string, a *anchorSet) int { return indexAnchorsGeneric(s, a) }

// indexOdd returns the index of the first byte of s that indexOddGeneric stops at, or -1.
func indexOdd(s string) int { return indexOddGeneric(s) }
