package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// UDP buffer-error counters stated to grow in the author's words, by the names the tools
// print them under (issue 29, g56–g58 fix15b), beside reStatedUDPRcvbufRising's nstat names:
//
//   - netstat -su (net-tools statistics.c, the Udp group of /proc/net/snmp) prints
//     RcvbufErrors as "%u receive buffer errors" and SndbufErrors as "%u send buffer
//     errors"; a text quotes those words with a growth and no figure: "a benchmark increases
//     the number of `send buffer errors`", "netstat -s|grep "send buffer errors" ... the
//     count has been increasing". SndbufErrors is counted by udp_sendmsg when the send
//     fails with ENOBUFS (net/ipv4/udp.c udp_send_skb: a full socket send buffer or a
//     device queue that dropped it); the rule (diagnose/net_udp.go) covers both.
//   - /proc/net/udp's last column is each socket's sk_drops (net/ipv4/udp.c
//     udp4_format_sock prints sk_drops_read(sp) after the inode; udp6 likewise,
//     net/ipv6/datagram.c __ip6_dgram_sock_seq_show): "UDP packet drops reported via
//     /proc/net/udp".
//
// Each is a statement, not a counter: the finding stays a warning (StatedMark), with no
// value or rate invented. Gated: the stated loop runs only on prose paragraphs, and each
// regexp only when the paragraph holds its needle ("buffer errors"/"buf errors", "/proc/net/udp").
var (
	// The counter's words first, then its growth in the same clause: "send buffer errors
	// keep increasing", "the send buffer errors ... the count has been increasing".
	// h31c: netstat -su's "packet receive errors" (Udp InErrors, of which RcvbufErrors are
	// the full-buffer part: __udp_queue_rcv_skb counts both) and "UDP receive errors" as
	// people shorten either: "UDP receive errors keep climbing".
	reStatedUDPBufWordsRising = lazyre.New(`(?i)\b(?:(?:send|receive)\s+buffer|snd\s?buf|udp\s+(?:packet\s+)?receive|packet\s+receive)\s?errors\b[` + "`" + `'"”’)]*\s*(?:[^.;!?]{0,40}?\b(?:the|its|that|this)\s+(?:count|number|counter|value|figure)s?\s+|(?:counters?|count|numbers?)\s+)?(?:(?:has|have|had|was|were|is|are|keeps?|kept|started|starts|began|continues|continued)\s+(?:been\s+|to\s+)?)?(skyrocket\w*|soar\w*|climb(?:s|ed|ing)|ris(?:es|ing|en)|rose|grow(?:s|ing|n)|grew|increas(?:es|ed|ing)|jump(?:s|ed|ing)|(?:goes|went|going|shot)\s+up)\b`)
	// The growth first: "increases the number of `send buffer errors`", "a rise in receive
	// buffer errors".
	reStatedUDPBufWordsRaised = lazyre.New(`(?i)\b(increas(?:es|ed|ing)|rais(?:es|ed|ing)|bump(?:s|ed|ing)|push(?:es|ed|ing)\s+up|drives?\s+up|drove\s+up|(?:a\s+)?(?:rise|spike|surge|jump|growth|increase)s?\s+(?:in|of))\s+(?:the\s+)?(?:(?:number|count|counter|value)\s+of\s+)?(?:the\s+)?[` + "`" + `'"“‘]*(?:udp\s+)?(?:(?:send|receive)\s+buffer|(?:snd|rcv)\s?buf)\s?errors\b`)
	// Drops read off /proc/net/udp (its drops column): "UDP packet drops reported via
	// /proc/net/udp", "/proc/net/udp shows increasing drops", "the drops column of
	// /proc/net/udp keeps rising".
	// The errors said to occur, named with UDP in the same words ("a UDP receive buffer
	// error occurs", "UDP receive buffer errors occurred"): the author saw the counter (or a
	// tool's alarm on it) move. Without "udp" the words could be a TCP or an application
	// buffer's, so "udp" is required.
	// fix34a (corpus 2886): a count or a range of drops in place of the words, the quote
	// of the column's name around "drops": "`/proc/net/udp6` reports several hundred to
	// ~1800 `drops` on the client socket", "/proc/net/udp shows 1,204 drops". A figure of
	// zero ("reports 0 drops") is no number here, so no drop is stated.
	reStatedUDPBufErrorOccurs = lazyre.New(`(?i)\budp\s+(?:socket\s+)?(?:receive|send)\s+buffer\s+errors?\s+(?:(?:has|have|had|was|were|is|are)\s+(?:been\s+)?)?(occur(?:s|red|ring)?|(?:happen|appear)(?:s|ed|ing)?|seen|observed|reported|logged)\b` +
		// fix27b (corpus 2343): the errors the author keeps getting, "I keep getting regular
		// UDP send buffer errors under even the lowest of loads" (a recurrence of his own).
		`|\b(?:keeps?|kept|am|is|was|were|are)\s+getting\s+(?:(?:regular|constant|frequent|repeated|periodic|many|lots\s+of|a\s+lot\s+of)\s+)?udp\s+(?:socket\s+)?(?:receive|send)\s+buffer\s+errors\b`)
	reStatedProcUDPDrops = lazyre.New(`(?i)\b(drops)\b[^.;!?]{0,20}?\b(?:reported|shown|seen|counted|visible|listed)\s+(?:via|in|by|from|through)\s+[` + "`" + `'"]?/proc/net/udp6?\b` +
		`|/proc/net/udp6?\b[` + "`" + `'"]?\s+(?:shows?|showed|reports?|reported|lists?|listed)\s+(?:(?:a\s+lot\s+of|lots\s+of|many|more|increasing|rising|growing|high|non-?zero|some|constant)\s+|` + statedDropCount + `)+[` + "`" + `'"]?(drops)\b` +
		`|\bdrops\s+column\s+(?:of|in)\s+[` + "`" + `'"]?/proc/net/udp6?\b[` + "`" + `'"]?\s+(?:(?:has|was|is|keeps?|kept)\s+(?:been\s+)?)?(ris(?:es|ing|en)|rose|grow(?:s|ing|n)|grew|increas(?:es|ed|ing)|climb(?:s|ed|ing))\b`)
)

