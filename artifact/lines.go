package artifact

import (
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// Line is one logical line of a pasted text after the paste's own noise is undone: the syslog
// prefix ("Aug  4 17:42:34 host kernel: "), the dmesg timestamp ("[ 1234.567890] "), the
// printk caller id ("[    T123]"), mail quoting ("> ", ">> "), CR of CRLF, and Unicode
// look-alikes ("0×20" for "0x20"). An rsyslog line holding "#012" escapes becomes several
// Lines with the same No.
type Line struct {
	No   int    // 1-based line number in the input
	Text string // the content, prefixes removed; tabs kept

	// Kernel is true when the line is known to come from the kernel log: a syslog line
	// tagged "kernel", a dmesg line with a [seconds.micros] stamp, or a <N> priority prefix.
	Kernel bool
	// Syslog is true when a syslog prefix was removed; Tag is its program ("kernel",
	// "sshd"), Host its host name and Stamp its date text ("Aug  4 17:42:34", or the
	// RFC 3339 stamp).
	Syslog bool
	Tag    string
	Host   string
	Stamp  string
	// UptimeUsec is the dmesg timestamp in microseconds since boot, -1 when none.
	UptimeUsec int64
	// Priority is the syslog level of a "<N>" prefix, -1 when none.
	Priority int
	// Caller is the printk caller id ("T123" for a task, "C1" for a CPU in interrupt
	// context; CONFIG_PRINTK_CALLER, 5.1+), "" when not printed. It tells apart lines of
	// reports that two CPUs printed at the same time.
	Caller string
	// Quote is the mail quoting depth that was removed.
	Quote int
	// Cont is true for the second and later pieces of an rsyslog "#012"-escaped line.
	Cont bool
	// Pieces counts the wrapped pieces joined to the line (unwrap.go); lastRaw is the raw
	// length of its last physical line, prefixes included.
	Pieces  int
	lastRaw int
	// uncommented is set once a comment block's marker was stripped (uncommentBlock).
	uncommented bool
}

// Blank reports whether the line holds nothing but white space.
func (l *Line) Blank() bool { return strings.TrimSpace(l.Text) == "" }

// SplitLines turns a text into Lines. It never fails: whatever it cannot interpret stays in
// Text as it was.
func SplitLines(text string) []Line {
	n := strings.Count(text, "\n") + 1
	out := make([]Line, 0, n)
	no := 0
	for len(text) > 0 {
		no++
		var raw string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			raw, text = text, ""
		}
		out = appendLine(out, no, raw)
	}
	return out
}

func appendLine(out []Line, no int, raw string) []Line {
	if pieces := splitJoinedSyslog(raw); pieces != nil {
		for _, p := range pieces {
			out = appendLine(out, no, p)
		}
		return out
	}
	if pieces := quotedMailPieces(raw); pieces != nil {
		for _, p := range pieces { // a mail flattened onto one line (fix54c_quotedmail.go)
			out = appendLine(out, no, p)
		}
		return out
	}
	l, esc, _ := parseLine(no, raw)
	if !esc {
		return append(out, l)
	}
	// rsyslog's default $EscapeControlCharactersOnReceive writes control characters as
	// #ooo octal: a multi-line kernel record arrives as one line with #012.
	s := strings.ReplaceAll(l.Text, "#011", "\t")
	parts := splitRecords(strings.Split(s, "#012"))
	if n := len(parts); n > 1 && strings.TrimSpace(parts[n-1]) == "" {
		// The record's last newline ("...writeback:0#012 "), or the point where a mail
		// client wrapped the line: not a blank line of its own, which would end a dump
		// (corpus case 046).
		parts = parts[:n-1]
	}
	for k, p := range parts {
		c := l
		c.Text = p
		c.Cont = k > 0
		if k > 0 {
			c.Text = stripKernelStamp(p, &c)
		}
		out = append(out, c)
	}
	return out
}

// splitRecords splits pieces further at dmesg stamps inside them: records joined on one
// line by a PDF-to-text conversion or a paste that lost its newlines ("lowmem_reserve[]: 0
// 2959 7938 7938 [    5.168099] Node 0 DMA32 free:44940kB ...").
func splitRecords(parts []string) []string {
	var out []string
	for _, p := range parts {
		for {
			i := embeddedStamp(p)
			if i < 0 {
				break
			}
			out = append(out, strings.TrimRight(p[:i], " "))
			p = p[i+1:]
		}
		out = append(out, p)
	}
	return out
}

// embeddedStamp is the index of the space before a "[   12.345678]" stamp inside s (not at
// its start), or -1.
//
// It looks for the '[' (a space, which every line is full of, made strings.Index(" [")
// stop at each word), and then for the space before it.
func embeddedStamp(s string) int {
	for from := 2; from < len(s); {
		p := strings.IndexByte(s[from:], '[')
		if p < 0 {
			return -1
		}
		p += from
		from = p + 1
		i := p - 1
		if s[p-1] != ' ' {
			// fix22d: a printk level before the stamp ("<6>[ 3117.587560]", dmesg -r or
			// a console's log) starts the record: the space before the "<N>".
			if s[p-1] != '>' || p < 4 || s[p-3] != '<' || s[p-2] < '0' || s[p-2] > '7' || s[p-4] != ' ' {
				continue
			}
			i = p - 4
		}
		j := p + 1
		for j < len(s) && s[j] == ' ' {
			j++
		}
		k := j
		for k < len(s) && s[k] >= '0' && s[k] <= '9' {
			k++
		}
		if k > j && k+7 < len(s) && s[k] == '.' && isDigits(s[k+1:k+7]) && s[k+7] == ']' {
			return i
		}
	}
	return -1
}

// parseLine undoes the paste's noise on one raw line (without its '\n'). esc is true when the
// text holds rsyslog #012/#011 escapes: the line then stands for several Lines, which
// appendLine makes. ascii is true when raw has no byte above 0x7f: l.Text is then a substring
// of raw. Parse calls it on every line of a syslog without keeping the result for most of
// them, so it does not allocate for an ASCII line.
func parseLine(no int, raw string) (l Line, esc, ascii bool) {
	return parseLineKnown(no, raw, rawFacts{})
}

// rawFacts is what the fast path knows of a raw line before it is read, from its scan of the
// line (lineScan) and its search of the text ahead for '&' (byteClass): whether it is ASCII, whether it holds a backslash, and whether
// it holds an '&' that may start an HTML entity (forms.go: one that entityStart follows;
// a line whose '&'s are all "&&" or "& " may say no), and whether it holds a '_' or '*' before a
// digit (markDigit: what fixBuddyStars and stripCellEmphasis look for, indexMarkDigit).
// Without known, parseLine finds out itself.
type rawFacts struct {
	known, ascii, backslash, amp, markDigit bool
	// scanned: the fast path's scan of the raw line (lineScan) found where it holds its
	// first '#' (hash, -1 for none) and its last '[' (bracket, -1 for none).
	scanned       bool
	hash, bracket int
}

// parseLineKnown is parseLine with what is known of raw (TestParseLineKnownIsParseLine).
func parseLineKnown(no int, raw string, f rawFacts) (l Line, esc, ascii bool) {
	esc, ascii = parseLineInto(&l, no, raw, f)
	return l, esc, ascii
}

