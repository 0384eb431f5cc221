package kernel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"math/bits"
	"strconv"
)

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
//	ParseProtocolsInto(*[]Protocol, []byte)    /proc/net/protocols
//	ParsePageTypeInfoInto(*PageTypeInfo, []byte) /proc/pagetypeinfo (opt-in: see PageTypeInfo)
//
// When the text has the same shape as the previous parse into the same destination (same
// names in the same order, same number of rows), they allocate nothing; a change of shape
// costs only what changed. The destination's slices, maps and strings are reused, so a
// value handed to a Sample that outlives the next parse must be copied first (Counters.Clone,
// or parse into alternating destinations). All but pagetypeinfo and loadavg first try the
// same-layout fast path described below, which reads only the numbers.

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

// parseText reads all of r and parses it with into, the ParseXInto of a /proc file: what
// every ParseX(io.Reader) does. On error it returns the zero value, never a partial result
// (ParseXInto leaves one in its dst).
func parseText[T any](r io.Reader, into func(dst *T, data []byte) error) (T, error) {
	var v, zero T
	data, err := txtReadAll(r)
	if err != nil {
		return zero, err
	}
	if err := into(&v, data); err != nil {
		return zero, err
	}
	return v, nil
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
	return &LineError{Line: t.num, Err: excerptf(format, args...)}
}

// excerptBytes bounds what a parse error quotes of the text it could not parse. The text may
// be anything a capture directory held (issue 30 item 3: a link to /etc/shadow put its first
// line into doctor's report, serve's status page and check's one-line message); the
// opener refuses such links (rootfile.go), and an error still quotes no more than this.
const excerptBytes = 48

// excerpt is at most excerptBytes of s, cut at a UTF-8 boundary, with "…" when cut.
func excerpt[T string | []byte](s T) string {
	if len(s) <= excerptBytes {
		return string(s)
	}
	n := excerptBytes
	for n > 0 && s[n]&0xc0 == 0x80 {
		n--
	}
	return string(s[:n]) + "…"
}

