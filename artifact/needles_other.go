//go:build !amd64 || purego

package artifact

// indexAnchors returns the index of the first byte of s that is one of a's anchors, or -1.
func indexAnchors(s string, a *anchorSet) int { return indexAnchorsGeneric(s, a) }

// indexNonASCII returns the index of the first byte of s that is not ASCII, or -1.
func indexNonASCII(s string) int { return indexNonASCIIGeneric(s) }

// indexMarkDigit returns the index of the first '_' or '*' of s that a digit follows or
// that ends s, or -1.
func indexMarkDigit(s string) int { return indexMarkDigitGeneric(s) }
