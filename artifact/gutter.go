package artifact

import "strings"

// stripLineGutters removes the line numbers a paste site or an editor prints before every
// line of a paste it renders: pastebin's "  1. ", "  2. " (a number and a lone blank on an
// empty line), vim's `:set number` "  12 ", `cat -n`'s "     1\t", and "12:" gutters. Copied
// from the page they come with the text and hide every reader's line start. A gutter is a
// run of at least three consecutive lines numbered 1, 2, 3, ... in one style; a numbered
// list of steps loses only the markers stripListMarker drops anyway. Not a gutter: numbers
// that are not consecutive from 1 line after line (IRQ rows of /proc/interrupts, vmstat's r
// column, top's PID column under its header: "     1 root  20   0 ..."), a table's index
// counted from 0 (softnet_stat's cpu column: "  0 ...", "  1 ..."), and `ip -o link`'s
// "1: lo: <LOOPBACK..." ("N: name: " is ip's own index). A gutter of blanks, a tab or a
// colon is one only when it numbers an empty line too (no table has an empty row); the
// pastebin form "N. " is distinct enough alone. Lines outside a run are kept as they are.
//
// Parse does not call it on the whole text first: runText reads the lines in order and
// strips the gutters from the first line that can start one on (doc.checkGutters), so a
// text without one (a syslog) is not read an extra time for them.
func stripLineGutters(text string) string {
	if !gutterHint(text) {
		return text
	}
	return stripGuttersFrom(text, 0)
}

// gutterHint is stripLineGutters' cheap test: a gutter's first line is numbered 1.
func gutterHint(text string) bool {
	return strings.Contains(text, "1. ") || strings.Contains(text, "1\t") || strings.Contains(text, " 1 ") || strings.Contains(text, "1:") ||
		strings.HasPrefix(text, "1\n") || strings.Contains(text, "\n1\n") || strings.Contains(text, "\n1\r\n")
}

// stripGuttersFrom is stripLineGutters for a text in which no line before from (a line's
// start) is numbered 1 by gutterOf: no run starts before it, so the lines before it are
// kept as they are without being read.
func stripGuttersFrom(text string, from int) string {
	out := textCuts{text: text}
	type gl struct {
		start, cut int // the line's start and where its text after the gutter starts
	}
	var run []gl
	var style byte
	next := 1
	glued := false // a column's run ends on the line its last number is glued to
	flush := func() {
		if style == '#' && glued && len(run) >= 2 || style != '#' && len(run) >= 3 && (style == '.' || style == '0' || style == '\t' || style == '|' && !tableRun(text, run[0].start, run[len(run)-1].cut) || blankInRun(text, run[0].start, run[len(run)-1].cut)) && !zeroBefore(text, run[0].start, style) {
			for _, g := range run {
				out.cut(g.start, g.cut)
			}
		}
		run, next, glued = run[:0], 1, false
	}
	for pos := from; pos < len(text); {
		if len(run) == 0 && text[pos] != ' ' && text[pos] != '1' && text[pos] != '0' {
			// Outside a run only a line numbered 1 matters, and it starts with a blank
			// or the '1' (gutterOf): the next such line is found by one vector search
			// instead of each line's end.
			i := indexAnchors(text[pos:], &gutterStarts)
			if i < 0 {
				break
			}
			pos += i + 1
			continue
		}
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		n, st, cut := gutterOf(line)
		if n == 0 && style == '0' && len(run) > 0 {
			// A zero-padded gutter past its padding: "124: highdma: on [fixed]" is its
			// line 124, not ip -o link's index (gutterOf rules that out alone).
			n, st, cut = paddedGutterPast(line)
		}
		if st == '#' {
			// A column's number lines go whole, with their newline.
			cut = min(end+1, len(text)) - pos
		} else if n == 0 && style == '#' && len(run) > 0 {
			if c := gluedGutter(line, next, len(run)); c > 0 {
				run = append(run, gl{pos, pos + c})
				glued = true
				flush()
				pos = end + 1
				continue
			}
		}
		// A zero-padded gutter outgrows its padding at 100 or 1000 ("099: ", "100: ").
		if n > 0 && n == next && (len(run) == 0 || st == style || style == '0' && st == ':') {
			if len(run) == 0 {
				style = st
			}
			run = append(run, gl{pos, pos + cut})
			next++
		} else {
			flush()
			if n == 1 {
				style = st
				run = append(run, gl{pos, pos + cut})
				next = 2
			}
		}
		pos = end + 1
	}
	flush()
	return out.result()
}

