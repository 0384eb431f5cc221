package kernel

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
)

// /proc/meminfo: "Name:   value kB" lines. ParseMemInfo returns Counters whose values are
// kB for lines with a kB suffix and plain counts otherwise (HugePages_Total and friends).
// LowTotal/LowFree/HighTotal/HighFree exist only on 32-bit kernels with CONFIG_HIGHMEM.
//
// 2.4 kernels printed a byte table before the kB lines (fs/proc/proc_misc.c
// meminfo_read_proc: "        total:    used:    free:  shared: buffers:  cached:", then
// "Mem:" and "Swap:" rows in bytes). Those three lines are skipped on purpose: every figure in
// them is printed again below as a kB line (MemTotal, MemFree, MemShared, Buffers, Cached,
// SwapTotal, SwapFree), "used" being total minus free.

// ReadMemInfo reads /proc/meminfo under root.
func ReadMemInfo(root Root) (Counters, error) {
	return parseFile(root, "proc/meminfo", ParseMemInfo)
}

// ParseMemInfo parses /proc/meminfo text.
func ParseMemInfo(r io.Reader) (Counters, error) {
	data, err := txtReadAll(r)
	if err != nil {
		return Counters{}, err
	}
	var c Counters
	if err := ParseMemInfoInto(&c, data); err != nil {
		return Counters{}, err
	}
	return c, nil
}

// ParseMemInfoInto parses /proc/meminfo text into dst, reusing its storage: when the names
// are the same as in the previous parse (the sampler's steady state) it allocates nothing.
// Anything that kept the previous contents of dst sees them overwritten; on error dst holds a
// partial result.
func ParseMemInfoInto(dst *Counters, data []byte) error {
	var fill txtCountersFill
	fill.start(dst)
	lines := txtLines{data: data}
	for {
		line, ok := lines.next()
		if !ok {
			break
		}
		if txtBlank(line) {
			continue
		}
		colon := bytes.IndexByte(line, ':')
		if colon < 0 {
			return lines.errorf("no \"Name:\" in %q", line)
		}
		name := txtTrim(line[:colon])
		if len(name) == 0 {
			return lines.errorf("empty name in %q", line)
		}
		val, rest := txtField(line[colon+1:])
		unit, rest := txtField(rest)
		if len(txtTrim(rest)) > 0 || (len(unit) > 0 && !bytes.Equal(unit, []byte("kB"))) {
			if meminfo24Table(name) {
				continue
			}
			return lines.errorf("%s: want \"value [kB]\", got %q", name, txtTrim(line[colon+1:]))
		}
		v, ok := txtInt(val)
		if !ok {
			return lines.errorf("%s: %q is not an integer", name, val)
		}
		fill.set(name, v)
	}
	fill.done()
	if dst.Len() == 0 {
		return fmt.Errorf("meminfo: no values")
	}
	return nil
}

// meminfo24Table reports whether name heads a row of the 2.4 byte table.
func meminfo24Table(name []byte) bool {
	return bytes.Equal(name, []byte("Mem")) || bytes.Equal(name, []byte("Swap")) ||
		bytes.Equal(name, []byte("total"))
}

// ---------------------------------------------------------------------------------------
// Re-parsing without allocating. The sampler pread()s the hot files into its own buffers
// every second and parses them with these, keeping one destination per file:
//
//	ParseMemInfoInto(*Counters, []byte)        /proc/meminfo
//	ParseVMStatInto(*Counters, []byte)         /proc/vmstat
//	ParseBuddyInfoInto(*[]BuddyZone, []byte)   /proc/buddyinfo
//	ParseZoneInfoInto(*[]Zone, []byte)         /proc/zoneinfo
//	ParseNetDevInto(*[]NetDev, []byte)         /proc/net/dev
//	ParseNetStatInto(*Groups, []byte)          /proc/net/netstat, /proc/net/snmp (one each)
//	ParseSNMP6Into(*Groups, []byte)            /proc/net/snmp6
//	ParseSockStatInto(*Groups, []byte)         /proc/net/sockstat, sockstat6 (one each)
//	ParseSoftnetInto(*[]SoftnetCPU, []byte)    /proc/net/softnet_stat
//	ParseStatInto(*Stat, []byte)               /proc/stat
//	ParseInterruptsInto(*Interrupts, []byte)   /proc/interrupts
//	ParseLoadAvgInto(*LoadAvg, []byte)         /proc/loadavg
//	ParsePSIInto(*Pressure, string, []byte)    /proc/pressure/*
//	ParseTaskStatInto(*TaskStat, []byte)       /proc/PID/stat (TaskStatPath)
//
// When the text has the same shape as the previous parse into the same destination (same
// names in the same order, same number of rows), they allocate nothing; a change of shape
// costs only what changed. The destination's slices, maps and strings are reused, so a
// value handed to a Sample that outlives the next parse must be copied first (Counters.Clone,
// or parse into alternating destinations). Protocols and pagetypeinfo are read on demand
// and have only ParseX.

