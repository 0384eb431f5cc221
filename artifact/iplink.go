package artifact

import (
	"fmt"
	"strconv"
	"strings"
)

// ip -s link and ip -s -s link (iproute2). The statistics come as label lines followed by
// value lines, and the labels changed between iproute2 versions (ip/ipaddress.c
// print_link_stats):
//
//	old:  "RX: bytes  packets  errors  dropped overrun mcast"        (overrun = rx_over_errors)
//	      "RX errors: length   crc     frame   fifo    missed"        (-s -s)
//	      "TX: bytes  packets  errors  dropped carrier collsns"
//	      "TX errors: aborted  fifo   window heartbeat transns"       (-s -s)
//	new:  "RX:  bytes packets errors dropped  missed   mcast"        (missed = rx_missed_errors)
//	      "RX errors:  length    crc   frame    fifo overrun"
//	      "TX:  bytes packets errors dropped carrier collsns"
//	      "TX errors: aborted   fifo window heartbt transns"
//
// so the columns are mapped by their label, not by position. Netlink gives iproute2 the
// separate rtnl_link_stats64 fields, so here rx_dropped is rx_dropped alone (unlike
// /proc/net/dev's "drop", see ifconfig.go). "transns" is the carrier-change count.

var ipLinkWords = map[string]map[string]string{
	"RX:": {"bytes": "rx_bytes", "packets": "rx_packets", "errors": "rx_errors", "dropped": "rx_dropped",
		"overrun": "rx_over_errors", "missed": "rx_missed_errors", "mcast": "multicast", "nohandler": "rx_nohandler",
		"otherhost": "rx_otherhost_dropped"},
	"RX errors:": {"length": "rx_length_errors", "crc": "rx_crc_errors", "frame": "rx_frame_errors",
		"fifo": "rx_fifo_errors", "missed": "rx_missed_errors", "overrun": "rx_over_errors", "nohandler": "rx_nohandler"},
	"TX:": {"bytes": "tx_bytes", "packets": "tx_packets", "errors": "tx_errors", "dropped": "tx_dropped",
		"carrier": "tx_carrier_errors", "collsns": "collisions", "compressed": "tx_compressed",
		// VyOS's `show interfaces` (vyos/ifconfig/operational.py _stat_names, h14b) spells the
		// column out: the same netlink counter.
		"collisions": "collisions"},
	"TX errors:": {"aborted": "tx_aborted_errors", "fifo": "tx_fifo_errors", "window": "tx_window_errors",
		"heartbeat": "tx_heartbeat_errors", "heartbt": "tx_heartbeat_errors", "transns": "carrier_changes"},
}

// isIPLinkHeader matches "2: eth0: <BROADCAST,MULTICAST,UP,LOWER_UP> mtu 1500 ...".
func isIPLinkHeader(t string) bool {
	fs := fields(t)
	if len(fs) >= 4 && strings.HasSuffix(fs[0], ":") && isDigits(strings.TrimSuffix(fs[0], ":")) &&
		strings.HasSuffix(fs[1], ":") && strings.HasPrefix(fs[2], "<") && strings.Contains(t, "mtu") {
		return true
	}
	// "can0: <NOARP,UP,LOWER_UP> mtu 16 ...": the index cut off by the paster.
	return len(fs) >= 3 && strings.HasSuffix(fs[0], ":") && len(fs[0]) > 1 && !isDigits(strings.TrimSuffix(fs[0], ":")) &&
		strings.HasPrefix(fs[1], "<") && strings.HasSuffix(fs[1], ">") && fs[2] == "mtu"
}

// ipProblem is a line of ip link output that was recognised and could not be read.
type ipProblem struct {
	at  int
	why string
}

// isWrappedIPHeader: the rest of a header line that a terminal or mail client wrapped
// ("state UP mode DEFAULT group default qlen 1000").
func isWrappedIPHeader(t string) bool {
	for _, w := range []string{"state ", "qlen ", "group ", "mode ", "qdisc ", "numtxqueues ", "gso_max_size "} {
		if strings.Contains(t, w) {
			return true
		}
	}
	return false
}

