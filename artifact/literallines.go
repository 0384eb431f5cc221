package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// unquoteLiteralLines reads kernel log records that a program holds as string literals, one
// a line: a parser's test fixture (cadvisor's oomparser test, corpus 6310: each message of
// /dev/kmsg a Go string literal in a []string), a JSON array of log lines, a Python list.
// Quoted and indented, no record's start is at its line's start, and the whole block is
// one paragraph of prose to the stated pass: the OOM report's memcg usage and limit, its
// task table and its kill line went unread (4 of 40 values). A run of at least
// literalRunLines consecutive lines that are each one double-quoted literal (a trailing
// comma or '+' allowed, behind a form's prefix) is replaced line for line by the strings they hold, when one of
// them is a kernel record (a stamped one, or literalKernelRecord's messages), and so is a
// shorter run of stamped records only: an argv list or a usage text quoted in code stays
// as it is. A line keeps its number; a literal that holds a line break (not one
// at its end), or whose escapes neither Go nor JSON reads, ends the run.
func unquoteLiteralLines(text string) string {
	if !strings.Contains(text, "\",") && !strings.Contains(text, "\"\n") && !strings.Contains(text, "\"\r") && !strings.Contains(text, "\"`") {
		return text
	}
	var b strings.Builder
	type lit struct{ start, end int } // the literal's bytes in text (a form's prefix and suffix left out)
	var run []lit
	var held []string
	kernelSeen, allStamped, last := false, true, 0
	flush := func() {
		if len(run) >= literalRunLines && kernelSeen || len(run) > 0 && allStamped {
			if b.Cap() == 0 {
				b.Grow(len(text))
			}
			for i, l := range run {
				b.WriteString(text[last:l.start])
				b.WriteString(held[i])
				last = l.end
			}
		}
		run, held, kernelSeen, allStamped = run[:0], held[:0], false, true
	}
	for rest := text; rest != ""; {
		pos := len(text) - len(rest)
		var line string
		line, rest = cutLine(rest)
		// A form's prefix before the literal (mail quoting, a bar, an inline code span's
		// backtick, a list mark) stays for parseLine to undo, and the span's closing
		// backtick with it.
		line = strings.TrimRight(line, "\r")
		p := gutterFormPrefix(line)
		body := line[p:]
		if p > 0 && line[p-1] == '`' {
			body = strings.TrimSuffix(body, "`")
		}
		if s, ok := literalLine(body); ok {
			run = append(run, lit{pos + p, pos + p + len(body)})
			held = append(held, s)
			stamped := reLiteralStamp.MatchString(s)
			kernelSeen = kernelSeen || stamped || literalKernelRecord(s)
			allStamped = allStamped && stamped
		} else {
			flush()
		}
	}
	flush()
	if b.Cap() == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// literalRunLines: a shorter run is a quotation in code, not a log held in it, unless each
// of its literals is a stamped record (corpus 7103: two /dev/kmsg records in a Go test).
const literalRunLines = 3

// literalLine reads a line that is one double-quoted string literal, indented, with a
// comma or a '+' after it, and returns the string it holds.
func literalLine(line string) (string, bool) {
	s := strings.TrimRight(strings.TrimLeft(line, " \t"), " \t\r")
	s = strings.TrimSuffix(strings.TrimSuffix(s, ","), " +")
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		return "", false
	}
	v, err := strconv.Unquote(s) // one literal: a quote inside unescaped fails it
	if err != nil {
		// JSON's escaped solidus, which Go's syntax lacks.
		if v, err = strconv.Unquote(strings.ReplaceAll(s, `\/`, "/")); err != nil {
			return "", false
		}
	}
	v = strings.TrimSuffix(v, "\n")
	if strings.ContainsAny(v, "\n\r") {
		return "", false
	}
	return v, true
}

// reLiteralStamp: a dmesg record's stamp, or a /dev/kmsg record's "priority,seq,usec,flag;"
// prefix, at the held string's start.
var reLiteralStamp = lazyre.New(`^(?:(?:<\d{1,2}>)?\[\s*\d{1,10}\.\d{3,9}\]|\d{1,3},\d{1,20},\d{1,20},[-+c][^;]{0,64};)`)

// literalKernelRecord: the held string is one of the messages of kernel.Msg* or of the OOM
// killer's report.
func literalKernelRecord(s string) bool {
	for _, ms := range [][]string{kernel.MsgPageAllocFailure, kernel.MsgTCPOutOfMemory, kernel.MsgOutOfSocketMemory,
		kernel.MsgTooManyOrphans, kernel.MsgSynFlood, kernel.MsgConntrackFull, kernel.MsgOOMNoKillable, kernel.MsgNetdevWatchdog,
		kernel.MsgOOMKill, {kernel.MsgMemInfo}} {
		for _, m := range ms {
			if strings.Contains(s, m) {
				return true
			}
		}
	}
	return false
}

// holdsLiteralOpening: text holds "= " before a literal's opening quote (b", r", ", a
// backquote; """ starts with "): one search of the text, not one for each opening.
func holdsLiteralOpening(text string) bool {
	for rest := text; ; {
		i := strings.Index(rest, "= ")
		if i < 0 {
			return false
		}
		rest = rest[i+2:]
		switch {
		case rest == "":
			return false
		case rest[0] == '"' || rest[0] == '`':
			return true
		case (rest[0] == 'b' || rest[0] == 'r') && len(rest) > 1 && rest[1] == '"':
			return true
		}
	}
}

// openDataLiterals: a test fixture holds a /proc file as a multi-line string literal whose
// first line shares the line of the assignment ("let meminfo = b\"MemTotal:       58603192 kB"
// in below's procfs test, corpus 7216; "const vmStatFileFull = `nr_free_pages 78730" in
// telegraf's, corpus 6825). The file's first line is then no line of its own, and its value
// is lost. Such an opening line is replaced by the literal's text from its opening quote on
// when that text and the next line are both "name value" lines of a /proc file; the
// closing quote's line stays prose. A line keeps its number.
func openDataLiterals(text string) string {
	if !holdsLiteralOpening(text) {
		return text
	}
	var b strings.Builder
	last := 0
	for rest := text; rest != ""; {
		pos := len(text) - len(rest)
		var line string
		line, rest = cutLine(rest)
		if !strings.Contains(line, "= ") {
			continue
		}
		m := reDataLiteralOpen.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		body := strings.TrimRight(line[m[2]:], "\r")
		next, _ := cutLine(rest)
		if !reDataLiteralLine.MatchString(body) || !reDataLiteralLine.MatchString(strings.TrimRight(next, "\r")) {
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[last:pos])
		last = pos + m[2]
	}
	if b.Cap() == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// reDataLiteralOpen: an assignment (Rust let, Go const/var or :=, Python) of a string literal
// left open on its line: group 1 is the literal's text.
var reDataLiteralOpen = lazyre.New(`^\s*(?:(?:let|const|var|static)\s+)?[A-Za-z_]\w*(?:\s*:\s*[^=]{1,40})?\s*:?=\s*(?:b|r|br|rb|u)?(?:"""|"|` + "`" + `)([^"` + "`" + `]+)$`)

// reDataLiteralLine: a /proc file's "name value" line (meminfo's "MemTotal:  58603192 kB",
// vmstat's "nr_free_pages 1091519").
var reDataLiteralLine = lazyre.New(`^\s*[A-Za-z_][\w()]*:?\s+\d+(?:\s+kB)?\s*$`)