// parseLineInto is parseLineKnown into *l: the fast path reads 900,000 lines of a 100 MB
// syslog into one Line instead of copying a returned one.
func parseLineInto(l *Line, no int, raw string, f rawFacts) (esc, ascii bool) {
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	raw = stripHardBreak(raw)
	if len(raw) >= 4 && (raw[0] == '<' || raw[len(raw)-1] == '>') {
		raw = stripHTMLLineTags(raw)
	}
	*l = Line{No: no, UptimeUsec: -1, Priority: -1, lastRaw: len(raw)}
	s, ok := stripUsualSyslog(raw, l, f)
	ascii = ok
	if !ok {
		s = raw
		// Non-ASCII bytes are rare in command output; only then pay for the rewrite.
		ascii = f.ascii
		if !f.known {
			ascii = isASCII(s)
		}
		if !ascii {
			s = fixLookalikes(s)
		}
		// HTML entities of a page's source or an archive's markup ("&gt; " quoting,
		// "&lt;4&gt;" priorities): ruled out by one byte search (forms.go). (One pass of
		// eight-byte words testing for '&', '\\' and the high bit together cost more than
		// the byte searches: 7% on a generated syslog.)
		if u, ok := unescapeHTML(s); ok {
			s, ascii = u, false
		}
		s = stripFront(s, l)
		if t := stripLogWrappers(s, l); len(t) != len(s) {
			// A wrapper (a container's CRI prefix, a JSON record) around a quoted or
			// fenced line: what it held is read as a line of its own.
			s = t
			if l.Quote == 0 {
				s = stripFront(s, l)
			}
		}
		s = stripOtherPrefixes(s, l)
		s = stripSyslog(s, l)
	}
	if len(s) > 24 && s[0] == 'm' {
		s = unwrapRsyslogRepeat(s) // fix61e_rsyslogrepeat.go
	}
	s = stripKernelStamp(s, l)
	s = journalTagAfterStamp(s, l) // journalctl -o short-monotonic without a host (fix56b_oomd.go)
	s = stripVendorBlocks(s, l)
	// Both look for a '_' or '*' before a digit. On the fast path s is a substring of raw
	// (stripKernelStamp and stripVendorBlocks cut, never rewrite), so a raw line the search
	// ahead found none in holds none in s either: their two byte scans of every line ('_'
	// is in 39% of a syslog's lines, in function names and request_sock) were 13% of the
	// parse of the bench's syslog.
	if !ok || !f.known || f.markDigit {
		s = fixBuddyStars(s)
		s = stripCellEmphasis(s)
	}
	l.Text = s
	// On the fast path s is then the end of raw (every step cut its front), so what the
	// scan of raw found tells the two tests below whether s holds a '#' or a '[': a '#'
	// anywhere, a '[' after the stamp (whose own '[' is cut). Each searched every line of a
	// syslog for a byte few hold.
	cut := ok && f.scanned && !f.markDigit
	// '#' is rare in log lines: IndexByte rules the escapes out before any substring search.
	if !cut || f.hash >= 0 {
		if h := strings.IndexByte(s, '#'); h >= 0 && strings.Contains(s[h:], "#01") &&
			(strings.Contains(s[h:], "#012") || strings.Contains(s[h:], "#011")) {
			return true, ascii
		}
	}
	// A stamped line holding another stamp is several records joined (splitRecords).
	// Both need a '[' in s: on the fast path the scan of raw rules that out (a '[' that
	// parseLineInto's own cuts of raw removed only makes the test more permissive).
	if (!cut || f.bracket >= len(raw)-len(s)) && (l.UptimeUsec >= 0 && embeddedStamp(s) > 0 || flattenedLog(s)) {
		return true, ascii
	}
	l.Text = stripCounterNote(s) // an author's note after a counter (countercomments.go)
	return false, ascii
}

// flattenedLog reports whether s, a line without a stamp of its own, is a kernel log whose
// newlines a ticket or a page's text extraction lost, behind the prose of the post it was
// in ("# Issue with install ... Below is the output of dmesg: [ 0.000000] Booting Linux
// ... [ 812.345678] tailscaled invoked oom-killer: ..."): it holds flattenedStamps dmesg
// stamps or more, each of which starts a record (splitRecords). A line shorter than
// flattenedMin is ruled out by its length: no byte is read.
func flattenedLog(s string) bool {
	if len(s) < flattenedMin {
		return false
	}
	n := 0
	for rest := s; n < flattenedStamps; n++ {
		i := embeddedStamp(rest)
		if i < 0 {
			return false
		}
		rest = rest[i+1:]
	}
	return true
}

// flattenedMin and flattenedStamps: three records of a few words each; a sentence that
// quotes one stamped line ("we see [  12.345678] eth0: ... in dmesg") stays prose.
const (
	flattenedMin    = 120
	flattenedStamps = 3
)

// stripUsualSyslog is the steps of parseLine up to stripSyslog for the line a syslog file is
// made of: ASCII, "Mmm dd hh:mm:ss host tag: " with the day padded to two columns, a host
// name that starts at byte 16 and a tag that ends in ": ". It reports false, having set
// nothing in l, for any other line, which the general steps then read; for such a line it
// returns what they return (TestSplitLinesMatchesReference, FuzzSplitLines and
// TestUsualSyslogIsGeneral compare them). A 100 MB syslog is 900,000 of these lines, and
// the general steps ask each of them a dozen questions (quoting, diff marks, fences, table
// borders, a dozen other prefixes, a month spelled out, a host left out) whose answer the
// shape already gives.
func stripUsualSyslog(raw string, l *Line, f rawFacts) (string, bool) {
	n := len(raw)
	// The shape, and what it rules out: no '>', '+', fence or '|' first (stripQuote,
	// stripDiffAdd, stripFence, stripOtherPrefixes' bar quoting), no weekday or long month
	// (stripOtherPrefixes: a month is neither, and its word ends at byte 3); the stamp
	// exactly as stripSyslog reads it, with no fraction; the usual layout that
	// mayBeHostless reads, from 24 bytes on.
	if n < 24 || raw[3] != ' ' || raw[6] != ' ' || raw[9] != ':' || raw[12] != ':' || raw[15] != ' ' ||
		raw[16] <= ' ' || raw[16] >= utf8.RuneSelf || !isMonth(raw[:3]) ||
		!(raw[4] == ' ' || isDigit(raw[4])) || !isDigit(raw[5]) ||
		!isDigit(raw[7]) || !isDigit(raw[8]) || !isDigit(raw[10]) || !isDigit(raw[11]) ||
		!isDigit(raw[13]) || !isDigit(raw[14]) {
		return raw, false
	}
	// A host named "kernel:" is a syslog line without a host (stripOtherPrefixes).
	if raw[16:23] == "kernel:" && (n == 23 || asciiSpace(raw[23])) {
		return raw, false
	}
	// Table borders at the end (stripCellBorders), the closing backtick of an inline code
	// span a post opened lines above (stripOpenCode: "`warning: ..." ... "May 25 21:25:02
	// pihole1 unbound[3684]: ... sysctl big`", corpus 1402), Markdown escapes
	// (stripOtherPrefixes), anything that is not ASCII (fixLookalikes).
	e := n - 1
	for e > 0 && (raw[e] == ' ' || raw[e] == '\t') {
		e--
	}
	if raw[e] == '|' || raw[e] == '`' {
		return raw, false
	}
	// HTML entities (unescapeHTML) need the general path too; an '&' that starts none
	// ("cd / && run-parts", a cron job's line: 7% of the bench's syslog) leaves the line
	// as it was, and the general steps would then read it as they read any other.
	if f.known {
		if f.backslash || !f.ascii {
			return raw, false
		}
	} else if strings.IndexByte(raw, '\\') >= 0 || !isASCII(raw) {
		return raw, false
	}
	if (!f.known || f.amp) && strings.IndexByte(raw, '&') >= 0 {
		if _, changed := unescapeHTML(raw); changed {
			return raw, false
		}
	}
	// stripSyslog from the host on.
	rest := raw[16:]
	if raw[16] == '[' {
		return raw, false // maybe a printk stamp where the host stands (stripSyslog)
	}
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 {
		return raw, false
	}
	host, rest := rest[:sp], rest[sp+1:]
	if hostIsTag(host) {
		return raw, false // no host: "tag[pid]:" where it stands (stripSyslog)
	}
	colon := 0
	for colon < len(rest) && rest[colon] != ':' && rest[colon] != ' ' {
		colon++
	}
	if colon == 0 || colon == len(rest) || rest[colon] == ' ' {
		return raw, false // no tag
	}
	tag := rest[:colon]
	if tag != "kernel" && isShowMemTag(tag) {
		return raw, false // maybe a show_mem line (stripSyslog)
	}
	if b := strings.IndexByte(tag, '['); b > 0 {
		tag = tag[:b]
	}
	msg := rest[colon+1:]
	if len(msg) > 0 && msg[0] == ' ' {
		msg = msg[1:]
	}
	l.Syslog, l.Stamp, l.Host, l.Tag = true, raw[:15], host, unitTag(tag)
	l.Kernel = tag == "kernel"
	return msg, true
}

