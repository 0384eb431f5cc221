package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// /proc/net/softnet_stat re-printed by another tool as a decimal table with a legend (issue
// 29; corpus 445, majek's softnet_stat.sh under watch(1)):
//
//	cpu      total    dropped   squeezed  collision        rps flow_limit
//	  0  620315792          0         11          0          0          0
//
// The columns are the file's, named (net/core/net-procfs.c softnet_seq_show: processed,
// dropped, time_squeeze, cpu_collision, received_rps, flow_limit_count), one row per CPU.
// The rows become the same per-CPU readings the raw hex file gives.

// softnetTableColumns maps a legend word to the field it names.
var softnetTableColumns = map[string]string{
	"cpu": "cpu", "total": "processed", "processed": "processed", "dropped": "dropped", "drops": "dropped",
	"squeezed": "time_squeeze", "squeeze": "time_squeeze", "time_squeeze": "time_squeeze",
	"collision": "cpu_collision", "cpu_collision": "cpu_collision", "rps": "received_rps", "received_rps": "received_rps",
	"flow_limit": "flow_limit_count", "flow_limit_count": "flow_limit_count",
}

// softnetTableHeader returns the fields of a legend line: it starts with "cpu" and names the
// dropped and squeezed columns; every word is a softnet column.
func softnetTableHeader(t string) ([]string, bool) {
	fs := strings.Fields(strings.ToLower(t))
	if len(fs) < 3 || fs[0] != "cpu" {
		return nil, false
	}
	cols := make([]string, len(fs))
	seen := map[string]bool{}
	for k, f := range fs {
		c, ok := softnetTableColumns[f]
		if !ok || seen[c] {
			return nil, false
		}
		seen[c] = true
		cols[k] = c
	}
	if !seen["dropped"] || !seen["time_squeeze"] {
		return nil, false
	}
	return cols, true
}

func (d *doc) trySoftnetTable(i int) int {
	cols, ok := softnetTableHeader(d.ls[i].Text)
	if !ok {
		return 0
	}
	// The file's layout the named columns come from: received_rps and flow_limit_count
	// are columns 10 and 11 (2.6.35+, 3.x); without them, the 9-column 2.6 file.
	layout := 9
	for _, c := range cols {
		if c == "received_rps" || c == "flow_limit_count" {
			layout = 11
		}
	}
	var cpus []kernel.SoftnetCPU
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := strings.Fields(d.ls[k].Text)
		if len(fs) != len(cols) {
			break
		}
		c := kernel.SoftnetCPU{Columns: layout}
		row := true
		for n, f := range fs {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil || v < 0 {
				row = false
				break
			}
			switch cols[n] {
			case "cpu":
				c.CPU = int(v)
			case "processed":
				c.Processed = v
			case "dropped":
				c.Dropped = v
			case "time_squeeze":
				c.TimeSqueeze = v
			case "cpu_collision":
				c.CPUCollision = v
			case "received_rps":
				c.ReceivedRPS = v
			case "flow_limit_count":
				c.FlowLimitCount = v
			}
		}
		if !row {
			break
		}
		cpus = append(cpus, c)
	}
	if len(cpus) == 0 {
		return 0
	}
	if k < len(d.ls) && d.cutSoftnetRow(k, len(cols)) {
		// The paste ends inside the next CPU's row ("15  720161"): say so, do not guess.
		d.unparsed(k, k, "the paste ends inside this line: a row of the softnet table above, cut short")
		d.used[k] = true
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindSoftnet, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last) + " (softnet_stat as a decimal table)", Softnet: cpus}})
	d.addArtifact(KindSoftnet, first, last, cpus)
	return k - i
}

// cutSoftnetRow: line k holds fewer numbers than the table has columns and is the text's
// last non-blank line.
func (d *doc) cutSoftnetRow(k, ncols int) bool {
	fs := strings.Fields(d.ls[k].Text)
	if len(fs) == 0 || len(fs) >= ncols {
		return false
	}
	for _, f := range fs {
		if !isDigits(f) {
			return false
		}
	}
	text := d.wholeText()
	end := len(strings.TrimRight(text, " \t\r\n"))
	return end > 0 && d.ls[k].No == strings.Count(text[:end], "\n")+1
}

