package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// ethtool_stats.pl (Jesper Brouer's network-testing/bin script, widely pasted on netdev and
// xdp-newbies) samples ethtool -S once a second and prints only the counters that changed,
// as per-second rates:
//
//	Ethtool(i40e1) stat:      3021232 (      3,021,232) <= rx_dropped /sec
//
// Mailers wrap the long lines, so the name (or its "/sec") may sit alone on the next line,
// and quoted-printable mail turns "<=" into "<=3D" and breaks a line with a trailing "=".
var reEthtoolStatsPl = lazyre.New(`^Ethtool\(\s*([^)\s]+)\s*\)\s+stat:\s+(\d+)\s+\(\s*[\d,]+\s*\)\s*<=(?:3D)?\s*(\S*)\s*(/sec)?$`)

// ethtoolStatsPlAt reads the ethtool_stats.pl line at i and the wrapped tail after it: the
// interface, the counter's name, its rate and the lines taken (0 when i is no such line).
func ethtoolStatsPlAt(ls []Line, i int) (iface, name string, perSec int64, n int) {
	s := strings.TrimSpace(ls[i].Text)
	n = 1
	// A quoted-printable soft break ("... rx_bytes_nic /s=" then "ec"): join the next line.
	for strings.HasSuffix(s, "=") && i+n < len(ls) && !strings.HasSuffix(s, "<=") {
		s = strings.TrimSuffix(s, "=") + strings.TrimSpace(ls[i+n].Text)
		n++
	}
	m := reEthtoolStatsPl.FindStringSubmatch(s)
	if (m == nil || m[4] == "") && i+n < len(ls) {
		// The name or its "/sec" wrapped onto the next line.
		next := strings.TrimSpace(ls[i+n].Text)
		if strings.HasSuffix(next, "/sec") && !strings.Contains(next, "Ethtool(") {
			if w := reEthtoolStatsPl.FindStringSubmatch(s + " " + next); w != nil {
				m = w
				n++
			}
		}
	}
	if m == nil || m[3] == "" || m[4] == "" {
		return "", "", 0, 0
	}
	v, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return "", "", 0, 0
	}
	return m[1], m[3], v, n
}

// tryEthtoolStatsPl reads a block of ethtool_stats.pl lines (one sampling second). The ring
// losses among its rates (kernel.ClassifyNICCounterIn, with the block's "port." names
// saying i40e or ice, whose plain rx_dropped is the VSI's no-descriptor discard) become
// RateNICRxRingLossPerSec, the sum of the block's; every rate is kept in the artifact. The
// script prints only the counters that changed, so a loss counter it does not print says
// nothing and no healthy reading is made of its absence.
func (d *doc) tryEthtoolStatsPl(i int) int {
	rates := map[string]float64{}
	var names []string
	iface, lastNo := "", 0
	k := i
	for k < len(d.ls) {
		ifc, name, v, n := ethtoolStatsPlAt(d.ls, k)
		if n == 0 || (iface != "" && ifc != iface) {
			break
		}
		iface = ifc
		if _, dup := rates[name]; dup {
			break // the next second's sample
		}
		rates[name] = float64(v)
		names = append(names, name)
		k += n
		lastNo = d.ls[k-1].No
	}
	if len(names) == 0 {
		return 0
	}
	var stats kernel.Counters
	for _, name := range names {
		stats.Set(name, int64(rates[name]))
	}
	first, last := d.ls[i].No, lastNo
	d.addNICRates(first, last, iface, names, rates, kernel.IntelVSIStats(stats), "ethtool_stats.pl rates per second of "+iface)
	return k - i
}

// addNICRates keeps a block of per-second NIC counter rates (names in the order read) as an
// ethtool -S artifact and, when ring losses are among them (kernel.ClassifyNICCounterIn;
// intelVSI: i40e's or ice's names, whose plain rx_dropped is the VSI's no-descriptor
// discard), a sample of their sum as RateNICRxRingLossPerSec; what names the source. Shared
// by ethtool_stats.pl's blocks and a script's legend-named readings (fix61f).
func (d *doc) addNICRates(first, last int, iface string, names []string, rates map[string]float64, intelVSI bool, what string) {
	var loss float64
	var lossNames []string
	for _, name := range names {
		if l, ok := kernel.ClassifyNICCounterIn(name, false, intelVSI); ok && l.RxOverrun() {
			loss += rates[name]
			lossNames = append(lossNames, name)
		}
	}
	d.addArtifact(KindEthtoolS, first, last, map[string]any{"interface": iface, "per_second": rates})
	if len(lossNames) > 0 {
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (" + what + ": " + strings.Join(lossNames, ", ") + ")",
			Rates: model.Rates{model.RateNICRxRingLossPerSec: loss}})
	}
}
