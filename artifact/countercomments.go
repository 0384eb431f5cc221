package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// stripCounterNote undoes an author's note put after a counter of a /proc file or of
// nstat's output: "MemTotal:       16130120 kB # 所有的可用内存" (a Chinese note on each
// meminfo line, corpus 7062), "UdpRcvbufErrors   9123844   0.0   # ← buffer overflow =
// dropped packets" (corpus 7075), "Slab:            1362624 kB <--------" (corpus 7168).
// The note hides the line's shape from its reader, and the counters went unread. A line
// whose text before the note (" #", " //", or an arrow pointing back at it) is a counter
// line ("name", a colon or not, the number, kB or nstat's rate after it) loses the note;
// any other line (a shell comment, a sysctl.conf line, prose) stays as it is. It reads a
// line once its prefixes are stripped (parseLineInto), so a note under mail quoting, a
// bar or a chat's nick goes as well.
func stripCounterNote(s string) string {
	c := counterNoteAt(s)
	if c <= 0 {
		return s
	}
	head := strings.TrimRight(s[:c], " \t")
	if !reCounterHead.MatchString(head) {
		return s
	}
	return head
}

// counterNoteAt is where a note begins after a counter line's "Name value", "Name value kB"
// or "Name value rate" (nstat), or -1: the fields are scanned before commentStart is asked,
// so a line that is no counter line (nearly every line of a log: its second field is no
// number, or its third neither a number nor a note) costs a few byte tests, not five
// searches of the whole line (session 46: a fifth of the bench syslog's parse).
func counterNoteAt(s string) int {
	i := skipBlanks(s, 0)
	e := fieldEnd(s, i) // the name
	k := skipBlanks(s, e)
	if e == i || k == e || k == len(s) || !(s[k] >= '0' && s[k] <= '9' || s[k] == '-') {
		return -1
	}
	for n := 0; n < 2; n++ { // the value; then "kB" or a rate, once
		e = fieldEnd(s, k)
		if c := commentStart(s[e:]); c >= 0 && skipBlanks(s[e:], 0) >= c {
			return e + c
		}
		k = skipBlanks(s, e)
		if k == e || k == len(s) || !(s[k] >= '0' && s[k] <= '9' || s[k] == '-' || strings.HasPrefix(s[k:], "kB")) {
			return -1
		}
	}
	return -1
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

func fieldEnd(s string, i int) int {
	for i < len(s) && s[i] != ' ' && s[i] != '\t' {
		i++
	}
	return i
}

// commentStart is where a note after a line's text begins: the blank before its first " #"
// not followed by a digit ("# 所有的", "#**Current connections count**"), " //" followed by a
// blank or a non-ASCII letter, or an arrow pointing back at the line (" <--------", " ←");
// -1 for none. "#0:06:18" or rsyslog's "#012" is no note. Most lines hold none of '#', '/', '<' and '←', and pay one byte search each.
func commentStart(line string) int {
	if strings.IndexByte(line, '#') < 0 && strings.IndexByte(line, '/') < 0 && strings.IndexByte(line, '<') < 0 && !strings.Contains(line, "←") {
		return -1
	}
	c := -1
	for _, m := range []string{" #", "\t#", " //", " <-", " ←"} {
		i := strings.Index(line, m)
		if i < 0 || c >= 0 && i >= c {
			continue
		}
		if k := i + len(m); k < len(line) {
			switch {
			case m[len(m)-1] == '#' && line[k] >= '0' && line[k] <= '9':
				continue // rsyslog's "#012", "#0:06:18": no note
			case m == " //" && line[k] != ' ' && line[k] != '\t' && line[k] < 0x80:
				continue // " //host": no note
			}
		}
		c = i
	}
	return c
}

// reCounterHead: a counter line of /proc/meminfo, /proc/vmstat or nstat, whole.
var reCounterHead = lazyre.New(`^\s*[A-Za-z_][\w().-]{0,63}:?\s+-?\d{1,20}(?:\s+kB|\s+-?\d+(?:\.\d+)?)?\s*$`)
