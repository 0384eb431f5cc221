package artifact

import (
	"sort"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// A home-made script's per-second NIC readings whose legend maps its short names to ethtool
// -S counters (fix61f), as netdev and xdp-newbies mail pastes them:
//
//	ens6f1: portrx: 10030972 rx:  7010503 pps     drop:  3020434 pps
//	...
//	Note: ethtool -S stats
//	portrx => port.rx_size_64
//	drop => rx_dropped
//
// The legend may come before or after the readings, so it is looked for in the whole text
// once (doc.scriptLegend). Only "=>", "->" or "→" make a legend line (a "name = value" or
// "name: value" line is a setting or a counter), and only names in ethtool's shape (rx_ or
// tx_, or the port. names of i40e and ice). A reading line is an interface, a colon, and
// two or more "short: N" pairs of which the legend names at least one; its figures are per
// second when the line says pps. The ring losses among them (kernel.ClassifyNICCounterIn,
// with the legend's port. names saying i40e or ice, whose plain rx_dropped is the VSI's
// no-descriptor discard) become RateNICRxRingLossPerSec, as ethtool_stats.pl's rates do.
var (
	reScriptLegend = lazyre.New(`^([A-Za-z]\w{0,30})\s*(?:=>|->|→)\s*((?:port\.)?(?:rx|tx)[_.][a-z0-9_.]+)\s*$`)
	reScriptRates  = lazyre.New(`^([a-z][a-z0-9._-]*\d[a-z0-9._-]*):((?:\s+[A-Za-z]\w{0,30}:\s+\d+(?:\s*pps)?){2,})\s*$`)
	reScriptPair   = lazyre.New(`([A-Za-z]\w{0,30}):\s+(\d+)`)
)

// scriptLegend returns the text's legend of short names → ethtool counter names, nil when
// it has fewer than two legend lines; computed once.
func (d *doc) scriptLegend() map[string]string {
	if d.legendDone {
		return d.legend
	}
	d.legendDone = true
	m := map[string]string{}
	for i := range d.ls {
		t := strings.TrimSpace(d.ls[i].Text)
		if len(t) < 6 || !strings.Contains(t, ">") && !strings.Contains(t, "→") {
			continue
		}
		if g := reScriptLegend.FindStringSubmatch(t); g != nil {
			m[g[1]] = g[2]
		}
	}
	if len(m) >= 2 {
		d.legend = m
	}
	return d.legend
}

// isScriptRateLine is the cheap test of a reading line before the legend is looked for.
func isScriptRateLine(_, t string) bool {
	return strings.HasSuffix(t, "pps") && strings.Count(t, ":") >= 3
}

// tryScriptRates reads one reading line at i (see above).
func (d *doc) tryScriptRates(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	g := reScriptRates.FindStringSubmatch(t)
	if g == nil || !strings.Contains(g[2], "pps") {
		return 0
	}
	legend := d.scriptLegend()
	if legend == nil {
		return 0
	}
	rates := map[string]float64{}
	var stats kernel.Counters
	for _, p := range reScriptPair.FindAllStringSubmatch(g[2], -1) {
		name, ok := legend[p[1]]
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(p[2], 10, 64)
		if err != nil {
			continue
		}
		rates[name] = float64(v)
		stats.Set(name, v)
	}
	if len(rates) == 0 {
		return 0
	}
	intelVSI := kernel.IntelVSIStats(stats)
	for _, name := range legend { // the legend's own names say whose counters these are
		if strings.HasPrefix(name, "port.") {
			intelVSI = true
		}
	}
	names := make([]string, 0, len(rates))
	for n := range rates {
		names = append(names, n)
	}
	sort.Strings(names)
	no := d.ls[i].No
	d.addNICRates(no, no, g[1], names, rates, intelVSI, "a script's per-second rates of "+g[1]+", named by its legend")
	return 1
}
