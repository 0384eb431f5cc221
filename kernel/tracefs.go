package kernel

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
)

// tracefs: the event format files (events/SYSTEM/NAME/format), the ring buffer's page and
// event headers (events/header_page, events/header_event) and the binary per-CPU pages read
// from per_cpu/cpuN/trace_pipe_raw, and /proc/kallsyms to name a code address. Each format
// file is printed by the kernel from the event's TRACE_EVENT definition
// (kernel/trace/trace_events.c f_show: "name:", "ID:", one "field:" line per member with its
// offset and size, "print fmt:"), so headroom reads offsets, sizes and the names of enum
// values from it rather than knowing them per release: skb:kfree_skb's reason enum grows in
// almost every release (include/net/dropreason-core.h, 5.17 first), and its values shift.

// TraceField is one "field:" line of a format file.
type TraceField struct {
	Type   string // "enum skb_drop_reason", "void *", "int"
	Name   string
	Offset int
	Size   int
	Signed bool
}

// TraceFormat is one event's format file.
type TraceFormat struct {
	Name   string
	ID     uint16
	Fields []TraceField
	// Symbolic holds, per field, the names __print_symbolic gives its values in the print fmt
	// (skb:kfree_skb reason: 6 → "SOCKET_RCVBUFF" on 6.18).
	Symbolic map[string]map[uint64]string
	PrintFmt string
}

// Field returns the field called name.
func (f *TraceFormat) Field(name string) (TraceField, bool) {
	for _, fl := range f.Fields {
		if fl.Name == name {
			return fl, true
		}
	}
	return TraceField{}, false
}

// Uint reads field fl of a record (the event's data, common fields first) as an unsigned
// number in this host's byte order; false when the record is too short or the size is not 1,
// 2, 4 or 8.
func (fl TraceField) Uint(rec []byte) (uint64, bool) {
	if fl.Offset < 0 || fl.Offset+fl.Size > len(rec) {
		return 0, false
	}
	b := rec[fl.Offset : fl.Offset+fl.Size]
	switch fl.Size {
	case 1:
		return uint64(b[0]), true
	case 2:
		return uint64(binary.NativeEndian.Uint16(b)), true
	case 4:
		return uint64(binary.NativeEndian.Uint32(b)), true
	case 8:
		return binary.NativeEndian.Uint64(b), true
	}
	return 0, false
}

// Int reads a signed field (common_pid, order).
func (fl TraceField) Int(rec []byte) (int64, bool) {
	v, ok := fl.Uint(rec)
	if !ok {
		return 0, false
	}
	switch fl.Size {
	case 1:
		return int64(int8(v)), true
	case 2:
		return int64(int16(v)), true
	case 4:
		return int64(int32(v)), true
	}
	return int64(v), true
}

// ParseTraceFormat parses an event's format file.
func ParseTraceFormat(r io.Reader) (TraceFormat, error) {
	f := TraceFormat{Symbolic: map[string]map[uint64]string{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 4<<20) // kfree_skb's print fmt is one 5 KiB line
	n := 0
	haveID := false
	for sc.Scan() {
		n++
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "name:"):
			f.Name = strings.TrimSpace(line[len("name:"):])
		case strings.HasPrefix(line, "ID:"):
			id, err := strconv.ParseUint(strings.TrimSpace(line[len("ID:"):]), 10, 16)
			if err != nil {
				return f, &LineError{Line: n, Err: excerptf("bad ID %q", line)}
			}
			f.ID, haveID = uint16(id), true
		case strings.HasPrefix(line, "field:"):
			fl, err := parseTraceField(line)
			if err != nil {
				return f, &LineError{Line: n, Err: err}
			}
			f.Fields = append(f.Fields, fl)
		case strings.HasPrefix(line, "print fmt:"):
			f.PrintFmt = strings.TrimSpace(line[len("print fmt:"):])
			parsePrintSymbolic(f.PrintFmt, f.Symbolic)
		}
	}
	if err := sc.Err(); err != nil {
		return f, err
	}
	if !haveID || len(f.Fields) == 0 {
		return f, errors.New("not an event format file: no ID or no fields")
	}
	return f, nil
}

// parseTraceField parses "field:unsigned short common_type;	offset:0;	size:2;	signed:0;"
// (signed: since 2.6.32; header_page's own lines have it too).
func parseTraceField(line string) (TraceField, error) {
	var fl TraceField
	parts := strings.Split(line, ";")
	if len(parts) < 3 {
		return fl, excerptf("bad field line %q", line)
	}
	decl := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(parts[0]), "field:"))
	// "char comm[16]", "__data_loc char[] name", "void * location"
	if i := strings.IndexByte(decl, '['); i >= 0 && !strings.HasPrefix(decl, "__data_loc") {
		decl = decl[:i]
	}
	i := strings.LastIndexAny(decl, " *")
	if i < 0 || i == len(decl)-1 {
		return fl, excerptf("bad field declaration %q", decl)
	}
	fl.Type, fl.Name = strings.TrimSpace(decl[:i+1]), decl[i+1:]
	seen := 0
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(strings.TrimSpace(p), ":")
		if !ok {
			continue
		}
		x, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return fl, excerptf("bad %s in %q", k, line)
		}
		switch k {
		case "offset":
			fl.Offset, seen = x, seen|1
		case "size":
			fl.Size, seen = x, seen|2
		case "signed":
			fl.Signed = x != 0
		}
	}
	if seen != 3 {
		return fl, excerptf("field without offset or size: %q", line)
	}
	return fl, nil
}

