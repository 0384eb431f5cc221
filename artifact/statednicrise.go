package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A NIC driver counter named inline in the author's sentence with its successive readings
// (fix34b): "rx_discards_phy increased from 5963738838 to 6182841734 and 7242315227 while we
// are receiving tcp syn attacks", "rx_missed_errors went from 1200 to 98000 on eth0",
// "rx_fifo_errors grew from 10 to 20, then 35". The name is ethtool -S's (the NIC loss table,
// kernel/nicloss.go, vouches for it: a word that is no such counter is no reading), the
// numbers are its readings in the order given, each read as one ethtool -S sample of that
// interface (unnamed unless "on IFACE" follows), so the rules judge the growth between the
// first and the last as they judge two pasted ethtool -S outputs. A possibility ("if
// rx_discards_phy increases from 0 to ..."), a negation, advice, another machine's and a
// decreasing sequence (no counter since boot falls) are none.
var reStatedNICRise = lazyre.New(`\b([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\s+(?:has\s+|had\s+|have\s+)?(?:increased|grew|rose|climbed|jumped|went(?:\s+up)?|gone\s+up|grown|risen|climbs|grows|goes(?:\s+up)?|increases|rises)\s+from\s+(\d{1,3}(?:,\d{3})+|\d+)\s+to\s+(\d{1,3}(?:,\d{3})+|\d+)((?:\s*(?:,\s*and|,\s*then|,|and|then|->|→)\s+(?:then\s+)?(?:to\s+)?(?:\d{1,3}(?:,\d{3})+|\d+)\b)*)(?:\s+on\s+(?:the\s+)?(?:interface\s+|nic\s+|port\s+)?` + "`?" + `([a-z][a-z0-9]*\d[a-z0-9._]*))?`)

var reStatedNICRiseMore = lazyre.New(`\d{1,3}(?:,\d{3})+|\d+`)

// statedNICRise is one counter's readings as the author gives them.
type statedNICRise struct {
	iface, name string
	values      []int64
	line        int
}

// statedNICRiseAt reads one reStatedNICRise match m of para; ok is false when it is no
// reading of this host's counter (see above).
func statedNICRiseAt(para string, m []int, lineAt func(int) int, sub *subjects) (statedNICRise, bool) {
	name := para[m[2]:m[3]]
	if !isNICLossName(name) {
		return statedNICRise{}, false
	}
	match := para[m[0]:m[1]]
	sentence := sentenceAround(para, m[0], m[1])
	if hypotheticalUpTo(sentence, match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || genericStatement(sentence, match) || questionAt(para, m[0], m[1]) {
		return statedNICRise{}, false
	}
	var vals []int64
	nums := []string{para[m[4]:m[5]], para[m[6]:m[7]]}
	if m[8] >= 0 {
		nums = append(nums, reStatedNICRiseMore.FindAllString(para[m[8]:m[9]], -1)...)
	}
	for _, s := range nums {
		v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
		if err != nil || len(vals) > 0 && v < vals[len(vals)-1] {
			return statedNICRise{}, false // a counter since boot does not fall
		}
		vals = append(vals, v)
	}
	if vals[len(vals)-1] == vals[0] {
		return statedNICRise{}, false
	}
	no := lineAt(m[0])
	if subj, _ := sub.subjectAt(no, sentence); subj != "" {
		return statedNICRise{}, false // another machine's, advice, or the outcome of a change
	}
	iface := ""
	if m[10] >= 0 {
		if n := strings.TrimRight(para[m[10]:m[11]], "."); isIfaceName(n) {
			iface = n // "on eth0." ends the sentence
		}
	}
	return statedNICRise{iface: iface, name: name, values: vals, line: no}, true
}

// statedNICRises adds each reading as one ethtool -S sample of its interface, marked as
// stated, in the order the author gives them.
func (d *doc) statedNICRises(rs []statedNICRise) {
	for _, r := range rs {
		src := spanSource(r.line, r.line) + " (" + StatedMark + ")"
		for _, v := range r.values {
			var c kernel.Counters
			c.Set(r.name, v)
			d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, NICStats: []kernel.NICStats{{Name: r.iface, Stats: &c}}})
		}
		d.addArtifact(KindStated, r.line, r.line, map[string]any{"nic_counter": r.name, "interface": r.iface, "readings": r.values})
	}
}
