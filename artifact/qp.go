package artifact

import (
	"strings"
	"unicode/utf8"
)

// A mail pasted from its source (a list archive's raw message, a "view source") can still be
// in the Content-Transfer-Encoding it was sent in, quoted-printable (RFC 2045 §6.7): "=3D"
// for "=", "=20" for a trailing space, "=A0" or "=C2=A0" for a non-breaking space, "=0A" for
// a line break the sender's client encoded, and "=" at the end of a line for a soft break
// that the client inserted to keep lines under 76 characters, often inside a word or a
// number ("Mask:255.25=" / "5.248.0", "kernel 6.1=" / "3.8"). Read as is, the soft breaks
// cut lines of kernel output in two and the escapes hide the numbers ("Free swap  =3D
// 995636kB").
//
// The text is decoded as a whole, before the lines are read, only when it says it is
// quoted-printable (its own "Content-Transfer-Encoding: quoted-printable" header) or shows
// the encoding consistently: at least qpMinSoft soft breaks and at least qpMinEscapes of
// the escapes an encoder writes and a kernel or a person seldom does. A kernel line that
// ends in "=" ("nodemask=", "cpuset=" of a warn_alloc header the log split), a "key=3D" in
// prose or "timeout=20" alone are not enough. Line numbers are then those of the decoded
// text (each soft break joins two lines).

const (
	qpMinSoft    = 2
	qpMinEscapes = 2
	qpProbe      = 1 << 20
)

// decodeQuotedPrintable returns text decoded from quoted-printable when it is marked as
// such (qpMarked), else text itself.
func decodeQuotedPrintable(text string) string {
	// A byte test first: an encoded text holds "=" followed by a line end or a hex digit;
	// most texts (a syslog of kernel lines) have neither "=\n" nor "=3D" nor "=0A".
	// The markers of an encoded mail are on every screenful of it: the first qpProbe bytes
	// decide, so that a 50 MB syslog is not searched whole (its 300,000 "=" made the
	// search 25 ms of a 600 ms parse).
	probe := text[:min(len(text), qpProbe)]
	if !qpHint(probe) {
		return text
	}
	if loc := qpHeader(probe); loc != nil {
		// The header names the encoding of its own MIME part only: in a multipart mail the
		// plain half may be 8bit and the HTML half quoted-printable. The part runs from
		// the header to the next line of its boundary ("--" and the boundary's token, the
		// line that opened the part), else to the end.
		start, end := loc[1], len(text)
		if b := qpPartBoundary(text[:loc[0]]); b != "" {
			if k := strings.Index(text[start:], "\n"+b); k >= 0 {
				end = start + k + 1
			}
		}
		return text[:start] + qpDecode(text[start:end]) + text[end:]
	}
	if !qpMarked(probe) {
		return text
	}
	return qpDecode(text)
}

// qpHint: one pass over the text for an "=" before a line end or "=3D"; a text without
// either is no quoted-printable worth decoding.
func qpHint(text string) bool {
	for i := 0; ; {
		j := strings.IndexByte(text[i:], '=')
		if j < 0 {
			return false
		}
		i += j + 1
		if i >= len(text) {
			return true // "=" ends the text: a soft break
		}
		switch text[i] {
		case '\n', '\r':
			return true
		case '3':
			if i+1 < len(text) && text[i+1] == 'D' {
				return true
			}
		}
	}
}

// qpHeader finds "Content-Transfer-Encoding: quoted-printable" in any case and returns the
// span of its first occurrence, nil when none. (A case-insensitive regexp over a 50 MB text
// took 2.9 s; each case of "-encoding:" is searched for instead.)
func qpHeader(text string) []int {
	const name, value = "content-transfer-encoding:", "quoted-printable"
	best := []int(nil)
	for _, key := range []string{"-Encoding:", "-encoding:", "-ENCODING:"} {
		for from := 0; ; {
			k := strings.Index(text[from:], key)
			if k < 0 {
				break
			}
			k += from
			from = k + len(key)
			start := k + len(key) - len(name)
			if start < 0 || !strings.EqualFold(text[start:from], name) {
				continue
			}
			rest := strings.TrimLeft(text[from:], " \t")
			if len(rest) < len(value) || !strings.EqualFold(rest[:len(value)], value) {
				continue
			}
			end := len(text) - len(rest) + len(value)
			if best == nil || start < best[0] {
				best = []int{start, end}
			}
			break
		}
	}
	return best
}

// qpPartBoundary returns the boundary line ("--001a11...") that opened the MIME part whose
// headers end head, "" when none: the last line of head that begins with "--" and has no
// space in it.
func qpPartBoundary(head string) string {
	for len(head) > 0 {
		head = strings.TrimRight(head, "\r\n")
		i := strings.LastIndexByte(head, '\n')
		line := strings.TrimRight(head[i+1:], "\r")
		if strings.HasPrefix(line, "--") && len(line) > 2 && !strings.ContainsAny(line, " \t") {
			return strings.TrimSuffix(line, "--")
		}
		if line == "" || i < 0 {
			return "" // the part's headers end at a blank line or the text's start
		}
		head = head[:i]
	}
	return ""
}

