package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A kernel counter named inline in the author's sentence with its readings (fix34b for the
// NIC's, h31a for every counter the table readers know): "rx_discards_phy increased from
// 5963738838 to 6182841734 and 7242315227 while we are receiving tcp syn attacks",
// "TcpExtListenOverflows went from 1200 to 45000 in an hour", "compact_fail went from 2000
// to 80000", "`UdpRcvbufErrors` is at 3.2M and climbing", "rx_missed_errors keeps increasing
// (now 123456)". The name must be one the kernel's vocabulary vouches for, in its one home:
//
//   - ethtool -S's loss counters (kernel.ClassifyNICCounter, the NIC loss table): read as one
//     ethtool -S sample of the interface per reading (unnamed unless "on IFACE" follows);
//   - nstat's names (a group prefix, splitNstatName) and the bare TcpExt names of
//     /proc/net/netstat (kernel.IsTcpExtName), Udp's bare RcvbufErrors/SndbufErrors: read as
//     a /proc/net/netstat+snmp sample per reading;
//   - /proc/vmstat's event counters (kernel.IsVMStatEventName): a /proc/vmstat sample per
//     reading.
//
// The readings are in the order given, so the rules judge the growth between the first and
// the last as they judge two pasted outputs; one reading ("is at N", "(now N)") is one
// sample, the counter since boot. A possibility ("if X increases from 0 to ..."), a
// negation, advice, a question, another machine's and a decreasing sequence (no counter
// since boot falls) are none.
var (
	reStatedCounterRise = lazyre.New(`\b([A-Za-z][A-Za-z0-9]*(?:_[a-z0-9]+)*)[` + "`" + `'"]?\s+(?:(?:has\s+|had\s+|have\s+)?(?:increased|grew|rose|climbed|jumped|went(?:\s+up)?|gone\s+up|grown|risen|climbs|grows|goes(?:\s+up)?|increases|rises)\s+)?from\s+(\d{1,3}(?:,\d{3})+|\d+)\s+to\s+(\d{1,3}(?:,\d{3})+|\d+)((?:\s*(?:,\s*and|,\s*then|,|and|then|->|→)\s+(?:then\s+)?(?:to\s+)?(?:\d{1,3}(?:,\d{3})+|\d+)\b)*)(?:\s+on\s+(?:the\s+)?(?:interface\s+|nic\s+|port\s+)?` + "`?" + `([a-z][a-z0-9]*\d[a-z0-9._]*))?`)
	// One reading: "X is at 45000", "X is now 3.2M", "X keeps increasing (now 123456)",
	// "X has reached 9000" (groups: name, number, its k/M scale).
	reStatedCounterNow = lazyre.New(`\b([A-Za-z][A-Za-z0-9]*(?:_[a-z0-9]+)*)[` + "`" + `'"]?\s+(?:(?:is|was|are|sits|stands)\s+(?:now\s+|currently\s+)?at|(?:is|was)\s+now|(?:has|had)\s+reached|(?:keeps?|kept)\s+(?:increasing|growing|rising|climbing)\s+\((?:now|currently)(?:\s+at)?)\s+~?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([kKM])?\b(?:\)?\s*,?\s*(?:and\s+)?(?:still\s+)?(climbing|growing|rising|increasing|going\s+up))?`)
	// A rate: "allocstall_normal increments by ~500/s", "pswpout increases by 20000/s and
	// pswpin by 15000/s", "compact_stall grows by 40 per second" (groups: name, number, scale).
	reStatedCounterRate = lazyre.New(`\b([A-Za-z][A-Za-z0-9]*(?:_[a-z0-9]+)*)[` + "`" + `'"]?\s+(?:(?:is\s+)?(?:increments?|increas(?:es|ing)|grow(?:s|ing)|ris(?:es|ing)|climb(?:s|ing)|goes\s+up|going\s+up)\s+)?by\s+(?:about\s+|around\s+|roughly\s+|~\s*)?(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*([kKM])?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b)`)
)

// reFixedBugWhere: a changelog's or a commit's account of a bug it fixed ("fixed a bug where
// ListenOverflows went from 0 to 45000 under synthetic load"): a program's history, not this
// host's reading.
var reFixedBugWhere = lazyre.New(`(?i)\b(?:fix(?:es|ed)?|resolv(?:es|ed)|address(?:es|ed))\s+(?:a\s+|the\s+|an\s+)?(?:bug|issue|regression|problem|race)\s+(?:where|in\s+which|that|causing|when)\b`)

