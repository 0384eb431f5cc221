package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// A Zabbix agent's interface counters as the agent itself returns them, before the server's
// preprocessing makes a change per second of them (unreadagent.go names the item in other
// contexts): `zabbix_get -s HOST -k 'net.if.in[eth0,dropped]'` prints the value alone on the
// next line, and `zabbix_agentd -t KEY` / `zabbix_agent2 -t KEY` print the key padded and
// "[TYPE|VALUE]" ("%-45s [u|%s]", zbxsysinfo's test mode). On Linux the agent reads
// /proc/net/dev (src/libs/zbxsysinfo/linux/net.c get_net_stat: bytes, packets, errs, drop
// columns), so the value is that file's counter: net.if.in's modes bytes (the default),
// packets, errors and dropped are rx_bytes, rx_packets, rx_errors and rx_dropped; net.if.out's
// the tx_ ones. One sample, no window.
var (
	reZabbixIfKey = lazyre.New(`net\.if\.(in|out)\[\s*['"]?([^,\]'"\s]+)['"]?\s*(?:,\s*['"]?([a-z]*)['"]?\s*)?\]`)
	// The command line itself, bare or after a prompt or sudo, with its -k key.
	reZabbixGetCommand = lazyre.New(`^(?:\S*[#$>]\s*)?(?:sudo\s+)?(?:\S*/)?zabbix_get\s.*\s-k\s*\S`)
	reZabbixTestRow    = lazyre.New(`^(net\.if\.(?:in|out)\[[^\]]*\])\s+\[[ud]\|(\d+)\]\s*$`)
)

// zabbixIfCounter is the /proc/net/dev counter a net.if key names; ok is false for another
// mode (overruns, frame, ...: the agent's other columns are read by other modes' names).
func zabbixIfCounter(key string) (kernel.NodeMetric, bool) {
	m := reZabbixIfKey.FindStringSubmatch(key)
	if m == nil {
		return kernel.NodeMetric{}, false
	}
	col := map[string]string{"": "bytes", "bytes": "bytes", "packets": "packets", "errors": "errors", "dropped": "dropped"}[m[3]]
	if col == "" {
		return kernel.NodeMetric{}, false
	}
	side := "rx_"
	if m[1] == "out" {
		side = "tx_"
	}
	return kernel.NodeMetric{File: "netdev", Group: m[2], Name: side + col, Scale: 1}, true
}

// isZabbixIfLine: the agent's test row, or a zabbix_get command line with a net.if key.
func isZabbixIfLine(_, t string) bool {
	if !strings.Contains(t, "net.if.") {
		return false
	}
	return reZabbixTestRow.MatchString(strings.TrimSpace(t)) || isZabbixGet(t) && reZabbixIfKey.MatchString(t)
}

func isZabbixGet(t string) bool {
	return strings.Contains(t, "zabbix_get") && reZabbixGetCommand.MatchString(strings.TrimSpace(t))
}

// zabbixIfAt reads one counter at line k: a test row (one line) or a zabbix_get command and
// the digits on the next line (two); n is 0 when neither.
func (d *doc) zabbixIfAt(k int) (nm kernel.NodeMetric, v int64, n int) {
	t := strings.TrimSpace(d.ls[k].Text)
	if m := reZabbixTestRow.FindStringSubmatch(t); m != nil {
		nm, ok := zabbixIfCounter(m[1])
		v, _ := atoi(m[2])
		if ok {
			return nm, v, 1
		}
		return nm, 0, 0
	}
	if !isZabbixGet(t) || k+1 >= len(d.ls) {
		return nm, 0, 0
	}
	next := strings.TrimSpace(d.ls[k+1].Text)
	nm, ok := zabbixIfCounter(t)
	if !ok || !isDigits(next) {
		return nm, 0, 0
	}
	v, _ = atoi(next)
	return nm, v, 2
}

func (d *doc) tryZabbixIf(i int) int {
	cs := &counterSample{}
	k := i
	for k < len(d.ls) {
		if isBlank(d.ls[k].Text) {
			k++
			continue
		}
		nm, v, n := d.zabbixIfAt(k)
		if n == 0 {
			break
		}
		cs.set(nm, v)
		k += n
	}
	for k > i && isBlank(d.ls[k-1].Text) {
		k--
	}
	if k == i {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	s := cs.sample()
	s.Source = spanSource(first, last) + " (zabbix agent)"
	d.segSeq++
	d.addSamples(KindZabbixIf, d.label(i), first, last, []model.Sample{s})
	d.addArtifact(KindZabbixIf, first, last, s.NetDev)
	return k - i
}
