package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// bpftrace's swapin.bt (tools/swapin.bt, Brendan Gregg) counts swap-ins by process: a kprobe
// on swap_readpage, one count a page read back from swap, the map printed and cleared every
// second under the time:
//
//	# ./swapin.bt
//	Attached 2 probes
//	13:37:00
//	@[chrome, 4536]: 10809
//	@[gnome-shell, 2239]: 12410
//
// Each second's counts summed are the pages swapped in that second: the rate swap-under-load
// judges, at 4 KiB a page (the smallest page; a larger one makes the rate higher).

// SwapinTrace is one run of swapin.bt: its seconds and the pages swapped in each.
type SwapinTrace struct {
	Seconds []SwapinSecond `json:"seconds"`
}

// SwapinSecond is one second's print: its time and the pages swapped in, all tasks together.
type SwapinSecond struct {
	Time  string `json:"time"`
	Pages int64  `json:"pages"`
	Top   string `json:"top,omitempty"` // the task with the most, "comm pid"
}

var (
	reSwapinCount = lazyre.New(`^@\[([^,\]]+), (\d+)\]: (\d+)$`)
	reClockLine   = lazyre.New(`^\d{2}:\d{2}:\d{2}$`)
)

// isSwapinBTCommand: the prompt line that ran the tool ("# ./swapin.bt", "$ sudo swapin.bt").
func isSwapinBTCommand(_, t string) bool {
	fs := fields(t)
	return len(fs) >= 2 && (fs[0] == "#" || fs[0] == "$") && strings.HasSuffix(fs[len(fs)-1], "swapin.bt")
}

// trySwapinBT reads the run under the command at line i, up to the first line that is not
// the tool's ("Attached N probes", a time, a count, a blank line, an elision "[...]").
func (d *doc) trySwapinBT(i int) int {
	tr := &SwapinTrace{}
	var top int64
	k := i + 1
	for ; k < len(d.ls); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		switch {
		case t == "[...]":
			// The author cut the run here: the second printed last before the cut is not
			// known to be empty.
			if n := len(tr.Seconds); n > 0 && tr.Seconds[n-1].Pages == 0 {
				tr.Seconds = tr.Seconds[:n-1]
			}
			continue
		case t == "" || strings.HasPrefix(t, "Attached ") && strings.HasSuffix(t, " probes"):
			continue
		case reClockLine.MatchString(t):
			tr.Seconds = append(tr.Seconds, SwapinSecond{Time: t})
			top = 0
			continue
		}
		m := reSwapinCount.FindStringSubmatch(t)
		if m == nil || len(tr.Seconds) == 0 {
			break
		}
		n, err := strconv.ParseInt(m[3], 10, 64)
		if err != nil {
			break
		}
		s := &tr.Seconds[len(tr.Seconds)-1]
		s.Pages += n
		if n > top {
			top, s.Top = n, m[1]+" "+m[2]
		}
	}
	for k > i+1 && isBlank(d.ls[k-1].Text) {
		k--
	}
	counted := 0
	for _, s := range tr.Seconds {
		if s.Pages > 0 {
			counted++
		}
	}
	if counted == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.addArtifact(KindSwapinBT, first, last, tr)
	// The first time printed closes the second in which the probes were attached: a part
	// of a second, so it is no rate (its map is empty in the tool's own example).
	for j, s := range tr.Seconds {
		if j == 0 && s.Pages == 0 {
			continue
		}
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("lines %d-%d (bpftrace swapin.bt, the second to %s)", first, last, s.Time),
			Rates: model.Rates{model.RateSwapInKBPerSec: float64(s.Pages * 4)}})
	}
	return k - i
}
