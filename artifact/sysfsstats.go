package artifact

import (
	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// sysfsListMinNames: how many of /sys/class/net/IF/statistics' own names a bare "name: value"
// list must hold, rx_packets and rx_dropped among them, to be read as that directory's
// counters: fewer could be any program's key-value output.
const sysfsListMinNames = 6

// reSysfsStatDir names the interface in "/sys/class/net/eth1/statistics" above a list; a
// placeholder ("<dev>", "IF") names none.
var reSysfsStatDir = lazyre.New(`/sys/class/net/([A-Za-z0-9_.:@-]+)/statistics`)

// trySysfsStatsList reads a list of "name: value" lines without a "NIC statistics:" line
// that holds the interface's sysfs statistics (rx_packets, rx_dropped, ...), alone or merged
// with a driver's ethtool -S counters (a paster's "for f in statistics/*" or a sorted merge of
// both): the sysfs names are the interface's counters (the rules on rx_dropped read them), and
// the whole list is its NIC statistics (the loss counters, zero or not, are read).
func (d *doc) trySysfsStatsList(i int) int {
	es, n, bad := ethtoolStatsAt(d.ls, i, true)
	if n < 1 || len(bad) > 0 {
		return 0
	}
	var nd kernel.NetDev
	for _, name := range es.Stats.Names() {
		if kernel.SysfsStatNames[name] {
			v, _ := es.Stats.Get(name)
			nd.Counters.Set(name, v)
		}
	}
	if nd.Counters.Len() < sysfsListMinNames || !nd.Counters.Has("rx_packets") || !nd.Counters.Has("rx_dropped") {
		return 0
	}
	label := d.label(i)
	nd.Name = "the interface"
	if m := reSysfsStatDir.FindStringSubmatch(label); m != nil && m[1] != "IF" && m[1] != "DEV" {
		nd.Name = m[1]
	} else if m := reEthtoolCmd.FindStringSubmatch(label); m != nil {
		nd.Name = m[1]
	}
	es.Interface = nd.Name
	first, last := d.ls[i].No, d.ls[i+n-1].No
	stats := es.Stats.Clone()
	d.segSeq++
	d.addSamples(KindEthtoolS, label, first, last, []model.Sample{{Source: spanSource(first, last),
		NetDev: []kernel.NetDev{nd}, NICStats: []kernel.NICStats{{Name: nd.Name, Stats: &stats}}}})
	d.addArtifact(KindEthtoolS, first, last, es)
	return n
}
