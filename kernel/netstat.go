package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
)

// /proc/net/netstat and /proc/net/snmp share a layout: pairs of lines "Proto: Name1 Name2..."
// then "Proto: v1 v2...". ParseNetStat reads either into Groups (TcpExt, IpExt, MPTcpExt,
// Ip, Icmp, IcmpMsg, Tcp, Udp, UdpLite...), every counter kept under the kernel's own name.
// Values are signed: Tcp MaxConn is -1 (net/ipv4/proc.c snmp_seq_show_tcp_udp prints it
// with %ld).
//
// /proc/net/snmp6 has one "Name value" line per counter instead (net/ipv6/proc.c
// snmp6_seq_show_item, "%-32s\t%lu"), with the protocol as a prefix of the name
// ("Ip6InReceives", "Icmp6InMsgs", "Udp6RcvbufErrors", "UdpLite6InErrors"). ParseSNMP6
// splits the prefix off at its "6" and returns it as the group, so that snmp6 reads like
// snmp: Groups.Get("Udp6", "RcvbufErrors").

// ReadNetStat reads /proc/net/netstat, /proc/net/snmp and, when present, /proc/net/snmp6
// of root's network namespace, and returns their groups in that order. A file this kernel
// does not have (snmp6 without IPv6) is left out; ErrNotSupported only when none exists.
func ReadNetStat(root Root) (Groups, error) {
	var out Groups
	for _, f := range [...]struct {
		name  string
		parse func(io.Reader) (Groups, error)
	}{{"netstat", ParseNetStat}, {"snmp", ParseNetStat}, {"snmp6", ParseSNMP6}} {
		g, err := parseFile(root, root.NetPath(f.name), f.parse)
		if errors.Is(err, ErrNotSupported) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, g...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("/%s, snmp, snmp6: %w", root.NetPath("netstat"), ErrNotSupported)
	}
	return out, nil
}

// ParseNetStat parses /proc/net/netstat or /proc/net/snmp text.
func ParseNetStat(r io.Reader) (Groups, error) {
	return parseText(r, ParseNetStatInto)
}

// ParseNetStatInto parses /proc/net/netstat or /proc/net/snmp text into *dst, reusing the
// slice, group names and Counters of the previous parse (see ParseMemInfoInto). A sampler
// keeps one Groups per file and concatenates them.
func ParseNetStatInto(dst *Groups, data []byte) error {
	if k := netStatSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	groups := (*dst)[:0]
	defer func() { *dst = groups }()
	lines := txtLines{data: data}
	for {
		head, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		proto, names, err := netStatLine(head)
		if err != nil {
			return &LineError{Line: lines.num, Err: err}
		}
		vline, ok := lines.nextNonBlank()
		if !ok {
			return lines.errorf("%s: header line without a value line", proto)
		}
		vproto, vals, err := netStatLine(vline)
		if err != nil {
			return &LineError{Line: lines.num, Err: err}
		}
		if !bytes.Equal(proto, vproto) {
			return lines.errorf("values for %q follow the names of %q", vproto, proto)
		}
		groups = txtGrow(groups)
		g := &groups[len(groups)-1]
		g.Name = txtString(g.Name, proto)
		var fill txtCountersFill
		fill.start(&g.Counters)
		for i := 0; ; i++ {
			var name, val []byte
			name, names = txtField(names)
			val, vals = txtField(vals)
			if len(name) == 0 && len(val) == 0 {
				break
			}
			if len(name) == 0 || len(val) == 0 {
				return lines.errorf("%s: %d names but a different number of values", proto, i+len(name))
			}
			v, ok := txtInt(val)
			if !ok {
				return lines.errorf("%s %s: %q is not an integer", proto, name, val)
			}
			fill.set(name, v)
		}
		fill.done()
	}
	if len(groups) == 0 {
		return fmt.Errorf("netstat: no groups")
	}
	return nil
}

// netStatLine splits "Proto: rest".
func netStatLine(line []byte) (proto, rest []byte, err error) {
	colon := bytes.IndexByte(line, ':')
	if colon <= 0 {
		return nil, nil, excerptf("want \"Proto: ...\", got %q", line)
	}
	proto = txtTrim(line[:colon])
	if len(proto) == 0 || bytes.ContainsAny(proto, " \t") {
		return nil, nil, excerptf("bad protocol name %q", proto)
	}
	return proto, line[colon+1:], nil
}