// parsePrintSymbolic finds each __print_symbolic(REC->FIELD, { V, "NAME" }, ...) of a print
// fmt (include/trace/stages/stage3_trace_output.h) and stores its table by field.
func parsePrintSymbolic(pf string, out map[string]map[uint64]string) {
	const key = "__print_symbolic(REC->"
	for {
		i := strings.Index(pf, key)
		if i < 0 {
			return
		}
		pf = pf[i+len(key):]
		j := strings.IndexByte(pf, ',')
		if j < 0 {
			return
		}
		field := strings.TrimSpace(pf[:j])
		pf = pf[j+1:]
		m := out[field]
		if m == nil {
			m = map[uint64]string{}
			out[field] = m
		}
		// Pairs until the closing parenthesis at depth 0.
		for {
			pf = strings.TrimLeft(pf, " \t,")
			if pf == "" || pf[0] != '{' {
				break
			}
			end := strings.IndexByte(pf, '}')
			if end < 0 {
				return
			}
			pair := pf[1:end]
			pf = pf[end+1:]
			num, name, ok := strings.Cut(pair, ",")
			if !ok {
				continue
			}
			name = strings.TrimSpace(name)
			if len(name) < 2 || name[0] != '"' || name[len(name)-1] != '"' {
				continue
			}
			num = strings.TrimSpace(num)
			v, err := strconv.ParseUint(num, 0, 64)
			if err != nil {
				// Values given as casts or names (not after TRACE_DEFINE_ENUM) are skipped:
				// the kernel prints numbers for enums it exported.
				continue
			}
			m[v] = name[1 : len(name)-1]
		}
	}
}

// TracePageHeader is events/header_page: where the page's time stamp, commit (bytes of data
// and, in its top bits, the missed-events flags) and data are (kernel/trace/ring_buffer.c
// ring_buffer_print_page_header; struct buffer_data_page).
type TracePageHeader struct {
	TimestampOffset, TimestampSize int
	CommitOffset, CommitSize       int
	DataOffset                     int
}

// ParseTracePageHeader parses events/header_page.
func ParseTracePageHeader(r io.Reader) (TracePageHeader, error) {
	var h TracePageHeader
	sc := bufio.NewScanner(r)
	seen := 0
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if !strings.HasPrefix(line, "field:") {
			continue
		}
		fl, err := parseTraceField(line)
		if err != nil {
			return h, err
		}
		switch fl.Name {
		case "timestamp":
			h.TimestampOffset, h.TimestampSize, seen = fl.Offset, fl.Size, seen|1
		case "commit":
			h.CommitOffset, h.CommitSize, seen = fl.Offset, fl.Size, seen|2
		case "data":
			h.DataOffset, seen = fl.Offset, seen|4
		}
	}
	if err := sc.Err(); err != nil {
		return h, err
	}
	if seen != 7 || (h.CommitSize != 4 && h.CommitSize != 8) || h.TimestampSize != 8 {
		return h, errors.New("header_page: no timestamp, commit or data field of a known size")
	}
	return h, nil
}

// Ring buffer event types and flags (kernel/trace/ring_buffer.c, include/linux/ring_buffer.h
// enum ring_buffer_type): type_len 1-28 is a data event of type_len*4 bytes; 0 a data event
// whose length is in array[0]; 29 padding (time_delta 0: the rest of the page); 30 a time
// extend; 31 an absolute time stamp. RB_MISSED_EVENTS (bit 31 of commit) says events were
// lost before this page; RB_MISSED_STORED (bit 30) that their count follows the data.
const (
	rbTypeDataMax   = 28
	rbTypePadding   = 29
	rbTypeTimeExt   = 30
	rbTypeTimeStamp = 31
	rbTSShift       = 27
	rbMissedEvents  = 1 << 31
	rbMissedStored  = 1 << 30
	rbMissedMask    = rbMissedEvents | rbMissedStored
)

// TracePage is what one page of trace_pipe_raw says besides its events.
type TracePage struct {
	Missed      bool   // events were lost before this page (the buffer was full)
	MissedCount uint64 // how many, when the kernel stored it (0: not stored)
}

// hostBigEndian: the event header's bit fields (type_len:5, time_delta:27) are laid out by
// the compiler, low bits first on a little-endian host.
var hostBigEndian = binary.NativeEndian.Uint16([]byte{0, 1}) == 1

