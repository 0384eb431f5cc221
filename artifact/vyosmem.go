package artifact

import (
	"math"
	"strings"

	"headroom/model"
)

// VyOS's `show system memory` (pre-round 14, h14b; vyos-1x src/op_mode/memory.py): three
// lines read from /proc/meminfo and printed through vyos.utils.convert.bytes_to_human
// ("{0:.2f} {1}", binary multiples with the suffixes B, KB, MB, GB, TB):
//
//	Total: 1.94 GB
//	Free:  81.25 MB
//	Used:  1.86 GB
//
// Total is MemTotal; Free is MemAvailable (not MemFree); Used is MemTotal − MemAvailable. It
// is read as free's table with the columns total, used and available (freeMemInfo then
// gives MemTotal and MemAvailable, as free's own "available" column does), in KiB, what was
// printed kept. The older op-mode script show_ram.sh printed MB without a unit and Free as
// MemFree + Buffers + Cached: a number without its unit is not read here.
//
// Gated: formats hands it only lines whose first field is "Total:" (ss -s's "Total: N
// (kernel M)" has no unit after the number and falls through to trySSSummary).

// vyosMemRows are the three lines' labels in the order memory.py prints them, with the
// free column each gives.
var vyosMemRows = [3][2]string{{"Total:", "total"}, {"Free:", "available"}, {"Used:", "used"}}

// vyosMemValue reads "1.94 GB" (a line's fields after its label) into KiB; bare is a number
// without a unit, vyos-show-ram.sh's MiB (read only under its command, see tryVyOSMemory).
func vyosMemValue(fs []string) (kb int64, printed float64, bare, ok bool) {
	if len(fs) == 1 && isDigits(fs[0]) {
		v, ok := atoi(fs[0])
		return v * 1024, float64(v), true, ok
	}
	if len(fs) != 2 {
		return 0, 0, false, false
	}
	v, ok := atof(fs[0])
	if !ok || v < 0 {
		return 0, 0, false, false
	}
	mult := 0.0
	switch fs[1] {
	case "B":
		mult = 1.0 / 1024
	case "KB":
		mult = 1
	case "MB":
		mult = 1024
	case "GB":
		mult = 1024 * 1024
	case "TB":
		mult = 1024 * 1024 * 1024
	default:
		return 0, 0, false, false
	}
	return int64(math.Round(v * mult)), v, false, true
}

// tryVyOSMemory reads `show system memory`'s three lines at i.
func (d *doc) tryVyOSMemory(i int) int {
	if i+2 >= len(d.ls) {
		return 0
	}
	tb := &FreeTable{Columns: []string{"total", "used", "available"}, Unit: "KiB",
		Rows:    map[string][]int64{"Mem": {-1, -1, -1}},
		Printed: map[string][]float64{"Mem": {-1, -1, -1}},
		Note:    "VyOS `show system memory` (src/op_mode/memory.py): Free is MemAvailable, Used is MemTotal - MemAvailable"}
	col := map[string]int{"total": 0, "used": 1, "available": 2}
	bares := 0
	for r, row := range vyosMemRows {
		fs := fields(d.ls[i+r].Text)
		if len(fs) == 0 || fs[0] != row[0] {
			return 0
		}
		kb, printed, bare, ok := vyosMemValue(fs[1:])
		if !ok {
			return 0
		}
		if bare {
			bares++
		}
		tb.Rows["Mem"][col[row[1]]] = kb
		tb.Printed["Mem"][col[row[1]]] = printed
	}
	m := tb.Rows["Mem"]
	if m[0] <= 0 || m[2] > m[0] || m[1] > m[0] || (bares != 0 && bares != 3) {
		return 0 // not a memory report: its parts exceed its total, or its units are mixed
	}
	tb.Label = d.label(i)
	if !strings.Contains(tb.Label, "memory") && !strings.Contains(tb.Label, "vyos") {
		// Without the command, three such lines are any program's summary: "Total:" with
		// "Free:" and "Used:" is too common a shape to claim bare.
		return 0
	}
	if bares == 3 {
		// vyatta-op's scripts/vyos-show-ram.sh (VyOS 1.1 to 1.3, and the Vyatta-derived
		// EdgeOS): "Total: N", "Free:  N", "Used:  N" in MiB (the kB of /proc/meminfo
		// divided by 1024), Free being MemFree + Buffers + Cached (free's old "-/+
		// buffers/cache" free, neither MemFree nor MemAvailable). Only its command line
		// ("show system memory") claims such bare numbers: MemTotal is read, Free is kept
		// as printed.
		if !strings.Contains(tb.Label, "show system memory") {
			return 0
		}
		tb.Columns = []string{"total", "used", "free"}
		tb.Unit = "MiB"
		tb.Rows = map[string][]int64{"Mem": {m[0], -1, -1}, "-/+ buffers/cache": {-1, m[1], m[2]}}
		p := tb.Printed["Mem"]
		tb.Printed = map[string][]float64{"Mem": {p[0], -1, -1}, "-/+ buffers/cache": {-1, p[1], p[2]}}
		tb.Note = "vyos-show-ram.sh (VyOS 1.1-1.3, EdgeOS): MiB; Free is MemFree + Buffers + Cached, Used is Total - Free"
	}
	d.addMemTable(i, 3, tb)
	return 3
}

// addMemTable records a program's memory report read into free's table (lines i to i+n-1):
// its meminfo sample, the host's MemTotal as free's "Mem: total" gives it, the table.
func (d *doc) addMemTable(i, n int, tb *FreeTable) {
	first, last := d.ls[i].No, d.ls[i+n-1].No
	d.segSeq++
	mem := freeMemInfo(tb)
	var ss []model.Sample
	if mem.Len() > 0 {
		ss = append(ss, model.Sample{Source: spanSource(first, last), MemInfo: mem})
		if v, ok := mem.Get("MemTotal"); ok {
			d.host.memTotal(v, 3) // as free's "Mem: total"
		}
	}
	d.addSamples(KindFree, tb.Label, first, last, ss)
	d.addArtifact(KindFree, first, last, tb)
}