// hostIsTag: the word where a syslog line's host name stands is "tag[pid]:", a program's tag
// (journalctl's short output of a journal whose host the paste cut or left out, "May 07
// 14:29:23 systemd-oomd[1852]: ..."): a host name holds no '[' (RFC 1123) and ends in no ':'.
func hostIsTag(host string) bool {
	n := len(host)
	return n > 3 && host[n-1] == ':' && host[n-2] == ']' && strings.IndexByte(host, '[') > 0
}

// isASCII tests eight bytes at a time, ORing the words together and testing the high bits
// once: it runs on every line of a 100 MB syslog. The last word overlaps the one before it
// instead of finishing byte by byte.
func isASCII(s string) bool {
	n := len(s)
	if n < 8 {
		for i := 0; i < n; i++ {
			if s[i] >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	var acc uint64
	for i := 0; i+8 <= n; i += 8 {
		acc |= le64(s, i)
	}
	acc |= le64(s, n-8)
	return acc&0x8080808080808080 == 0
}

// le64 is the little-endian word at s[i:i+8], read byte by byte so that it is right on every
// architecture (ARMv5 has no unaligned loads); the compiler merges the bytes into one load
// where it can.
func le64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// fixLookalikes rewrites the Unicode characters that word processors and blogs put in place
// of ASCII: "0×20" (U+00D7 multiplication sign) for "0x20", no-break and thin spaces, the
// minus sign and non-ASCII hyphens.
func fixLookalikes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	prev := rune(0)
	skip := 0
	for i, r := range s {
		if i < skip {
			continue
		}
		switch r {
		case '\u00d7':
			if prev == '0' {
				r = 'x'
			}
		case '\u00a0', '\u2007', '\u2009', '\u202f', '\u2002', '\u2003':
			r = ' '
		case '\u2010':
			// man(1)'s hyphenation where a line broke ("like\u2010" / "lihood"), the
			// lines since joined into one (a flattened paste: "like\u2010 lihood"): one
			// word again, as joinParagraph makes it of the lines.
			if n := i + len("\u2010"); prev >= 'a' && prev <= 'z' && n+1 < len(s) && s[n] == ' ' && s[n+1] >= 'a' && s[n+1] <= 'z' {
				skip = n + 1
				continue
			}
			r = '-'
		case '\u2212', '\u2011':
			r = '-'
		case '\ufeff', '\u200b', '\u200c', '\u200d', '\u2060':
			// A byte-order mark, and the zero-width spaces and joiners that chat and wiki
			// pages put where a line may break ("free:\u200b1234kB"): nothing in the text.
			prev = r
			continue
		}
		b.WriteRune(r)
		prev = r
	}
	return b.String()
}

// stripQuote removes mail and Markdown quoting: "> ", ">> ", "> > ".
func stripQuote(s string) (string, int) {
	depth := 0
	i := 0
	for i < len(s) && s[i] == '>' {
		depth++
		i++
		if i < len(s) && s[i] == ' ' {
			i++
		}
	}
	if depth == 0 {
		return s, 0
	}
	// Initials before the mark inside a quote ("> A> > kernel: ...", "> GS> text"): a
	// supercite-style mail client names each level by its writer's initials (fix56a). Only
	// one to three capitals after a '>' already taken, then '>' and a space, a '>' or the
	// line's end: a top-level "SQL> " or "PS> " prompt keeps its name.
	if j := initialsQuoteLen(s[i:]); j > 0 {
		t, d := stripQuote(s[i+j:])
		return t, depth + d
	}
	return s[i:], depth
}

// initialsQuoteLen: the length of a supercite quote mark at the start of s ("A>", "GS>"),
// 0 when s starts with none.
func initialsQuoteLen(s string) int {
	j := 0
	for j < len(s) && j < 4 && s[j] >= 'A' && s[j] <= 'Z' {
		j++
	}
	if j == 0 || j > 3 || j >= len(s) || s[j] != '>' {
		return 0
	}
	if j+1 < len(s) && s[j+1] != ' ' && s[j+1] != '>' {
		return 0
	}
	return j
}

// stripDiffAdd removes the '+' of a line a unified diff adds ("+    00008e78 00000000 ...":
// output quoted in a patch to documentation or a test). Only a '+' followed by white space or
// nothing: "+0.000004", "+---+" and "+12" keep theirs; a Markdown "+ item" loses only its mark.
func stripDiffAdd(s string) string {
	if len(s) > 0 && s[0] == '+' && (len(s) == 1 || s[1] == ' ' || s[1] == '\t') {
		return s[1:]
	}
	return s
}

// stripCellBorders removes the " |" borders a rendered table leaves at the end of each
// line: an embedded GitHub gist in a blog page's text ("sockets: used 48476 | |",
// "3480768 4641024 6961536 |", corpus 478). A Markdown table row starts with its bar and
// keeps it; a bar glued to a word ("a||") is no border.
func stripCellBorders(s string) string {
	n := len(s)
	for n > 0 && (s[n-1] == ' ' || s[n-1] == '\t') {
		n--
	}
	if n < 3 || s[n-1] != '|' {
		return s
	}
	if t := strings.TrimLeft(s, " \t"); t[0] == '|' {
		return s
	}
	end := n
	for n >= 2 && s[n-1] == '|' && (s[n-2] == ' ' || s[n-2] == '\t') {
		n -= 2
		for n > 0 && (s[n-1] == ' ' || s[n-1] == '\t') {
			n--
		}
		end = n
	}
	if end < len(s) && replicaName(s[:end]) && strings.IndexByte(s[:end], ' ') < 0 {
		// "netmon-1  |": docker compose logs' prefix on an empty line of the container
		// (stripMultiplexer), not a one-cell row.
		return ""
	}
	return s[:end]
}

// stripHardBreak drops the backslash that ends a line of a Markdown paste: CommonMark's
// hard line break (spec 6.7, "a backslash at the end of the line"), which a post writes
// after every line of command output it did not fence so the lines stay apart, and which a
// copy of the post's source keeps (" \\" or "\\" after each row). A kernel line or a
// counter never ends in a backslash; a shell command continued on the next line does, and
// reads the same without it. One byte compare rules a line out.
func stripHardBreak(raw string) string {
	n := len(raw)
	if n == 0 || raw[n-1] != '\\' {
		return raw
	}
	n--
	for n > 0 && (raw[n-1] == ' ' || raw[n-1] == '\t') {
		n--
	}
	return raw[:n]
}

// stripOpenCode drops the lone backtick of an inline code span that a post opened on one
// line and closed lines later ("`10: bond1: <BROADCAST,...> mtu 9000 ..." ... "355853126292
// 144312808 0 1 0 0 `", corpus 672): GitHub renders a backtick pair across lines as code, so
// pasted command output carries one before its first line and one after its last. A line
// with a pair (`cmd` in a sentence) keeps both, unless the pair is the whole line: a post
// that wrapped each line of pasted output in its own inline code span ("`        RX errors 0
// dropped 90 ...`" line after line) renders each as code, and the span is only markup.
func stripOpenCode(s string) string {
	i := strings.IndexByte(s, '`')
	if i < 0 {
		return s
	}
	if j := strings.IndexByte(s[i+1:], '`'); j >= 0 {
		// (The span may be indented: the paste itself was, as a Markdown list's or
		// code block's lines are.)
		if j > 0 && isBlank(s[:i]) && strings.TrimRight(s[i+j+2:], " \t") == "" {
			return s[:i] + s[i+1:i+j+1]
		}
		return s
	}
	if i == 0 {
		return s[1:]
	}
	if strings.TrimRight(s[i+1:], " \t") == "" {
		return strings.TrimRight(s[:i], " \t")
	}
	return s
}

// stripFence blanks Markdown code fences, which only delimit, and the block markup of the
// other places a paste is posted (blockMarkup).
func stripFence(s string) string {
	if n := len(s); n > 7 && (s[n-1] == ']' || s[0] == '[') {
		s = inlineCodeTags(s)
	}
	// A line that starts with a visible ASCII character other than '`', '~', '[' and '{' is
	// no fence, without trimming it.
	if len(s) > 0 && s[0] > ' ' && s[0] < utf8.RuneSelf && s[0] != '`' && s[0] != '~' && s[0] != '[' && s[0] != '{' {
		// A forum's code box caption ("Code: Select all", "Spoiler") delimits as a fence does.
		if c := s[0] | 0x20; (c == 'c' || c == 's' || c == 'q') && (len(s) <= 24 || s[len(s)-1] <= ' ') && forumCaption(strings.TrimSpace(s)) {
			return ""
		}
		return s
	}
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
		return fenceContent(s)
	}
	if blockMarkup(t) || forumCaption(t) {
		return ""
	}
	return s
}