// excerptf is fmt.Errorf with every string and []byte argument cut to an excerpt: the
// format of the parsers' errors, which quote their input with %q (escaping control
// characters).
func excerptf(format string, args ...any) error {
	for i, a := range args {
		switch v := a.(type) {
		case string:
			args[i] = excerpt(v)
		case []byte:
			args[i] = excerpt(v)
		}
	}
	return fmt.Errorf(format, args...)
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

// txtNameValue splits a "name value" line (/proc/vmstat, /proc/net/snmp6): ok is false
// unless it holds exactly two fields.
func txtNameValue(line []byte) (name, val []byte, ok bool) {
	name, rest := txtField(line)
	val, rest = txtField(rest)
	return name, val, len(val) > 0 && txtBlank(rest)
}

// txtCounts appends the fields of rest, each a count (a non-negative integer, as buddyinfo's
// free blocks and stat's ticks are printed), to dst. At a field that is not one it stops and
// returns it as bad, with dst holding the counts before it; bad is nil when all were counts.
func txtCounts(dst []int64, rest []byte) (out []int64, bad []byte) {
	for {
		var tok []byte
		tok, rest = txtField(rest)
		if len(tok) == 0 {
			return dst, nil
		}
		v, ok := txtInt(tok)
		if !ok || v < 0 {
			return dst, tok
		}
		dst = append(dst, v)
	}
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
// only overwrites values in place: the position is known, so there is no map lookup. At the
// first difference it keeps what matched and continues with plain Set. done drops entries
// the new text no longer has, so a counter missing from this parse is absent, not stale.
type txtCountersFill struct {
	c       *Counters
	n       int
	rebuilt bool
}

func (f *txtCountersFill) start(c *Counters) { *f = txtCountersFill{c: c} }

func (f *txtCountersFill) set(name []byte, v int64) {
	if !f.rebuilt {
		// names[n] == name means index[name] == n: Counters keeps names unique and index
		// in step with them, so the value can be written where it is.
		if c := f.c; f.n < len(c.names) && c.names[f.n] == string(name) {
			c.values[f.n] = v
			f.n++
			return
		}
		f.truncate()
	}
	f.c.Set(string(name), v)
}

// setString is set for a name that is already a string (a constant).
func (f *txtCountersFill) setString(name string, v int64) {
	if !f.rebuilt {
		if c := f.c; f.n < len(c.names) && c.names[f.n] == name {
			c.values[f.n] = v
			f.n++
			return
		}
		f.truncate()
	}
	f.c.Set(name, v)
}

// truncate keeps the first n entries and switches to plain Set.
func (f *txtCountersFill) truncate() {
	f.rebuilt = true
	f.c.truncate(f.n)
}

func (f *txtCountersFill) done() {
	if !f.rebuilt {
		f.truncate()
	}
}

// ---------------------------------------------------------------------------------------
// Same-layout fast paths. Between two samples a kernel file keeps its layout (the same
// names in the same order, the same zones, the same protocols) and only the numbers move,
// so the hot parsers first try to read the text against the layout that the destination
// already holds: each stored name is compared in place with the bytes where it must
// appear, and only the numbers are parsed, in one pass over the text, with no map lookup
// and no tokenizing. At the first byte that does not fit (a counter appeared or vanished,
// a zone was added, a blank line, CRLF, anything unusual) the fast path gives up and the
// general parser runs from the start, so the fast path decides nothing on its own: it
// accepts only text that the general parser reads to the same result, and every error, with
// its line, still comes from the general parser. FuzzReparse checks exactly that on pairs
// of texts, the FuzzParseX targets on each input against itself with other values, and
// TestSameLayoutEdges and TestSameLayoutHandMade hold the cases where a name would be read
// differently (a keyword, a separator inside it, a destination no parser made).

// txtFieldEnds reports whether a field read up to b[e] ends there: at the end of b, a space
// or the line's end. The same-layout checks use it after txtIntAt, so that "12x" or "1.5"
// is not taken for the number before it.
func txtFieldEnds(b []byte, e int) bool {
	return e >= len(b) || b[e] == ' ' || b[e] == '\n'
}

// txtIntAt parses an optional '-' and decimal digits at b[i:], returning the value and the
// index after the last digit. It agrees with txtInt on the digits it consumed, including
// its overflow rule. Up to 7 digits with 8 bytes readable take a branch-free path: the
// digits are found and combined eight bytes at a time.
func txtIntAt(b []byte, i int) (v int64, end int, ok bool) {
	// A single digit (most counters of a quiet host are 0) is cheaper to see than to
	// compute eight bytes at a time.
	if i+1 < len(b) {
		if d := b[i] - '0'; d <= 9 && b[i+1]-'0' > 9 {
			return int64(d), i + 1, true
		}
	}
	if i+8 <= len(b) {
		x := txtWord(b, i)
		// A byte is a digit when its high nibble is 3 and adding 6 does not carry out of its
		// low nibble. A carry out of a byte (only from 0xFA-0xFF, not digits) can only spoil
		// bytes after the first non-digit, so the count of leading digits is exact.
		const nibbles, threes, sixes = 0xF0F0F0F0F0F0F0F0, '0' * swarOnes, 6 * swarOnes
		nd := (x&nibbles ^ threes) | ((x+sixes)&nibbles ^ threes)
		if n := bits.TrailingZeros64(nd) / 8; n > 0 && n < 8 {
			// Shift the n digits to the top: the bytes below become leading zeros. Then
			// pairs, quads and the two halves are combined (10a+b, 100a+b, 10000a+b).
			x = (x & 0x0F0F0F0F0F0F0F0F) << (64 - 8*n)
			x = (x * (10<<8 + 1)) >> 8 & 0x00FF00FF00FF00FF
			x = (x * (100<<16 + 1)) >> 16 & 0x0000FFFF0000FFFF
			x = (x * (10000<<32 + 1)) >> 32
			return int64(x), i + n, true
		}
	}
	start := i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	first := i
	var n uint64
	for i < len(b) {
		d := b[i] - '0'
		if d > 9 {
			break
		}
		n = n*10 + uint64(d)
		i++
	}
	switch {
	case i == first:
		return 0, i, false
	case i-first > 18: // may have wrapped: txtInt decides
		v, ok = txtInt(b[start:i])
		return v, i, ok
	case neg:
		return -int64(n), i, true
	}
	return int64(n), i, true
}

// txtDigit is the first test of txtIntAt, small enough to inline into the hot loops: a
// single digit that ends the number (most counters of a quiet host are 0).
func txtDigit(b []byte, i int) (int64, bool) {
	if i+1 < len(b) {
		if d := b[i] - '0'; d <= 9 && b[i+1]-'0' > 9 {
			return int64(d), true
		}
	}
	return 0, false
}

// txtEOL accepts the end of a line at b[i]: a newline, or the end of the text (the last line
// of pasted text may lack its newline). It returns the start of the next line.
func txtEOL(b []byte, i int) (int, bool) {
	if i == len(b) {
		return i, true
	}
	if b[i] == '\n' {
		return i + 1, true
	}
	return i, false
}

// txtAt reports whether b holds s at i.
func txtAt(b []byte, i int, s string) bool {
	return i >= 0 && len(b)-i >= len(s) && string(b[i:i+len(s)]) == s
}

// txtSkip returns the index of the first byte at or after i that is not c, eight bytes at a
// time (zoneinfo indents its lines by up to 14 spaces, meminfo pads its values).
func txtSkip(b []byte, i int, c byte) int {
	for i+8 <= len(b) {
		if x := txtWord(b, i) ^ uint64(c)*swarOnes; x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
		i += 8
	}
	for i < len(b) && b[i] == c {
		i++
	}
	return i
}

const (
	swarOnes  = 0x0101010101010101
	swarHighs = 0x8080808080808080
)

// txtWord returns the 8 bytes of b at i as a little-endian word (b[i] lowest); the caller
// ensures i+8 <= len(b).
func txtWord(b []byte, i int) uint64 { return binary.LittleEndian.Uint64(b[i : i+8]) }

// txtPlain reports whether b[i:e] is a name the fast paths may match in place: not empty,
// and no byte that any of the general parsers would split or stop at (white space,
// newline, control bytes, ':'). Names the kernel prints always are; a name that is not
// (from a hand-made destination, or odd pasted text) sends the parse to the general path.
// Eight bytes at a time, with the "hasless" and "haszero" tests of Bit Twiddling Hacks,
// which are exact as to whether any such byte exists in a word.
func txtPlain(b []byte, i, e int) bool {
	if i >= e {
		return false
	}
	for ; i+8 <= e; i += 8 {
		if !txtPlainWord(txtWord(b, i)) {
			return false
		}
	}
	if i == e {
		return true
	}
	if i+8 <= len(b) {
		// Read past e, with the bytes beyond e replaced by 'A', which passes.
		keep := uint64(1)<<(8*(e-i)) - 1
		return txtPlainWord(txtWord(b, i)&keep | 'A'*swarOnes&^keep)
	}
	for ; i < e; i++ {
		if b[i] <= ' ' || b[i] == ':' {
			return false
		}
	}
	return true
}

// swarEq returns the high bit of each byte of x that equals c, and no other bit.
func swarEq(x uint64, c byte) uint64 {
	const lows = 0x7F7F7F7F7F7F7F7F
	t := x ^ uint64(c)*swarOnes
	return ^((t&lows + lows) | t | lows)
}

// txtPlainWord reports whether no byte of x is below 0x21 or equal to ':'.
func txtPlainWord(x uint64) bool { return txtBadBytes(x) == 0 }

// txtBadBytes is not 0 when a byte of x is below 0x21 or equal to ':'.
func txtBadBytes(x uint64) uint64 {
	y := x ^ ':'*swarOnes
	return ((x-0x21*swarOnes)&^x | (y-swarOnes)&^y) & swarHighs
}

// txtNameAt reports whether b holds the plain (txtPlain) name at i, followed by the byte
// sep, and returns the index of sep (meaningless when ok is false).
func txtNameAt(b []byte, i int, name string, sep byte) (e int, ok bool) {
	e = i + len(name)
	return e, e < len(b) && b[e] == sep && txtMatch(b, i, name)
}

// txtNameAtOK is txtNameAt for a caller that needs only the answer.
func txtNameAtOK(b []byte, i int, name string, sep byte) bool {
	_, ok := txtNameAt(b, i, name, sep)
	return ok
}

// txtMatch reports whether b holds s at i and s is plain (txtPlain). It compares and checks
// eight bytes at a time, loading s's words as well, so the common name costs a few
// instructions and no call.
func txtMatch(b []byte, i int, s string) bool {
	n := len(s)
	if n == 0 || len(b)-i < n {
		return false
	}
	w := b[i:]
	switch {
	case n <= 16 && n >= 8:
		// Most names: the first and the last eight bytes, which overlap below 16.
		x, y := binary.LittleEndian.Uint64(w), binary.LittleEndian.Uint64(w[n-8:])
		return x == strWord(s, 0) && y == strWord(s, n-8) && txtBadBytes(x)|txtBadBytes(y) == 0
	case n > 16:
		// The differences and the bad bytes of all words are gathered, and tested once.
		var diff, bad uint64
		for k := 0; k+8 < n; k += 8 {
			x := binary.LittleEndian.Uint64(w[k:])
			diff |= x ^ strWord(s, k)
			bad |= txtBadBytes(x)
		}
		x := binary.LittleEndian.Uint64(w[n-8:])
		diff |= x ^ strWord(s, n-8)
		bad |= txtBadBytes(x)
		return diff == 0 && bad == 0
	case n >= 4 && len(w) >= 8:
		// 4 to 7 bytes: the data word cut to n bytes, against two loads of s that overlap.
		keep := uint64(1)<<(8*n) - 1
		x := binary.LittleEndian.Uint64(w) & keep
		y := uint64(strU32(s, 0)) | uint64(strU32(s, n-4))<<(8*(n-4))
		// The bytes beyond s are replaced by 'A', which passes.
		return x == y && txtBadBytes(x|'A'*swarOnes&^keep) == 0
	}
	// Up to 3 bytes, or at the very end of the text: byte by byte, and no call, which keeps
	// txtMatch a leaf function without a stack frame.
	for k := range n {
		if c := w[k]; c != s[k] || c <= ' ' || c == ':' {
			return false
		}
	}
	return true
}

// strWord returns the 8 bytes of s at k as a little-endian word, like txtWord (the compiler
// makes it one load).
func strWord(s string, k int) uint64 {
	s = s[k : k+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// strU32 returns the 4 bytes of s at k as a little-endian word.
func strU32(s string, k int) uint32 {
	s = s[k : k+4]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}

// txtNodeZoneAt is the fast paths' txtNodeZone: it reports whether data holds
// "Node NODE, zone ZONE" at p as mm/vmstat.c prints it ("Node %d, zone %8s"), and returns
// the index after the zone name. zone must be what txtNodeZone would return for that text:
// plain, and without the trailing comma that txtNodeZone strips.
func txtNodeZoneAt(data []byte, p, node int, zone string) (int, bool) {
	if node < 0 || node > math.MaxInt32 || !txtAt(data, p, "Node ") || txtAt(data, p+5, "-") {
		return p, false
	}
	n, q, ok := txtIntAt(data, p+5)
	if !ok || n != int64(node) || !txtAt(data, q, ", zone ") {
		return p, false
	}
	q = txtSkip(data, q+len(", zone "), ' ')
	if !txtMatch(data, q, zone) || zone[len(zone)-1] == ',' {
		return p, false
	}
	return q + len(zone), true
}

// txtNodeZone parses the "Node N, zone NAME" that opens the lines of buddyinfo, zoneinfo and
// pagetypeinfo. The zone token may end with a comma (pagetypeinfo: "zone      DMA, type").
func txtNodeZone(line []byte) (node int, zone, rest []byte, err error) {
	tok, rest := txtField(line)
	if !bytes.Equal(tok, []byte("Node")) {
		return 0, nil, nil, excerptf("want \"Node N, zone NAME\", got %q", line)
	}
	tok, rest = txtField(rest)
	tok, hadComma := bytes.CutSuffix(tok, []byte(","))
	if !hadComma {
		// "Node 0 , zone" does not occur; a separate "," token is accepted all the same.
		var comma []byte
		comma, rest = txtField(rest)
		if !bytes.Equal(comma, []byte(",")) {
			return 0, nil, nil, excerptf("want \"Node N, zone NAME\", got %q", line)
		}
	}
	n, ok := txtInt(tok)
	if !ok || n < 0 || n > math.MaxInt32 {
		return 0, nil, nil, excerptf("node %q is not a number", tok)
	}
	tok, rest = txtField(rest)
	if !bytes.Equal(tok, []byte("zone")) {
		return 0, nil, nil, excerptf("want \"Node N, zone NAME\", got %q", line)
	}
	zone, rest = txtField(rest)
	zone, _ = bytes.CutSuffix(zone, []byte(","))
	if len(zone) == 0 {
		return 0, nil, nil, excerptf("no zone name in %q", line)
	}
	return int(n), zone, rest, nil
}

// IsDigits reports whether s is one or more ASCII digits: the test every reader of printed
// counters, pids and versions makes.
func IsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
