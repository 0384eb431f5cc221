package kernel

import (
	"bytes"
	"fmt"
	"io"
)

// Protocol is one row of /proc/net/protocols (net/core/sock.c proto_seq_show): memory is in
// pages and is -1 when the protocol does not account memory; pressure is "yes", "no" or "NI"
// (not implemented).
type Protocol struct {
	Name        string `json:"name"`
	SizeBytes   int64  `json:"size_bytes"`
	Sockets     int64  `json:"sockets"`
	MemoryPages int64  `json:"memory_pages"` // -1: not accounted
	Pressure    string `json:"pressure"`
	MaxHeader   int64  `json:"max_header"`
	Slab        bool   `json:"slab"`
	Module      string `json:"module"`
}

// The row is "%-9s %4u %6d  %6ld   %-3s %6u   %-3s  %-10s" (name, obj_size, sockets in use,
// memory_allocated, memory pressure, max_header, slab, module) followed by one y/n column per
// proto method (cl co di ac io ...), whose number changed between versions; those columns
// are not kept. Pressure is "yes"/"no" from proto->memory_pressure, "NI" when the protocol has
// no pressure flag (sock.c proto_memory_pressure / sock_prot_memory_pressure).

// ReadProtocols reads /proc/net/protocols of root's network namespace.
func ReadProtocols(root Root) ([]Protocol, error) {
	return parseFile(root, root.NetPath("protocols"), ParseProtocols)
}

// ParseProtocols parses /proc/net/protocols text. The header line is optional.
func ParseProtocols(r io.Reader) ([]Protocol, error) {
	data, err := txtReadAll(r)
	if err != nil {
		return nil, err
	}
	var out []Protocol
	lines := txtLines{data: data}
	for {
		line, ok := lines.next()
		if !ok {
			break
		}
		if txtBlank(line) {
			continue
		}
		var f [8][]byte
		rest := line
		for i := range f {
			f[i], rest = txtField(rest)
		}
		if bytes.Equal(f[0], []byte("protocol")) && bytes.Equal(f[1], []byte("size")) {
			continue
		}
		if len(f[7]) == 0 {
			return nil, lines.errorf("want at least 8 columns (protocol size sockets memory press maxhdr slab module), got %q", txtTrim(line))
		}
		p := Protocol{Name: string(f[0]), Module: string(f[7])}
		var ok1, ok2, ok3, ok4 bool
		p.SizeBytes, ok1 = txtInt(f[1])
		p.Sockets, ok2 = txtInt(f[2])
		p.MemoryPages, ok3 = txtInt(f[3])
		p.MaxHeader, ok4 = txtInt(f[5])
		switch {
		case !ok1 || p.SizeBytes < 0:
			return nil, lines.errorf("%s size: %q is not a count", f[0], f[1])
		case !ok2:
			return nil, lines.errorf("%s sockets: %q is not an integer", f[0], f[2])
		case !ok3 || p.MemoryPages < -1:
			return nil, lines.errorf("%s memory: %q is neither a page count nor -1", f[0], f[3])
		case !ok4 || p.MaxHeader < 0:
			return nil, lines.errorf("%s maxhdr: %q is not a count", f[0], f[5])
		}
		switch string(f[4]) {
		case "yes", "no", "NI":
			p.Pressure = string(f[4])
		default:
			return nil, lines.errorf("%s press: %q is not yes, no or NI", f[0], f[4])
		}
		switch string(f[6]) {
		case "yes":
			p.Slab = true
		case "no":
		default:
			return nil, lines.errorf("%s slab: %q is not yes or no", f[0], f[6])
		}
		for {
			var tok []byte
			tok, rest = txtField(rest)
			if len(tok) == 0 {
				break
			}
			if !bytes.Equal(tok, []byte("y")) && !bytes.Equal(tok, []byte("n")) {
				return nil, lines.errorf("%s: method column %q is not y or n", f[0], tok)
			}
		}
		out = append(out, p)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("protocols: no rows")
	}
	return out, nil
}
