package artifact

import (
	"fmt"
	"math/rand"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// The line splitting as it was before Parse streamed (commit 68e8ff8), kept as the
// reference that the faster splitting must equal: a month map, strconv.ParseInt for the
// dmesg stamp, a byte-by-byte ASCII test, IndexByte for the syslog tag, no fence shortcut.

func refSplitLines(text string) []Line {
	var out []Line
	no := 0
	for len(text) > 0 {
		no++
		var raw string
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			raw, text = text[:i], text[i+1:]
		} else {
			raw, text = text, ""
		}
		out = refAppendLine(out, no, raw)
	}
	return out
}

func refAppendLine(out []Line, no int, raw string) []Line {
	if pieces := splitJoinedSyslog(raw); pieces != nil {
		for _, p := range pieces {
			out = refAppendLine(out, no, p)
		}
		return out
	}
	if pieces := quotedMailPieces(raw); pieces != nil {
		for _, p := range pieces {
			out = refAppendLine(out, no, p)
		}
		return out
	}
	if len(raw) > 0 && raw[len(raw)-1] == '\r' {
		raw = raw[:len(raw)-1]
	}
	raw = stripHardBreak(raw)
	if len(raw) >= 4 {
		raw = stripHTMLLineTags(raw) // a page's "<br>" and "<pre>" (forms10a)
	}
	l := Line{No: no, UptimeUsec: -1, Priority: -1, lastRaw: len(raw)}
	s := raw
	// Non-ASCII bytes are rare in command output; only then pay for the rewrite.
	if !refIsASCII(s) {
		s = fixLookalikes(s)
	}
	if u, ok := unescapeHTML(s); ok {
		s = u
	}
	s = refStripFront(s, &l)
	if t := stripLogWrappers(s, &l); t != s {
		s = t
		if l.Quote == 0 {
			s = refStripFront(s, &l)
		}
	}
	s = stripOtherPrefixes(s, &l)
	s = refStripSyslog(s, &l)
	s = unwrapRsyslogRepeat(s) // rsyslog's "message repeated N times: [...]" (fix61e)
	s = refStripKernelStamp(s, &l)
	s = journalTagAfterStamp(s, &l)
	s = stripVendorBlocks(s, &l)
	s = fixBuddyStars(s)
	s = stripCellEmphasis(s)
	if strings.Contains(s, "#01") && (strings.Contains(s, "#012") || strings.Contains(s, "#011")) ||
		l.UptimeUsec >= 0 && embeddedStamp(s) > 0 || flattenedLog(s) {
		// rsyslog's default $EscapeControlCharactersOnReceive writes control characters
		// as #ooo octal: a multi-line kernel record arrives as one line with #012.
		s = strings.ReplaceAll(s, "#011", "\t")
		parts := splitRecords(strings.Split(s, "#012"))
		if n := len(parts); n > 1 && strings.TrimSpace(parts[n-1]) == "" {
			parts = parts[:n-1] // the record's last newline is no blank line
		}
		for k, p := range parts {
			c := l
			c.Text = p
			c.Cont = k > 0
			if k > 0 {
				c.Text = refStripKernelStamp(p, &c)
			}
			out = append(out, c)
		}
		return out
	}
	l.Text = stripCounterNote(s)
	return append(out, l)
}

