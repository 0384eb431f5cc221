package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// stripCounterComments undoes an author's notes put after the counters of a /proc file or
// of nstat's output: "MemTotal:       16130120 kB # 所有的可用内存" (a Chinese note on each
// meminfo line, corpus 7062), "UdpRcvbufErrors   9123844   0.0   # ← buffer overflow =
// dropped packets" (corpus 7075), "Slab:            1362624 kB <--------" (corpus 7168).
// The note hides the line's shape from its reader, and the counters went unread. A line
// whose text before the note (" #", " //", or an arrow pointing back at it) is a counter
// line ("name", a colon or not, the number, kB or nstat's rate after it) loses the note;
// any other line (a shell comment, a sysctl.conf line, prose) stays as it is. A line keeps
// its number.
func stripCounterComments(text string) string {
	if !strings.Contains(text, " #") && !strings.Contains(text, "\t#") && !strings.Contains(text, " //") && !strings.Contains(text, " <-") && !strings.Contains(text, " ←") {
		return text
	}
	var b strings.Builder
	last := 0
	for rest := text; rest != ""; {
		pos := len(text) - len(rest)
		var line string
		line, rest = cutLine(rest)
		c := commentStart(line)
		if c <= 0 || !reCounterHead.MatchString(line[:c]) {
			continue
		}
		if b.Cap() == 0 {
			b.Grow(len(text))
		}
		b.WriteString(text[last : pos+len(strings.TrimRight(line[:c], " \t"))])
		last = pos + len(strings.TrimRight(line, "\r"))
	}
	if b.Cap() == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// commentStart is where a note after a line's text begins: the blank before its first " #",
// " //" or an arrow pointing back at the line (" <--------", " ←"), or -1.
func commentStart(line string) int {
	c := -1
	for _, m := range []string{" #", "\t#", " //", " <-", " ←"} {
		if i := strings.Index(line, m); i >= 0 && (c < 0 || i < c) {
			c = i
		}
	}
	return c
}

// reCounterHead: a counter line of /proc/meminfo, /proc/vmstat or nstat, whole.
var reCounterHead = lazyre.New(`^\s*[A-Za-z_][\w().-]{0,63}:?\s+-?\d{1,20}(?:\s+kB|\s+-?\d+(?:\.\d+)?)?\s*$`)
