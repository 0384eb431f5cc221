package artifact

import "strings"

// stripWholeQuote removes the double quotes around a whole line when the line between them
// is a line of output or of a log (outputAfterMarker: a figure first, "name: N", a log's
// stamp, a syslog date): '"48108 segments retransmitted"' on a line of its own, as a
// reporter quotes netstat -s in a sentence's place (g259, node_exporter 2716). A quoted
// sentence ('"5 hosts were affected," he said'), a quote holding another, or a JSON
// array's element (a comma after it) keeps its quotes.
func stripWholeQuote(s string) string {
	t := strings.TrimRight(s, " \t")
	if len(t) < 4 || t[len(t)-1] != '"' {
		return s
	}
	in := t[1 : len(t)-1]
	if strings.IndexByte(in, '"') >= 0 || in != strings.TrimSpace(in) || !outputAfterMarker(in) {
		return s
	}
	return in
}