// qpMarked: the text shows the encoding consistently (see above).
func qpMarked(text string) bool {
	soft, esc := 0, 0
	for i := 0; i < len(text); i++ {
		if text[i] != '=' {
			continue
		}
		if qpSoftBreakAt(text, i) {
			if i == 0 || text[i-1] != '=' { // not a ruler of "="
				soft++
			}
			continue
		}
		h, ok := qpHexAt(text, i)
		if !ok {
			continue
		}
		switch {
		case h == '=' || h == '\n':
			esc++ // "=3D", "=0A": an encoder's, not a person's
		case (h == ' ' || h == '\t') && qpLineEndAt(text, i+3) && (i == 0 || !isIdentByte(text[i-1])):
			// "=20" or "=09" before a line end or a soft break: a trailing space kept
			// (">=20", "layer.=20"); "timeout=20" is a setting.
			esc++
		case h >= 0x80:
			// A high byte ("=A0" Latin-1, "=C2=A0" or "=E2=80=99" UTF-8): one escape
			// however many bytes the character takes.
			j := i + 3
			for {
				if h2, ok := qpHexAt(text, j); !ok || h2 < 0x80 {
					break
				}
				j += 3
			}
			esc++
			i = j - 1
		}
	}
	return soft >= qpMinSoft && esc >= qpMinEscapes
}

// qpSoftBreakAt: text[i] is "=" and a line end follows ("=\n", "=\r\n", trailing blanks an
// editor left between are allowed by RFC 2045 too).
func qpSoftBreakAt(text string, i int) bool {
	j := i + 1
	for j < len(text) && (text[j] == ' ' || text[j] == '\t') {
		j++
	}
	return j == len(text) || text[j] == '\n' || text[j] == '\r' && j+1 < len(text) && text[j+1] == '\n'
}

// qpLineEndAt: a line end, the end of the text, or a soft break at text[i].
func qpLineEndAt(text string, i int) bool {
	return i >= len(text) || text[i] == '\n' || text[i] == '\r' || text[i] == '=' && qpSoftBreakAt(text, i)
}

// qpHexAt decodes "=XX" at text[i] (upper-case hex digits, as encoders write them).
func qpHexAt(text string, i int) (byte, bool) {
	if i+2 >= len(text) || text[i] != '=' {
		return 0, false
	}
	a, ok1 := qpNibble(text[i+1])
	b, ok2 := qpNibble(text[i+2])
	return a<<4 | b, ok1 && ok2
}

func qpNibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// qpDecode decodes quoted-printable text: soft breaks removed, "=XX" escapes replaced by
// their bytes, an "=" that begins no escape kept. Bytes that do not form UTF-8 are taken as
// Latin-1 (a client that sent "=A0" for a non-breaking space sent ISO-8859-1), so the
// reader sees U+00A0 and reads it as the space it is (lines.go).
func qpDecode(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	var run []byte // decoded bytes of one escape run, checked for UTF-8 as a whole
	flush := func() {
		for len(run) > 0 {
			r, n := utf8.DecodeRune(run)
			if r == utf8.RuneError && n <= 1 {
				b.WriteRune(rune(run[0]))
				run = run[1:]
				continue
			}
			b.Write(run[:n])
			run = run[n:]
		}
		run = run[:0]
	}
	line := 0 // start of the physical line of text[i]
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '=' {
			flush()
			b.WriteByte(c)
			if c == '\n' {
				line = i + 1
			}
			continue
		}
		if qpSoftBreakAt(text, i) {
			flush()
			j := i + 1
			for j < len(text) && text[j] != '\n' {
				j++
			}
			// The encoded source quoted as a whole ("> " or ">> " before every physical
			// line, a reply that quoted the raw mail): the piece after the break opens with
			// quote marks the line it continues also opens with (that line may hold the
			// mail's own quoting after them), which the encoder never wrote there.
			marks := qpQuoteMarks(text[line:i])
			i, line = j, j+1 // the line end too
			next := qpQuoteMarks(text[min(line, len(text)):])
			k := 0
			for k < len(marks) && k < len(next) && marks[k] == next[k] {
				k++
			}
			if strings.Contains(next[:k], ">") {
				i += k // the marks both lines open with; what follows is the text's
			}
			continue
		}
		if h, ok := qpHexAt(text, i); ok {
			run = append(run, h)
			i += 2
			continue
		}
		flush()
		b.WriteByte(c)
	}
	flush()
	return b.String()
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// qpQuoteMarks returns the mail quote marks that open a line ("> ", ">> ", "> > ", ">"), ""
// when it has none.
func qpQuoteMarks(line string) string {
	k := 0
	for k < len(line) && (line[k] == '>' || line[k] == ' ') {
		k++
	}
	if !strings.Contains(line[:k], ">") {
		return ""
	}
	return line[:k]
}
