package artifact

import (
	"errors"
	"strings"

	"headroom/kernel"
)

// A pasted /proc table whose one row the kernel cannot have printed (the paste cut it, a
// counter that underflowed and printed unsigned) is read without that row, which is named
// as unread; at most max rows are left out, so a table of another layout stays unread
// whole (its every row fails).

// leftOutRow is a row left out of a table and why the parser refused it.
type leftOutRow struct {
	no  int // the line's number in the text
	why string
}

// parseLeavingOut runs parse on the rows' text, and again without each row it refuses for
// which skip says yes, up to max rows. It returns parse's last error and the rows left out.
func parseLeavingOut(rows []Line, max int, parse func(text string) error, skip func(l Line, err error) bool) ([]leftOutRow, error) {
	var out []leftOutRow
	for {
		err := parse(joinText(rows))
		var le *kernel.LineError
		if err == nil || len(out) == max || !errors.As(err, &le) || le.Line < 1 || le.Line > len(rows) || !skip(rows[le.Line-1], le.Err) {
			return out, err
		}
		j := le.Line - 1
		out = append(out, leftOutRow{rows[j].No, le.Err.Error()})
		rows = append(rows[:j:j], rows[j+1:]...)
	}
}

// noteLeftOut names the rows left out of the table at lines i..k-1 as unread.
func (d *doc) noteLeftOut(i, k int, file string, out []leftOutRow, why string) {
	for n := i; n < k; n++ {
		for _, r := range out {
			if r.no == d.ls[n].No {
				d.unparsed(n, n, file+": "+r.why+" ("+why+"): left out, the table's other rows read")
			}
		}
	}
}

// unsignedUnderflow: a value no signed 64-bit count holds, all digits and at least 2^63: a
// count that went below zero printed unsigned (lxcfs's SwapFree of 18446744073709551488 kB
// when a container's swap limit is below its memory limit, g282's 6469).
func unsignedUnderflow(v string) bool {
	v = strings.TrimSpace(v)
	return len(v) >= 19 && isDigits(v) && (len(v) > 19 || v >= "9223372036854775808")
}
