package artifact

import (
	"fmt"
	"slices"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// /proc/net files pasted verbatim (or excerpts of them), read by the kernel package's parsers
// as on a live host: net/softnet_stat, net/sockstat, net/netstat and net/snmp, net/dev. This
// file only finds where each starts and ends in a text (procBlock is in proc_mm.go).

// isSoftnetLine matches a /proc/net/softnet_stat line: 9 or more columns of 8 hex digits
// (9 in 2.6, 13 in 5.10, 15 on 6.18 here).
func isSoftnetLine(t string) bool {
	fs := fields(t)
	if len(fs) < 9 || len(fs) > 24 {
		return false
	}
	for _, f := range fs {
		if len(f) != 8 || !isHex(f) {
			return false
		}
	}
	return true
}

func (d *doc) trySoftnet(i int) int {
	if !isSoftnetLine(d.ls[i].Text) {
		return 0
	}
	k := procBlock(d.ls, i, isSoftnetLine)
	cpus, err := kernel.ParseSoftnet(strings.NewReader(joinText(d.ls[i:k])))
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/net/softnet_stat: %v", err))
		return k - i
	}
	return d.addTable(KindSoftnet, i, k, model.Sample{Softnet: cpus}, cpus)
}

// isSockStatLine matches "TCP: inuse 5 orphan 0 tw 0 alloc 7 mem 1" and "sockets: used 190".
func isSockStatLine(t string) bool {
	fs := fields(stripAnnotation(t)) // "TCP: inuse 4823 ... mem 57350 <--" (corpus 492)
	if len(fs) < 3 || !strings.HasSuffix(fs[0], ":") || len(fs)%2 != 1 {
		return false
	}
	for j := 1; j+1 < len(fs); j += 2 {
		if isDigits(fs[j]) || !isDigits(fs[j+1]) {
			return false
		}
	}
	return true
}

func (d *doc) trySockStat(i int) int {
	if !strings.HasPrefix(strings.TrimSpace(d.ls[i].Text), "sockets: used") {
		return 0
	}
	return d.sockStatBlock(i)
}

// trySockStatTCP reads the file pasted from its TCP line, without "sockets: used" (h31a:
// `grep TCP /proc/net/sockstat`, "TCP: inuse 5000 orphan 10 tw 200 alloc 6000 mem 190000"):
// the line alone carries the mem tcp-memory-pressure compares with net.ipv4.tcp_mem. Only
// the file's own shape (pairs of a word and a count) with its mem field.
func (d *doc) trySockStatTCP(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, "TCP: inuse ") || !strings.Contains(t, " mem ") || !isSockStatLine(t) {
		return 0
	}
	return d.sockStatBlock(i)
}

// sockStatBlock parses the sockstat lines from line i.
func (d *doc) sockStatBlock(i int) int {
	k := procBlock(d.ls, i, isSockStatLine)
	if k == i {
		// "sockets: used" without a count: prose, not the file (the fuzzer's "sockets:
		// used" made the error path below index line i-1).
		return 0
	}
	var b strings.Builder
	for _, l := range d.ls[i:k] {
		b.WriteString(stripAnnotation(l.Text))
		b.WriteByte('\n')
	}
	g, err := kernel.ParseSockStat(strings.NewReader(b.String()))
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/net/sockstat: %v", err))
		return k - i
	}
	return d.addTable(KindSockStat, i, k, model.Sample{SockStat: g}, g)
}

var netstatGroups = map[string]bool{"TcpExt:": true, "IpExt:": true, "MPTcpExt:": true, "Ip:": true, "Icmp:": true,
	"IcmpMsg:": true, "Tcp:": true, "Udp:": true, "UdpLite:": true}

// isProcNetStatHeader matches "TcpExt: SyncookiesSent SyncookiesRecv ..." followed by the values.
func isProcNetStatHeader(ls []Line, i int) bool {
	fs := fields(ls[i].Text)
	if len(fs) < 3 || !netstatGroups[fs[0]] || isDigits(fs[1]) || i+1 >= len(ls) {
		return false
	}
	vs := fields(ls[i+1].Text)
	return len(vs) == len(fs) && vs[0] == fs[0]
}

