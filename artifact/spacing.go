package artifact

import "strings"

// undoubleSpace undoes a double-spaced paste: a forum or a mail client that made each line
// of pasted output a paragraph of its own, so that a blank line (or a quoted blank line,
// ">") stands between every two lines when the post is copied back. Every reader that
// collects a block (a show_mem dump, a meminfo or vmstat table, ethtool -S, netstat -s)
// ends it at a blank line, so such a paste reads as one-line fragments. The form is told
// from the text as a whole: no two lines with text in a row, and at least
// doubleSpacedLines lines with text. An ordinary text has two such lines in a row within
// its first few lines, where the scan stops (a syslog pays for two lines). A run of k
// blank lines becomes (k-1)/2: the blank line of the original is three of them in the
// double-spaced paste.
func undoubleSpace(text string) string {
	texts, blank := 0, true
	for rest := text; len(rest) > 0; {
		var line string
		line, rest = cutLine(rest)
		if spacingBlank(line) {
			blank = true
			continue
		}
		if !blank {
			return text
		}
		blank = false
		texts++
	}
	if texts < doubleSpacedLines {
		return text
	}
	var b strings.Builder
	b.Grow(len(text))
	run := 0
	for rest := text; len(rest) > 0; {
		var line string
		line, rest = cutLine(rest)
		if spacingBlank(line) {
			run++
			continue
		}
		for n := (run - 1) / 2; n > 0; n-- {
			b.WriteByte('\n')
		}
		run = 0
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// doubleSpacedLines is how many lines with text a double-spaced paste shows at least: a
// post of a few one-line paragraphs is no paste whose blocks need joining.
const doubleSpacedLines = 4

// spacingBlank reports whether line is blank or a quoted blank line (">", "> >", "> ").
func spacingBlank(line string) bool {
	for i := 0; i < len(line); i++ {
		switch line[i] {
		case ' ', '\t', '\r', '>':
		default:
			return false
		}
	}
	return true
}

// cutLine splits the first line off text: the line without its '\n', and what follows it
// ("" after the last line).
func cutLine(text string) (line, rest string) {
	if k := strings.IndexByte(text, '\n'); k >= 0 {
		return text[:k], text[k+1:]
	}
	return text, ""
}