// fenceContent is what a fence line holds besides the fence: nothing for an opener or a
// closer ("```", "``` bash", "```text id=\"x\""), the output for a fence the poster typed
// right before it ("```              total        used", "```[26029.151574] prometheus
// invoked oom-killer", "```$ free -m"). The fence's columns stay blank when the output
// starts with a blank, so a table keeps its alignment; a closing fence glued to the same
// line's end goes too.
func fenceContent(s string) string {
	i := strings.IndexAny(s, "`~")
	j := i
	for j < len(s) && s[j] == s[i] {
		j++
	}
	rest := strings.TrimRight(s[j:], " \t")
	rest = strings.TrimRight(strings.TrimSuffix(rest, strings.Repeat(s[i:i+1], 3)), " \t")
	if fenceInfo(rest) {
		return ""
	}
	if rest[0] == ' ' || rest[0] == '\t' {
		return s[:i] + strings.Repeat(" ", j-i) + rest
	}
	return s[:i] + rest
}

// fenceInfo: the info string of a fence's opening line (CommonMark 4.5): empty, up to three
// words of a language's name and attributes ("bash", "shell script", "text id=\"1hwhfd\""),
// or a braced attribute list ("{.python}"). Output has a mark a language name has not (a
// colon, a bracket, a slash, a '$' or '%'), or is a table's header set off by blanks to
// keep its columns ("```              total        used        free").
func fenceInfo(rest string) bool {
	t := strings.Trim(rest, " \t")
	if t == "" || t[0] == '{' && t[len(t)-1] == '}' {
		return true
	}
	words := strings.FieldsFunc(t, func(r rune) bool { return r == ' ' || r == '\t' })
	if len(words) > 3 || len(words) == 3 && (rest[0] == ' ' || rest[0] == '\t') {
		return false
	}
	for _, w := range words {
		if strings.Contains(w, "=") {
			continue
		}
		for _, c := range w {
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("_+.#-", c)) {
				return false
			}
		}
	}
	return true
}

// inlineCodeTags takes off bbcode's code tags written on the first and last lines of the
// block itself, as Arch's, Gentoo's and openSUSE's forums (phpBB, FluxBB) keep them when the
// poster typed "[code]" right before the output: "[code]Linux box 6.6.8-arch1-1 #1 SMP …
// x86_64 GNU/Linux[/code]", "[code]               total        used …", "Swap:  0B  0B
// 0B[/code]". A tag alone on its line is blockMarkup's.
func inlineCodeTags(s string) string {
	if s[0] == '[' {
		if j := strings.IndexByte(s, ']'); j > 0 && j < 24 && j+1 < len(s) && codeTag(s[1:j]) {
			s = s[j+1:]
		}
	}
	if n := len(s); n > 7 && s[n-1] == ']' {
		if k := strings.LastIndexByte(s, '['); k > 0 && n-k <= 10 && s[k+1] == '/' && codeTag(s[k+2:n-1]) {
			s = s[:k]
		}
	}
	return s
}

// codeTag: bbcode's code block tag's name, "code", "CODE", "code=text", "noparse".
func codeTag(w string) bool {
	if len(w) > 5 && w[4] == '=' {
		w = w[:4]
	}
	return strings.EqualFold(w, "code") || strings.EqualFold(w, "noparse")
}

// blockMarkup reports whether t, a trimmed line, is the opening or closing line of a code
// or quote block in the markup of a forum or a tracker: bbcode's "[code]"/"[/code]"
// (phpBB, vBulletin, "[code=text]"), Discourse's "[quote="user, post:3, topic:1"]" and
// "[/quote]", Jira's "{noformat}", "{code}", "{code:java}", "{quote}". Like a fence, the line
// only delimits: a dmesg stamp ("[  12.3]") or a JSON record ('{"') fails on the second byte.
func blockMarkup(t string) bool {
	if len(t) < 6 {
		return false
	}
	switch t[0] {
	case '[':
		if t[len(t)-1] != ']' || strings.IndexByte(t, ']') != len(t)-1 {
			return false
		}
		w := strings.ToLower(strings.TrimPrefix(t[1:len(t)-1], "/"))
		for _, tag := range [...]string{"code", "quote", "noparse"} {
			if rest, ok := strings.CutPrefix(w, tag); ok && (rest == "" || rest[0] == '=') {
				return true
			}
		}
	case '{':
		if t[len(t)-1] != '}' || strings.IndexByte(t, '}') != len(t)-1 {
			return false
		}
		w := t[1 : len(t)-1]
		for _, tag := range [...]string{"noformat", "code", "quote", "panel"} {
			if rest, ok := strings.CutPrefix(w, tag); ok && (rest == "" || rest[0] == ':') {
				return true
			}
		}
	}
	return false
}

// isMonth reports whether s is an English month abbreviation as syslog writes it ("Jan").
// A switch, not a map: it runs on every line of a syslog file.
func isMonth(s string) bool {
	switch s {
	case "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec":
		return true
	}
	return false
}

// localMonthLen returns the length in bytes of a month abbreviation in another locale at
// the start of s, as syslog and journalctl print %b under LC_TIME ("апр 04 21:53:13 PC
// earlyoom[1579]: ...", corpus 487; "Mär", "févr."): two to five letters, an optional '.',
// then a space; 0 otherwise. The day and the time after it are checked by the caller.
func localMonthLen(s string) int {
	n, runes := 0, 0
	for n < len(s) && runes <= 5 {
		r, w := utf8.DecodeRuneInString(s[n:])
		if !unicode.IsLetter(r) {
			break
		}
		n += w
		runes++
	}
	if runes < 2 || runes > 5 {
		return 0
	}
	if n < len(s) && s[n] == '.' {
		n++
	}
	if n >= len(s) || s[n] != ' ' {
		return 0
	}
	return n
}

