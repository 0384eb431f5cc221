package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// PowerDNS's metrics that re-export the kernel's UDP counters (issue 29, g56–g58 fix15b):
// the Recursor (rec_control get NAME…, get-all) and dnsdist (dumpStats(), the carbon and
// API names) publish udp-in-errors, udp-noport-errors, udp-recvbuf-errors,
// udp-sndbuf-errors and udp-in-csum-errors, read from /proc/net/snmp's Udp row (pdns/misc.cc
// udpErrorStats; the metric table's help text is "From /proc/net/snmp InErrors" …), and the
// udp6-* ones from /proc/net/snmp6 (udp6ErrorStats). They are the host's system-wide
// counters since boot, not the daemon's own: every process's datagrams count in them. So
// they are read as the kernel counters they are (one sample of /proc/net/snmp), with the
// daemon named in the artifact's note.
//
// Two forms: `rec_control get NAME…` prints the values alone, one a line, in the order of the
// names asked; get-all and dnsdist's dumpStats() print "name value" rows (dumpStats two
// pairs a row).
// Gated: a format entry by the first byte ('#', '$', 'r' for the command, not '[' which
// starts every dmesg line; 'u' for a row) and then a substring ("rec_control") or a map
// lookup of the first field.

// pdnsUDPMetrics maps each metric to its /proc/net/snmp(6) group and counter.
var pdnsUDPMetrics = map[string][2]string{
	"udp-in-errors":       {"Udp", "InErrors"},
	"udp-noport-errors":   {"Udp", "NoPorts"},
	"udp-recvbuf-errors":  {"Udp", "RcvbufErrors"},
	"udp-sndbuf-errors":   {"Udp", "SndbufErrors"},
	"udp-in-csum-errors":  {"Udp", "InCsumErrors"},
	"udp6-in-errors":      {"Udp6", "Udp6InErrors"},
	"udp6-noport-errors":  {"Udp6", "Udp6NoPorts"},
	"udp6-recvbuf-errors": {"Udp6", "Udp6RcvbufErrors"},
	"udp6-sndbuf-errors":  {"Udp6", "Udp6SndbufErrors"},
	"udp6-in-csum-errors": {"Udp6", "Udp6InCsumErrors"},
}

const pdnsUDPNote = "PowerDNS (rec_control / dnsdist) metrics that re-export the kernel's UDP counters from /proc/net/snmp(6) since boot (pdns/misc.cc udpErrorStats): the host's, for every process, not the daemon's own"

// reRecControlGet: the command and the names it asks for.
var reRecControlGet = lazyre.New(`(?:^|[\s$#>])rec_control(?:\s+--\S+)*\s+get\s+([a-z0-9][a-z0-9 \t-]*)$`)

func isRecControlGetLine(_, t string) bool { return strings.Contains(t, "rec_control") }

func isPdnsUDPRow(ft, _ string) bool { _, ok := pdnsUDPMetrics[ft]; return ok }

// tryRecControlGet reads `rec_control get NAME…` and the values below it, one per name.
func (d *doc) tryRecControlGet(i int) int {
	m := reRecControlGet.FindStringSubmatch(strings.TrimSpace(d.ls[i].Text))
	if m == nil {
		return 0
	}
	names := fields(m[1])
	if len(names) == 0 || i+len(names) >= len(d.ls) {
		return 0
	}
	var g kernel.Groups
	for k, name := range names {
		l := d.ls[i+1+k]
		v, err := strconv.ParseInt(strings.TrimSpace(l.Text), 10, 64)
		if l.Kernel || err != nil || v < 0 {
			return 0
		}
		if c, ok := pdnsUDPMetrics[name]; ok {
			g.Set(c[0], c[1], v)
		}
	}
	if len(g) == 0 {
		return 0 // the daemon's own metrics: not this reader's
	}
	return d.addPdnsUDP(i, 1+len(names), g)
}

// tryPdnsUDPRows reads "name value" rows (several pairs a row) from a row whose first name
// is one of pdnsUDPMetrics, while the rows are such pairs.
func (d *doc) tryPdnsUDPRows(i int) int {
	var g kernel.Groups
	k := i
	for ; k < len(d.ls) && !d.ls[k].Kernel; k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) < 2 || len(fs)%2 != 0 {
			break
		}
		ok := true
		for p := 0; p < len(fs); p += 2 {
			v, err := strconv.ParseInt(fs[p+1], 10, 64)
			if err != nil || v < 0 || !isMetricName(fs[p]) {
				ok = false
				break
			}
			if c, known := pdnsUDPMetrics[fs[p]]; known {
				g.Set(c[0], c[1], v)
			}
		}
		if !ok {
			break
		}
	}
	if k == i || len(g) == 0 {
		return 0
	}
	return d.addPdnsUDP(i, k-i, g)
}

// isMetricName: a PowerDNS metric's name, lower case words joined by '-'.
func isMetricName(f string) bool {
	for i := 0; i < len(f); i++ {
		if c := f[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return f != "" && f[0] >= 'a' && f[0] <= 'z'
}

func (d *doc) addPdnsUDP(i, n int, g kernel.Groups) int {
	abs := true
	ns := &Nstat{Groups: g, Absolute: &abs, Note: pdnsUDPNote}
	first, last := d.ls[i].No, d.ls[i+n-1].No
	d.segSeq++
	d.addSamples(KindNstat, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last), NetStat: ns.Groups}})
	d.addArtifact(KindNstat, first, last, ns)
	return n
}