// ParseTracePage walks one page read from trace_pipe_raw and calls each with the time stamp
// (in the buffer's trace_clock) and the record of every data event. A page shorter than its
// header is an error; a commit beyond the page is cut to the page.
func ParseTracePage(h TracePageHeader, page []byte, each func(ts uint64, rec []byte)) (TracePage, error) {
	var p TracePage
	if len(page) < h.DataOffset || h.CommitOffset+h.CommitSize > len(page) {
		return p, fmt.Errorf("trace page of %d bytes: shorter than its header", len(page))
	}
	ts := binary.NativeEndian.Uint64(page[h.TimestampOffset:])
	var commit uint64
	if h.CommitSize == 8 {
		commit = binary.NativeEndian.Uint64(page[h.CommitOffset:])
	} else {
		commit = uint64(binary.NativeEndian.Uint32(page[h.CommitOffset:]))
	}
	size := int(commit &^ rbMissedMask & (1<<32 - 1))
	p.Missed = commit&rbMissedEvents != 0
	data := page[h.DataOffset:]
	if size > len(data) {
		size = len(data)
	}
	if commit&rbMissedStored != 0 && size+h.CommitSize <= len(data) {
		if h.CommitSize == 8 {
			p.MissedCount = binary.NativeEndian.Uint64(data[size:])
		} else {
			p.MissedCount = uint64(binary.NativeEndian.Uint32(data[size:]))
		}
	}
	data = data[:size]
	for off := 0; off+4 <= len(data); {
		hdr := binary.NativeEndian.Uint32(data[off:])
		var typeLen, delta uint32
		if hostBigEndian {
			typeLen, delta = hdr>>27, hdr&(1<<27-1)
		} else {
			typeLen, delta = hdr&31, hdr>>5
		}
		switch {
		case typeLen == rbTypePadding:
			if delta == 0 || off+8 > len(data) {
				return p, nil // the rest of the page is padding
			}
			off += 4 + int(binary.NativeEndian.Uint32(data[off+4:])) // a discarded event
		case typeLen == rbTypeTimeExt:
			if off+8 > len(data) {
				return p, nil
			}
			ts += uint64(delta) | uint64(binary.NativeEndian.Uint32(data[off+4:]))<<rbTSShift
			off += 8
		case typeLen == rbTypeTimeStamp:
			if off+8 > len(data) {
				return p, nil
			}
			// An absolute stamp keeps the low 59 bits; the top ones come from the page's
			// (rb_fix_abs_ts).
			abs := uint64(delta) | uint64(binary.NativeEndian.Uint32(data[off+4:]))<<rbTSShift
			ts = ts&^(1<<59-1) | abs
			off += 8
		case typeLen == 0:
			if off+8 > len(data) {
				return p, nil
			}
			n := int(binary.NativeEndian.Uint32(data[off+4:]))
			if n < 4 || off+4+n > len(data) {
				return p, fmt.Errorf("trace page: event at %d of %d bytes runs past the page", off, n)
			}
			ts += uint64(delta)
			each(ts, data[off+8:off+4+n])
			off += 4 + n
		default: // 1..28
			n := int(typeLen) * 4
			if off+4+n > len(data) {
				return p, fmt.Errorf("trace page: event at %d of %d bytes runs past the page", off, n)
			}
			ts += uint64(delta)
			each(ts, data[off+4:off+4+n])
			off += 4 + n
		}
	}
	return p, nil
}

// Kallsyms names kernel text addresses: the code symbols of /proc/kallsyms, sorted.
type Kallsyms struct {
	addr []uint64
	name []string
}

// ParseKallsyms reads /proc/kallsyms ("ffffffff81000000 T _text", module symbols with
// "\t[module]"). Only text symbols (t, T) are kept. A file whose addresses are all zero
// (kptr_restrict, or not root: kernel/kallsyms.c kallsyms_show_value) gives no symbols.
func ParseKallsyms(r io.Reader) (*Kallsyms, error) {
	k := &Kallsyms{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	type sym struct {
		a uint64
		n string
	}
	var syms []sym
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) < 20 {
			continue
		}
		sp := indexByte(line, ' ')
		if sp < 0 || sp+3 >= len(line) {
			continue
		}
		t := line[sp+1]
		if t != 't' && t != 'T' {
			continue
		}
		a, err := strconv.ParseUint(string(line[:sp]), 16, 64)
		if err != nil || a == 0 {
			continue
		}
		name := line[sp+3:]
		if tab := indexByte(name, '\t'); tab >= 0 {
			name = name[:tab]
		}
		syms = append(syms, sym{a, string(name)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	sort.Slice(syms, func(i, j int) bool { return syms[i].a < syms[j].a })
	k.addr = make([]uint64, len(syms))
	k.name = make([]string, len(syms))
	for i, s := range syms {
		k.addr[i], k.name[i] = s.a, s.n
	}
	return k, nil
}

func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

// Len is the number of text symbols read (0: the addresses were hidden).
func (k *Kallsyms) Len() int {
	if k == nil {
		return 0
	}
	return len(k.addr)
}

// Name names addr as "symbol+0xoff", or "" when it lies before the first symbol or nothing
// was readable.
func (k *Kallsyms) Name(addr uint64) string {
	if k.Len() == 0 {
		return ""
	}
	i := sort.Search(len(k.addr), func(i int) bool { return k.addr[i] > addr }) - 1
	if i < 0 {
		return ""
	}
	return fmt.Sprintf("%s+0x%x", k.name[i], addr-k.addr[i])
}