// stripSyslog removes a BSD syslog prefix ("Aug  4 17:42:34 host tag[pid]: ") or an RFC 3339
// one ("2024-01-02T03:04:05.123456+00:00 host tag: ").
func stripSyslog(s string, l *Line) string {
	if len(s) < 16 {
		return s
	}
	if strings.IndexByte(s, '\t') > 0 {
		if t, ok := stripTabbedSyslog(s, l); ok {
			return t
		}
	}
	var rest, stamp string
	switch c := s[0]; {
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80:
		m := 3
		if s[3] != ' ' || !isMonth(s[:3]) {
			if m = localMonthLen(s); m == 0 {
				return s
			}
		}
		i := m + 1
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		if j == i || j-i > 2 || j+9 > len(s) || s[j] != ' ' {
			return s
		}
		t := s[j+1:]
		if len(t) < 8 || t[2] != ':' || t[5] != ':' || !isDigits(t[:2]) || !isDigits(t[3:5]) || !isDigits(t[6:8]) {
			return s
		}
		k := 8
		if k < len(t) && t[k] == '.' { // high-precision timestamps
			k++
			for k < len(t) && t[k] >= '0' && t[k] <= '9' {
				k++
			}
		}
		stamp = s[:j+1+k]
		rest = t[k:]
	case c >= '0' && c <= '9' && s[2] == ':' && s[5] == ':':
		// "07:00:31 serwer kernel: memory: usage ...": a syslog line whose date the paste
		// cut, the time left. Only the kernel's tag: "07:00:31 up 3 days" (uptime), sar's
		// "07:00:31 AM all ..." are no syslog lines.
		k := 8
		if !isDigits(s[:2]) || !isDigits(s[3:5]) || !isDigits(s[6:8]) || s[k] != ' ' {
			return s
		}
		r := strings.TrimLeft(s[k:], " ")
		sp := strings.IndexByte(r, ' ')
		if sp <= 0 || !strings.HasPrefix(r[sp+1:], "kernel: ") {
			return s
		}
		stamp, rest = s[:k], s[k:]
	case c >= '0' && c <= '9':
		if s[4] != '-' || s[7] != '-' || s[10] != 'T' || !isDigits(s[:4]) {
			return s
		}
		sp := strings.IndexByte(s, ' ')
		if sp < 0 || strings.IndexByte(s[:sp], '|') >= 0 || strings.IndexByte(s[:sp], '\t') >= 0 {
			// A tab ends the stamp (h31c): zap's console encoder (zapcore ConsoleSeparator
			// "\t": "2026-11-30T10:00:01.123Z\terror\tx.go:77\tmsg\t{...}") has no host and
			// no tag, and the fields are not the stamp; the record is read whole.
			// No RFC 3339 stamp holds a '|': Open vSwitch's log
			// ("2020-05-20T08:53:27.294Z|00872|timeval|WARN|...", lib/vlog.c) is no syslog
			// line, and its fields are not a host and a tag (unreadvswitch.go names it).
			return s
		}
		if strings.HasPrefix(s[sp+1:], "##[") {
			// GitHub Actions' raw log ("2026-11-28T10:31:02.1234567Z ##[error]Process
			// completed with exit code 137."): the runner's stamp, then a workflow command,
			// no host and no tag.
			return s
		}
		stamp, rest = s[:sp], s[sp:]
	default:
		return s
	}
	if len(rest) > 2 && rest[0] == ':' && rest[1] == ' ' {
		// "Jun 12 06:39:16: mem avail: ..." (fix33a, corpus 2845): a syslog or journal
		// line whose host and tag the paste cut, the stamp ended by a colon. The program is
		// not named, so the message is read as that program prints it bare.
		l.Stamp = stamp
		return rest[2:]
	}
	// host
	rest = strings.TrimLeft(rest, " ")
	if _, n := printkStamp(rest); n > 0 {
		// "Sep 18 20:48:55 [88988.266617] cron: page allocation failure: ...": a kernel
		// line with its printk stamp and no host or tag, as a netconsole receiver that
		// stamps what it receives writes it (fix62d, corpus 5145). The kernel's stamp is
		// left for stripKernelStamp.
		l.Syslog, l.Stamp, l.Tag, l.Kernel = true, stamp, "kernel", true
		return rest
	}
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 {
		return s
	}
	host, rest := rest[:sp], rest[sp+1:]
	if hostIsTag(host) {
		// "avril 16 21:08:50 systemd-oomd[93234]: Killed ...": journalctl's short output
		// without a host name (a paste that cut it, a container's journal).
		tag := host[:strings.IndexByte(host, '[')]
		l.Syslog, l.Stamp, l.Tag = true, stamp, unitTag(tag)
		return rest
	}
	if len(rest) > 1 && rest[0] == '=' && rest[1] == ' ' && s[0] >= '0' && s[0] <= '9' {
		// "2023-01-26T07:56:18.298807727Z node_memory_MemFree_bytes = 40800112640": a
		// metric's sample as cmetrics' text encoder prints it (nodeexporter.go
		// cmetricsText), not a host and its message.
		return s
	}
	if relay, ok := relayHostRest(host, rest); ok {
		host, rest = relay[0], relay[1] // the relay's address first (fix39b)
	}
	// tag: up to the first ": " (programs' tags hold no spaces)
	colon := 0
	for colon < len(rest) && rest[colon] != ':' && rest[colon] != ' ' {
		colon++
	}
	if colon == 0 || colon == len(rest) || rest[colon] == ' ' {
		if colon > 0 && colon < len(rest) && rest[colon] == ' ' && (busyboxFacilityLevel(rest[:colon]) || kernFacilityLevel(rest[:colon]) && strings.HasPrefix(rest[colon+1:], "kernel: ")) {
			// BusyBox syslogd without -S (sysklogd/syslogd.c timestamp_and_log: "%s %.64s
			// %s %s", the stamp, the host, parse_fac_prio_20's "facility.priority", the
			// message): DD-WRT's, FreshTomato's and Padavan's "user.err dnsmasq[1234]: ...".
			// The kernel's "kern.warn kernel: " at a line's start is stripUsualSyslog's; here
			// after a list marker or a quote that the fast path does not take (fix66m,
			// g268's 5906 under the bullets form: a camera's logread as a Markdown list).
			if t, ok := syslogTag(rest[colon+1:], stamp, host, l); ok {
				return t
			}
		}
		// "last message repeated 3 times" and other tag-less lines: no ':', or a space
		// before the first one
		l.Syslog, l.Stamp, l.Host = true, stamp, host
		return rest
	}
	tag := rest[:colon]
	if tag != "kernel" && isShowMemTag(tag) && (showMemKind(rest) != "" || strings.HasPrefix(rest[colon:], ": gfp_mask=")) {
		// Not a program's tag: a show_mem line ("DMA: 4294567735*4kB ...", "Active:12269
		// inactive:596") of a kernel that syslogd wrote without the "kernel:" tag (2.6.10
		// klogd, corpus case 137), read as the other tag-less lines are.
		l.Syslog, l.Stamp, l.Host = true, stamp, host
		return rest
	}
	if b := strings.IndexByte(tag, '['); b > 0 {
		tag = tag[:b]
	}
	msg := rest[colon+1:]
	if len(msg) > 0 && msg[0] == ' ' {
		msg = msg[1:]
	}
	l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, host, unitTag(tag)
	if tag == "kernel" {
		l.Kernel = true
	}
	return msg
}

// stripTabbedSyslog reads a log viewer's export of syslog records, one a line with the
// fields split by tabs: the time as the viewer shows it, the host, the tag, the message
// ("15.05.18 07:42\tSFullstacker\tkernel\t[78267.914089] dockerd invoked oom-killer: ...",
// g282's 6477). The time holds digits and a ':' and no letter, the host no space, the tag is
// a program's ("kernel", "dockerd[3570]"): a logger's tab-separated fields (zap's console
// encoder: stamp, level, "file.go:77", message) have no such tag, and a level where the host
// stands (FrankenPHP's Caddy logger: stamp, "ERROR", "frankenphp", message) is no host.
func stripTabbedSyslog(s string, l *Line) (string, bool) {
	f := strings.SplitN(s, "\t", 4)
	if len(f) < 4 || f[1] == "" || strings.ContainsAny(f[1], " :") || f[3] == "" || logLevelWord(f[1]) {
		return s, false
	}
	stamp := strings.TrimSpace(f[0])
	if !stampBytes(stamp, ".:-/ ,", 6) || !strings.Contains(stamp, ":") {
		return s, false
	}
	tag := f[2]
	if b := strings.IndexByte(tag, '['); b > 0 && strings.HasSuffix(tag, "]") && isDigits(tag[b+1:len(tag)-1]) {
		tag = tag[:b]
	}
	if tag == "" || strings.ContainsAny(tag, " :[]") {
		return s, false
	}
	l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, f[1], unitTag(tag)
	l.Kernel = tag == "kernel"
	return f[3], true
}

