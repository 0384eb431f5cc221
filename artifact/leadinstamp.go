package artifact

import "strings"

// stampAfterLeadIn: t is a sentence that names where the author looked and then quotes a
// stamped kernel line after a colon, in any language ("In dmesg I see: [ 1234.567890] ...",
// "В dmesg постоянно: [ 1234.567890] ...", "dmesg 里看到：[ 1234.567890] ..." with the
// full-width colon U+FF1A, h13b). searchCommand takes "dmesg" among its first two words for
// a command that searches for the message; a command's pattern is no dmesg stamp after a
// colon, so such a line is the quoted record, not a search. One IndexByte for '[' decides
// most lines.
func stampAfterLeadIn(t string) bool {
	for from := 0; from < len(t); {
		p := strings.IndexByte(t[from:], '[')
		if p < 0 {
			return false
		}
		k := from + p
		from = k + 1
		head := strings.TrimRight(t[:k], " \t")
		if !strings.HasSuffix(head, ":") && !strings.HasSuffix(head, "：") {
			continue
		}
		if strings.ContainsAny(head, "|'\"") {
			return false // a pipe or a quoted pattern: a command line
		}
		if dmesgStampAt(t[k:]) {
			return true
		}
	}
	return false
}

// dmesgStampAt: s starts with a dmesg stamp "[   12.345678]" (spaces, digits, a dot, six
// digits, the bracket).
func dmesgStampAt(s string) bool {
	i := 1
	for i < len(s) && s[i] == ' ' {
		i++
	}
	d := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == d || i >= len(s) || s[i] != '.' {
		return false
	}
	i++
	f := i
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i-f == 6 && i < len(s) && s[i] == ']'
}