// textCuts rebuilds a text with byte ranges cut out of it, the ranges given in order; a
// text with no cut is returned as it is, without a copy. The gutter strippers share it.
type textCuts struct {
	text string
	b    strings.Builder
	last int // text before last is written to b, or not needed when b is empty
}

// cut drops text[from:to].
func (t *textCuts) cut(from, to int) {
	if t.b.Cap() == 0 {
		t.b.Grow(len(t.text))
	}
	t.b.WriteString(t.text[t.last:from])
	t.last = to
}

func (t *textCuts) result() string {
	if t.b.Cap() == 0 {
		return t.text
	}
	t.b.WriteString(t.text[t.last:])
	return t.b.String()
}

// gutterStarts are a newline and the byte after it that can start a gutter's line
// numbered 1: a blank (a right-aligned number) or the '1' itself.
var gutterStarts = func() (a anchorSet) {
	a.add("\n ")
	a.add("\n1")
	a.add("\n0")
	return a
}()

// checkGutters is stripLineGutters done as runText reads the lines (lineEnd calls it for
// each line start pos, in order): until the first line that gutterOf numbers 1 the text
// is the same, so the lines are only searched for one, searchAhead bytes at a time as the
// other searches of the fast path go (needles.go), while that stretch is in the cache; a
// pass of its own over a 100 MiB syslog cost 20 ms, a tenth of the parse. From that line
// on, the rest of the text is stripped at once (stripGuttersFrom) and the searches ahead
// start again on it; nothing has read past the line (every line is read through lineEnd,
// and what reads the whole text calls wholeText first), so the parse is the parse of
// stripLineGutters(text) (TestLazyGuttersAreStripLineGutters).
func (d *doc) checkGutters(pos int) {
	if d.gutDone || pos < d.gutOK {
		return
	}
	text := d.text
	if pos >= len(text) {
		d.gutOK = len(text) + 1
		return
	}
	if c := text[pos]; c == ' ' || c == '1' || c == '0' {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		if n, _, _ := gutterOf(text[pos:end]); n != 1 {
			d.gutOK = end + 1
			return
		}
		d.gutDone = true
		if !gutterHint(text) {
			return
		}
		if t := stripGuttersFrom(text, pos); t != text {
			d.text = t
			// What the searches found ahead was found in the old text.
			d.needles.hits, d.needles.h, d.needles.searched, d.needles.last = nil, 0, pos, pos
			d.amp.searching = false
		}
		return
	}
	// The next line that starts with a blank or a '1': none starts in (pos, limit] when
	// no pair does in [pos, limit).
	limit := min(pos+searchAhead, len(text))
	if i := indexAnchors(text[pos:min(limit+1, len(text))], &gutterStarts); i >= 0 {
		d.gutOK = pos + i + 1
	} else {
		d.gutOK = limit + 1
	}
}

// wholeText is the text after stripLineGutters, for a reader that reads past the lines read
// so far (the last line of the text, the width of its lines): the rest of the text is
// checked for gutters first.
func (d *doc) wholeText() string {
	for !d.gutDone {
		p := d.gutOK
		if p > 0 && p < len(d.text) && d.text[p-1] != '\n' {
			j := strings.IndexByte(d.text[p:], '\n')
			if j < 0 {
				break
			}
			p += j + 1
		}
		if p >= len(d.text) {
			break
		}
		d.checkGutters(p)
	}
	return d.text
}

