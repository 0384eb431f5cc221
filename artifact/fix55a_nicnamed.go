package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// fix55a: the drops an author states and names by the NIC's counter that counts them,
// without its value: "流量高峰时出现drop丢包,rx_missed_errors" (drops at the traffic's
// peak: rx_missed_errors), "we drop packets due to rx_missed_errors",
// "the packet loss shows up as rx_fifo_errors", a title "... rx_missed_errors 丢包". The
// counter is ethtool -S's or the netdev statistic's, classified by kernel.ClassifyNICCounter
// (the one home of what each counts); only a ring or FIFO loss (RxOverrun: the NIC had no
// free descriptor and missed the frame) is read, as the NIC overrun stated
// (RateStatedRxOverrun, nic-rx-overruns), as statednicgrow.go reads one said to grow.
//
// Two orders: the drop words, then the counter a few words on in the same sentence, no
// figure between; or the counter, then the drop words right after it (spaces and marks
// only). Not read: a counter with its value ("rx_missed_errors: 0", read from the output
// that holds it), a negation ("no drops in rx_missed_errors", "不是 rx_missed_errors"), a
// question, a condition or advice ("if you see drops, check rx_missed_errors"), the voice of
// documentation ("rx_missed_errors counts frames dropped when ..."), a definition, and
// another host's.
var (
	reNICNamedDropFirst = lazyre.New(`(?i)(?:\bdrop(?:s|ped|ping)?\b|\bpacket\s+loss\b|\blost\s+(?:packets|frames)\b|丢包|丢弃|掉包|ドロップ|パケットロス)[^.;!?。！？\d\n]{0,30}?\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b`)
	reNICNamedDropAfter = lazyre.New(`(?i)\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\b[\s,，、:：()（）'"` + "`" + `*/-]{0,6}(?:drop(?:s|ped|ping)?\b|packet\s+loss\b|丢包|丢弃|掉包|ドロップ|パケットロス)`)
	// A value after the counter: the reading, not a statement.
	reNICNamedValue = lazyre.New(`^[` + "`" + `'"”’*]*\s*[:=]\s*\d`)
)

// statedNICNamedDrop reports the line and sentence of para's first statement that its drops
// are a named NIC ring or FIFO loss counter's; ok is false when there is none.
func statedNICNamedDrop(para string, has func(...string) bool, lineAt func(int) int) (no int, sentence string, ok bool) {
	if !has("rx_", "_rx", "missed", "fifo", "no_buf", "discard") || !has("drop", "loss", "lost", "丢", "掉包", "ドロップ", "ロス") {
		return 0, "", false
	}
	for _, re := range []*lazyre.Regexp{reNICNamedDropFirst, reNICNamedDropAfter} {
		for _, m := range submatches(true, re, para) {
			name := strings.ToLower(para[m[2]:m[3]])
			if l, known := kernel.ClassifyNICCounter(name, false); !known || !l.RxOverrun() {
				continue
			}
			if reNICNamedValue.MatchString(para[m[3]:]) {
				continue
			}
			match := para[m[0]:m[1]]
			sentence := sentenceAround(para, m[0], m[1])
			if reNotBusy.MatchString(match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || hypotheticalUpTo(sentence, match) ||
				genericStatement(sentence, match) || definitionAfter(para, m[1]) || glossedAfter(para, m[3]) || glossedAfter(para, m[1]) || questionAt(para, m[0], m[1]) ||
				conditionLead(para[max(0, m[0]-40):m[0]]) || strings.ContainsAny(sentence, "?？") {
				continue
			}
			return lineAt(m[0]), sentence, true
		}
	}
	return 0, "", false
}

// reGlossAfter: a parenthesis right after the words that says when or what they are, a
// glossary's entry ("- FIFO overruns (when NIC buffer fills faster than kernel can
// process)", "rx_missed_errors (i.e. frames the NIC had no descriptor for)"), not a reading.
var reGlossAfter = lazyre.New(`(?i)^[` + "`" + `'"”’*]*\s*[(（]\s*(?:i\.e\.|e\.g\.|(?:when|whenever|if|which|that|meaning|means|occurs|happens|counts?|number\s+of|caused\s+by|due\s+to)\b)`)

// glossedAfter reports whether the words ending at para[end] are a glossary's entry
// (reGlossAfter).
func glossedAfter(para string, end int) bool {
	return reGlossAfter.MatchString(para[end:min(len(para), end+40)])
}