func (d *doc) tryProcNetStat(i int) int {
	if !isProcNetStatHeader(d.ls, i) {
		return d.tryProcNetStatCut(i)
	}
	// A group seen again starts the next sample: the file pasted twice, back to back
	// ("grep Udp: /proc/net/snmp; sleep 10; grep Udp: /proc/net/snmp", h29a), is two
	// readings whose difference is the rate, not one reading with a group repeated.
	k := i
	var seen [16]string
	n := 0
	for k+1 < len(d.ls) && isProcNetStatHeader(d.ls, k) {
		g := firstField(d.ls[k].Text)
		if slices.Contains(seen[:n], g) {
			break
		}
		if n < len(seen) {
			seen[n] = g
			n++
		}
		k += 2
	}
	g, err := kernel.ParseNetStat(strings.NewReader(joinText(d.ls[i:k])))
	if err != nil {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/net/netstat or snmp: %v", err))
		return k - i
	}
	return d.addTable(KindNetStatFile, i, k, model.Sample{NetStat: g}, g)
}

// tryProcNetStatCut reads a /proc/net/netstat or snmp pair whose value line a page or a
// paste cut short ("TcpExt: 0 0 8026471 ..." with 54 values under 81 names): the kernel
// prints names and values of a group as two lines of the same length
// (net/ipv4/proc.c netstat_seq_show), so the values shown are the first names' by position;
// the names after the cut are absent, not zero, and the line says so.
func (d *doc) tryProcNetStatCut(i int) int {
	if i+1 >= len(d.ls) {
		return 0
	}
	names, vals := fields(d.ls[i].Text), fields(d.ls[i+1].Text)
	if len(names) < 3 || !netstatGroups[names[0]] || isDigits(names[1]) ||
		len(vals) < 3 || vals[0] != names[0] || len(vals) >= len(names) {
		return 0
	}
	for _, v := range vals[1:] {
		if !isDigits(strings.TrimPrefix(v, "-")) {
			return 0
		}
	}
	if i+2 < len(d.ls) && isDigits(firstField(d.ls[i+2].Text)) {
		return 0 // the values go on on the next line: a wrapped line, not a cut one
	}
	n := len(vals)
	text := strings.Join(names[:n], " ") + "\n" + strings.Join(vals, " ") + "\n"
	g, err := kernel.ParseNetStat(strings.NewReader(text))
	if err != nil {
		d.unparsed(i, i+1, fmt.Sprintf("/proc/net/netstat or snmp: %v", err))
		return 2
	}
	d.unparsed(i+1, i+1, fmt.Sprintf("%s values cut after %d of %d names (%s onwards not in the text)",
		strings.TrimSuffix(names[0], ":"), n-1, len(names)-1, names[n]))
	return d.addTable(KindNetStatFile, i, i+2, model.Sample{NetStat: g}, g)
}

// isNetDevRow: "  eth0: 1234 56 ..." (net/core/net-procfs.c dev_seq_printf_stats: the name,
// a colon, then counts), not a shell prompt ("root@host:~# ") that also has a colon.
func isNetDevRow(t string) bool {
	name, rest, ok := strings.Cut(t, ":")
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.ContainsAny(name, " \t@") {
		return false
	}
	f := firstField(rest)
	return isDigits(f) || strings.HasPrefix(strings.TrimSpace(rest), "No statistics")
}

