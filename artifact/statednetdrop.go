package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A receive drop count the writer states for an interface by name: "3.2M receive drops on
// interface eno1", "about 40,000 RX drops on eth0" (a pull request's or a ticket's summary of
// what an alert or `ip -s link` showed). It is the interface's drop count as /proc/net/dev and
// node_exporter's receive_drop print it (rx_dropped + rx_missed_errors: net/core/net-procfs.c
// dev_seq_printf_stats), read as that interface's rx_dropped, marked as stated; the rules
// judge it as any single reading of the counter (no packets, no rate: no share is claimed).
// A threshold ("more than 1000 receive drops on eth0"), a possibility, another machine's and
// advice are none.
var reStatedIfaceDrops = lazyre.New(`(?i)\b(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|m|thousand|million)?\s+(?:rx|receive|received|inbound|incoming)\s+(?:packet\s+)?drops\s+on\s+(?:the\s+)?(?:interface\s+|nic\s+|port\s+)?` + "`?" + `([a-z][a-z0-9]*\d[a-z0-9._]*)\b`)

// h31a: ifconfig's and ip -s link's field named as the tools print it, its count after it:
// "RX dropped 45000 on eth0", "rx dropped: 1.2M on eno1" (the same groups as above).
var reStatedIfaceDroppedField = lazyre.New(`(?i)\b(?:rx|receive)[\s-]+dropped\s*[:=]?\s*(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)\s*(k|m|thousand|million)?\s+(?:packets\s+)?on\s+(?:the\s+)?(?:interface\s+|nic\s+|port\s+)?` + "`?" + `([a-z][a-z0-9]*\d[a-z0-9._]*)\b`)

// statedDrop is a stated receive drop count of one interface.
type statedDrop struct {
	name string
	n    int64
	line int
}

var reThousands = lazyre.New(`^\d{1,3}(?:,\d{3})+$`)

// statedIfaceDrop reads one reStatedIfaceDrops match; ok is false when it is no count of this
// host's interface (see above).
func statedIfaceDrop(para string, m []int, lineAt func(int) int, sub *subjects) (statedDrop, bool) {
	name := para[m[6]:m[7]]
	if !isIfaceName(name) {
		return statedDrop{}, false
	}
	num, unit := para[m[2]:m[3]], subOr(para, m[4], m[5])
	var v float64
	if reThousands.MatchString(num) {
		n, err := strconv.ParseInt(strings.ReplaceAll(num, ",", ""), 10, 64)
		if err != nil || unit != "" {
			return statedDrop{}, false
		}
		v = float64(n)
	} else if x, ok := scale(num, unit); ok {
		v = x
	} else {
		return statedDrop{}, false
	}
	sentence := sentenceAround(para, m[0], m[1])
	match := para[m[0]:m[1]]
	// The words right before the count, in its clause: "more than", ">", "threshold of"
	// make it a threshold ("... under high traffic: 3.2M receive drops" is none).
	before := para[max(0, m[0]-24):m[0]]
	if i := strings.LastIndexAny(before, ":;"); i >= 0 {
		before = before[i+1:]
	}
	if v < 1 || hypotheticalUpTo(sentence, match) || reThreshold.MatchString(before) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
		return statedDrop{}, false
	}
	no := lineAt(m[0])
	subj, _ := sub.subjectAt(no, sentence)
	if subj != "" {
		return statedDrop{}, false // another machine's, advice, or the outcome of a change
	}
	return statedDrop{name: name, n: int64(v), line: no}, true
}

// statedIfaceDrops adds the stated counts as one sample of interface counters, each
// interface's last count as stated.
func (d *doc) statedIfaceDrops(drops []statedDrop) {
	if len(drops) == 0 {
		return
	}
	var devs []kernel.NetDev
	var lines []int
	at := map[string]int{}
	for _, dr := range drops {
		lines = append(lines, dr.line)
		k, ok := at[dr.name]
		if !ok {
			k = len(devs)
			at[dr.name] = k
			devs = append(devs, kernel.NetDev{Name: dr.name})
		}
		devs[k].Counters.Set("rx_dropped", dr.n)
	}
	first, last := spanOf(lines)
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (" + StatedMark + ")", NetDev: devs})
	d.addArtifact(KindStated, first, last, map[string]any{"netdev": devs})
}