// refIsASCII tests eight bytes at a time; it runs on every line of a 100 MB syslog.
func refIsASCII(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		if w&0x8080808080808080 != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// refStripFront removes the marks in front of a line: a whole-line code span around
// whatever the line holds, quoting (also behind an indent or a list marker), a diff's '+',
// a fence, an open code span, table borders.
func refStripFront(s string, l *Line) string {
	s = refUnwrapLineCode(s)
	var q int
	if len(s) > 1 && s[0] == '|' {
		var bar int
		s, bar = stripBarQuote(s) // "| " quoting around mail quoting (h17b)
		l.Quote += bar
	}
	s, q = refStripQuote(s)
	if len(s) > 4 && (s[0] == '#' || s[0] == '*') {
		s = stripLineEmphasis(s) // a heading or bold around a log line (h17b)
	}
	if q == 0 {
		t := strings.TrimLeft(s, " \t")
		if t != "" && t[0] != '>' {
			t = stripListMarker(t)
		}
		if t != "" && t[0] == '>' {
			s, q = refStripQuote(t)
		}
	}
	l.Quote += q
	if len(s) > 0 && s[0] == '+' && (len(s) == 1 || s[1] == ' ' || s[1] == '\t') {
		s = s[1:] // a line a unified diff adds
	}
	s = refStripFence(s)
	s = refStripOpenCode(s)
	return stripCellBorders(s)
}

// refStripQuote removes mail and Markdown quoting: "> ", ">> ", "> > ".
func refStripQuote(s string) (string, int) {
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
	// A supercite level inside the quote: one to three capitals, '>', then a space, a '>'
	// or the end (fix56a).
	rest := s[i:]
	for n := 1; n <= 3 && n < len(rest); n++ {
		caps := strings.Trim(rest[:n], "ABCDEFGHIJKLMNOPQRSTUVWXYZ") == ""
		if !caps {
			break
		}
		if rest[n] == '>' && (n+1 == len(rest) || rest[n+1] == ' ' || rest[n+1] == '>') {
			t, d := refStripQuote(rest[n:])
			return t, depth + d
		}
	}
	return rest, depth
}

// refUnwrapLineCode takes off a code span of one or two backticks that is the whole line
// (behind spaces, before trailing blanks) and holds no other backtick: the span goes before
// the quoting it may hold ("`> [ 12.3] ...`", forms10b).
func refUnwrapLineCode(s string) string {
	t := strings.TrimRight(s, " \t")
	ind := len(t) - len(strings.TrimLeft(t, " "))
	c := t[ind:]
	for _, d := range []string{"``", "`"} {
		if len(c) > 2*len(d) && strings.HasPrefix(c, d) && strings.HasSuffix(c, d) && !strings.Contains(c[len(d):len(c)-len(d)], "`") {
			return s[:ind] + c[len(d):len(c)-len(d)]
		}
	}
	return s
}

// refStripFence blanks Markdown code fences and forums' block markup, which only delimit.
func refStripFence(s string) string {
	if n := len(s); n > 7 && (s[n-1] == ']' || s[0] == '[') {
		s = inlineCodeTags(s) // bbcode's code tags on the block's own first and last lines
	}
	t := strings.TrimSpace(s)
	lead := s[:len(s)-len(strings.TrimLeftFunc(s, unicode.IsSpace))]
	if m := refFenceLine.FindStringSubmatch(s[len(lead):]); m != nil {
		// What follows the fence on its line: an info string (nothing, a language's name and
		// attributes) or output typed right after the fence, read without the fence.
		rest := strings.TrimSuffix(strings.TrimRight(m[2], " \t"), m[1][:3])
		rest = strings.TrimRight(rest, " \t")
		if refFenceInfo.MatchString(rest) && !refFenceHeader.MatchString(rest) {
			return ""
		}
		if rest[0] == ' ' || rest[0] == '\t' {
			return lead + strings.Repeat(" ", len(m[1])) + rest
		}
		return lead + rest
	}
	if blockMarkup(t) || forumCaption(t) {
		return ""
	}
	return s
}

var (
	refFenceLine   = regexp.MustCompile("^(`{3,}|~{3,})(.*)$")
	refFenceInfo   = regexp.MustCompile(`^[ \t]*(\{.*\}|([^ \t]*=[^ \t]*|[\w+.#-]+)([ \t]+([^ \t]*=[^ \t]*|[\w+.#-]+)){0,2})?[ \t]*$`)
	refFenceHeader = regexp.MustCompile(`^[ \t]+[^ \t]+[ \t]+[^ \t]+[ \t]+[^ \t]+`)
)

// refStripOpenCode drops the backticks of a whole-line code span, or a line's only backtick when it opens the line or closes it
// (trailing blanks go with it).
func refStripOpenCode(s string) string {
	// A pair that is the whole line: the span is markup (each line of output wrapped in one).
	if t := strings.TrimRight(s, " \t"); strings.Count(s, "`") == 2 && strings.HasSuffix(t, "`") {
		ind := len(t) - len(strings.TrimLeft(t, " \t"))
		if c := t[ind:]; len(c) > 2 && c[0] == '`' {
			return t[:ind] + c[1:len(c)-1]
		}
	}
	if strings.Count(s, "`") != 1 {
		return s
	}
	if strings.HasPrefix(s, "`") {
		return strings.TrimPrefix(s, "`")
	}
	if t := strings.TrimRight(s, " \t"); strings.HasSuffix(t, "`") {
		return strings.TrimRight(strings.TrimSuffix(t, "`"), " \t")
	}
	return s
}

var refMonths = map[string]bool{"Jan": true, "Feb": true, "Mar": true, "Apr": true, "May": true, "Jun": true,
	"Jul": true, "Aug": true, "Sep": true, "Oct": true, "Nov": true, "Dec": true}

// refStripSyslog removes a BSD syslog prefix ("Aug  4 17:42:34 host tag[pid]: ") or an RFC 3339
// one ("2024-01-02T03:04:05.123456+00:00 host tag: ").
// refTabbedSyslog: a log viewer's tab-separated export, "TIME\tHOST\tTAG[PID]\tMESSAGE"
// (lines.go stripTabbedSyslog).
var refTabbedSyslog = regexp.MustCompile(`^([0-9.:/, -]+)\t([^\t :]+)\t([^\t :\[\]]+)(?:\[[0-9]+\])?\t(.+)$`)

var refLevel = map[string]bool{"trace": true, "debug": true, "info": true, "notice": true, "warn": true, "warning": true, "error": true,
	"err": true, "crit": true, "critical": true, "fatal": true, "panic": true, "alert": true, "emerg": true, "dpanic": true}

func refStripSyslog(s string, l *Line) string {
	if len(s) < 16 {
		return s
	}
	if m := refTabbedSyslog.FindStringSubmatch(s); m != nil && strings.Count(m[1], ":") > 0 && !refLevel[strings.ToLower(m[2])] {
		digits := 0
		for _, c := range m[1] {
			if c >= '0' && c <= '9' {
				digits++
			}
		}
		if digits >= 6 {
			l.Syslog, l.Stamp, l.Host, l.Tag, l.Kernel = true, strings.TrimSpace(m[1]), m[2], refUnit(m[3]), m[3] == "kernel"
			return m[4]
		}
	}
	var rest, stamp string
	switch c := s[0]; {
	case c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= 0x80:
		m := 3
		if s[3] != ' ' || !refMonths[s[:3]] {
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
		// a time-only stamp before "host kernel: " (lines.go stripSyslog)
		if !isDigits(s[:2]) || !isDigits(s[3:5]) || !isDigits(s[6:8]) || s[8] != ' ' {
			return s
		}
		host, after, ok := strings.Cut(strings.TrimLeft(s[8:], " "), " ")
		if !ok || host == "" || !strings.HasPrefix(after, "kernel: ") {
			return s
		}
		stamp, rest = s[:8], s[8:]
	case c >= '0' && c <= '9':
		if s[4] != '-' || s[7] != '-' || s[10] != 'T' || !isDigits(s[:4]) {
			return s
		}
		sp := strings.IndexByte(s, ' ')
		if sp < 0 || strings.IndexByte(s[:sp], '|') >= 0 || strings.IndexByte(s[:sp], '\t') >= 0 { // Open vSwitch's log, zap's console form (lines.go stripSyslog)
			return s
		}
		if strings.HasPrefix(s[sp+1:], "##[") { // GitHub Actions' raw log (lines.go stripSyslog)
			return s
		}
		stamp, rest = s[:sp], s[sp:]
	default:
		return s
	}
	if strings.HasPrefix(rest, ": ") && len(rest) > 2 { // the stamp then a colon, host and tag cut (lines.go stripSyslog)
		l.Stamp = stamp
		return rest[2:]
	}
	// host
	rest = strings.TrimLeft(rest, " ")
	if refPrintkStampFirst(rest) { // a kernel line with no host or tag (lines.go stripSyslog, fix62d)
		l.Syslog, l.Stamp, l.Tag, l.Kernel = true, stamp, "kernel", true
		return rest
	}
	sp := strings.IndexByte(rest, ' ')
	if sp <= 0 {
		return s
	}
	host, rest := rest[:sp], rest[sp+1:]
	if hostIsTag(host) { // no host (lines.go stripSyslog)
		l.Syslog, l.Stamp, l.Tag = true, stamp, refUnit(host[:strings.IndexByte(host, '[')])
		return rest
	}
	if strings.HasPrefix(rest, "= ") && s[0] >= '0' && s[0] <= '9' {
		return s // cmetrics' text form, "STAMP name = value" (lines.go stripSyslog)
	}
	if f := strings.Fields(rest); len(f) >= 2 && dottedQuad(host) && !strings.Contains(f[0], ":") &&
		len(f[1]) > 1 && strings.Count(f[1], ":") == 1 && strings.HasSuffix(f[1], ":") && strings.HasPrefix(rest, f[0]+" "+f[1]+" ") {
		// a relay's address before the host name (lines.go relayHostRest, fix39b)
		host, rest = f[0], rest[len(f[0])+1:]
	}
	// tag: up to the first ": " (programs' tags hold no spaces)
	colon := strings.IndexByte(rest, ':')
	if colon <= 0 || strings.IndexByte(rest[:colon], ' ') >= 0 {
		// BusyBox syslogd's "facility.priority" before the tag ("user.err dnsmasq[1234]: ",
		// lines.go stripSyslog)
		if w, after, ok := strings.Cut(rest, " "); ok && busyboxFacilityLevel(w) {
			if c := strings.IndexByte(after, ':'); c > 0 && strings.IndexByte(after[:c], ' ') < 0 {
				tag := after[:c]
				if b := strings.IndexByte(tag, '['); b > 0 {
					tag = tag[:b]
				}
				l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, host, refUnit(tag)
				if tag == "kernel" {
					l.Kernel = true
				}
				return strings.TrimPrefix(after[c+1:], " ")
			}
		}
		// "last message repeated 3 times" and other tag-less lines
		l.Syslog, l.Stamp, l.Host = true, stamp, host
		return rest
	}
	tag := rest[:colon]
	if isShowMemTag(tag) && (showMemKind(rest) != "" || strings.HasPrefix(rest[colon:], ": gfp_mask=")) {
		// a show_mem line written without the kernel tag ("DMA: 1*4kB ...")
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
	l.Syslog, l.Stamp, l.Host, l.Tag = true, stamp, host, refUnit(tag)
	if tag == "kernel" {
		l.Kernel = true
	}
	return msg
}

var refCPUStamp = regexp.MustCompile(`^[0-9]{1,2}-([0-9]+\.[0-9]+)$`)

var refLostStamp = regexp.MustCompile(`^ *([0-9]+)\.([0-9]{6})\] `)
var refBareStamp = regexp.MustCompile(`^ *([0-9]{1,10})\.([0-9]{6}) `)

// refStripKernelStamp removes "<4>", "[ 1234.567890]" and "[    T123]" prefixes of dmesg and
// console output.
func refStripKernelStamp(s string, l *Line) string {
	if len(s) >= 3 && s[0] == '<' && s[2] == '>' && s[1] >= '0' && s[1] <= '7' {
		l.Priority = int(s[1] - '0')
		l.Kernel = true
		s = s[3:]
	}
	if len(s) < 3 || s[0] != '[' {
		// a stamp that lost its '[' ("    4.795291] x")
		if m := refLostStamp.FindStringSubmatch(s); m != nil {
			secs, err1 := strconv.ParseInt(m[1], 10, 64)
			us, err2 := strconv.ParseInt(m[2], 10, 64)
			if err1 == nil && err2 == nil {
				l.UptimeUsec = secs*1_000_000 + us
				l.Kernel = true
				return s[len(m[0]):]
			}
		}
		// the stamp with neither bracket, only behind a "kernel" tag ("kernel: 123.456789 x")
		if m := refBareStamp.FindStringSubmatch(s); m != nil && l.Kernel && l.Tag == "kernel" {
			secs, err1 := strconv.ParseInt(m[1], 10, 64)
			us, err2 := strconv.ParseInt(m[2], 10, 64)
			if err1 == nil && err2 == nil {
				l.UptimeUsec = secs*1_000_000 + us
				return s[len(m[0]):]
			}
		}
		return s
	}
	end := strings.IndexByte(s, ']')
	if end < 2 || end > 24 {
		return s
	}
	inner := strings.TrimSpace(s[1:end])
	rel := strings.HasPrefix(inner, "+") // dmesg -H: time since the previous record
	inner = strings.TrimPrefix(inner, "+")
	if m := refCPUStamp.FindStringSubmatch(inner); m != nil && !rel {
		inner = m[1] // "[2-3219.1870]": a vendor's CPU before the uptime
	}
	dot := strings.IndexByte(inner, '.')
	if dot <= 0 || !isDigits(inner[:dot]) || !isDigits(inner[dot+1:]) || len(inner)-dot-1 == 0 {
		return s
	}
	secs, err1 := strconv.ParseInt(inner[:dot], 10, 64)
	frac := inner[dot+1:]
	if len(frac) > 6 {
		frac = frac[:6]
	}
	us, err2 := strconv.ParseInt(frac+strings.Repeat("0", 6-len(frac)), 10, 64)
	if err1 != nil || err2 != nil {
		return s
	}
	if !rel {
		l.UptimeUsec = secs*1_000_000 + us
	}
	l.Kernel = true
	s = s[end+1:]
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

// lineSamples are lines the splitter must agree on: every fixture and seed line under each
// prefix it strips, and edge cases of each prefix.
func lineSamples(t testing.TB) []string {
	t.Helper()
	var out []string
	prefixes := []string{"", "Aug  4 17:42:34 web1 kernel: ", "Aug 14 17:42:34.123456 web1 kernel: [ 1234.567890] ",
		"2024-01-02T03:04:05.123456+00:00 web1 kernel: ", "<4>[    1.000000] [    T123] ", "> > ", "Aug  4 17:42:34 web1 sshd[812]: "}
	for _, text := range fixtureTexts(t) {
		for _, l := range strings.Split(text, "\n") {
			for _, p := range prefixes {
				out = append(out, p+l)
			}
		}
	}
	return append(out,
		"", "\r", "```", "  ~~~ ", "\u00a0```", "`x", "~x", "Jan", "Foo  4 17:42:34 h kernel: x", "Aug 123 17:42:34 h kernel: x",
		"Aug  4 17:42:3x h kernel: x", "Aug  4 17:42:34", "Aug  4 17:42:34 ", "Aug  4 17:42:34 h", "Aug  4 17:42:34 h :x",
		"Aug  4 17:42:34 h tag x: y", "Aug  4 17:42:34 h tag[1]: y", "Aug  4 17:42:34 h [1]: y", "Aug  4 17:42:34 h tag:",
		"Aug  4 17:42:34 h last message repeated 3 times", "Aug  4 17:42:34.5 h kernel: x", "2024-01-02T03:04:05Z h kernel: x",
		"2024-01-02T03:04:05+00:00", "2024-x1-02T03:04:05+00:00 h kernel: x", "[99999999999999999999.1] x", "[9223372036854775807.1] x",
		"[9223372036854775808.000001] x", "[ 12.3] x", "[ 12.] x", "[.5] x", "[ 12.3456789] x", "[ 1.000000][    C1] x",
		"[ 1.000000] [T] x", "[ 1.000000] [    T12x] x", "[12345678901234567890123.5] x", "<8>x", "<7>", "<0>[ 1.0] x",
		"x #012 y", "#011#012", "    4.795291] swapper/0: x", "4.795291] x", " 4.79529] x", "4.7952910] x", "12.000000]x", "a#01b", "0×20 \u2212 \u2011 \ufeffx", "\xff\xfe bad utf-8")
}

// SplitLines gives the Lines the previous splitter gave.
func TestSplitLinesMatchesReference(t *testing.T) {
	lines := lineSamples(t)
	rng := rand.New(rand.NewSource(1))
	// Random lines over the bytes the prefixes are made of.
	const alphabet = "Aug 0123456789:.[]<>#T-+Zkernl ab\t\r\u00a0"
	for range 20000 {
		b := make([]byte, rng.Intn(48))
		for k := range b {
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		lines = append(lines, string(b))
	}
	for _, l := range lines {
		got, want := SplitLines(l), refSplitLines(l)
		if len(got) == 0 && len(want) == 0 {
			continue
		}
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("%q:\n got  %#v\n want %#v", l, got, want)
		}
	}
	text := strings.Join(lines, "\n")
	if fmt.Sprintf("%#v", SplitLines(text)) != fmt.Sprintf("%#v", refSplitLines(text)) {
		t.Fatal("the joined samples split differently")
	}
}

func FuzzSplitLines(f *testing.F) {
	addFixtures(f)
	f.Add("Aug  4 17:42:34 web1 kernel: [ 1234.567890] [    T123] x#012y")
	f.Add("Jan  1 00:00:02 cmsstor26 kernel: [ 1234.078260] IPv4: martian source 10.254.151.153 from 10.0.0.115, on dev eth0")
	f.Add("Jan 11 00:00:06 cmsstor26 sshd[4015]: Accepted publickey for root")
	f.Fuzz(func(t *testing.T, s string) {
		got, want := SplitLines(s), refSplitLines(s)
		if (len(got) > 0 || len(want) > 0) && fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("%q:\n got  %#v\n want %#v", s, got, want)
		}
	})
}

// The cheap tests in front of the report and dump detection say yes to every line the
// tests they guard say yes to.
func TestPrefilters(t *testing.T) {
	lines := lineSamples(t)
	for _, l := range []string{
		"Out of memory: Kill process 1234 (java) score 900 or sacrifice child", "Out of Memory: Kill process 1 (init)",
		"java invoked oom-killer: gfp_mask=0x201da, order=0, oom_score_adj=0", "oom-killer: gfp_mask=0x0",
		"SLUB: Unable to allocate memory on node -1 (gfp=0x20)", "__alloc_pages: 2-order allocation failed (gfp=0x20/0)",
		"afpd: page allocation failure. order:2, mode:0x20", "Kill", "kill", "allocat", "ll", "lll", "alllocat",
		"Node 0 DMA free:15908kB min:128kB", "Node 0 Normal: 1*4kB 2*8kB = 20kB", "Node 1 Movable: empty",
		"Normal free:1kB min:2kB", "DMA32: 1*4kB = 4kB", "HighMem: empty", "Movable free:0kB", "Device free:0kB",
		"Active:123 inactive:4", "active_anon:1 inactive_anon:2", "Active_anon:1", "Free pages:  1234kB (0kB HighMem)",
		"Mem-Info:", "Mem-info:", "Show-Memory:", "DMA per-cpu:", "Normal per-cpu:", "  Node 0 Normal free:1kB  ", "\tDMA: empty",
		"A", "N:", ":", "No", "DM", "Dev",
		"4227755 pages in swap cache", "Memory cgroup min protection 0kB -- low protection 0kB", "3 pages later",
		"Total: 5", "Swap: 0 0 0", "Memory: 1234k/5678k available", "12 pages", "Total swap = 67108860kB",
	} {
		lines = append(lines, l, " "+l, l+" ")
	}
	for _, l := range lines {
		var want bool
		switch showMemKind(l) {
		case "marker", "zone", "buddy", "freepages", "global", "nodeopen", "tail", "swap":
			// tail and swap: a footer may open an excerpt whose dump head was cut.
			want = true
		}
		if got := startsShowMem(l); got != want {
			t.Errorf("startsShowMem(%q) = %v, showMemKind says %q", l, got, showMemKind(l))
		}
		if (isAllocHeader(l) || isOOMHeader(l) || isSlabHeader(l)) && !mayBeHeader(l) {
			t.Errorf("mayBeHeader(%q) is false for a header", l)
		}
		if isASCII(l) != refIsASCII(l) {
			t.Errorf("isASCII(%q) = %v", l, isASCII(l))
		}
	}
	for _, s := range []string{"0", "7", "0000000000000000000000001", "9223372036854775807", "9223372036854775808",
		"9223372036854775810", "18446744073709551615", "99999999999999999999", "1234567890"} {
		v, ok := parseDigits(s)
		w, err := strconv.ParseInt(s, 10, 64)
		if ok != (err == nil) || ok && v != w {
			t.Errorf("parseDigits(%q) = %d, %v; ParseInt: %d, %v", s, v, ok, w, err)
		}
	}
	for r := rune(0); r < 0x800; r++ {
		s := strings.Repeat("a", int(r)%17) + string(r) + strings.Repeat("b", int(r)%9)
		if isASCII(s) != refIsASCII(s) || isASCII(s) != (utf8.RuneLen(r) == 1) {
			t.Fatalf("isASCII(%q) = %v", s, isASCII(s))
		}
	}
}

// stripUsualSyslog and the usual dmesg stamp are shortcuts through the general steps for the
// lines a syslog file is made of: mutations of such lines, a byte at a time where their shape
// is decided, read as the reference reads them.
func TestUsualSyslogIsGeneral(t *testing.T) {
	var buf strings.Builder
	if err := GenerateSyslog(&buf, 64<<10, 3); err != nil {
		t.Fatal(err)
	}
	base := strings.Split(strings.TrimSpace(buf.String()), "\n")
	base = append(base, "Aug 14 17:42:34 web1 kernel: [    T123] x", "Aug  4 17:42:34 h kernel: [ 1.000000] [    T123] x y",
		"Aug  4 17:42:34 h kernel: <4>[ 1.000000] x", "Aug  4 17:42:34 h kernel: [999999999999999999.1234567] x",
		"Aug  4 17:42:34 h kernel: [9999999999999999999.1] x", "Aug  4 17:42:34 h kernel: [ +0.000004] x",
		"Aug  4 17:42:34 h kernel: [ 12.5 ] x", "Aug  4 17:42:34 h kernel: [\t12.5] x", "Aug  4 17:42:34 h DMA: 1*4kB = 4kB",
		"Aug  4 17:42:34 kernel: x", "Aug  4 17:42:34 kernel:", "Aug  4 17:42:34 h kernel: a | b |", "Aug  4 17:42:34 h kernel: \\[ 1.0\\] x",
		"Aug  4 17:42:34 h kernel: [ 12.000001]x", "Aug  4 17:42:34 h kernel: [1.000001]", "Aug  4 17:42:34 h tag[1]: y",
		"Aug  4 17:42:34 h [1]: y", "Aug  4 17:42:34 h kernel: 3_4kB 5_8kB", "Aug  4 17:42:34 h kernel: x#012y", "Jun  4 17:42:34 h kernel: x",
		"Aug  4 17:42:34 h CRON[1]: (root) CMD (a &gt; b && c)", "Aug  4 17:42:34 h kernel: &lt;4&gt;[ 1.000000] x",
		"Aug  4 17:42:34 h x: see https://a/?b=1&amp;c=2 &amp; &#39;q&#39; &nbsp;&", "Aug  4 17:42:34 h kernel: a&& b &",
		"Aug  4 17:42:34 h kernel: x`", "Aug  4 17:42:34 h tag[1]: y ` ", "Aug  4 17:42:34 h kernel: `x` y`")
	rng := rand.New(rand.NewSource(7))
	const alphabet = " \t:.[]<>|\\#_+0123456789kT\u00e9&g;`"
	lines := append([]string(nil), base...)
	for range 60000 {
		b := []byte(base[rng.Intn(len(base))])
		for range 1 + rng.Intn(3) {
			k := rng.Intn(min(len(b), 40))
			if rng.Intn(4) == 0 {
				k = rng.Intn(len(b))
			}
			b[k] = alphabet[rng.Intn(len(alphabet))]
		}
		lines = append(lines, string(b))
	}
	fast := 0
	for _, l := range lines {
		var x Line
		if _, ok := stripUsualSyslog(l, &x, rawFacts{}); ok {
			fast++
		}
		got, want := SplitLines(l), refSplitLines(l)
		if fmt.Sprintf("%#v", got) != fmt.Sprintf("%#v", want) {
			t.Fatalf("%q:\n got  %#v\n want %#v", l, got, want)
		}
	}
	if fast < len(lines)/4 {
		t.Errorf("the shortcut took %d of %d lines: the test no longer tests it", fast, len(lines))
	}
}

// refPrintkStampFirst: the text starts with printk's "[%5lu.%06lu]" stamp (seconds padded to
// at least five columns, at most sixteen digits) and goes on after it.
func refPrintkStampFirst(s string) bool {
	end := strings.IndexByte(s, ']')
	if len(s) < 2 || s[0] != '[' || end < 0 || end+1 >= len(s) {
		return false
	}
	secs, micros, ok := strings.Cut(s[1:end], ".")
	if !ok || len(micros) != 6 || len(secs) < 5 || len(secs) > 16 {
		return false
	}
	digits := strings.TrimLeft(secs, " ")
	if digits == "" {
		return false
	}
	for _, c := range digits + micros {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// refUnit: a systemd unit's identifier names its program ("kubelet.service" is "kubelet").
func refUnit(tag string) string {
	if len(tag) > len(".service") && strings.HasSuffix(tag, ".service") {
		return tag[:len(tag)-len(".service")]
	}
	return tag
}