// statedDropCount: one word of a stated count of drops (a number other than zero, a
// range's "to", an approximation or "several hundred"), each followed by space.
const statedDropCount = `(?:(?:~|≈|about\s+|around\s+|roughly\s+|approximately\s+|up\s+to\s+|over\s+|more\s+than\s+)?(?:[1-9]\d{0,2}(?:,\d{3})+|[1-9]\d*(?:\.\d+)?k?)\+?|several|a\s+few|a\s+couple\s+of|hundreds|thousands|hundred|thousand|of|to|-|–)\s+`

// statedUDPBufWords reads the three forms in a prose paragraph and returns the rate keys
// (model.RateStatedUDPRcvbufRising, RateStatedUDPSndbufRising, RateStatedUDPSocketDrops)
// with the line and sentence of each statement of this host's counter that grew.
func statedUDPBufWords(para string, has func(...string) bool, lineAt func(int) int, emit func(key string, no int, sentence string)) {
	if has("buffer error", "buf errors", "buferrors", "receive error") {
		for _, re := range []*lazyre.Regexp{reStatedUDPBufWordsRising, reStatedUDPBufWordsRaised, reStatedUDPBufErrorOccurs} {
			for _, m := range submatches(true, re, para) {
				if no, sentence, ok := statedCounterRose(para, m, lineAt); ok && !listenQuestion(sentence, para[m[1]:]) {
					emit(udpBufSideKey(para[m[0]:m[1]]), no, sentence)
				}
			}
		}
	}
	if has("/proc/net/udp") {
		for _, m := range submatches(true, reStatedProcUDPDrops, para) {
			if no, sentence, ok := statedCounterRose(para, m, lineAt); ok {
				emit(model.RateStatedUDPSocketDrops, no, sentence)
			}
		}
	}
}

// udpBufSideKey: a statement about the send side ("send buffer errors", SndbufErrors) or the
// receive side.
func udpBufSideKey(match string) string {
	l := strings.ToLower(match)
	if strings.Contains(l, "send") || strings.Contains(l, "snd") {
		return model.RateStatedUDPSndbufRising
	}
	return model.RateStatedUDPRcvbufRising
}
