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
	return parseText(r, ParseProtocolsInto)
}

// ParseProtocolsInto parses /proc/net/protocols text into *dst, reusing the slice and the
// name and module strings of the previous parse (see ParseMemInfoInto): re-parsing a file
// with the same protocols allocates nothing. Rows are replaced whole, so a protocol that
// is gone (a module unloaded) is gone from *dst too.
func ParseProtocolsInto(dst *[]Protocol, data []byte) error {
	if k := protocolsSameLayout((*dst)[:cap(*dst)], data); k > 0 {
		*dst = (*dst)[:k]
		return nil
	}
	rows := (*dst)[:0]
	defer func() { *dst = rows }()
	lines := txtLines{data: data}
	for {
		line, ok := lines.nextNonBlank()
		if !ok {
			break
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
			return lines.errorf("want at least 8 columns (protocol size sockets memory press maxhdr slab module), got %q", txtTrim(line))
		}
		var p Protocol
		var ok1, ok2, ok3, ok4 bool
		p.SizeBytes, ok1 = txtInt(f[1])
		p.Sockets, ok2 = txtInt(f[2])
		p.MemoryPages, ok3 = txtInt(f[3])
		p.MaxHeader, ok4 = txtInt(f[5])
		switch {
		case !ok1 || p.SizeBytes < 0:
			return lines.errorf("%s size: %q is not a count", f[0], f[1])
		case !ok2:
			return lines.errorf("%s sockets: %q is not an integer", f[0], f[2])
		case !ok3 || p.MemoryPages < -1:
			return lines.errorf("%s memory: %q is neither a page count nor -1", f[0], f[3])
		case !ok4 || p.MaxHeader < 0:
			return lines.errorf("%s maxhdr: %q is not a count", f[0], f[5])
		}
		// The constants, not string(f[4]): the same value without an allocation.
		switch string(f[4]) {
		case "yes":
			p.Pressure = "yes"
		case "no":
			p.Pressure = "no"
		case "NI":
			p.Pressure = "NI"
		default:
			return lines.errorf("%s press: %q is not yes, no or NI", f[0], f[4])
		}
		switch string(f[6]) {
		case "yes":
			p.Slab = true
		case "no":
		default:
			return lines.errorf("%s slab: %q is not yes or no", f[0], f[6])
		}
		if tok := protocolsMethods(rest); tok != nil {
			return lines.errorf("%s: method column %q is not y or n", f[0], tok)
		}
		rows = txtGrow(rows)
		r := &rows[len(rows)-1]
		p.Name = txtString(r.Name, f[0])
		p.Module = txtString(r.Module, f[7])
		*r = p
	}
	if len(rows) == 0 {
		return fmt.Errorf("protocols: no rows")
	}
	return nil
}

// protocolsMethods checks the y/n method columns and returns the first column that is
// neither, or nil. One pass over the bytes: each column is a single letter between blanks.
func protocolsMethods(rest []byte) []byte {
	for i := 0; i < len(rest); {
		if txtSpace(rest[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(rest) && !txtSpace(rest[j]) {
			j++
		}
		if j-i != 1 || (rest[i] != 'y' && rest[i] != 'n') {
			return rest[i:j]
		}
		i = j
	}
	return nil
}

// protocolsSameLayout is the fast path of ParseProtocolsInto (see txtIntAt): after an
// optional header line, the rows of rows in order (up to its capacity, as in
// netStatSameLayout), each with the same protocol name and module, the columns separated by
// spaces, and y/n method columns. It returns the number of rows the text filled, 0 when it
// does not fit.
func protocolsSameLayout(rows []Protocol, data []byte) int {
	p, k := 0, 0
	for p < len(data) {
		if data[p] == 'p' {
			if next, ok := protocolsHeader(data, p); ok {
				p = next
				continue
			}
		}
		if k == len(rows) {
			return 0
		}
		r := &rows[k]
		e, ok := txtNameAt(data, p, r.Name, ' ')
		if !ok {
			return 0
		}
		var size, sockets, memory, maxhdr int64
		var pressure string
		var slab bool
		q := txtSkip(data, e, ' ')
		if size, q, ok = protocolsInt(data, q); !ok || size < 0 {
			return 0
		}
		if sockets, q, ok = protocolsInt(data, q); !ok {
			return 0
		}
		if memory, q, ok = protocolsInt(data, q); !ok || memory < -1 {
			return 0
		}
		switch {
		case txtAt(data, q, "yes "):
			pressure, q = "yes", q+3
		case txtAt(data, q, "no "):
			pressure, q = "no", q+2
		case txtAt(data, q, "NI "):
			pressure, q = "NI", q+2
		default:
			return 0
		}
		if maxhdr, q, ok = protocolsInt(data, txtSkip(data, q, ' ')); !ok || maxhdr < 0 {
			return 0
		}
		switch {
		case txtAt(data, q, "yes "):
			slab, q = true, q+3
		case txtAt(data, q, "no "):
			q += 2
		default:
			return 0
		}
		q = txtSkip(data, q, ' ')
		e = q + len(r.Module)
		if !txtMatch(data, q, r.Module) || !txtFieldEnds(data, e) {
			return 0
		}
		nl := len(data)
		if i := bytes.IndexByte(data[e:], '\n'); i >= 0 {
			nl = e + i
		}
		if !protocolsMethodsPlain(data[e:nl]) {
			return 0
		}
		r.SizeBytes, r.Sockets, r.MemoryPages, r.Pressure, r.MaxHeader, r.Slab = size, sockets, memory, pressure, maxhdr, slab
		p = min(nl+1, len(data))
		k++
	}
	return k
}

// protocolsInt reads an integer at data[q:] that ends a column (a space follows), and the
// spaces after it.
func protocolsInt(data []byte, q int) (int64, int, bool) {
	v, e, ok := txtIntAt(data, q)
	if !ok || e >= len(data) || data[e] != ' ' {
		return 0, q, false
	}
	return v, txtSkip(data, e, ' '), true
}

// protocolsHeader recognises the header line at data[p:] as the general parser does (first
// column "protocol", second "size"; the rest is not read) and returns the start of the next
// line.
func protocolsHeader(data []byte, p int) (int, bool) {
	if !txtAt(data, p, "protocol ") {
		return p, false
	}
	q := txtSkip(data, p+len("protocol "), ' ')
	if !txtAt(data, q, "size") || (q+4 < len(data) && data[q+4] != ' ' && data[q+4] != '\n') {
		return p, false
	}
	i := bytes.IndexByte(data[q:], '\n')
	if i < 0 {
		return len(data), true
	}
	return q + i + 1, true
}

// protocolsMethodsPlain reports whether b is the y/n method columns with spaces between
// them and nothing else (tabs or other blanks send the line to the general parser): every
// byte a space, 'y' or 'n', and no two letters side by side. Eight bytes at a time: the
// byte masks are exact per byte (Bit Twiddling Hacks, "determine if a word has a byte equal
// to n", in the form without false positives).
func protocolsMethodsPlain(b []byte) bool {
	var prev uint64 // the last letter mask, for a pair that straddles two words
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := txtWord(b, i)
		letters := swarEq(x, 'y') | swarEq(x, 'n')
		if letters|swarEq(x, ' ') != swarHighs || letters&(letters<<8|prev>>56) != 0 {
			return false
		}
		prev = letters
	}
	last := prev>>63 != 0
	for ; i < len(b); i++ {
		switch b[i] {
		case ' ':
			last = false
		case 'y', 'n':
			if last {
				return false
			}
			last = true
		default:
			return false
		}
	}
	return true
}
