package artifact

import (
	"strconv"
	"strings"

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

// reSysfsPathStat: one line of `grep . /sys/class/net/IF/statistics/*` (or `grep -r`, or
// `head` with its file names stripped to "path:value"): the counter's whole path, a colon,
// its value.
var reSysfsPathStat = lazyre.New(`^/sys/class/net/([A-Za-z0-9_.:@-]{1,32})/statistics/([a-z_]{2,40}):\s*(\d{1,20})\s*$`)

func isSysfsPathStatLine(ft, _ string) bool {
	return strings.HasPrefix(ft, "/sys/class/net/") && strings.Contains(ft, "/statistics/")
}

// trySysfsPathGrep reads consecutive "/sys/class/net/IF/statistics/NAME:VALUE" lines (corpus
// 7165: a Pi's eth0 after an hour, rx_dropped 2 of 64232 packets) as one reading of those
// interfaces' counters, as trySysfsCounters reads the same files cat one by one: the path
// names the interface and the counter, so two lines are enough.
func (d *doc) trySysfsPathGrep(i int) int {
	var c sysfsCounters
	k := i
	for ; k < len(d.ls); k++ {
		m := reSysfsPathStat.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil || !kernel.SysfsStatNames[m[2]] {
			break
		}
		n, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			break
		}
		c.set(m[1], m[2], n)
	}
	if k-i < 2 {
		return 0
	}
	d.addSysfsCounters(&c, i, k, "sysfs statistics (grep . /sys/class/net/IF/statistics/*)")
	return k - i
}
