package artifact

import "strings"

// lineScanGeneric is lineScan by byte searches: the end of the line, its first '#', its last
// '[', and its first byte that indexOddGeneric stops at. The '\n' stays in what that reads,
// so a mark that ends the line is followed by it, and only one that ends s is a maybe.
func lineScanGeneric(s string) (nl, hash, last, odd int) {
	nl = strings.IndexByte(s, '\n')
	if nl < 0 {
		nl = len(s)
	}
	line := s[:nl]
	return nl, strings.IndexByte(line, '#'), strings.LastIndexByte(line, '['), indexOddGeneric(s[:min(nl+1, len(s))])
}
