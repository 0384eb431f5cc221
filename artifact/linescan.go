package artifact

import "strings"

// lineScanGeneric is lineScan by three byte searches: the end of the line, then its first '#'
// and its last '['.
func lineScanGeneric(s string) (nl, hash, last int) {
	nl = strings.IndexByte(s, '\n')
	if nl < 0 {
		nl = len(s)
	}
	line := s[:nl]
	return nl, strings.IndexByte(line, '#'), strings.LastIndexByte(line, '[')
}
