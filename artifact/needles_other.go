//go:build !amd64 || purego

package artifact

// indexAnchors returns the index of the first byte of s that is one of a's anchors, or -1.
func indexAnchors(s string, a *anchorSet) int { return indexAnchorsGeneric(s, a) }

// indexNonASCII returns the index of the first byte of s that is not ASCII, or -1.
func indexNonASCII(s string) int { return indexNonASCIIGeneric(s) }
