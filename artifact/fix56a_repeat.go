package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// syslogd's "last message repeated N times" (fix56a): BSD syslogd (usr.sbin/syslogd fprintlog,
// "last message repeated %d times") and sysklogd print it in place of N more copies of the
// line before, with no tag of its own. A bare one (its prefix cut, or quoted in a mail) right
// after a log record is read as a record of the same log, so a rule can count the copies it
// stands for; away from a record it stays prose.
var reSyslogRepeat = lazyre.New(`^(?:--- )?last message repeated (\d{1,9}) times?(?: ---)?\s*$`)

// repeatsLogRecord: line i follows, within two lines (a wrapped record's tail, a blank), the
// last log record read, or another repeat line read as one.
func (d *doc) repeatsLogRecord(i int) bool {
	if !reSyslogRepeat.MatchString(strings.TrimSpace(d.ls[i].Text)) {
		return false
	}
	n := d.tl.Log.Len()
	if n == 0 {
		return false
	}
	last := d.tl.Log.At(n - 1).Line()
	return last > 0 && last < d.ls[i].No && d.ls[i].No-last <= 3
}