// softnet_stat converted to decimal without a legend, under the command that converted it
// (corpus 485, the RHEL 10 networking guide):
//
//	# awk '{for (i=1; i<=NF; i++) printf strtonum("0x" $i) ...}' /proc/net/softnet_stat | column -t
//	221951548  0      0  0  0  0  0  0  0  0  0  0  0
//	192058677  18862  0  0  0  0  0  0  0  0  0  0  1
//
// The columns are the file's own, in its order: each row is written back in the file's hex
// and read by the file's parser (kernel.ParseSoftnet), so the CPU index in a 13-column row
// counts as it does in the file. Only under a line that names softnet_stat: rows of plain
// decimal numbers are otherwise any tool's.
func (d *doc) trySoftnetDecimal(i int) int {
	if fs := fields(d.ls[i].Text); len(fs) < 9 || len(fs) > 13 || !allNumeric(fs) || !strings.Contains(d.label(i), "softnet_stat") {
		return 0
	}
	if isSoftnetLine(d.ls[i].Text) {
		// Every column eight digits wide, zeros kept ("00049279 00000000 00000001 ..."): the
		// file's own hex (seq_printf "%08x", net/core/net-procfs.c softnet_seq_show) on a
		// CPU whose counters happen to hold no letter, not a tool's decimals (which print
		// no leading zeros). Read as hex with the rows after it, one snapshot: read alone
		// as decimal, it became a first sample and the next CPUs' rows a second, and the
		// difference of two CPUs' counters "while sampled".
		return 0
	}
	var rows []string
	k := i
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) < 9 || len(fs) > 13 {
			break
		}
		hex := make([]string, len(fs))
		ok := true
		for c, f := range fs {
			v, err := strconv.ParseUint(f, 10, 32)
			if err != nil {
				ok = false
				break
			}
			hex[c] = fmt.Sprintf("%08x", v)
		}
		if !ok {
			break
		}
		rows = append(rows, strings.Join(hex, " "))
	}
	if len(rows) == 0 {
		return 0
	}
	cpus, err := kernel.ParseSoftnet(strings.NewReader(strings.Join(rows, "\n") + "\n"))
	if err != nil {
		return 0
	}
	return d.addTable(KindSoftnet, i, k, model.Sample{Softnet: cpus}, cpus)
}

// softnet_stat as Jay Vosburgh's softnet.awk prints it, a row of named values per CPU under
// a "total packets" line:
//
//	total packets 17838409
//	000: proc 8714952 48.85% drop 1532 tm_sq 5712 rx_rps 0 fl_lim 0
//
// proc, drop, tm_sq, rx_rps and fl_lim are the file's processed, dropped, time_squeeze,
// received_rps and flow_limit_count (11 columns); the share is derived and not kept.
var reSoftnetAwkRow = lazyre.New(`^\s*(\d{1,4}): proc\s+(\d+)\s+[\d.]+%\s+drop\s+(\d+)\s+tm_sq\s+(\d+)(?:\s+rx_rps\s+(\d+))?(?:\s+fl_lim\s+(\d+))?\s*$`)

func isSoftnetAwkRow(_, t string) bool {
	return strings.HasPrefix(t, "total packets ") || strings.Contains(t, ": proc ") && reSoftnetAwkRow.MatchString(t)
}

func (d *doc) trySoftnetAwk(i int) int {
	var cpus []kernel.SoftnetCPU
	k := i
	if strings.HasPrefix(d.ls[i].Text, "total packets ") {
		// The script's first line, the sum of the rows: part of the block when a row follows.
		if fs := fields(d.ls[i].Text); len(fs) != 3 || !isDigits(fs[2]) || i+1 >= len(d.ls) || !reSoftnetAwkRow.MatchString(d.ls[i+1].Text) {
			return 0
		}
		k++
	}
	for ; k < len(d.ls); k++ {
		m := reSoftnetAwkRow.FindStringSubmatch(d.ls[k].Text)
		if m == nil {
			break
		}
		n := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
		cpu, _ := strconv.Atoi(m[1])
		cpus = append(cpus, kernel.SoftnetCPU{CPU: cpu, Columns: 11, Processed: n(m[2]), Dropped: n(m[3]), TimeSqueeze: n(m[4]), ReceivedRPS: n(m[5]), FlowLimitCount: n(m[6])})
	}
	if len(cpus) == 0 {
		return 0
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindSoftnet, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last) + " (softnet_stat as softnet.awk prints it)", Softnet: cpus}})
	d.addArtifact(KindSoftnet, first, last, cpus)
	return k - i
}
