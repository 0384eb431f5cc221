//go:build !amd64 || purego

package artifact

// lineScan returns the index of the first '\n' of s (len(s) when none), and in the line before
// it the index of the first '#', of the last '[' and of the first byte lineOdd stops at, each
// -1 when none.
func lineScan(s string) (nl, hash, last, odd int) { return lineScanGeneric(s) }