// gutterOf reads a line-number gutter at the start of line: the number (0 for none), its
// style ('.', ':', '\t' for an unpadded number and a tab, ' ' for blanks or a padded one's tab) and
// the length of the gutter.
func gutterOf(line string) (n int, style byte, cut int) {
	i := 0
	for i < len(line) && line[i] == ' ' && i < 8 {
		i++
	}
	j := i
	for j < len(line) && isDigit(line[j]) && j-i < 6 {
		n = n*10 + int(line[j]-'0')
		j++
	}
	if j == i || n == 0 {
		return 0, 0, 0
	}
	line = strings.TrimSuffix(line, "\r")
	if line[i] == '0' {
		// "001: ": a viewer that pads the number with zeros to a fixed width; no table
		// counts its rows so, and its style is its own.
		if j == len(line) || line[j] != ':' || j-i < 2 {
			return 0, 0, 0
		}
		return n, '0', min(j+2, len(line))
	}
	switch {
	case j == len(line) && i == 0:
		// "1", "2", ...: the gutter column of a code block rendered as a table of two
		// cells (hexo's and highlight.js's "td.gutter"), copied as its own column above
		// the code, the last number glued to the code's first line (gluedGutter).
		return n, '#', j
	case j == len(line):
		return 0, 0, 0
	case line[j] == ' ' && j+1 < len(line) && line[j+1] == '|' && (j+2 == len(line) || line[j+2] == ' '):
		// "  1 | ": a code viewer's or a rendered gist's gutter copied with its rule (a
		// Markdown table whose rows start with an index is no gutter: tableRun).
		return n, '|', min(j+3, len(line))
	case line[j] == '.' && (j+1 == len(line) || line[j+1] == ' '):
		return n, '.', min(j+2, len(line))
	case line[j] == ':':
		rest := strings.TrimPrefix(line[j+1:], " ")
		if k := strings.Index(rest, ": "); k > 0 && !strings.ContainsAny(rest[:k], " \t") {
			return 0, 0, 0 // ip -o link's "1: lo: <LOOPBACK,UP>"
		}
		return n, ':', len(line) - len(rest)
	case line[j] == '\t' && i == 0:
		// "1\t": a code block shown as a table of two cells, the number and the line,
		// copied from the page (the browser writes a tab between cells); cat -n and nl pad
		// their numbers to six columns, so an unpadded number before a tab is no tool's.
		return n, '\t', j + 1
	case line[j] == '\t' || line[j] == ' ' && i > 0:
		return n, ' ', j + 1
	}
	return 0, 0, 0
}

// gluedGutter reads the number next at the start of line, glued to the text after it: the
// last number of a gutter column (gutterOf's '#') that the copy ran into the first line of
// the code ("12[ 7952.524958] Normal free:..." after the lines "1" to "11"). It returns the
// number's length, or 0. The text must start as a log line does: a '[' (a printk stamp) or
// a '<' (a syslog priority); a letter ("12Dec  2 ...") only after two number lines at
// least, so that "1" over "2nd ..." is not read as a column.
func gluedGutter(line string, next, numbered int) int {
	j := 0
	for j < len(line) && isDigit(line[j]) {
		j++
	}
	if v, ok := atoi(line[:j]); !ok || j == len(line) || line[0] == '0' || v != int64(next) {
		return 0
	}
	switch c := line[j]; {
	case c == '[' || c == '<':
		return j
	case numbered >= 2 && ('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'):
		return j
	}
	return 0
}

// paddedGutterPast reads "NNN: " at the start of line, the number without zeros in front:
// the lines of a zero-padded gutter after it outgrew its padding.
func paddedGutterPast(line string) (n int, style byte, cut int) {
	j := 0
	for j < len(line) && j < 7 && isDigit(line[j]) {
		n = n*10 + int(line[j]-'0')
		j++
	}
	if j < 3 || line[0] == '0' || j == len(line) || line[j] != ':' {
		return 0, 0, 0
	}
	return n, ':', min(j+2, len(line))
}

// tableRun reports whether every line in text[start:cut] (a run's lines) ends in a bar: a
// Markdown table whose first column counts its rows ("1 | eth0 | 12 |"), not a gutter.
func tableRun(text string, start, cut int) bool {
	return !anyRunLine(text, start, cut, func(line string) bool {
		return !strings.HasSuffix(strings.TrimRight(line, " \r"), "|")
	})
}

// blankInRun reports whether a line in text[start:cut] (a run's lines) holds nothing after
// its gutter: a numbered empty line.
func blankInRun(text string, start, cut int) bool {
	return anyRunLine(text, start, cut, func(line string) bool {
		n, _, c := gutterOf(line)
		return n > 0 && strings.TrimSpace(line[c:]) == ""
	})
}

// anyRunLine reports whether f holds for a line of text[start:cut].
func anyRunLine(text string, start, cut int, f func(line string) bool) bool {
	for pos := start; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		if f(text[pos:end]) {
			return true
		}
		if end >= cut {
			break
		}
		pos = end + 1
	}
	return false
}

// zeroBefore reports whether the line before start is numbered 0 in the same style: a
// table's index column counted from 0, not a gutter.
func zeroBefore(text string, start int, style byte) bool {
	if start == 0 {
		return false
	}
	prev := text[strings.LastIndexByte(text[:start-1], '\n')+1 : start-1]
	t := strings.TrimLeft(prev, " ")
	if !strings.HasPrefix(t, "0") || len(t) < 2 {
		return false
	}
	switch style {
	case '.':
		return t[1] == '.'
	case '0':
		return false // "000:" is a zero-padded gutter's line 0; gutterOf does not number it
	case '|':
		return strings.HasPrefix(t[1:], " |")
	case ':':
		return t[1] == ':'
	}
	return t[1] == ' ' || t[1] == '\t'
}
