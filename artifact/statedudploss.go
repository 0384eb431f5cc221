package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// UDP receive-side loss stated in the author's words with a figure or a cause (fix32b,
// round 27 g124, flow collectors), beside the counter names of stated.go and the tool words
// of statedudpbuf.go:
//
//   - a share read off netstat -su: "`netstat -su` is showing about 80% of packets are
//     dropped". netstat -su prints the Udp group of /proc/net/snmp (net-tools
//     statistics.c): packets received, packet receive errors (InErrors), receive buffer
//     errors (RcvbufErrors); the only share it lets an author compute is errors over
//     received, the datagrams the kernel dropped at the socket. Only -su (or -s -u): a
//     plain netstat -s mixes TCP's retransmits and IP's discards in.
//   - the drops put down to the receive buffer: "packets drop because RCVBUF is
//     overflowed", "datagrams are dropped because the receive buffer is full" (net/ipv4/
//     udp.c __udp_enqueue_schedule_skb, counted in Udp RcvbufErrors and InErrors). Only in a
//     text about UDP: a TCP receive queue prunes, it is another counter.
//   - a rate of "UDP errors" read off a graph, "1200 events/s for UDP Errors" (netdata's
//     ipv4.udperrors chart, titled "UDP Errors": RcvbufErrors, InErrors, ...), read as
//     RcvbufErrors only when the text names that counter (a title "UDP packet loss
//     (RcvBufErrors)"): without it the errors could be checksum errors.
//
// Each is the host's unless the sentence is a possibility, advice or another machine's
// (the stated loop's subjects). Gated by a needle per form.
var (
	reStatedNetstatSuShare     = lazyre.New(`(?i)\bnetstat\s+(?:-su|-us|-s\s+-u|-u\s+-s|--statistics\s+--udp)\b[` + "`" + `'"]?[^.;!?]{0,40}?\b(\d{1,2}(?:\.\d+)?)\s*%\s+of\s+(?:the\s+|all\s+)?(?:udp\s+|incoming\s+|received\s+)?(?:packets|datagrams)\b[^.;!?%]{0,20}?\b(?:dropped|lost|discarded)\b`)
	reStatedRcvbufOverflowDrop = lazyre.New(`(?i)\b(?:packets|datagrams)\s+(?:are\s+|were\s+|get\s+|got\s+|being\s+)?(?:drop(?:s|ped)?|lost|discarded)\s+(?:because|since|as|due\s+to)\s+(?:the\s+|a\s+|its\s+|their\s+)?(?:socket(?:'s)?\s+)?(?:rcvbuf|rcv\s?buf(?:fer)?|so_rcvbuf|(?:socket\s+)?receive\s+buffer)s?\s*(?:(?:is|was|are|were|gets?|got|being|has\s+been|had\s+been)\s+)?(?:overflow(?:ed|s|ing)?|full|filled(?:\s+up)?|exhausted|overrun)\b` +
		`|\b(?:packets|datagrams)\s+(?:are\s+|were\s+|get\s+|got\s+|being\s+)?(?:drop(?:s|ped)?|lost|discarded)\s+(?:because\s+of|due\s+to)\s+(?:the\s+|a\s+)?(?:rcvbuf|rcv\s?buf(?:fer)?|so_rcvbuf|(?:socket\s+)?receive\s+buffer)s?\s+overflows?\b`)
	// fix36b: a share of UDP datagrams the author measured as dropped, "about 50% of UDP
	// drops when pushing 20K+ packets per second", "UDP packet loss of 30%", read only when
	// the text puts the cure on the socket receive buffer (proseRaisesRcvbuf).
	reStatedUDPDropShare = lazyre.New(`(?i)\b(\d{1,2}(?:\.\d+)?)\s*%\s+(?:of\s+)?(?:the\s+)?(?:incoming\s+)?udp\s+(?:packet\s+|datagram\s+)?(?:drops|loss(?:es)?)\b` +
		`|\budp\s+(?:packet\s+|datagram\s+)?(?:loss|drops?)\s+(?:rate\s+)?(?:of|at|around|about|is|was|:)\s*(?:about\s+|around\s+|~)?(\d{1,2}(?:\.\d+)?)\s*%`)
	// "In the screen shot below you'll see", "as you can see in the graph above": the
	// author points at a figure shown with the text, not a possibility. Removed before the
	// hypothetical check; "you'll see N errors/s if the buffer is small" keeps its "if".
	reShownYouSee         = lazyre.New(`(?i)\b(?:in\s+the\s+(?:attached\s+)?(?:screen\s?shots?|graphs?|charts?|images?|pictures?|dashboards?)|below|above|attached)\b[^.;!?]{0,30}?\byou(?:'ll|\s+will|\s+can)\s+see\b`)
	reStatedUDPErrorsRate = lazyre.New(`(?i)\b(\d+(?:[.,]\d+)?)\s*(k)?\s*(?:events?|errors?)?\s*(?:/\s*s(?:ec(?:ond)?)?|per\s+sec(?:ond)?)\s+(?:of|for|in|on)\s+(?:the\s+)?[` + "`" + `'"]?udp\s+(?:receive\s+)?errors\b` +
		`|\budp\s+(?:receive\s+)?errors\b[` + "`" + `'"]?\s*(?:at|of|peak(?:ing)?\s+at|reach(?:ed|ing)?|around|about|:|=|~)\s*(?:about\s+|around\s+|~)?(\d+(?:[.,]\d+)?)\s*(k)?\s*(?:events?|errors?)?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b)`)
)