// ---------------------------------------------------------------------------------------
// Scanning helpers shared by the /proc text parsers of this package (meminfo, vmstat,
// buddyinfo, zoneinfo, pagetypeinfo, net/dev, net/netstat, net/snmp, net/snmp6, sockstat,
// protocols, softnet_stat, pressure, stat, interrupts, loadavg, PID/stat). They work on byte
// slices and allocate nothing on the success path, because the sampler re-parses these files
// every second.

// LineError says which line of a kernel text file could not be parsed. Line counts from 1 in
// the text given to the parser, so that a caller parsing a segment of a pasted document can
// map it back to the document's own lines.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return "line " + strconv.Itoa(e.Line) + ": " + e.Err.Error() }

func (e *LineError) Unwrap() error { return e.Err }

// txtReadAll reads the whole of r for a ParseX function.
func txtReadAll(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("read: %w", err)
	}
	return data, nil
}

// txtLines walks text line by line. Lines lose their "\n" and a trailing "\r" (pasted text
// often has CRLF).
type txtLines struct {
	data []byte
	num  int // number of the line last returned, from 1
}

func (t *txtLines) next() ([]byte, bool) {
	if len(t.data) == 0 {
		return nil, false
	}
	var line []byte
	if i := bytes.IndexByte(t.data, '\n'); i >= 0 {
		line, t.data = t.data[:i], t.data[i+1:]
	} else {
		line, t.data = t.data, nil
	}
	t.num++
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	return line, true
}

// nextNonBlank returns the next line that holds something other than white space.
func (t *txtLines) nextNonBlank() ([]byte, bool) {
	for {
		line, ok := t.next()
		if !ok || !txtBlank(line) {
			return line, ok
		}
	}
}

// errorf returns a LineError for the line last returned.
func (t *txtLines) errorf(format string, args ...any) error {
	return &LineError{Line: t.num, Err: fmt.Errorf(format, args...)}
}

// txtSpaces marks the bytes that separate fields: space, tab, and the CR, VT, FF that pasted
// text brings. Newline ends a line and is never inside one.
var txtSpaces = [256]bool{' ': true, '\t': true, '\r': true, '\v': true, '\f': true}

func txtSpace(c byte) bool { return txtSpaces[c] }

func txtBlank(b []byte) bool {
	for _, c := range b {
		if !txtSpace(c) {
			return false
		}
	}
	return true
}