// headerWords reads "mtu N" and "qlen N" of an ip link header (iproute2 ip/ipaddress.c
// print_linkinfo), or of the piece of it that a wrap moved to the next line.
func (ifc *Iface) headerWords(fs []string) {
	for j := 0; j+1 < len(fs); j++ {
		switch mode, _, _ := strings.Cut(fs[j], "/id:"); mode {
		case "xdp", "xdpgeneric", "xdpoffload", "xdpmulti":
			// "mtu 1500 xdp qdisc mq" (older iproute2: "xdp/id:42"): the attach mode after
			// the MTU (ip/iplink_xdp.c xdp_dump).
			if ifc.XDP == "" && j > 0 && isDigits(fs[j-1]) {
				ifc.XDP = fs[j]
			}
		case "mtu":
			ifc.MTU, _ = atoi(fs[j+1])
		case "qlen":
			ifc.TxQueueLen, _ = atoi(fs[j+1])
		}
	}
}

func ipLinkAt(ls []Line, i int) ([]Iface, int, []ipProblem) {
	var out []Iface
	var probs []ipProblem
	k := i
	for k < len(ls) && isIPLinkHeader(ls[k].Text) {
		fs := fields(ls[k].Text)
		if !isDigits(strings.TrimSuffix(fs[0], ":")) {
			fs = append([]string{"?:"}, fs...) // no index: the name is the first field
		}
		ifc := Iface{Name: strings.TrimSuffix(fs[1], ":")}
		if at := strings.IndexByte(ifc.Name, '@'); at > 0 { // "eth0.100@eth0"
			ifc.Name = ifc.Name[:at]
		}
		ifc.Flags = strings.Split(strings.Trim(fs[2], "<>"), ",")
		ifc.headerWords(fs[3:])
		k++
		for k < len(ls) {
			t := strings.TrimSpace(ls[k].Text)
			if t == "" && vyattaStatsAfterBlank(ls, k) {
				k++
				continue
			}
			if t == "" || isIPLinkHeader(ls[k].Text) {
				break
			}
			if strings.HasPrefix(t, "prog/xdp") {
				// "prog/xdp id 42 tag 3b18... jited" (ip -d link, xdp_dump's detail line).
				ifc.XDP = t
				if f := fields(t); len(f) >= 3 && f[1] == "id" {
					ifc.XDP = strings.Join(f[:3], " ")
				}
				k++
				continue
			}
			if strings.HasPrefix(t, "link/") {
				if f := fields(t); len(f) > 1 {
					ifc.HWAddr = f[1]
				}
				k++
				continue
			}
			label := ipStatsLabel(t)
			if label == "" || k+1 >= len(ls) {
				if label == "" && isWrappedIPHeader(t) {
					ifc.headerWords(fields(t)) // "state UP qlen 1000": moved here by the wrap
					k++
					continue
				}
				if ls[k].Text[0] == ' ' || ls[k].Text[0] == '\t' {
					k++ // other detail lines (alias, altname, vf ...)
					continue
				}
				if label != "" {
					probs = append(probs, ipProblem{k, fmt.Sprintf("ip -s link: %q has no row of values under it", label)})
					k++
				}
				break
			}
			rows, prob := ifc.ipStatsRow(ls, k, label)
			if prob != nil {
				probs = append(probs, *prob)
			}
			k += rows
		}
		out = append(out, ifc)
	}
	return out, k - i, probs
}