// fix57a: UDP loss the author says a larger socket receive buffer cured, the outcome that
// names the overflow when no counter is pasted (a 2.4 kernel has no RcvbufErrors): "The UDP
// packet loss went away by setting the rmem_max and rmem_default in /proc/sys/net/core",
// "raising net.core.rmem_max fixed the UDP drops". A datagram that finds its socket's
// receive queue at sk_rcvbuf is dropped there (__udp_enqueue_schedule_skb, net/ipv4/udp.c;
// sock_queue_rcv_skb in 2.4), above the NIC, so /proc/net/dev stays clean; a larger
// rmem_default (or SO_RCVBUF up to rmem_max) is what removes it. Not read: a negation ("did
// not fix", "is not gone"), a possibility or advice ("increasing rmem_max may fix UDP loss").
var reStatedUDPLossCured = lazyre.New(`(?i)\budp\s+(?:packet\s+|datagram\s+)?(?:loss|drops?|dropping)\s+(?:went\s+away|disappeared|vanished|stopped|ceased|(?:is|was|were|are)\s+(?:gone|fixed|solved|resolved|eliminated)|(?:has|have)\s+(?:gone(?:\s+away)?|disappeared|stopped))\b[^.;!?]{0,30}?\b(?:by|after|when|once)\s+(?:we\s+|i\s+)?(?:setting|increasing|raising|bumping|enlarging|set|increased|raised|bumped|enlarged)\b(?:[^.;!?]|\.\S){0,40}?\.?(?:\brmem_(?:max|default)\b|\bso_rcvbuf\b|\brcvbuf\b|\breceive\s+buffers?\b)` +
	`|\b(?:setting|increasing|raising|bumping|enlarging|increased|raised|bumped|enlarged)\s+(?:[^.;!?]|\.\S){0,40}?\.?(?:\brmem_(?:max|default)\b|\bso_rcvbuf\b|\brcvbuf\b|\breceive\s+buffers?\b)(?:[^.;!?]|\.\S){0,40}?\b(?:fixed|solved|resolved|cured|eliminated|removed|stopped)\s+(?:the\s+|our\s+|my\s+|all\s+)?udp\s+(?:packet\s+|datagram\s+)?(?:loss|drops)\b`)

// reCuredNegated: a negation inside the cure's words ("raising rmem_max has not fixed").
var reCuredNegated = lazyre.New(`(?i)\b(?:not|never|no|didn't|doesn't|hasn't|haven't|wasn't|isn't)\b|n't\b`)

