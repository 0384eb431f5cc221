package artifact

import (
	"strconv"
	"strings"

	"headroom/model"
)

// A sar row's rates are means over the interval since the record before it (sysstat's
// sa_common.c prints each row with the later record's time), so the interval is the time
// between a row and the row above it. The first row of a table has no row above it in its
// table; `sar -A` and a pasted day file print every table for the same records, so another
// table of the same text that shows the row before that time tells its interval (a Red Hat
// KB pastes one row of sar -W under two rows of sar -r). A pasted table whose rows were cut
// shows a gap longer than sar's interval, so a gap above sarMaxIntervalSec is not taken as
// one.

// sarMaxIntervalSec: sa1 samples every 10 minutes by default (sysstat.cron, sysstat-collect
// .timer); an hour between two rows is rows cut from the paste, not an interval.
const sarMaxIntervalSec = 3600

// sarClock reads a row's time ("11:40:59", "11:40:59 PM") as seconds since midnight.
func sarClock(stamp string) (int, bool) {
	t, ampm, _ := strings.Cut(stamp, " ")
	parts := strings.Split(t, ":")
	if len(parts) != 3 {
		return 0, false
	}
	var v [3]int
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 59 || (i == 0 && n > 23) {
			return 0, false
		}
		v[i] = n
	}
	switch strings.TrimSpace(ampm) {
	case "":
	case "AM", "PM":
		if v[0] < 1 || v[0] > 12 {
			return 0, false
		}
		v[0] %= 12
		if strings.TrimSpace(ampm) == "PM" {
			v[0] += 12
		}
	default:
		return 0, false
	}
	return v[0]*3600 + v[1]*60 + v[2], true
}

// sarGap is the seconds from one row's time to the next one's (across midnight when the
// later reads earlier); ok only for a gap sar's interval can be.
func sarGap(prev, cur string) (int, bool) {
	a, okA := sarClock(prev)
	b, okB := sarClock(cur)
	if !okA || !okB {
		return 0, false
	}
	g := b - a
	if g < 0 {
		g += 86400
	}
	return g, g > 0 && g <= sarMaxIntervalSec
}

// sarRowIntervals sets each sample's interval (model.RateIntervalSec) from the row above
// it in its table, or for the table's first row from the same time in another sar table
// of the text.
func (d *doc) sarRowIntervals(ss []model.Sample, stamps []string) {
	for i := range ss {
		if len(ss[i].Rates) == 0 { // a sar -r row: no rates to weigh
			continue
		}
		iv, ok := 0, false
		if i > 0 {
			iv, ok = sarGap(stamps[i-1], stamps[i])
		}
		if !ok {
			iv, ok = d.sarStampIntervals()[stamps[i]]
		}
		if ok {
			ss[i].Rates[model.RateIntervalSec] = float64(iv)
		}
	}
}

// sarStampIntervals maps each sar row time of the text that has a row above it in its
// table to the gap between the two (looked for once).
func (d *doc) sarStampIntervals() map[string]int {
	if d.sarIntervals != nil {
		return d.sarIntervals
	}
	d.sarIntervals = map[string]int{}
	prev := ""
	for _, l := range d.ls {
		s := strings.TrimSpace(l.Text)
		if s == "" || isSysstatGap(s) {
			continue // rows cut or spaced: a gap too long is refused by sarGap
		}
		stamp, rest := sysstatStamp(s)
		fs := fields(rest)
		if stamp == "" || !strings.Contains(stamp, ":") || strings.HasSuffix(stamp, ":") || len(fs) < 2 || !allNumericish(fs[1:]) {
			prev = "" // a header, an Average row, prose: the table's rows end here
			continue
		}
		if prev != "" && prev != stamp {
			if g, ok := sarGap(prev, stamp); ok {
				if _, seen := d.sarIntervals[stamp]; !seen {
					d.sarIntervals[stamp] = g
				}
			}
		}
		prev = stamp
	}
	return d.sarIntervals
}