func txtTrim(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && txtSpace(b[i]) {
		i++
	}
	for j > i && txtSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

// txtField returns the first white-space separated field of b and what follows it.
func txtField(b []byte) (field, rest []byte) {
	i := 0
	for i < len(b) && txtSpace(b[i]) {
		i++
	}
	j := i
	for j < len(b) && !txtSpace(b[j]) {
		j++
	}
	return b[i:j], b[j:]
}

// txtInt parses a decimal integer with an optional sign, rejecting overflow.
func txtInt(b []byte) (int64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	neg := false
	if b[0] == '-' || b[0] == '+' {
		neg = b[0] == '-'
		b = b[1:]
		if len(b) == 0 {
			return 0, false
		}
	}
	const limit = uint64(1) << 63 // |MinInt64|
	var n uint64
	for _, c := range b {
		d := uint64(c - '0')
		if d > 9 {
			return 0, false
		}
		if n > (limit-d)/10 {
			return 0, false
		}
		n = n*10 + d
	}
	if neg {
		return -int64(n), true // n == 1<<63 wraps to MinInt64, which is right
	}
	if n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}

// txtHex parses an unsigned hexadecimal integer without prefix, as softnet_stat prints them.
func txtHex(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 16 {
		return 0, false
	}
	var n uint64
	for _, c := range b {
		var d byte
		switch {
		case '0' <= c && c <= '9':
			d = c - '0'
		case 'a' <= c && c <= 'f':
			d = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			d = c - 'A' + 10
		default:
			return 0, false
		}
		n = n<<4 | uint64(d)
	}
	if n > math.MaxInt64 {
		return 0, false
	}
	return int64(n), true
}

// txtPow10 holds the powers of ten that a float64 represents exactly.
var txtPow10 = [...]float64{1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// txtFloat parses a plain decimal such as the kernel's "%lu.%02lu" (loadavg, PSI). Mantissas
// below 2^53 with at most 22 fraction digits take the exact fast path (one correctly rounded
// division, the same result strconv.ParseFloat gives); anything else goes to ParseFloat.
func txtFloat(b []byte) (float64, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var m uint64
	digits, frac := 0, -1
	for _, c := range b {
		if c == '.' && frac < 0 {
			frac = 0
			continue
		}
		d := uint64(c - '0')
		if d > 9 {
			return txtFloatSlow(b)
		}
		m = m*10 + d
		digits++
		if frac >= 0 {
			frac++
		}
		if digits > 15 {
			return txtFloatSlow(b)
		}
	}
	if digits == 0 {
		return 0, false
	}
	if frac <= 0 {
		return float64(m), true
	}
	return float64(m) / txtPow10[frac], true
}

func txtFloatSlow(b []byte) (float64, bool) {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, false
	}
	return f, true
}

// txtString returns old when it already equals b, so that re-parsing unchanged text keeps
// the strings it made last time instead of allocating new ones.
func txtString(old string, b []byte) string {
	if old == string(b) {
		return old
	}
	return string(b)
}

// txtGrow extends s by one element, reusing the element left in its capacity by a previous
// parse (with whatever slices it holds) instead of a zero value.
func txtGrow[T any](s []T) []T {
	if len(s) < cap(s) {
		return s[:len(s)+1]
	}
	var zero T
	return append(s, zero)
}

// txtCountersFill writes name/value pairs into a Counters in file order. While the names
// arrive in the same order as the Counters already holds (a re-parse of the same file) it
// only updates values; at the first difference it keeps what matched and continues with
// plain Set. done drops entries the new text no longer has.
type txtCountersFill struct {
	c       *Counters
	n       int
	rebuilt bool
}

func (f *txtCountersFill) start(c *Counters) { *f = txtCountersFill{c: c} }

func (f *txtCountersFill) set(name []byte, v int64) {
	if !f.rebuilt {
		if f.n < f.c.Len() {
			if old, _ := f.c.At(f.n); old == string(name) {
				f.c.Set(old, v)
				f.n++
				return
			}
		}
		f.truncate()
	}
	f.c.Set(string(name), v)
}

// setString is set for a name that is already a string (a constant).
func (f *txtCountersFill) setString(name string, v int64) {
	if !f.rebuilt {
		if f.n < f.c.Len() {
			if old, _ := f.c.At(f.n); old == name {
				f.c.Set(old, v)
				f.n++
				return
			}
		}
		f.truncate()
	}
	f.c.Set(name, v)
}

// truncate keeps the first n entries and switches to plain Set.
func (f *txtCountersFill) truncate() {
	f.rebuilt = true
	c := f.c
	if f.n == c.Len() {
		return
	}
	names := c.Names()[:f.n]
	vals := make([]int64, f.n)
	for i := range vals {
		_, vals[i] = c.At(i)
	}
	c.Reset()
	for i, name := range names {
		c.Set(name, vals[i]) // names[i] is read before Set rewrites slot i with the same string
	}
}

func (f *txtCountersFill) done() {
	if !f.rebuilt {
		f.truncate()
	}
}

// txtNodeZone parses the "Node N, zone NAME" that opens the lines of buddyinfo, zoneinfo and
// pagetypeinfo. The zone token may end with a comma (pagetypeinfo: "zone      DMA, type").
func txtNodeZone(line []byte) (node int, zone, rest []byte, err error) {
	tok, rest := txtField(line)
	if !bytes.Equal(tok, []byte("Node")) {
		return 0, nil, nil, fmt.Errorf("want \"Node N, zone NAME\", got %q", line)
	}
	tok, rest = txtField(rest)
	tok, hadComma := bytes.CutSuffix(tok, []byte(","))
	if !hadComma {
		// "Node 0 , zone" does not occur; a separate "," token is accepted all the same.
		var comma []byte
		comma, rest = txtField(rest)
		if !bytes.Equal(comma, []byte(",")) {
			return 0, nil, nil, fmt.Errorf("want \"Node N, zone NAME\", got %q", line)
		}
	}
	n, ok := txtInt(tok)
	if !ok || n < 0 || n > math.MaxInt32 {
		return 0, nil, nil, fmt.Errorf("node %q is not a number", tok)
	}
	tok, rest = txtField(rest)
	if !bytes.Equal(tok, []byte("zone")) {
		return 0, nil, nil, fmt.Errorf("want \"Node N, zone NAME\", got %q", line)
	}
	zone, rest = txtField(rest)
	zone, _ = bytes.CutSuffix(zone, []byte(","))
	if len(zone) == 0 {
		return 0, nil, nil, fmt.Errorf("no zone name in %q", line)
	}
	return int(n), zone, rest, nil
}
