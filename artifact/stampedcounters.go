package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A monitoring loop's readings of a NIC loss counter, one a line behind the clock time it
// was read at (a script's "date +%T; ethtool -S eth0 | grep Dropped", corpus 7229: atlantic's
// "05:16:17: InDroppedDma: 4421" / "05:16:30: InDroppedDma: 4676"). Each time is a reading
// of the counters, so the run is a series: the counter's growth between the readings is the
// loss while the loop ran. The clock has no date, so the readings keep no time: their order
// is what they say.

// reStampedCounter: a clock time (a colon after it or not), then "name: number". The name
// must be a NIC loss counter's (kernel.ClassifyNICCounter), checked by the reader.
var reStampedCounter = lazyre.New(`^(\d{1,2}:\d{2}:\d{2}(?:\.\d{1,9})?):?\s+([A-Za-z][\w\[\]. -]{0,63}?):\s+(\d{1,20})$`)

func isStampedCounterLine(_, t string) bool {
	m := reStampedCounter.FindStringSubmatch(strings.TrimSpace(t))
	return m != nil && isNICLossName(m[2])
}

// tryStampedCounters reads the run of stamped counter lines at line i, at least two: one
// sample per clock time.
func (d *doc) tryStampedCounters(i int) int {
	var ss []model.Sample
	at := ""
	k := i
	for ; k < len(d.ls); k++ {
		m := reStampedCounter.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil || !isNICLossName(m[2]) {
			break
		}
		v, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			break
		}
		if m[1] != at || len(ss) == 0 {
			at = m[1]
			st := &kernel.Counters{}
			ss = append(ss, model.Sample{Source: "line " + strconv.Itoa(d.ls[k].No) + " (" + at + ")", NICStats: []kernel.NICStats{{Stats: st}}})
		}
		ss[len(ss)-1].NICStats[0].Stats.Set(m[2], v)
	}
	if len(ss) < 2 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindEthtoolS, d.label(i), first, last, ss)
	d.addArtifact(KindEthtoolS, first, last, map[string]int{"readings": len(ss)})
	return k - i
}
