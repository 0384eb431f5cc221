package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// An interface's counters as the keys of an object: a program's JSON (OpenWrt's ubus
// network.device status, `"stats": {"rx_packets": 17065, "rx_dropped": 42, ...}`) or a
// source's map literal (a test's `eth1Stat := map[string]uint64{"port_rx_bytes": 893460472634,
// ...}` of ethtool -S names). Each row is `"name": number`, with a comma after all but
// perhaps the last; the object's own key, or the variable it is assigned to, names the
// interface.

// keyedCounterMinRows: how many rows an object must hold: fewer could be any program's
// settings ("mtu": 1500, "qlen": 1000).
const keyedCounterMinRows = 6

// reKeyedCounter: one row, `"rx_dropped": 42,`.
var reKeyedCounter = lazyre.New(`^"([a-z][A-Za-z0-9_.\-]{1,63})"\s*:\s*(\d{1,20}),?$`)

func isKeyedCounterLine(_, t string) bool { return reKeyedCounter.MatchString(strings.TrimSpace(t)) }

// reKeyedOpener: the line that opens the object: `"eth1": {`, `"stats": {`, or a Go or
// Python assignment (`eth1Stat := map[string]uint64{`, `stats = {`).
var reKeyedOpener = lazyre.New(`^(?:"([^"]{1,64})"\s*:\s*\{|([A-Za-z_]\w{0,63})\s*:?=\s*(?:map\[string\]\w+)?\{)$`)

// reKeyedName: a sibling `"name": "eth1",` that names the object the counters sit in.
var reKeyedName = lazyre.New(`^"(?:name|ifname|device|interface)"\s*:\s*"([^"]{1,32})",?$`)

// reInterfaceName: what an interface's name looks like (eth1, enp3s0f1, wlan0, br-lan,
// bond0.100): letters first, 15 characters at most (IFNAMSIZ less the NUL).
var reInterfaceName = lazyre.New(`^[a-z][a-z0-9_.:@-]{0,14}$`)

// tryKeyedCounters reads such an object: an interface's sysfs statistics (at least
// sysfsListMinNames of its names, rx_packets and rx_dropped among them) are its counters and
// its NIC statistics, as trySysfsStatsList reads the same names listed bare; a driver's
// ethtool -S names, with at least one loss counter among them, are its NIC statistics.
func (d *doc) tryKeyedCounters(i int) int {
	var stats kernel.Counters
	k := i
	for ; k < len(d.ls); k++ {
		m := reKeyedCounter.FindStringSubmatch(strings.TrimSpace(d.ls[k].Text))
		if m == nil {
			break
		}
		v, err := strconv.ParseInt(m[2], 10, 64)
		if err != nil {
			break
		}
		stats.Set(m[1], v)
	}
	if k-i < keyedCounterMinRows {
		return 0
	}
	var nd kernel.NetDev
	loss := false
	for _, name := range stats.Names() {
		if kernel.SysfsStatNames[name] {
			v, _ := stats.Get(name)
			nd.Counters.Set(name, v)
		}
		loss = loss || isNICLossName(name)
	}
	sysfs := nd.Counters.Len() >= sysfsListMinNames && nd.Counters.Has("rx_packets") && nd.Counters.Has("rx_dropped")
	if !sysfs && !loss {
		return 0
	}
	es := &EthtoolStats{Interface: keyedObjectName(d.ls, i), Stats: stats, Loss: map[string]string{}}
	for _, l := range kernel.ClassifyNICStats(&es.Stats, false) {
		es.Loss[l.Name] = l.Cause
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	clone := es.Stats.Clone()
	s := model.Sample{Source: spanSource(first, last), NICStats: []kernel.NICStats{{Name: es.Interface, Stats: &clone}}}
	if sysfs {
		nd.Name = es.Interface
		s.NetDev = []kernel.NetDev{nd}
	}
	d.segSeq++
	d.addSamples(KindEthtoolS, d.label(i), first, last, []model.Sample{s})
	d.addArtifact(KindEthtoolS, first, last, es)
	return k - i
}

// keyedObjectName names the interface whose counters open at line i: the key or variable of
// the object around them (a "stats" or "statistics" object's own parent's, or its "name"
// sibling's), when it looks like an interface's name; "the interface" when none does.
func keyedObjectName(ls []Line, i int) string {
	indent := leadingSpace(ls[i].Text)
	for j := i - 1; j >= 0 && j >= i-60; j-- {
		t := strings.TrimSpace(ls[j].Text)
		in := leadingSpace(ls[j].Text)
		if t == "" || in >= indent {
			if m := reKeyedName.FindStringSubmatch(t); m != nil && in < indent+8 && reInterfaceName.MatchString(m[1]) {
				return m[1]
			}
			continue
		}
		m := reKeyedOpener.FindStringSubmatch(t)
		if m == nil {
			break
		}
		key := m[1] + m[2]
		for _, suffix := range []string{"Stats", "Stat", "Counters", "_stats", "_stat"} {
			key = strings.TrimSuffix(key, suffix)
		}
		switch {
		case key == "stats" || key == "statistics" || key == "counters":
			indent = in // its parent names it
		case reInterfaceName.MatchString(key):
			return key
		default:
			return "the interface"
		}
	}
	return "the interface"
}

// leadingSpace: the width of a line's indentation, a tab counted as 8.
func leadingSpace(t string) int {
	n := 0
	for _, c := range t {
		switch c {
		case ' ':
			n++
		case '\t':
			n += 8
		default:
			return n
		}
	}
	return n
}