// vyattaStatsAfterBlank: the blank line ls[k] is the one VyOS's and EdgeOS's `show
// interfaces ethernet ethN` print between `ip addr show ethN` (with their own "Last clear:"
// and "Description:" lines) and their own RX:/TX: table of the interface's counters
// (vyos-1x op_mode/interfaces.py _format_show_data and _format_stats; vyatta-op's
// vyatta-show-interfaces.pl run_show_intf, which EdgeOS inherited): the next line is an
// indented "RX:" label line, so the block goes on. A blank line before anything else still
// ends the interface.
func vyattaStatsAfterBlank(ls []Line, k int) bool {
	if k+1 >= len(ls) {
		return false
	}
	next := ls[k+1].Text
	if next == "" || (next[0] != ' ' && next[0] != '\t') {
		return false
	}
	return ipStatsLabel(strings.TrimSpace(next)) == "RX:"
}

// ipStatsLabel: the label of ip -s link's statistics line t ("RX:", "RX errors:", "TX:",
// "TX errors:"), the longest that t starts with; "" when none.
func ipStatsLabel(t string) string {
	label := ""
	for l := range ipLinkWords {
		if strings.HasPrefix(t, l) && (len(l) > len(label)) {
			label = l
		}
	}
	return label
}

// ipStatsRow reads the values under the label line ls[k] (label, and a row after it) into
// ifc's counters: the lines it took, and the problem when the row could not be read (then
// it took the label line alone).
func (ifc *Iface) ipStatsRow(ls []Line, k int, label string) (int, *ipProblem) {
	t := strings.TrimSpace(ls[k].Text)
	names := fields(strings.TrimPrefix(t, label))
	vals := fields(ls[k+1].Text)
	rows := 2
	// A values row broken in two by a wrap: the pieces add up to the columns.
	if len(vals) < len(names) && allNumeric(vals) && k+2 < len(ls) {
		if more := fields(ls[k+2].Text); len(vals)+len(more) == len(names) && allNumeric(more) {
			vals, rows = append(vals, more...), 3
		}
	}
	if len(vals) == len(names) && allNumeric(vals) {
		for c, n := range names {
			if key, ok := ipLinkWords[label][n]; ok {
				v, _ := atoi(vals[c])
				ifc.Counters.Set(key, v)
			}
		}
		return rows, nil
	}
	// `ip -s -h link` rounds large counters to three digits and a unit ("6.04T",
	// "67.7M": print_num in iproute2's lib/utils.c). A rounded figure is not the
	// counter, so only the columns printed whole are read; the row says so.
	if len(vals) == len(names) && allNumericOrHuman(vals) {
		var rounded []string
		for c, n := range names {
			key, ok := ipLinkWords[label][n]
			if !ok {
				continue
			}
			if v, whole := atoi(vals[c]); whole {
				ifc.Counters.Set(key, v)
			} else {
				rounded = append(rounded, n+" "+vals[c])
			}
		}
		return rows, &ipProblem{k, fmt.Sprintf("ip -s link: %s under %q rounded by ip -h (human units), not read as counters; the columns printed whole are read",
			strings.Join(rounded, ", "), label)}
	}
	// Never a silent skip: a column that is not read would be judged as absent
	// while the paste had it (issue 16: "missed" lost on a wrapped line).
	return 1, &ipProblem{k, fmt.Sprintf("ip -s link: the row under %q has %d values for %d columns (%s)",
		label, len(vals), len(names), strings.Join(names, " "))}
}

// ParseIPLink parses ip -s link or ip -s -s link output (old and new iproute2 layouts).
func ParseIPLink(text string) ([]Iface, error) {
	ls := SplitLines(text)
	for i := range ls {
		if isIPLinkHeader(ls[i].Text) {
			if ifs, n, probs := ipLinkAt(ls, i); n > 0 {
				if len(probs) > 0 {
					return ifs, fmt.Errorf("artifact: line %d: %s", ls[probs[0].at].No, probs[0].why)
				}
				return ifs, nil
			}
		}
	}
	return nil, fmt.Errorf("artifact: no ip link output in the text")
}

