package diagnose

import (
	"strconv"
	"strings"

	"headroom/model"
)

// syslogRepeatsAfter counts syslogd's "last message repeated N times" records that follow,
// one after another, a log record of which is(message) holds (fix56a; the artifact reads a
// bare repeat line after a record into the log): the copies of those records syslogd did not
// write out, and the repeat lines read.
func syslogRepeatsAfter(tl *model.Timeline, is func(string) bool) (copies int64, lines int) {
	after := false
	for _, r := range tl.Log.All() {
		if n, ok := syslogRepeatCount(r.Message); ok {
			if after {
				copies += n
				lines++
			}
			continue
		}
		after = is(r.Message)
	}
	return copies, lines
}

// syslogRepeatCount: N of "last message repeated N times" ("--- ... ---" as BSD syslogd
// frames it when it writes to a terminal).
func syslogRepeatCount(msg string) (int64, bool) {
	s := strings.Trim(strings.TrimSpace(msg), "- ")
	rest, ok := strings.CutPrefix(s, "last message repeated ")
	if !ok {
		return 0, false
	}
	num, tail, _ := strings.Cut(rest, " ")
	if tail != "times" && tail != "time" {
		return 0, false
	}
	n, err := strconv.ParseInt(num, 10, 64)
	return n, err == nil
}
