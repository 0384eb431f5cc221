//go:build !amd64 || purego

package artifact

// lineScan returns the index of the first '\n' of s (len(s) when none), and in the line before
// it the index of the first '#' and of the last '[', each -1 when none.
func lineScan(s string) (nl, hash, last int) { return lineScanGeneric(s) }
