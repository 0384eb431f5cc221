package kernel

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// NetDev is one interface of /proc/net/dev (or of pasted ifconfig / ip -s link output). The
// counters use the kernel's struct rtnl_link_stats64 names (include/uapi/linux/if_link.h):
// rx_bytes, rx_packets, rx_errors, rx_dropped, rx_fifo_errors, rx_frame_errors,
// rx_compressed, multicast, tx_bytes, tx_packets, tx_errors, tx_dropped, tx_fifo_errors,
// collisions, tx_carrier_errors, tx_compressed, and, where a source prints them,
// rx_missed_errors, rx_over_errors, rx_crc_errors, rx_length_errors, rx_nohandler.
//
// Three /proc/net/dev columns are sums, not the field their name says (net/core/net-procfs.c
// dev_seq_printf_stats, net/core/dev.c before 3.9; unchanged since at least 2.6.3):
//   - "drop"  = rx_dropped + rx_missed_errors, stored as rx_dropped. Many drivers (e1000,
//     igb, ixgbe) count RX-ring overruns as rx_missed_errors, so ring overflow shows up here.
//   - "frame" = rx_length_errors + rx_over_errors + rx_crc_errors + rx_frame_errors, stored as
//     rx_frame_errors.
//   - "carrier" = tx_carrier_errors + tx_aborted_errors + tx_window_errors +
//     tx_heartbeat_errors, stored as tx_carrier_errors.
//
// "fifo" is rx_fifo_errors (and tx_fifo_errors) alone; net-tools ifconfig prints it as
// "overruns". The parts of the sums are never split by guess: a source that prints them
// (ip -s -s link, ethtool -S) fills the separate names.
type NetDev struct {
	Name     string   `json:"name"`
	Counters Counters `json:"counters"`
	// UserSpace: a port that a user-space driver owns (a DPDK poll-mode driver; the counters
	// are its rte_eth_stats, kernel/dpdk.go). They count from the port's start or the last
	// stats reset, not from boot, and no part of the kernel's receive path (its ring sizing
	// through ethtool, NAPI and softnet, the page allocator's refill) is on the port's path.
	UserSpace bool `json:"user_space,omitempty"`
	// XDP: the XDP program ip link shows attached, in iproute2's words (ip/iplink_xdp.c
	// xdp_dump: the header's "xdp", "xdpgeneric", "xdpoffload", "xdpmulti", or the detail
	// line's "prog/xdp id 42"); "" when none was shown. virtio_net, veth and tun count the
	// program's XDP_DROP verdicts in rx_dropped (h29b).
	XDP string `json:"xdp,omitempty"`
}

// netDevColumns are the names of the 16 columns /proc/net/dev has printed since 2.2, used
// when the text has no header.
var netDevColumns = [...]string{
	"rx_bytes", "rx_packets", "rx_errors", "rx_dropped", "rx_fifo_errors", "rx_frame_errors",
	"rx_compressed", "multicast",
	"tx_bytes", "tx_packets", "tx_errors", "tx_dropped", "tx_fifo_errors", "collisions",
	"tx_carrier_errors", "tx_compressed",
}

// netDevHeaderWords maps the words of the header's receive and transmit halves to names.
var netDevHeaderWords = [2]map[string]string{
	{"bytes": "rx_bytes", "packets": "rx_packets", "errs": "rx_errors", "drop": "rx_dropped",
		"fifo": "rx_fifo_errors", "frame": "rx_frame_errors", "compressed": "rx_compressed",
		"multicast": "multicast"},
	{"bytes": "tx_bytes", "packets": "tx_packets", "errs": "tx_errors", "drop": "tx_dropped",
		"fifo": "tx_fifo_errors", "colls": "collisions", "carrier": "tx_carrier_errors",
		"compressed": "tx_compressed"},
}

// ReadNetDev reads /proc/net/dev of root's network namespace (Root.NetPath).
func ReadNetDev(root Root) ([]NetDev, error) {
	return parseFile(root, root.NetPath("dev"), ParseNetDev)
}

// ParseNetDev parses /proc/net/dev text. The two header lines name the columns; text without
// them is read with the 16-column layout.
func ParseNetDev(r io.Reader) ([]NetDev, error) {
	return parseText(r, ParseNetDevInto)
}

// ParseNetDevInto parses /proc/net/dev text into *dst, reusing the slice, names and Counters
// of the previous parse (see ParseMemInfoInto). Text with the kernel's 16-column header (or
// none) re-parses without allocating; an older header costs one column table per parse.
func ParseNetDevInto(dst *[]NetDev, data []byte) error {
	if k := netDevSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	devs := (*dst)[:0]
	defer func() { *dst = devs }()
	cols := netDevColumns[:]
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		if bytes.IndexByte(line, '|') >= 0 {
			// "Inter-|   Receive ...|  Transmit" names nothing; " face |bytes ...|bytes ..."
			// names the columns.
			if c, ok, err := netDevHeader(line); err != nil {
				return &LineError{Line: lines.num, Err: err}
			} else if ok {
				cols = c
			}
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return lines.errorf("want \"iface: counters\", got %q", line)
		}
		name := txtTrim(line[:colon])
		if len(name) == 0 || bytes.ContainsAny(name, " \t") {
			return lines.errorf("bad interface name %q", name)
		}
		devs = txtGrow(devs)
		d := &devs[len(devs)-1]
		d.Name = txtString(d.Name, name)
		var fill txtCountersFill
		fill.start(&d.Counters)
		rest := line[colon+1:]
		if bytes.Equal(txtTrim(rest), []byte("No statistics available.")) {
			// 2.4 and early 2.6 print this for devices without get_stats: absent, not zero.
			fill.done()
			continue
		}
		i := 0
		for {
			var tok []byte
			tok, rest = txtField(rest)
			if len(tok) == 0 {
				break
			}
			if i >= len(cols) {
				return lines.errorf("%s: more than the %d columns of the header", name, len(cols))
			}
			v, ok := txtInt(tok)
			if !ok || v < 0 {
				return lines.errorf("%s %s: %q is not a count", name, cols[i], tok)
			}
			fill.setString(cols[i], v)
			i++
		}
		if i != len(cols) {
			return lines.errorf("%s: %d columns, want %d", name, i, len(cols))
		}
		fill.done()
	}
	if len(devs) == 0 {
		return fmt.Errorf("net/dev: no interfaces")
	}
	return nil
}