func (d *doc) tryIPLink(i int) int {
	if !isIPLinkHeader(d.ls[i].Text) {
		return 0
	}
	ifs, n, probs := ipLinkAt(d.ls, i)
	if n == 0 {
		return 0
	}
	for _, p := range probs {
		d.unparsed(p.at, min(p.at+1, i+n-1), p.why)
	}
	d.addIfaces(KindIPLink, "ip", i, n, ifs)
	return n
}

// tryIPStatsRows reads ip -s link's statistics rows without the interface line above them
// ("RX:  bytes packets errors dropped missed mcast" and its row of values, the TX pair, the
// -s -s error pairs): a post that quotes only the half it is about. The interface is the one
// the command or the label before the block names ("`ip -s link show eth0`:"); a block no
// line names is kept as an artifact without samples, whose counters no rule may take as a
// named interface's.
func (d *doc) tryIPStatsRows(i int) int {
	var ifc Iface
	k := i
	for k+1 < len(d.ls) {
		t := strings.TrimSpace(d.ls[k].Text)
		label := ipStatsLabel(t)
		if label == "" || !ipStatsHeader(t, label) {
			break
		}
		rows, prob := ifc.ipStatsRow(d.ls, k, label)
		if prob != nil {
			d.unparsed(prob.at, prob.at, prob.why)
		}
		k += rows
	}
	if ifc.Counters.Len() == 0 {
		return 0
	}
	label := d.label(i)
	ifc.Name = ipLinkCommandIface(label)
	if ifc.Name == "" {
		ifc.Name = labelIface(label)
	}
	if ifc.Name == "" {
		first, last := d.ls[i].No, d.ls[k-1].No
		d.segSeq++
		d.addArtifact(KindIPLink, first, last, ifaceArtifact{Tool: "ip -s link (statistics without the interface line)", Interfaces: []Iface{ifc}, Label: label})
		return k - i
	}
	d.addIfaces(KindIPLink, "ip -s link (statistics without the interface line)", i, k-i, []Iface{ifc})
	return k - i
}

// ipStatsHeader: the label line names two or more of its columns and nothing else, as
// print_link_stats prints them ("RX:  bytes packets errors dropped missed mcast"); ethtool
// -g's "RX:\t\t4096" and other tools' "RX: 12 packets" are not one.
func ipStatsHeader(t, label string) bool {
	names := fields(strings.TrimPrefix(t, label))
	if len(names) < 2 {
		return false
	}
	for _, n := range names {
		if _, ok := ipLinkWords[label][n]; !ok {
			return false
		}
	}
	return true
}

// ipLinkCommandIface: the interface an "ip [-s]... link show DEV" (or "ip -s link ls dev
// DEV") in a block's label names, "" when the label has no such command.
func ipLinkCommandIface(label string) string {
	_, after, ok := strings.Cut(label, " link ")
	if !ok || !strings.Contains(label, "ip ") {
		return ""
	}
	fs := fields(strings.Trim(after, "`'\":"))
	for j, f := range fs {
		if f == "show" || f == "ls" || f == "list" || f == "dev" {
			continue
		}
		if j == 0 || strings.HasPrefix(f, "-") {
			break
		}
		if n := strings.Trim(f, "`'\":,.()"); n != "" && !strings.ContainsAny(n, "|;<>") {
			return n
		}
		break
	}
	return ""
}

func joinText(ls []Line) string {
	var b strings.Builder
	for _, l := range ls {
		b.WriteString(l.Text)
		b.WriteByte('\n')
	}
	return b.String()
}

// allNumericOrHuman: every value is a whole number or one `ip -h` rounded ("6.04T", "67.7M",
// "512K"), and at least one is rounded.
func allNumericOrHuman(vals []string) bool {
	human := false
	for _, v := range vals {
		if _, ok := atoi(v); ok {
			continue
		}
		n := len(v)
		if n < 2 || !strings.ContainsRune("KMGTP", rune(v[n-1])) {
			return false
		}
		if _, err := strconv.ParseFloat(v[:n-1], 64); err != nil {
			return false
		}
		human = true
	}
	return human
}
