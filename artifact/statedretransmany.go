package artifact

import (
	"headroom/internal/lazyre"
)

// Retransmissions the author says this host's connections show, without a share: "Wireshark
// shows excessive duplicate ack and retransmission packets", "lots of TCP retransmissions in
// tcpdump" (a capture's summary, corpus 1759). It is RateStatedRetransSeen = 1, never a share:
// retransmit-rate says the share is not stated and judges nothing from it. A possibility ("if
// you see many retransmissions"), a negation ("no excessive retransmissions"), a general
// statement and advice state nothing about this host. The misspelling "retrasmission" is the
// author's and is read too.
var reStatedRetransMany = lazyre.New(`(?i)\b(?:excessive|lots\s+of|many|a\s+lot\s+of|high|huge|massive|tons\s+of|numerous|plenty\s+of|constant)\s+(?:(?:number|amount)\s+of\s+)?(?:tcp\s+)?(?:(?:dup(?:licate)?[- ]?acks?|out[- ]of[- ]order(?:\s+packets)?)\s+(?:and|&|,)\s+(?:tcp\s+)?)?retran?smi\w*`)

// statedRetransMany reports the line and sentence of such a statement, if any.
func statedRetransMany(para string, lineAt func(int) int) (int, string, bool) {
	for _, m := range matches(true, reStatedRetransMany, para) {
		sentence := sentenceAround(para, m[0], m[1])
		if notTheHostsEvent(para, m, guardOpts{noQuestion: true, neg: negNear}) || reThreshold.MatchString(para[m[0]:min(len(para), m[1]+30)]) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	return 0, "", false
}