// ParseSNMP6 parses /proc/net/snmp6 text.
func ParseSNMP6(r io.Reader) (Groups, error) {
	return parseText(r, ParseSNMP6Into)
}

// ParseSNMP6Into parses /proc/net/snmp6 text into *dst, reusing its storage (see
// ParseMemInfoInto).
func ParseSNMP6Into(dst *Groups, data []byte) error {
	if k := snmp6SameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	groups := (*dst)[:0]
	defer func() { *dst = groups }()
	var (
		fill txtCountersFill
		cur  []byte // prefix of the current group
	)
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		name, val, ok := txtNameValue(line)
		if !ok {
			return lines.errorf("want \"Name value\", got %q", txtTrim(line))
		}
		six := bytes.IndexByte(name, '6')
		if six <= 0 || six == len(name)-1 {
			return lines.errorf("%q has no protocol prefix ending in 6", name)
		}
		prefix, counter := name[:six+1], name[six+1:]
		if !bytes.Equal(prefix, cur) {
			for i := range groups {
				if groups[i].Name == string(prefix) {
					return lines.errorf("%s counters are not contiguous", prefix)
				}
			}
			if cur != nil {
				fill.done()
			}
			groups = txtGrow(groups)
			g := &groups[len(groups)-1]
			g.Name = txtString(g.Name, prefix)
			fill.start(&g.Counters)
			cur = prefix
		}
		v, ok := txtInt(val)
		if !ok {
			return lines.errorf("%s: %q is not an integer", name, val)
		}
		fill.set(counter, v)
	}
	if cur != nil {
		fill.done()
	}
	if len(groups) == 0 {
		return fmt.Errorf("snmp6: no counters")
	}
	return nil
}