// reBoundAfter: a bound right after the figure ("is at 1000 or above", "1000+ or more").
var reBoundAfter = lazyre.New(`(?i)^\s*(?:\+|(?:or|and)\s+(?:above|more|higher|over|greater|beyond)\b)`)

var reStatedNICRiseMore = lazyre.New(`\d{1,3}(?:,\d{3})+|\d+`)

// Where a stated counter's readings go.
const (
	riseNIC = iota
	riseNetStat
	riseVMStat
)

// statedCounterRise is one counter's readings as the author gives them.
type statedCounterRise struct {
	kind               int
	perSec             bool // values[0] is the growth per second the text states
	rising             bool // one reading said to grow ("is at N and climbing", "keeps increasing (now N)")
	group, iface, name string
	values             []int64
	line               int
}

// statedCounterKind resolves a name to the table it belongs to; ok is false for a word that
// is no kernel counter the readers know.
func statedCounterKind(name string) (kind int, group, counter string, ok bool) {
	if strings.Contains(name, "_") {
		if isNICLossName(name) {
			return riseNIC, "", name, true
		}
		if kernel.IsVMStatEventName(name) {
			return riseVMStat, "", name, true
		}
		return 0, "", "", false
	}
	if kernel.IsVMStatEventName(name) { // pswpin, pswpout, pgmajfault
		return riseVMStat, "", name, true
	}
	if g, c, ok := splitNstatName(name); ok {
		if g == "Udp6" {
			c = name // /proc/net/snmp6 spells its counters with the group
		}
		return riseNetStat, g, c, true
	}
	if name == "RcvbufErrors" || name == "SndbufErrors" {
		return riseNetStat, "Udp", name, true
	}
	if name != "TCP" && kernel.IsTcpExtName(name) {
		return riseNetStat, "TcpExt", name, true
	}
	return 0, "", "", false
}

// The forms statedCounterRiseAt reads.
const (
	riseFromTo = iota // reStatedCounterRise
	riseNow           // reStatedCounterNow
	risePerSec        // reStatedCounterRate
)

