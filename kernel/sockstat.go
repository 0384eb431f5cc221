package kernel

import (
	"errors"
	"fmt"
	"io"
)

// /proc/net/sockstat and sockstat6: "PROTO: key value key value ..." lines. ParseSockStat
// returns Groups named by the protocol as printed ("sockets", "TCP", "UDP", "UDPLITE",
// "RAW", "FRAG", "TCP6", ...). TCP "mem" and UDP "mem" are in pages (sk_memory_allocated),
// the unit of net.ipv4.tcp_mem and udp_mem; FRAG "memory" is in bytes (net/ipv4/proc.c
// sockstat_seq_show). On 6.x the lines are sockets (used), TCP (inuse orphan tw alloc mem),
// UDP (inuse mem), UDPLITE (inuse), RAW (inuse), FRAG (inuse memory), and in sockstat6
// TCP6, UDP6, UDPLITE6, RAW6, FRAG6 (inuse, FRAG6 also memory).

// ReadSockStat reads /proc/net/sockstat and, when present, sockstat6 of root's network
// namespace, and returns their groups in that order.
func ReadSockStat(root Root) (Groups, error) {
	g, err := parseFile(root, root.NetPath("sockstat"), ParseSockStat)
	if err != nil {
		return nil, err
	}
	g6, err := parseFile(root, root.NetPath("sockstat6"), ParseSockStat)
	if errors.Is(err, ErrNotSupported) {
		return g, nil // no IPv6
	}
	if err != nil {
		return nil, err
	}
	return append(g, g6...), nil
}

// ParseSockStat parses /proc/net/sockstat or sockstat6 text.
func ParseSockStat(r io.Reader) (Groups, error) {
	return parseText(r, ParseSockStatInto)
}

// ParseSockStatInto parses sockstat or sockstat6 text into *dst, reusing its storage (see
// ParseMemInfoInto).
func ParseSockStatInto(dst *Groups, data []byte) error {
	if k := sockStatSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	groups := (*dst)[:0]
	defer func() { *dst = groups }()
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
		}
		proto, rest, err := netStatLine(line)
		if err != nil {
			return &LineError{Line: lines.num, Err: err}
		}
		groups = txtGrow(groups)
		g := &groups[len(groups)-1]
		g.Name = txtString(g.Name, proto)
		var fill txtCountersFill
		fill.start(&g.Counters)
		n := 0
		for {
			var key, val []byte
			key, rest = txtField(rest)
			if len(key) == 0 {
				break
			}
			val, rest = txtField(rest)
			if len(val) == 0 {
				return lines.errorf("%s: %q has no value", proto, key)
			}
			v, ok := txtInt(val)
			if !ok {
				return lines.errorf("%s %s: %q is not an integer", proto, key, val)
			}
			fill.set(key, v)
			n++
		}
		if n == 0 {
			return lines.errorf("%s: no values", proto)
		}
		fill.done()
	}
	if len(groups) == 0 {
		return fmt.Errorf("sockstat: no lines")
	}
	return nil
}

// sockStatSameLayout is the fast path of ParseSockStatInto (see txtIntAt): the groups of g
// in order (up to its capacity, as in netStatSameLayout), each a line "PROTO:" and its
// " name value" pairs with the same names, single spaces, as sockstat_seq_show prints
// them. It returns the number of groups the text filled, 0 when it does not fit.
func sockStatSameLayout(g Groups, data []byte) int {
	p, k := 0, 0
	for ; p < len(data); k++ {
		if k == len(g) {
			return 0
		}
		c := &g[k].Counters
		q, ok := txtNameAt(data, p, g[k].Name, ':')
		if !ok || len(c.names) == 0 {
			return 0
		}
		q++
		for i, name := range c.names {
			n := len(name)
			if !txtAt(data, q, " ") || q+1+n >= len(data) || data[q+1+n] != ' ' || !txtMatch(data, q+1, name) {
				return 0
			}
			v, e, ok := txtIntAt(data, q+2+n)
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