// netStatSameLayout is the fast path of ParseNetStatInto (see txtIntAt): the text is, group
// after group of g, a header line "Proto: name name ..." with exactly the group's names,
// single spaces, as net/ipv4/proc.c prints them, then "Proto: value value ...". g is the
// destination up to its capacity, where the general parser leaves the groups it made (a
// sampler that concatenates netstat, snmp and snmp6 hands each parse the tail of one
// slice); the text may use fewer groups than g has. It returns the number of groups the
// text filled, 0 when it does not fit.
func netStatSameLayout(g Groups, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(g) {
			return 0
		}
		proto, c := g[k].Name, &g[k].Counters
		e, ok := txtNameAt(data, p, proto, ':')
		if !ok {
			return 0
		}
		// The header line after "Name:" is " name1 name2 ...", each name plain (txtMatch:
		// no blank in any, so the general parser splits the line at the same places).
		q := e + 1
		for _, name := range c.names {
			if q >= len(data) || data[q] != ' ' || !txtMatch(data, q+1, name) {
				return 0
			}
			q += 1 + len(name)
		}
		if q >= len(data) || data[q] != '\n' { // the value line must follow
			return 0
		}
		q++
		if !txtAt(data, q, proto) || !txtAt(data, q+len(proto), ":") {
			return 0
		}
		q += len(proto) + 1
		for i := range c.values {
			if q >= len(data) || data[q] != ' ' {
				return 0
			}
			if v, ok := txtDigit(data, q+1); ok {
				c.values[i], q = v, q+2
				continue
			}
			v, e, ok := txtIntAt(data, q+1)
			if !ok {
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

// snmp6SameLayout is the fast path of ParseSNMP6Into (see txtIntAt and netStatSameLayout):
// every line is a group's prefix and a counter name, blanks, and a value, with the groups
// and names of g in g's order.
func snmp6SameLayout(g Groups, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(g) {
			return 0
		}
		// The general parser splits a name at its first '6', so a prefix must have its only
		// '6' at the end; it refuses a prefix met twice, and makes no empty group.
		prefix, c := g[k].Name, &g[k].Counters
		if len(prefix) < 2 || strings.IndexByte(prefix, '6') != len(prefix)-1 || len(c.names) == 0 {
			return 0
		}
		for j := range k {
			if g[j].Name == prefix {
				return 0
			}
		}
		// The prefix begins every line of the group, then the name.
		for i, name := range c.names {
			s := p + len(prefix)
			e := s + len(name)
			if e >= len(data) || (data[e] != ' ' && data[e] != '\t') ||
				!txtMatch(data, p, prefix) || !txtMatch(data, s, name) {
				return 0
			}
			q := e
			for { // "%-32s\t%lu": spaces up to the column, then a tab
				q = txtSkip(data, q, ' ')
				if q == len(data) || data[q] != '\t' {
					break
				}
				q++
			}
			v, e, ok := int64(0), q+1, false
			if v, ok = txtDigit(data, q); !ok { // a single digit, inlined: most counters of a quiet host are 0
				v, e, ok = txtIntAt(data, q)
			}
			if !ok {
				return 0
			}
			if p, ok = txtEOL(data, e); !ok {
				return 0
			}
			c.values[i] = v
		}
	}
	return k
}

// TcpExtDropCounters are the /proc/net/netstat TcpExt counters that count segments or
// connections the stack dropped or trimmed for lack of room (include/uapi/linux/snmp.h:
// LINUX_MIB_LISTENOVERFLOWS, _LISTENDROPS, _TCPBACKLOGDROP, _TCPREQQFULLDROP, _PRUNECALLED,
// _RCVPRUNED, _TCPRCVQDROP, _TCPMEMORYPRESSURES, _TCPABORTONMEMORY). An application's own
// table that names one in its header carries the kernel's counter (corpus 493).
var TcpExtDropCounters = []string{"ListenOverflows", "ListenDrops", "TCPBacklogDrop", "TCPReqQFullDrop",
	"PruneCalled", "RcvPruned", "TCPRcvQDrop", "TCPMemoryPressures", "TCPAbortOnMemory"}

// tcpExtPlainNames are the TcpExt counters of /proc/net/netstat whose names do not start with
// "TCP" (net/ipv4/proc.c snmp4_net_list); every other TcpExt name is "TCP" and a capitalised
// word ("TCPDeferAcceptDrop", "TCPSackRecoveryFail").
var tcpExtPlainNames = []string{"SyncookiesSent", "SyncookiesRecv", "SyncookiesFailed", "EmbryonicRsts",
	"PruneCalled", "RcvPruned", "OfoPruned", "OutOfWindowIcmps", "LockDroppedIcmps", "ArpFilter", "TW",
	"TWRecycled", "TWKilled", "PAWSPassive", "PAWSActive", "PAWSEstab", "PAWSOldAck", "DelayedACKs",
	"DelayedACKLocked", "DelayedACKLost", "ListenOverflows", "ListenDrops", "IPReversePathFilter",
	"PFMemallocDrop", "BusyPollRxPackets", "TSECRRejects"}

// IsTcpExtName reports whether name is shaped as, or is, a /proc/net/netstat TcpExt counter's
// name: one of tcpExtPlainNames, or "TCP" followed by a capitalised word of letters and digits.
func IsTcpExtName(name string) bool {
	if slices.Contains(tcpExtPlainNames, name) {
		return true
	}
	rest, ok := strings.CutPrefix(name, "TCP")
	if !ok || len(rest) < 2 || rest[0] < 'A' || rest[0] > 'Z' {
		return false
	}
	for i := 0; i < len(rest); i++ {
		c := rest[i]
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// SNMPGroups are the groups of /proc/net/netstat, /proc/net/snmp and /proc/net/snmp6 as
// netstat -s, nstat and tools that re-print them ("TcpExt.ListenDrops") name them.
var SNMPGroups = []string{"Ip", "Icmp", "IcmpMsg", "Tcp", "Udp", "UdpLite", "TcpExt", "IpExt", "MPTcpExt", "Ip6", "Icmp6", "Udp6", "UdpLite6", "Sctp"}

// TCPSynackRetriesDefault is net.ipv4.tcp_synack_retries' default (TCP_SYNACK_RETRIES,
// include/net/tcp.h, 5 since 2.2): how many times a listener resends a SYN-ACK before it
// gives a handshake up. A handshake dropped at a full accept queue (TcpExt ListenOverflows)
// adds at most that many retransmitted segments to Tcp RetransSegs.
const TCPSynackRetriesDefault = 5

// TCPRetries2Default is net.ipv4.tcp_retries2's default (TCP_RETR2, include/net/tcp.h, 15):
// how many times an established connection retransmits one segment before it is aborted.
// A segment dropped on arrival is sent again at most that many times.
const TCPRetries2Default = 15
