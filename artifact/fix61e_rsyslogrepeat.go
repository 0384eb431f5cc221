package artifact

import "strings"

// rsyslog's repeated-message reduction (fix61e): with $RepeatedMsgReduction on (Debian's and
// Ubuntu's default rsyslog.conf until 2019, and many since) a run of identical messages is
// written once, then as "<stamp> <host> <tag>: message repeated N times: [<msg>]" (rsyslog
// action.c, "message repeated %d times: [%.800s]"), the original message inside the
// brackets with its leading space. The line keeps its syslog prefix, so unwrapping the
// brackets lets the kernel message inside ("kernel: message repeated 12 times: [ [  812.3]
// TCP: out of memory -- consider tuning tcp_mem]") be read as the record it repeats; the
// count of copies is not added to the log (each rule counts the records it reads).
// sysklogd's and BSD syslogd's "last message repeated N times" has no message and is
// fix56a's.
func unwrapRsyslogRepeat(s string) string {
	rest, ok := strings.CutPrefix(s, "message repeated ")
	if !ok {
		return s
	}
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 || n > 9 {
		return s
	}
	inner, ok := strings.CutPrefix(rest[n:], " times: [")
	if !ok {
		return s
	}
	inner = strings.TrimSuffix(strings.TrimLeft(inner, " "), "]")
	if inner == "" {
		return s
	}
	return inner
}
