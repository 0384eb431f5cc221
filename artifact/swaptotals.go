package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// A results table that totals each run's swap I/O (fix57b): a header naming swap-in and
// swap-out totals, rows whose cells give them in KB (a benchmark mail's "kernel msg/s %CPU
// ... Total swpin Total swpout Total swapio" over "2.5.26 51824 96.3 1.42 1,987,024 KB
// 2,148,100 KB 4,135,124 KB"). The totals say the host swapped during the run, not how fast
// (the run's length is prose): a row with swap traffic is stated swapping without a rate
// (model.RateStatedSwapping). Rows of zeros (a control run with enough memory) are none.
var (
	reSwapTotalCol = lazyre.New(`(?i)\bswa?p[ _-]?(in|out|io)\b`)
	reSwapTotalKB  = lazyre.New(`\*?(\d{1,3}(?:,\d{3})+|\d+) ?KB\b`)
)

// isSwapTotalsHeader: a header with a swap-in and a swap-out column and at least one more.
func isSwapTotalsHeader(_, t string) bool {
	if !strings.Contains(strings.ToLower(t), "sw") {
		return false
	}
	cols := reSwapTotalCol.FindAllStringSubmatch(t, -1)
	in, out := false, false
	for _, c := range cols {
		switch strings.ToLower(c[1]) {
		case "in":
			in = true
		case "out":
			out = true
		}
	}
	return in && out && len(fields(t)) >= 4 && !strings.ContainsAny(t, ":=")
}

// trySwapTotals reads the rows under such a header (a dashed rule may sit between) up to a
// blank line: each row's KB cells, one per swap column.
func (d *doc) trySwapTotals(i int) int {
	ncol := len(reSwapTotalCol.FindAllString(d.ls[i].Text, -1))
	k := i + 1
	if k < len(d.ls) && strings.Trim(strings.TrimSpace(d.ls[k].Text), "- ") == "" && strings.Contains(d.ls[k].Text, "---") {
		k++
	}
	swapped, rowLine := false, 0
	start := k
	for ; k < len(d.ls) && !isBlank(d.ls[k].Text); k++ {
		kb := reSwapTotalKB.FindAllStringSubmatch(d.ls[k].Text, -1)
		if len(kb) != ncol {
			break
		}
		for _, m := range kb {
			if strings.Trim(m[1], "0,") != "" && !swapped {
				swapped, rowLine = true, d.ls[k].No
			}
		}
	}
	if k == start {
		return 0
	}
	if swapped {
		src := spanSource(rowLine, rowLine) + " (" + StatedMark + ": a table of each run's swap-in and swap-out totals, without the run's length)"
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, Rates: model.Rates{model.RateStatedSwapping: 1}})
	}
	return k - i
}
