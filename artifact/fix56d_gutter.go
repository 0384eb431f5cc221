package artifact

import "strings"

// stripPrefixedGutters removes a paste site's "N. " line-number gutter (pastebin's "  1. ",
// "  2. ", ...) that a form put a prefix in front of: mail quoting ("> ", "| "), a
// zero-width space, an inline code span's "`", a list marker ("* ", " * ", "- "), or a
// second gutter ("34.   30. "). stripLineGutters reads a gutter only at the start of a line,
// so under a prefix the numbers stay and hide the line's start from every reader (corpus
// 4621: "> 30. 5498657 segments retransmitted"). Only the number goes; the prefix stays for
// parseLine to undo. As for stripLineGutters' '.' style, a gutter is a run of at least three
// consecutive lines numbered 1, 2, 3, ... behind the same prefix; a quoted numbered list
// loses only the markers stripListMarker drops anyway. A text without a "1. " behind one of
// the prefixes is returned unread past its search.
func stripPrefixedGutters(text string) string {
	if !prefixedGutterHint(text) {
		return text
	}
	out := textCuts{text: text}
	type cut struct{ from, to int }
	var run []cut
	var runPrefix string
	next := 1
	flush := func() {
		if len(run) >= 3 {
			for _, c := range run {
				out.cut(c.from, c.to)
			}
		}
		run, next, runPrefix = run[:0], 1, ""
	}
	for pos := 0; pos < len(text); {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += pos
		}
		line := text[pos:end]
		p := gutterFormPrefix(line)
		n, c := 0, 0
		if p > 0 {
			var st byte
			n, st, c = gutterOf(line[p:])
			if st != '.' {
				n = 0
			}
		}
		switch {
		case n > 0 && n == next && samePrefix(line[:p], runPrefix):
			run = append(run, cut{pos + p, pos + p + c})
			next++
		default:
			flush()
			if n == 1 {
				run = append(run, cut{pos + p, pos + p + c})
				runPrefix, next = line[:p], 2
			}
		}
		pos = end + 1
	}
	flush()
	return out.result()
}

// prefixedGutterHint: some "1. " stands behind a form's prefix at its line's start.
func prefixedGutterHint(text string) bool {
	for from := 0; ; {
		i := strings.Index(text[from:], "1. ")
		if i < 0 {
			return false
		}
		i += from
		ls := strings.LastIndexByte(text[:i], '\n') + 1
		if p := gutterFormPrefix(text[ls:]); p > 0 && p <= i-ls {
			if n, st, _ := gutterOf(text[ls+p:]); n == 1 && st == '.' {
				return true
			}
		}
		from = i + 3
	}
}

// gutterFormPrefix is the length of the prefix a form puts before a gutter at line's
// start, 0 for none: mail quoting, a bar, a zero-width space, an inline code span's
// backtick, a list marker, another "N. " gutter.
func gutterFormPrefix(line string) int {
	i := 0
	switch {
	case strings.HasPrefix(line, "\u200b"):
		i = len("\u200b")
	case strings.HasPrefix(line, "`"):
		i = 1
	case strings.HasPrefix(line, "| "), strings.HasPrefix(line, "* "), strings.HasPrefix(line, "- "):
		i = 2
	case strings.HasPrefix(line, " * "), strings.HasPrefix(line, " - "):
		i = 3
	case len(line) > 0 && line[0] == '>':
		for i < len(line) && (line[i] == '>' || line[i] == ' ' && i+1 < len(line) && line[i+1] == '>') {
			i++
		}
		if i < len(line) && line[i] == ' ' {
			i++
		}
	case len(line) > 0 && isDigit(line[0]):
		if n, st, c := gutterOf(line); n > 0 && st == '.' {
			i = c
		}
	}
	return i
}

// samePrefix: a run's lines stand behind the same prefix; an outer gutter's numbers differ
// from line to line.
func samePrefix(a, b string) bool {
	return a == b || a != "" && b != "" && isDigit(a[0]) && isDigit(b[0])
}
