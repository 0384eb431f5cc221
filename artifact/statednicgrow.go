package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// An interface's loss counter said to grow, without its readings (h31c): "rx_missed_errors
// keeps increasing on eth1", "RX dropped keeps increasing on eth0, about 2000 per minute",
// "rx_fifo_errors is climbing". statednicrise.go reads the same names with their readings
// ("went from A to B"); this is the sentence that gives none, or a rate. The name is ethtool
// -S's or the netdev statistic's, classified by kernel.ClassifyNICCounter (the one home of
// what each counts), or ip -s link's and ifconfig's words for rx_dropped and
// rx_missed_errors ("RX dropped", "RX drops", "RX missed"). What it reaches:
//
//   - a ring or FIFO loss (rx_missed_errors, rx_fifo_errors, rx_over_errors, a driver's
//     rx_discards_phy, rx_no_buffer_count): the NIC overran, stated (RateStatedRxOverrun,
//     nic-rx-overruns);
//   - the stack's rx_dropped with a rate in the same sentence ("about 2000 per minute"):
//     the stated rate (RateStatedRxDroppedPerSec, rx-dropped-software, which judges it by
//     its rate line). Without a rate, rx_dropped's growth says nothing the rule could judge
//     (a trickle of frames no protocol wants also grows it), so nothing is stated.
//
// Not read: a question, a condition or possibility, a negation, the voice of documentation
// (statedCounterRose), and a counter that is no loss (rx_packets).
var reStatedNICGrows = lazyre.New(`(?i)\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+|rx\s+(?:dropped|drops|missed))\b[` + "`" + `'"”’)]*\s*(?:(?:counters?|count|values?)\s+)?(?:(?:has|have|had|was|were|is|are|keeps?|kept|started|starts|began|continues|continued|still|constantly|always|steadily|continuously|slowly|quickly|rapidly|then|also)\s+(?:been\s+|to\s+)?)*(skyrocket\w*|soar\w*|climb(?:s|ed|ing)|ris(?:es|ing|en)|rose|grow(?:s|ing|n)|grew|increas(?:es|ed|ing)|jump(?:s|ed|ing)|(?:goes|went|going)\s+up)\b`)

// reNICGrowRate: a rate after the growth in the same sentence: "about 2000 per minute",
// "~50/s", "by 300 packets a second".
var reNICGrowRate = lazyre.New(`(?i)^[^.;!?]{0,40}?\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)(k?)\s*(?:(?:packets?|pkts?|frames?|drops?)\s+)?(?:per\s+|/\s*|an?\s+|every\s+)(second|sec|s|minute|min|m|hour|hr|h)\b`)

// nicGrowth is one statement: ring says the counter is a NIC ring/FIFO loss; perSec is the
// rx_dropped rate stated, 0 when none.
type nicGrowth struct {
	ring     bool
	perSec   float64
	no       int
	sentence string
}

// statedNICGrowth reads the statements of para that an interface's loss counter grew.
func statedNICGrowth(para string, has func(...string) bool, lineAt func(int) int) (out []nicGrowth) {
	if !has("rx", "_errors", "discard", "_drop") {
		return nil
	}
	for _, m := range submatches(true, reStatedNICGrows, para) {
		name := strings.ToLower(strings.Join(strings.Fields(para[m[2]:m[3]]), "_"))
		switch name {
		case "rx_drops":
			name = "rx_dropped"
		case "rx_missed":
			name = "rx_missed_errors"
		}
		loss, ok := kernel.ClassifyNICCounter(name, false)
		if !ok || loss.Direction != "rx" {
			continue
		}
		// statedCounterRose reads the verb as the first group.
		mm := []int{m[0], m[1], m[4], m[5]}
		no, sentence, ok := statedCounterRose(para, mm, lineAt)
		if !ok || questionAt(para, m[0], m[1]) || listenQuestion(sentence, para[m[1]:]) || conditionLead(para[max(0, m[0]-40):m[0]]) {
			continue
		}
		if loss.RxOverrun() {
			out = append(out, nicGrowth{ring: true, no: no, sentence: sentence})
			continue
		}
		if name != "rx_dropped" {
			continue
		}
		r := reNICGrowRate.FindStringSubmatch(para[m[1]:])
		if r == nil {
			continue
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(r[1], ",", ""), 64)
		if err != nil || v <= 0 {
			continue
		}
		if r[2] != "" {
			v *= 1000
		}
		switch strings.ToLower(r[3])[0] {
		case 'm':
			v /= 60
		case 'h':
			v /= 3600
		}
		out = append(out, nicGrowth{perSec: v, no: no, sentence: sentence})
	}
	return out
}

// reNICLossPPS: a NIC counter given with its rate in packets per second in a sentence or a
// list of runs ("4 IRQ, XDP_REDIRECT -- port.rx_dropped: appx. 2000 pps / interface"); a
// range ("50-75 pps") is read at its top.
var reNICLossPPS = lazyre.New(`(?i)(?:^|[\s(,;>|])([a-z][a-z0-9_]*(?:[._][a-z0-9]+)+):\s*(?:~\s*|(?:appx|approx|approximately|about|around)\.?\s+)?(\d[\d,]*)(?:\s*[-–]\s*(\d[\d,]*))?\s*(?:pps|packets/s(?:ec)?)\b`)

// statedNICLossPPS reads the ring-loss rates para states in pps (kernel.ClassifyNICCounter:
// only a ring or FIFO loss, such as i40e's port.rx_dropped); a rate of 0 is no reading (one
// counter named, not all of them).
func statedNICLossPPS(para string, has func(...string) bool, lineAt func(int) int) (out []nicGrowth) {
	if !has("pps", "packets/s") {
		return nil
	}
	for _, m := range submatches(true, reNICLossPPS, para) {
		loss, ok := kernel.ClassifyNICCounter(strings.ToLower(para[m[2]:m[3]]), false)
		if !ok || !loss.RxOverrun() {
			continue
		}
		num := para[m[4]:m[5]]
		if m[6] >= 0 {
			num = para[m[6]:m[7]]
		}
		v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
		sentence := sentenceAround(para, m[0], m[1])
		if err != nil || v <= 0 || hypotheticalUpTo(sentence, para[m[0]:m[1]]) || strings.ContainsAny(sentence, "?？") {
			continue
		}
		out = append(out, nicGrowth{ring: true, perSec: v, no: lineAt(m[0]), sentence: sentence})
	}
	return out
}