// statedCounterRiseAt reads one match m of para in form (riseFromTo ...); ok is false when
// it is no reading of this host's counter (see above).
func statedCounterRiseAt(para string, m []int, form int, lineAt func(int) int, sub *subjects) (statedCounterRise, bool) {
	kind, group, name, ok := statedCounterKind(para[m[2]:m[3]])
	if !ok || form == risePerSec && kind != riseVMStat {
		// A rate is read for /proc/vmstat's counters, whose rates the rules read
		// (model.GrowthRates); the others' rates have keys of their own.
		return statedCounterRise{}, false
	}
	now := form != riseFromTo
	match := para[m[0]:m[1]]
	sentence := sentenceAround(para, m[0], m[1])
	b := max(0, m[0]-16)
	for b < m[0] && lineAt(b) != lineAt(m[0]) {
		b++ // an <img ... /> line above is no threshold's ">"
	}
	before := para[b:m[0]]
	if k := strings.LastIndexAny(before, ".;!?>"); k >= 0 {
		// "... under load. X went from": the clause's words only; a ">" before the
		// name ends a tag (an <img ... /> flattened onto the line), no bound ("X > 1000"
		// puts it after the name, in the match).
		before = before[k+1:]
	}
	if hypotheticalUpTo(sentence, match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || genericStatement(sentence, match) || questionAt(para, m[0], m[1]) ||
		reThreshold.MatchString(before+match) || reFixedBugWhere.MatchString(sentence) ||
		reBoundAfter.MatchString(para[m[1]:min(len(para), m[1]+24)]) {
		return statedCounterRise{}, false
	}
	var vals []int64
	if now {
		v, ok := scale(strings.ReplaceAll(para[m[4]:m[5]], ",", ""), strings.ToLower(subOr(para, m[6], m[7])))
		if !ok || v <= 0 {
			return statedCounterRise{}, false
		}
		vals = []int64{int64(v)}
	} else {
		nums := []string{para[m[4]:m[5]], para[m[6]:m[7]]}
		if m[8] >= 0 {
			nums = append(nums, reStatedNICRiseMore.FindAllString(para[m[8]:m[9]], -1)...)
		}
		for _, s := range nums {
			v, err := strconv.ParseInt(strings.ReplaceAll(s, ",", ""), 10, 64)
			if err != nil || len(vals) > 0 && v < vals[len(vals)-1] {
				return statedCounterRise{}, false // a counter since boot does not fall
			}
			vals = append(vals, v)
		}
		if vals[len(vals)-1] == vals[0] {
			return statedCounterRise{}, false
		}
	}
	no := lineAt(m[0])
	if subj, _ := sub.subjectAt(no, sentence); subj != "" {
		return statedCounterRise{}, false // another machine's, advice, or the outcome of a change
	}
	iface := ""
	if !now && m[10] >= 0 {
		if n := strings.TrimRight(para[m[10]:m[11]], "."); isIfaceName(n) {
			iface = n // "on eth0." ends the sentence
		}
	}
	rising := form == riseNow && (m[8] >= 0 || strings.Contains(match, "keep") || strings.Contains(match, "kept"))
	return statedCounterRise{kind: kind, perSec: form == risePerSec, rising: rising, group: group, iface: iface, name: name, values: vals, line: no}, true
}

// statedCounterRises adds the readings as samples marked as stated, in the order the author
// gives them: a NIC counter's each as one ethtool -S sample of its interface; the netstat
// and vmstat counters' readings together, aligned on the newest (a counter with fewer
// readings is absent from the first samples: no growth is claimed for it), so the rules that read two of them at once (compact_fail against
// compact_stall, RcvPruned against PruneCalled) see them side by side.
func (d *doc) statedCounterRises(rs []statedCounterRise) {
	n, first, last := 0, 0, 0
	var growth kernel.Counters
	for _, r := range rs {
		if r.perSec {
			if _, dup := growth.Get(r.name); !dup {
				growth.Set(r.name, r.values[0])
				d.addArtifact(KindStated, r.line, r.line, map[string]any{"counter": r.name, "per_sec": r.values[0]})
				src := spanSource(r.line, r.line) + " (" + StatedMark + ")"
				var one kernel.Counters
				one.Set(r.name, r.values[0])
				d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, Rates: model.GrowthRates(&one, 1, 4)})
			}
			continue
		}
		if r.kind == riseNIC {
			src := spanSource(r.line, r.line) + " (" + StatedMark + ")"
			for _, v := range r.values {
				var c kernel.Counters
				c.Set(r.name, v)
				d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, NICStats: []kernel.NICStats{{Name: r.iface, Stats: &c}}})
			}
			d.addArtifact(KindStated, r.line, r.line, map[string]any{"nic_counter": r.name, "interface": r.iface, "readings": r.values})
			continue
		}
		if n == 0 || r.line < first {
			first = r.line
		}
		last = max(last, r.line)
		n = max(n, len(r.values))
	}
	if n == 0 {
		return
	}
	src := spanSource(first, last) + " (" + StatedMark + ")"
	for k := range n {
		s := model.Sample{Source: src}
		var vm kernel.Counters
		for _, r := range rs {
			if r.perSec || r.kind == riseNIC {
				continue
			}
			j := k - (n - len(r.values))
			if j < 0 {
				continue // fewer readings: aligned with the last ones (a lone reading is the newest)
			}
			v := r.values[j]
			switch r.kind {
			case riseNetStat:
				s.NetStat.Set(r.group, r.name, v)
			case riseVMStat:
				vm.Set(r.name, v)
			}
		}
		if vm.Len() > 0 {
			s.VMStat = &vm
		}
		d.tl.Samples = append(d.tl.Samples, s)
	}
	for _, r := range rs {
		if r.kind != riseNIC && !r.perSec {
			d.addArtifact(KindStated, r.line, r.line, map[string]any{"counter": r.name, "group": r.group, "readings": r.values})
		}
	}
}

// swapping: pswpin or pswpout said to grow, the kernel swapping (the key statedswapping.go's
// sentences reach, read by swap-under-load when no rate is known).
func (r statedCounterRise) swapping() bool {
	return r.kind == riseVMStat && (r.name == "pswpin" || r.name == "pswpout") && (r.perSec || len(r.values) > 1)
}

// risingKey is the stated-growth key of the rules that read one for this counter (the same
// keys the growth sentences without a figure reach: statedListenRising, statedudpbuf.go), or
// "" when its rule judges the reading alone.
func (r statedCounterRise) risingKey() string {
	switch {
	case r.kind != riseNetStat:
		return ""
	case r.group == "TcpExt" && (r.name == "ListenOverflows" || r.name == "ListenDrops"):
		return model.RateStatedListenRising
	case (r.group == "Udp" || r.group == "UdpLite") && r.name == "RcvbufErrors" || r.name == "Udp6RcvbufErrors":
		return model.RateStatedUDPRcvbufRising
	case (r.group == "Udp" || r.group == "UdpLite") && r.name == "SndbufErrors" || r.name == "Udp6SndbufErrors":
		return model.RateStatedUDPSndbufRising
	}
	return ""
}