// proseNamesRcvbuf: a prose line of the text (its title too) names Udp RcvbufErrors.
func (d *doc) proseNamesRcvbuf() bool {
	for _, p := range d.proseLines {
		if containsFoldASCII(p.text, "rcvbuferr") || containsFoldASCII(p.text, "rcvbuf err") || containsFoldASCII(p.text, "receive buffer error") {
			return true
		}
	}
	return false
}

// proseRaisesRcvbuf: a prose line of the text says a larger socket receive buffer (the
// buffer named, or net.core.rmem_*) cures or would cure the loss: "That can be fixed by
// increasing UDP socket receive buffer", "raising rmem_max removes the drops".
func (d *doc) proseRaisesRcvbuf() bool {
	for _, p := range d.proseLines {
		if !containsFoldASCII(p.text, "receive buffer") && !containsFoldASCII(p.text, "rcvbuf") && !containsFoldASCII(p.text, "rmem") {
			continue
		}
		for _, w := range []string{"increas", "rais", "bigger", "larger", "bump"} {
			if containsFoldASCII(p.text, w) {
				return true
			}
		}
	}
	return false
}

// statedUDPLoss reads the four forms in a prose paragraph and emits the rate key, its
// value, the line and the sentence of each.
func (d *doc) statedUDPLoss(para string, has func(...string) bool, lineAt func(int) int, emit func(key string, v float64, no int, sentence string)) {
	if has("netstat") && has("%") {
		for _, m := range submatches(true, reStatedNetstatSuShare, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reThreshold.MatchString(para[m[0]:m[1]]) {
				continue
			}
			if v, err := strconv.ParseFloat(para[m[2]:m[3]], 64); err == nil && v > 0 && v <= 100 {
				emit(model.RateStatedUDPRcvbufDropPct, v, lineAt(m[0]), sentence)
			}
		}
	}
	if has("rcvbuf", "rcv buf", "receive buffer") && has("drop", "lost", "discard") && d.proseSaysUDP() {
		for _, m := range submatches(true, reStatedRcvbufOverflowDrop, para) {
			match := para[m[0]:m[1]]
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
				continue
			}
			emit(model.RateStatedUDPRcvbufRising, 1, lineAt(m[0]), sentence)
		}
	}
	if has("udp") && has("rmem", "rcvbuf", "receive buffer") {
		for _, m := range submatches(true, reStatedUDPLossCured, para) {
			match := para[m[0]:m[1]]
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || reCuredNegated.MatchString(match) {
				continue
			}
			emit(model.RateStatedUDPLossCuredByRcvbuf, 1, lineAt(m[0]), sentence)
		}
	}
	if has("udp") && has("%") && has("drop", "loss") && d.proseRaisesRcvbuf() {
		for _, m := range submatches(true, reStatedUDPDropShare, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reThreshold.MatchString(para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
				continue
			}
			num := subOr(para, m[2], m[3])
			if num == "" {
				num = subOr(para, m[4], m[5])
			}
			if v, err := strconv.ParseFloat(num, 64); err == nil && v > 0 && v <= 100 {
				emit(model.RateStatedUDPRcvbufDropPct, v, lineAt(m[0]), sentence)
			}
		}
	}
	if has("udp") && has("error") && has("/s", "per sec") && d.proseNamesRcvbuf() {
		for _, m := range submatches(true, reStatedUDPErrorsRate, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(reShownYouSee.ReplaceAllString(sentence, ""), para[m[0]:m[1]]) || reThreshold.MatchString(para[max(0, m[0]-16):m[1]]) {
				continue
			}
			num, k := subOr(para, m[2], m[3]), subOr(para, m[4], m[5])
			if num == "" {
				num, k = subOr(para, m[6], m[7]), subOr(para, m[8], m[9])
			}
			if c := strings.IndexByte(num, ','); c >= 0 && len(num)-c == 4 {
				num = num[:c] + num[c+1:] // "1,200": a thousands separator
			}
			if v, ok := scale(num, k); ok && v > 0 {
				emit(model.RateStatedUDPRcvbufPerSec, v, lineAt(m[0]), sentence)
			}
		}
	}
}
