package artifact

import (
	"strconv"

	"headroom/internal/lazyre"
)

// fix59b: a memory PSI figure the author measured on this host and states in prose: "the
// guest experienced 97% PSI memory stall", "memory PSI some avg10 reached 45%", "PSI
// memory pressure at 80%". /proc/pressure/memory (4.20+, kernel/sched/psi.c) gives the
// share of wall time in which tasks stalled on memory (reclaim, refaults, compaction);
// which line (some or full) and which average the author read is rarely said, and since
// some >= full it is judged as "some", as a daemon's logged average is
// (model.RateStatedMemPSIPct). A threshold ("alert when memory PSI exceeds 20%"), advice, a
// condition and a negation state nothing of this host.
var reStatedMemPSI = lazyre.New(`(?i)(?:^|[^\w.])(\d{1,3}(?:\.\d+)?)\s*%\s*(?:of\s+)?(?:PSI\s+memory|memory\s+PSI)\b(?:\s+(?:some|full))?(?:\s+(?:stall\w*|pressure))?` +
	`|\b(?:PSI\s+memory|memory\s+PSI)(?:\s+(?:stall\w*|pressure))?(?:\s+(?:some|full))?(?:\s+avg\d+)?\s*(?:=|:|at|of|reached|hit|peaked\s+at|was|is|went\s+to|climbed\s+to|rose\s+to)?\s*(?:~|about\s+|around\s+)?(\d{1,3}(?:\.\d+)?)\s*%`)

// reMemPSIThreshold: the figure is a limit someone sets, not a measurement.
var reMemPSIThreshold = lazyre.New(`(?i)\b(?:threshold|exceeds?|above|over|limit|alert\w*|trigger\w*|configur\w*|set\s+to|default|such\s+as|e\.g\.|for\s+example)\b`)

// statedMemPSI reports the highest memory PSI percentage para states as measured on this
// host, with its line and sentence.
func statedMemPSI(para string, lineAt func(int) int) (pct float64, no int, sentence string, ok bool) {
	return highestStatedPct(para, reStatedMemPSI, lineAt, func(m []int) (float64, bool) {
		v := ""
		switch {
		case m[2] >= 0:
			v = para[m[2]:m[3]]
		case m[4] >= 0:
			v = para[m[4]:m[5]]
		}
		f, err := strconv.ParseFloat(v, 64)
		return f, err == nil && f > 0 && f <= 100
	})
}

// highestStatedPct reports the highest figure value reads off a match of re in para that
// states a measurement of this host: not another host's or a negated event, no hypothesis,
// no general statement, and no threshold someone sets (reMemPSIThreshold) just before it.
// Used by the stated memory PSI (fix59b) and sar's stated %commit (fix61).
func highestStatedPct(para string, re *lazyre.Regexp, lineAt func(int) int, value func(m []int) (float64, bool)) (pct float64, no int, sentence string, ok bool) {
	for _, m := range submatches(true, re, para) {
		f, good := value(m)
		if !good {
			continue
		}
		s := sentenceAround(para, m[0], m[1])
		if notTheHostsEvent(para, m[:2], guardOpts{neg: negNear}) || hypotheticalUpTo(s, para[m[0]:m[1]]) || genericStatement(s, para[m[0]:m[1]]) ||
			reMemPSIThreshold.MatchString(para[max(0, m[0]-40):m[1]]) {
			continue
		}
		if !ok || f > pct {
			pct, no, sentence, ok = f, lineAt(m[0]), s, true
		}
	}
	return pct, no, sentence, ok
}
