package artifact

import "strings"

// baseQuote is the quoting depth every prose line with text shares: a reply that was
// itself quoted whole (forwarded, or pasted as a quote into another mail or a forum post)
// puts one more '>' before each of its lines, its own and the ones it quoted. Its own
// lines are then those at that depth, and only deeper ones are another message's
// (corpus 4683: a 2005 LKML reply quoting an "oom killer gone nuts" report, quoted twice
// over, read the report's "processes are killed by the oom-killer" as the author's).
func baseQuote(ls []proseLine) int {
	base := -1
	for _, p := range ls {
		if strings.TrimSpace(p.text) == "" {
			continue
		}
		if base < 0 || p.quote < base {
			base = p.quote
		}
		if base == 0 {
			return 0
		}
	}
	return max(base, 0)
}