// /proc/net/dev pasted verbatim goes through kernel.ParseNetDev.
func (d *doc) tryProcNetDev(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, "Inter-|") {
		return 0
	}
	k := i + 1
	for ; k < len(d.ls); k++ {
		if isBlank(d.ls[k].Text) || (k > i+1 && !isNetDevRow(d.ls[k].Text)) {
			break // the table ends at the next prompt or prose line
		}
	}
	if strings.HasPrefix(t, "Inter-| sta-|") {
		// /proc/net/wireless (net/wireless/wext-proc.c wireless_seq_show): link quality and
		// the packets the wireless stack discarded (nwid, crypt, frag, retry, misc), not
		// /proc/net/dev's columns.
		d.unparsed(i, k-1, "/proc/net/wireless: link quality and discarded packets (nwid, crypt, frag, retry, misc, missed beacons), which headroom has no reader for")
		return k - i
	}
	// A row the paste cut ("lan1: 1751257559 4872946 0 0 0 0" at a text's end, g277's 6261)
	// is left out and the other rows read (leaveout.go).
	var devs []kernel.NetDev
	out, err := parseLeavingOut(d.ls[i:k:k], netDevBadRows, func(text string) (err error) {
		devs, err = kernel.ParseNetDev(strings.NewReader(text))
		return err
	}, func(l Line, _ error) bool { return !strings.Contains(l.Text, "|") })
	if err != nil || len(devs) == 0 {
		d.unparsed(i, k-1, fmt.Sprintf("/proc/net/dev: %v", err))
		return k - i
	}
	d.noteLeftOut(i, k, "/proc/net/dev", out, "cut by the paste?")
	d.addIfaces(KindNetDevFile, "/proc/net/dev", i, k-i, netDevIfaces(devs))
	return k - i
}

// netDevBadRows: the rows of a pasted /proc/net/dev table that may be left out for the rest
// to be read.
const netDevBadRows = 2

// netDevHeader is /proc/net/dev's two header lines as the kernel prints them
// (net/core/net-procfs.c dev_seq_show), put before rows pasted without theirs.
const netDevHeader = "Inter-|   Receive                                                |  Transmit\n" +
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"

// isNetDevBareRow: a /proc/net/dev row without its header: an interface's name (lower case
// first, as Linux names them: eth0, cali9b66e62ea5a, br-1a2b) and the colon, then exactly the
// 16 counts dev_seq_printf_stats prints. /proc/softirqs rows ("NET_RX: ..." on a 16-CPU host)
// have upper-case names, /proc/interrupts rows numbers or words after the counts.
func isNetDevBareRow(t string) bool {
	name, rest, ok := strings.Cut(strings.TrimSpace(t), ":")
	if !ok || !reIfconfigName.MatchString(name) {
		return false
	}
	fs := fields(rest)
	if len(fs) != 16 {
		return false
	}
	for _, f := range fs {
		if !isDigits(f) {
			return false
		}
	}
	// Every packet has bytes: a row whose packets outnumber its bytes, in either direction,
	// is not the interface's counters (numactl --show's "physcpubind: 0 1 2 ... 15" on a
	// 16-CPU host has 16 numbers too; g266's 5826 read it as rx_fifo_errors 4 of 5 frames).
	rxBytes, _ := atoi(fs[0])
	rxPackets, _ := atoi(fs[1])
	txBytes, _ := atoi(fs[8])
	txPackets, _ := atoi(fs[9])
	return rxBytes >= rxPackets && txBytes >= txPackets
}

// tryProcNetDevRows reads rows of /proc/net/dev pasted without the header (a row grepped
// out, "grep eth0 /proc/net/dev", or the header re-aligned by hand out of its shape): the 16
// counts are the kernel's columns in their order, read as the file's rows.
func (d *doc) tryProcNetDevRows(i int) int {
	k := i
	for k < len(d.ls) && isNetDevBareRow(d.ls[k].Text) {
		k++
	}
	if k == i {
		return 0
	}
	devs, err := kernel.ParseNetDev(strings.NewReader(netDevHeader + joinText(d.ls[i:k])))
	if err != nil || len(devs) == 0 {
		return 0
	}
	d.addIfaces(KindNetDevFile, "/proc/net/dev (rows without the header)", i, k-i, netDevIfaces(devs))
	return k - i
}

// netDevIfaces: /proc/net/dev's rows as interfaces.
func netDevIfaces(devs []kernel.NetDev) []Iface {
	ifs := make([]Iface, 0, len(devs))
	for _, dv := range devs {
		ifs = append(ifs, Iface{Name: dv.Name, Counters: dv.Counters})
	}
	return ifs
}