// logLevelWord: a logger's level, in any case ("ERROR", "warn", "Info").
func logLevelWord(w string) bool {
	switch strings.ToLower(w) {
	case "trace", "debug", "info", "notice", "warn", "warning", "error", "err", "crit", "critical", "fatal", "panic", "alert", "emerg", "dpanic":
		return true
	}
	return false
}

// relayHostRest (fix39b, corpus 3348): a remote-syslog line whose template puts the
// address the record came from before the host name (rsyslog's %fromhost-ip% before
// %hostname%, "Oct 25 14:42:34 127.0.0.1 web1 kernel: ..."): when the "host" is a dotted
// IPv4 address and the next word is a host name followed by a tag ending in ':', that name
// is the host and the tag follows it. A tag-less message after an address ("10.0.0.1 up 3
// days") has no such second word.
func relayHostRest(host, rest string) ([2]string, bool) {
	if !dottedQuad(host) {
		return [2]string{}, false
	}
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 || strings.IndexByte(rest[:sp], ':') >= 0 {
		return [2]string{}, false
	}
	next := rest[sp+1:]
	e := strings.IndexByte(next, ' ')
	if e <= 1 || next[e-1] != ':' || strings.IndexByte(next[:e-1], ':') >= 0 {
		return [2]string{}, false
	}
	return [2]string{rest[:sp], next}, true
}

// dottedQuad: s is an IPv4 address's four decimal parts.
func dottedQuad(s string) bool {
	if len(s) < 7 || len(s) > 15 || s[0] < '0' || s[0] > '9' {
		return false // one byte rules out a host name
	}
	dots, run := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '.':
			if run == 0 {
				return false
			}
			dots, run = dots+1, 0
		case c >= '0' && c <= '9':
			if run++; run > 3 {
				return false
			}
		default:
			return false
		}
	}
	return dots == 3 && run > 0
}

// busyboxFacilityLevel: BusyBox's parse_fac_prio_20 "facility.priority" (sysklogd/syslogd.c,
// the names of syslog.h's facilitynames and prioritynames) for a facility other than kern.
func busyboxFacilityLevel(w string) bool {
	fac, prio, ok := strings.Cut(w, ".")
	if !ok {
		return false
	}
	switch fac {
	case "user", "daemon", "auth", "authpriv", "syslog", "cron", "mail", "news", "lpr", "uucp", "ftp", "security",
		"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7":
	default:
		return false
	}
	return busyboxPriority(prio)
}

// kernFacilityLevel: "kern." and one of the priorities parse_fac_prio_20 names.
func kernFacilityLevel(w string) bool {
	prio, ok := strings.CutPrefix(w, "kern.")
	return ok && busyboxPriority(prio)
}

// busyboxPriority: a priority name of syslog.h's prioritynames as parse_fac_prio_20 reads it.
func busyboxPriority(p string) bool {
	switch p {
	case "emerg", "panic", "alert", "crit", "err", "error", "warn", "warning", "notice", "info", "debug":
		return true
	}
	return false
}

// isShowMemTag: the first words of show_mem lines that look like a syslog tag ("DMA:");
// "oom-killer" is 2.6.1x's OOM header ("oom-killer: gfp_mask=0xd0") in the same logs. A
// switch, not a map: it runs on every syslog line of another program.
func isShowMemTag(tag string) bool {
	switch tag {
	case "DMA", "DMA32", "Normal", "HighMem", "Movable", "Active", "active_anon", "oom-killer":
		return true
	}
	return false
}

// stripKernelStamp removes "<4>", "[ 1234.567890]" and "[    T123]" prefixes of dmesg and
// console output.
func stripKernelStamp(s string, l *Line) string {
	if len(s) >= 3 && s[0] == '<' && s[2] == '>' && s[1] >= '0' && s[1] <= '7' {
		l.Priority = int(s[1] - '0')
		l.Kernel = true
		s = s[3:]
	}
	if len(s) < 3 || s[0] != '[' {
		return stripLostBracketStamp(s, l)
	}
	if us, n := printkStamp(s); n > 0 {
		l.UptimeUsec = us
		l.Kernel = true
		return stripCaller(s[n:], l)
	}
	return stripBracketStamp(s, l)
}

// printkStamp reads a dmesg stamp as printk prints it (kernel/printk/printk.c print_time,
// "[%5lu.%06lu]") and returns the uptime and the stamp's length, or 0 for a stamp it does not
// take: the seconds right-aligned in five columns or wider (past 100,000 s of uptime: about
// half the lines of the bench's syslog), a '.', six digits of microseconds and the ']', and a
// byte after it. The six digits are checked and converted as one word (SWAR) instead of the
// byte loops of stripBracketStamp, which read the same stamp to the same value
// (TestPrintkStampIsBracketStamp): those loops, whose trip counts vary, were 5% of the
// bench's parse child.
func printkStamp(s string) (int64, int) {
	// The '.' after the seconds: at s[6] for five columns; sixteen digits at most, so that
	// the ']' falls where stripBracketStamp looks for it (k <= 24).
	d := 6
	for d < 17 && d < len(s) && isDigit(s[d]) {
		d++
	}
	if d+8 >= len(s) || s[d] != '.' || s[d+7] != ']' {
		return 0, 0
	}
	// s[d+1:d+7] in the top six bytes of the word, the first digit lowest (it is the most
	// significant); the two low bytes are zero, leading zeros of an eight-digit number.
	w := le64(s, d+1) << 16
	const hi, lo = 0xF0F0F0F0F0F0F0F0, 0x0F0F0F0F0F0F0F0F
	// Each of the six is a digit: its high nibble is 3, and its low nibble plus 6 does not
	// carry into the high one.
	if w&hi != 0x3030303030300000 || (w&lo+0x0606060606060606)&hi != 0 {
		return 0, 0
	}
	us := digits8(w & lo)
	i := 1
	for s[i] == ' ' {
		i++
	}
	if i == d {
		return 0, 0 // no digit before the '.'
	}
	var secs uint64
	for ; i < d; i++ {
		c := s[i] - '0'
		if c > 9 {
			return 0, 0
		}
		secs = secs*10 + uint64(c)
	}
	// Wrapped as stripBracketStamp's int64 sum wraps, for a stamp of sixteen digits.
	return int64(secs*1_000_000 + us), d + 8
}

// digits8 is the number that the eight bytes of w (each 0-9, the most significant lowest)
// spell: pairs, then fours, then all eight, each step a multiply and a shift.
func digits8(w uint64) uint64 {
	w = (w * (10<<8 + 1)) >> 8
	w = ((w & 0x00FF00FF00FF00FF) * (100<<16 + 1)) >> 16
	return ((w & 0x0000FFFF0000FFFF) * (10000<<32 + 1)) >> 32
}

