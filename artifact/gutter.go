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
func stripLineGutters(text string) string {
	// Cheap test first: a gutter's first line is numbered 1.
	if !strings.Contains(text, "1. ") && !strings.Contains(text, "1\t") && !strings.Contains(text, " 1 ") && !strings.Contains(text, "1:") {
		return text
	}
	var b strings.Builder
	last := 0 // bytes of text before last are written to b (or not yet, when b is empty)
	changed := false
	type gl struct {
		start, cut int // the line's start and where its text after the gutter starts
	}
	var run []gl
	var style byte
	next := 1
	flush := func() {
		if len(run) >= 3 && (style == '.' || blankInRun(text, run[0].start, run[len(run)-1].cut)) && !zeroBefore(text, run[0].start, style) {
			if !changed {
				b.Grow(len(text))
				changed = true
			}
			for _, g := range run {
				b.WriteString(text[last:g.start])
				last = g.cut
			}
		}
		run, next = run[:0], 1
	}
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		n, st, cut := gutterOf(line)
		if n > 0 && n == next && (len(run) == 0 || st == style) {
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
	if !changed {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// gutterOf reads a line-number gutter at the start of line: the number (0 for none), its
// style ('.', ':', ' ' for blanks or a tab) and the length of the gutter.
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
	if j == i || line[i] == '0' {
		return 0, 0, 0
	}
	line = strings.TrimSuffix(line, "\r")
	switch {
	case j == len(line):
		return 0, 0, 0
	case line[j] == '.' && (j+1 == len(line) || line[j+1] == ' '):
		return n, '.', min(j+2, len(line))
	case line[j] == ':':
		rest := strings.TrimPrefix(line[j+1:], " ")
		if k := strings.Index(rest, ": "); k > 0 && !strings.ContainsAny(rest[:k], " \t") {
			return 0, 0, 0 // ip -o link's "1: lo: <LOOPBACK,UP>"
		}
		return n, ':', len(line) - len(rest)
	case line[j] == '\t' || line[j] == ' ' && i > 0:
		return n, ' ', j + 1
	}
	return 0, 0, 0
}

// blankInRun reports whether a line in text[start:cut] (a run's lines) holds nothing after
// its gutter: a numbered empty line.
func blankInRun(text string, start, cut int) bool {
	for pos := start; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		if n, _, c := gutterOf(text[pos:end]); n > 0 && strings.TrimSpace(text[pos+c:end]) == "" {
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
	case ':':
		return t[1] == ':'
	}
	return t[1] == ' ' || t[1] == '\t'
}