// netDevHeader reads the column-naming header line " face |bytes packets ...|bytes ...".
// ok is false for the other header line. The usual 16-column header maps to netDevColumns
// without allocating.
func netDevHeader(line []byte) (cols []string, ok bool, err error) {
	bar1 := bytes.IndexByte(line, '|')
	bar2 := bytes.LastIndexByte(line, '|')
	if bar1 < 0 || !bytes.Equal(txtTrim(line[:bar1]), []byte("face")) {
		return nil, false, nil
	}
	// One bar: the receive half alone, the table cut by awk or cut ("face |bytes packets
	// errs drop fifo frame"); its rows have as many values.
	halves := [2][]byte{line[bar1+1:], nil}
	if bar2 > bar1 {
		halves = [2][]byte{line[bar1+1 : bar2], line[bar2+1:]}
	}
	standard := true
	n := 0
	for half, rest := range halves {
		for {
			var tok []byte
			tok, rest = txtField(rest)
			if len(tok) == 0 {
				break
			}
			name, known := netDevHeaderWords[half][string(tok)]
			if !known {
				return nil, false, excerptf("unknown column %q in the header", tok)
			}
			if standard && (n >= len(netDevColumns) || netDevColumns[n] != name) {
				standard = false
				cols = append([]string(nil), netDevColumns[:n]...)
			}
			if !standard {
				cols = append(cols, name)
			}
			n++
		}
	}
	if standard && n == len(netDevColumns) {
		return netDevColumns[:], true, nil
	}
	if standard { // a prefix of the usual header
		cols = append([]string(nil), netDevColumns[:n]...)
	}
	if len(cols) == 0 {
		return nil, false, fmt.Errorf("header names no columns")
	}
	return cols, true, nil
}

// netDevHeaderText is the header net/core/net-procfs.c (dev_seq_show) has printed since
// 2.6.x, which names netDevColumns.
const netDevHeaderText = "Inter-|   Receive                                                |  Transmit\n" +
	" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"

// netDevSameLayout is the fast path of ParseNetDevInto (see txtIntAt): the kernel's header,
// then the interfaces of devs in order (up to its capacity, as in netStatSameLayout), each
// with its 16 counters. It returns the number of interfaces the text filled, 0 when it does
// not fit.
func netDevSameLayout(devs []NetDev, data []byte) int {
	if !txtAt(data, 0, netDevHeaderText) {
		return 0
	}
	p, k := len(netDevHeaderText), 0
	for ; p < len(data); k++ {
		if k == len(devs) {
			return 0
		}
		d := &devs[k]
		c := &d.Counters
		if len(c.names) != len(netDevColumns) {
			return 0
		}
		for i, name := range c.names {
			if name != netDevColumns[i] {
				return 0
			}
		}
		q, ok := txtNameAt(data, txtSkip(data, p, ' '), d.Name, ':')
		if !ok || strings.IndexByte(d.Name, '|') >= 0 { // a '|' makes a header line
			return 0
		}
		q++
		for i := range c.values {
			if q = txtSkip(data, q, ' '); q < len(data) && data[q] == '-' {
				return 0 // "-0" is a count to the general parser; let it decide
			}
			v, e, ok := int64(0), q+1, false
			if v, ok = txtDigit(data, q); !ok { // a single digit, inlined: most counters of a quiet host are 0
				v, e, ok = txtIntAt(data, q)
			}
			if !ok || !txtFieldEnds(data, e) {
				return 0
			}
			c.values[i], q = v, e
		}
		if p, ok = txtEOL(data, q); !ok {
			return 0
		}
	}
	return k
}

// SysfsStatNames are the files of /sys/class/net/IF/statistics/ (net/core/net-sysfs.c
// netstat_attrs, rtnl_link_stats64 fields; rx_nohandler since 4.6): the interface's own
// counters, which a paste may list as "name: value" lines beside a driver's ethtool -S names.
var SysfsStatNames = map[string]bool{
	"rx_packets": true, "tx_packets": true, "rx_bytes": true, "tx_bytes": true, "rx_errors": true,
	"tx_errors": true, "rx_dropped": true, "tx_dropped": true, "multicast": true, "collisions": true,
	"rx_length_errors": true, "rx_over_errors": true, "rx_crc_errors": true, "rx_frame_errors": true,
	"rx_fifo_errors": true, "rx_missed_errors": true, "tx_aborted_errors": true,
	"tx_carrier_errors": true, "tx_fifo_errors": true, "tx_heartbeat_errors": true,
	"tx_window_errors": true, "rx_compressed": true, "tx_compressed": true, "rx_nohandler": true,
}