// stripBracketStamp removes a "[...]" stamp that printkStamp did not read: another width, a
// dmesg -H relative stamp, a CPU-prefixed one; s starts with '['.
func stripBracketStamp(s string, l *Line) string {
	// The usual stamp, "[ 1234.567890]": blanks, digits, '.', digits and the ']', read in
	// one pass; what the general reading below gives for it (its ']' is the first one, the
	// blanks are what TrimSpace removes, eighteen digits fit parseDigits).
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && isDigit(s[j]) {
		j++
	}
	if k := j + 1; j > i && j-i <= 18 && k < len(s) && s[j] == '.' {
		for k < len(s) && isDigit(s[k]) {
			k++
		}
		if k > j+1 && k <= 24 && k < len(s) && s[k] == ']' {
			var secs, us int64
			for f := i; f < j; f++ { // eighteen digits at most: no overflow to test
				secs = secs*10 + int64(s[f]-'0')
			}
			for f := j + 1; f < j+7; f++ {
				us *= 10
				if f < k {
					us += int64(s[f] - '0')
				}
			}
			l.UptimeUsec = secs*1_000_000 + us
			l.Kernel = true
			return stripCaller(s[k+1:], l)
		}
	}
	end := strings.IndexByte(s, ']')
	if end < 2 || end > 24 {
		return s
	}
	stamp := strings.TrimSpace(s[1:end])
	if rel, isRel := strings.CutPrefix(stamp, "+"); isRel {
		// dmesg -H/--reltime: "[  +0.000004]" is the time since the previous record
		// (util-linux dmesg.c), not the uptime: a kernel record with no time of its own.
		if _, ok := uptimeMicros(rel); !ok {
			return s
		}
		l.Kernel = true
	} else {
		us, ok := uptimeMicros(stamp)
		if !ok {
			if us, ok = cpuPrefixedUptime(stamp); !ok {
				return s
			}
		}
		l.UptimeUsec = us
		l.Kernel = true
	}
	return stripCaller(s[end+1:], l)
}

