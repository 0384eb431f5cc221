package artifact

import (
	"strconv"
	"strings"

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
	end := len(strings.TrimRight(d.text, " \t\r\n"))
	return end > 0 && d.ls[k].No == strings.Count(d.text[:end], "\n")+1
}