// stripCaller removes what follows a dmesg stamp: the caller id and a blank.
func stripCaller(s string, l *Line) string {
	// CONFIG_PRINTK_CALLER: "[    T123]" or "[     C1]" right after the stamp.
	if len(s) > 3 && s[0] == '[' {
		if e := strings.IndexByte(s, ']'); e > 2 && e < 16 {
			id := strings.TrimSpace(s[1:e])
			if len(id) > 1 && (id[0] == 'T' || id[0] == 'C') && (isDigits(id[1:]) || taskAtCPU(id)) {
				l.Caller = id
				s = s[e+1:]
			}
		}
	}
	if len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// taskAtCPU: "T1234@C3", the caller id of Android's printk_cpuid vendor module (a GKI
// kernel's trace hook on CONFIG_PRINTK_CALLER: the task and the CPU it ran on).
func taskAtCPU(id string) bool {
	task, cpu, ok := strings.Cut(id, "@C")
	return ok && id[0] == 'T' && isDigits(task[1:]) && isDigits(cpu)
}

// fixBuddyStars restores the '*' of a show_mem buddy line that Markdown ate: show_free_areas
// prints each order as "%lu*%lukB" (mm/page_alloc.c, mm/show_mem.c since 6.1), and a
// renderer takes the '*' pairs of "486*4kB 46*8kB" for emphasis, so a copy of the rendered
// page reads "486_4kB 46_8kB" (corpus case 364). Only a line with two such tokens is
// rewritten: one "3_4kB" could be a name, a row of them is a buddy line.
func fixBuddyStars(s string) string {
	u := strings.IndexByte(s, '_')
	// Every line passes here: in a buddy line the first '_' is already one of the count's
	// ("Normal: 486_4kB ..."), which rules out function names at once.
	if u < 0 || !buddyUnderscore(s, u) {
		return s
	}
	n := 0
	for i := u; i >= 0 && n < 2; {
		if buddyUnderscore(s, i) {
			n++
		}
		k := strings.IndexByte(s[i+1:], '_')
		if k < 0 {
			break
		}
		i += k + 1
	}
	if n < 2 {
		return s
	}
	b := []byte(s)
	for i := u; i < len(b); i++ {
		if b[i] == '_' && buddyUnderscore(s, i) {
			b[i] = '*'
		}
	}
	return string(b)
}

// buddyUnderscore: s[i] is the '_' of "<digits>_<digits>kB" (a block count, the block size).
func buddyUnderscore(s string, i int) bool {
	if i == 0 || s[i-1] < '0' || s[i-1] > '9' {
		return false
	}
	j := i + 1
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	return j > i+1 && strings.HasPrefix(s[j:], "kB")
}

// stripLostBracketStamp removes a dmesg stamp whose '[' the paste lost ("    4.795291]
// swapper/0: page allocation failure: ...", corpus case 365: a ticket's first log line, cut
// at the bracket). printk prints the stamp as "[%5lu.%06lu] " (kernel/printk/printk.c
// print_time), so what is left is blanks, digits, '.', exactly six digits and "] ": a shape
// no other text has at the start of a line.
func stripLostBracketStamp(s string, l *Line) string {
	if s == "" || s[0] != ' ' && (s[0] < '0' || s[0] > '9') {
		return s
	}
	i := 0
	for i < len(s) && s[i] == ' ' {
		i++
	}
	j := i
	for j < len(s) && s[j] >= '0' && s[j] <= '9' {
		j++
	}
	if j == i || j+9 > len(s) || s[j] != '.' || !isDigits(s[j+1:j+7]) || s[j+7] != ']' || s[j+8] != ' ' {
		// The stamp without its brackets behind a "kernel" tag ("kernel: 123.456789
		// msg": a log shipper's template that prints the uptime bare). Only after the
		// tag: a line that starts with a decimal number is a table's row anywhere else.
		if n := bareStampLen(s); n > 0 && l.Kernel && l.Tag == "kernel" {
			if us, ok := uptimeMicros(strings.TrimLeft(s[:n-1], " ")); ok {
				l.UptimeUsec = us
				return s[n:]
			}
		}
		return s
	}
	us, ok := uptimeMicros(s[i : j+7])
	if !ok {
		return s
	}
	l.UptimeUsec = us
	l.Kernel = true
	return s[j+9:]
}

// cutStamp reports whether t starts like a dmesg record whose stamp lost its ']': '[', blanks,
// and the digits of the seconds with at most the '.' and six digits of printk's "[%5lu.%06lu] "
// (kernel/printk/printk.c print_time), then anything but ']' within the stamp's width. A paste
// cut inside the stamp leaves that shape on its last line; it is never the wrapped piece of the
// line before it (a mail client moves words down, and the next record's stamp is not one).
func cutStamp(t string) bool {
	t = strings.TrimLeft(t, " ")
	if len(t) < 2 || t[0] != '[' {
		return false
	}
	i := 1
	for i < len(t) && t[i] == ' ' {
		i++
	}
	j := i
	for j < len(t) && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j == i || j-i > 12 {
		return false
	}
	if j == len(t) {
		return true // "[21132": cut inside the seconds
	}
	if t[j] != '.' {
		return false // "[1/3]", "[12 ...": not a stamp
	}
	j++
	k := j
	for j < len(t) && j-k < 6 && t[j] >= '0' && t[j] <= '9' {
		j++
	}
	if j == len(t) {
		return true // cut inside the microseconds
	}
	// All six digits of the microseconds, then not the ']' printk puts there: "[2.2 with
	// AA VM" is prose in brackets (corpus 356), "[21132.799070ttt" a stamp without its ']'.
	return j-k == 6 && t[j] != ']'
}

// cutStampReason is what the report says of a line that cutStamp matched and no reader took:
// on the text's last line the paste ended inside the record's stamp, elsewhere the stamp is
// damaged; either way a kernel record headroom did not read, never prose.
func (d *doc) cutStampReason(i int) string {
	text := d.wholeText()
	last := len(strings.TrimRight(text, " \t\r\n"))
	if last > 0 && d.ls[i].No == strings.Count(text[:last], "\n")+1 {
		return "the paste ends inside this line: a kernel log record cut in its time stamp"
	}
	return "a kernel log record whose time stamp lost its ']': not read"
}

// parseDigits is strconv.ParseInt(s, 10, 64) for a string isDigits accepted, without the
// error value: ok is false only when the number does not fit in an int64.
func parseDigits(s string) (int64, bool) {
	var v int64
	for i := 0; i < len(s); i++ {
		d := int64(s[i] - '0')
		if v > (math.MaxInt64-d)/10 {
			return 0, false
		}
		v = v*10 + d
	}
	return v, true
}

func isDigits(s string) bool { return kernel.IsDigits(s) }

// fields splits on spaces and tabs; a thin wrapper so that call sites read as intent.
func fields(s string) []string { return strings.Fields(s) }

// firstField returns the first whitespace-separated token of s without allocating.
func firstField(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	j := i
	for j < len(s) && s[j] != ' ' && s[j] != '\t' {
		j++
	}
	return s[i:j]
}

// atoi parses a decimal integer, tolerating a leading '+'.
func atoi(s string) (int64, bool) {
	if s == "" {
		return 0, false
	}
	if s[0] == '+' {
		s = s[1:]
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}

// atof parses a decimal number, tolerating a trailing '%' and a decimal comma.
func atof(s string) (float64, bool) {
	s = strings.TrimSuffix(s, "%")
	s = strings.Replace(s, ",", ".", 1)
	v, err := strconv.ParseFloat(s, 64)
	return v, err == nil
}

// isNumber reports whether s is an unsigned decimal integer.
func isNumber(s string) bool { return isDigits(s) }

// uptimeMicros reads a dmesg stamp's "12345.678901" as microseconds since boot: the fraction's
// first six digits, padded with zeros. ok is false for anything else, or more seconds than
// an int64 holds.
// cpuPrefixedUptime reads a vendor console stamp that puts the CPU before the uptime,
// "[2-3219.1870]" (CPU 2, 3219.187 s: Samsung's Tizen TV kernels), as the uptime. The CPU
// is one or two digits and the uptime has its '.' and fraction, so a date ("2-11") or a range
// ("0-3") is none.
func cpuPrefixedUptime(stamp string) (int64, bool) {
	cpu, rest, ok := strings.Cut(stamp, "-")
	if !ok || len(cpu) == 0 || len(cpu) > 2 || !isDigits(cpu) || strings.IndexByte(rest, '.') < 1 {
		return 0, false
	}
	return uptimeMicros(rest)
}

func uptimeMicros(inner string) (int64, bool) {
	dot := strings.IndexByte(inner, '.')
	if dot <= 0 || !isDigits(inner[:dot]) || !isDigits(inner[dot+1:]) || len(inner)-dot-1 == 0 {
		return 0, false
	}
	secs, ok := parseDigits(inner[:dot])
	if !ok {
		return 0, false
	}
	frac := inner[dot+1:]
	var us int64
	for k := 0; k < 6; k++ {
		us *= 10
		if k < len(frac) {
			us += int64(frac[k] - '0')
		}
	}
	return secs*1_000_000 + us, true
}

// cellValues maps a table row's numeric cells to their column names, as printed: "0,03" in a
// comma locale is 0.03, a trailing "%" (BusyBox's "281%") is dropped, a cell with a unit
// ("574M") or a time ("0:55") is not a number. Cells beyond the columns are ignored.
func cellValues(columns, row []string) map[string]float64 {
	m := map[string]float64{}
	for c, cell := range row {
		if c >= len(columns) {
			break
		}
		cell = strings.TrimSuffix(cell, "%")
		// A sign or digit first: ParseFloat would take a command named "Inf" or "NaN".
		if cell == "" || !(cell[0] >= '0' && cell[0] <= '9' || cell[0] == '-' && len(cell) > 1 && cell[1] >= '0' && cell[1] <= '9') {
			continue
		}
		if v, ok := atof(cell); ok {
			m[columns[c]] = v
		}
	}
	return m
}

// reJoinedSyslog finds a syslog prefix ("Nov 20 12:42:42 wv2-f302 kernel: ") inside a line:
// records run onto one line when a page or a translation lost the newlines (corpus 521: a
// Mem-Info dump on one line, each record keeping its own prefix).
var reJoinedSyslog = lazyre.New(` (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ 0-3]?\d \d\d:\d\d:\d\d \S+ kernel: `)

// splitJoinedSyslog cuts a line that starts with a syslog prefix at every later prefix of
// the same host's kernel, or returns nil. The cheap test first: two " kernel: " in the line.
func splitJoinedSyslog(raw string) []string {
	if len(raw) < 60 || strings.Count(raw, " kernel: ") < 2 {
		return nil
	}
	first := reJoinedSyslog.FindStringIndex(" " + raw)
	idx := reJoinedSyslog.FindAllStringIndex(raw, -1)
	var out []string
	from := 0
	if first == nil || first[0] != 0 {
		// Prose before the records ("the syslog shows ... Aug 2 07:25:54 host kernel: 927
		// pagecache pages Aug 2 07:25:54 host kernel: Free swap = 0", corpus 1916): two
		// records at least, the prose its own line.
		if len(idx) < 2 {
			return nil
		}
		out = append(out, strings.TrimRight(raw[:idx[0][0]], " "))
		from = idx[0][0] + 1
		idx = idx[1:]
	}
	if len(idx) == 0 {
		return nil
	}
	for _, m := range idx {
		out = append(out, strings.TrimRight(raw[from:m[0]], " "))
		from = m[0] + 1
	}
	return append(out, raw[from:])
}

// stripCellEmphasis removes the Markdown emphasis a poster put around one number of a table
// row to point at it ("flannel.1  0.00  0.00  **51.32**  0.00", a sar, vmstat or
// /proc/net/dev row): the cell is the number, so the row keeps its column count. The
// delimiters become spaces on the left, which keeps a right-aligned column where it was.
// Only in a row of numbers (three or more, at least half of the cells), so emphasis in
// prose ("we saw **512** drops") is the prose's.
func stripCellEmphasis(s string) string {
	if !emphasisBeforeDigit(s) {
		return s
	}
	var cand [][2]int // start, delimiter length
	cells, nums := 0, 0
	for i := 0; i < len(s); {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if j == i {
			break
		}
		tok := s[i:j]
		if tok != "|" {
			cells++
		}
		if isCellNumber(tok) {
			nums++
		} else {
			for _, d := range []string{"**", "__", "*"} {
				if len(tok) > 2*len(d) && strings.HasPrefix(tok, d) && strings.HasSuffix(tok, d) && isCellNumber(tok[len(d):len(tok)-len(d)]) {
					cand = append(cand, [2]int{i, len(d)})
					nums++
					break
				}
			}
		}
		i = j
	}
	if len(cand) == 0 || nums < 3 || 2*nums < cells {
		return s
	}
	b := []byte(s)
	for _, c := range cand {
		i, d := c[0], c[1]
		j := i
		for j < len(b) && b[j] != ' ' && b[j] != '\t' {
			j++
		}
		num := s[i+d : j-d]
		copy(b[i:j], strings.Repeat(" ", 2*d)+num)
	}
	return string(b)
}

// isCellNumber: a table cell's number, "51.32", "-3", "1,234", "12%".
func isCellNumber(t string) bool {
	t = strings.TrimSuffix(strings.TrimPrefix(t, "-"), "%")
	digit := false
	for i := 0; i < len(t); i++ {
		switch c := t[i]; {
		case c >= '0' && c <= '9':
			digit = true
		case c == '.' || c == ',':
		default:
			return false
		}
	}
	return digit
}

// emphasisBeforeDigit: an opening '*' or '_' right before a digit, at a cell's start (after
// white space, the line's start or its twin): the one pass every line gets before
// stripCellEmphasis splits it. A buddy line's "26*4kB" and a call trace's "__alloc_pages"
// are ruled out here.
func emphasisBeforeDigit(s string) bool {
	for _, c := range [2]byte{'*', '_'} {
		for from := 0; ; {
			k := strings.IndexByte(s[from:], c)
			if k < 0 {
				break
			}
			i := from + k
			if i+1 < len(s) && isDigit(s[i+1]) && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == c) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// unitTag is a syslog tag without the ".service" a unit's SyslogIdentifier may carry
// ("kubelet.service[111916]:", IBM Cloud's workers, g262): the program's tag, as the readers
// that know a program by its tag compare it.
func unitTag(tag string) string {
	if t, ok := strings.CutSuffix(tag, ".service"); ok && t != "" {
		return t
	}
	return tag
}
