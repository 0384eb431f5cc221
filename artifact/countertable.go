package artifact

import (
	"maps"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// An application's or a tool's own table whose header names a TcpExt drop counter
// (corpus 493, a service's telemetry during an outage):
//
//	min   405s   lag  infl  acc/s  acceptQ  established  ListenOverflows(==Drops)
//	14.0  9.26s   96    1    54.5    382       345        3378 ...
//	—     2.66s   —     0    —       512       507        3631
//
// The column is the kernel's counter since boot, read where the header puts it; cells
// before it may be placeholders ("—"), words after the row's cells are notes. The rows have
// no time between them, so the last row is one reading of the counter; the artifact keeps
// every row's value.

// CounterColumn is one kernel counter read from such a table, a value per row.
type CounterColumn struct {
	Group  string  `json:"group"`
	Name   string  `json:"name"`
	Header string  `json:"header"`
	Values []int64 `json:"values"`
}

// counterTableHeader returns the columns of a header line that names TcpExt drop
// counters (a header cell may add a note in parentheses, "ListenOverflows(==Drops)").
func counterTableHeader(t string) (map[int]string, int) {
	fs := fields(t)
	if len(fs) < 3 || isDigits(strings.TrimSuffix(fs[0], ".0")) || strings.HasSuffix(fs[0], ":") {
		// A row, or /proc/net/netstat's own "TcpExt: SyncookiesSent ..." (proc_net.go).
		return nil, 0
	}
	cols := map[int]string{}
	for k, f := range fs {
		name, _, _ := strings.Cut(f, "(")
		for _, c := range kernel.TcpExtDropCounters {
			if name == c {
				cols[k] = c
			}
		}
	}
	return cols, len(fs)
}

// mentionsDropCounter is the cheap test in front of counterTableHeader.
func mentionsDropCounter(t string) bool {
	return strings.Contains(t, "Overflows") || strings.Contains(t, "Drop") || strings.Contains(t, "Prune") ||
		strings.Contains(t, "OnMemory") || strings.Contains(t, "Pressures")
}

func (d *doc) tryCounterTable(i int) int {
	cols, width := counterTableHeader(d.ls[i].Text)
	if len(cols) == 0 {
		return 0
	}
	// The columns in header order, and a row's values kept only when all of its columns
	// read: ranging over the map made the counters' order, and what a row that ends the
	// table added, differ from one parse to the next (FuzzStream found it).
	idx := slices.Sorted(maps.Keys(cols))
	vals := map[int][]int64{}
	row := make([]int64, len(idx))
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) < width {
			break
		}
		ok := true
		for n, c := range idx {
			v, err := strconv.ParseInt(fs[c], 10, 64)
			if err != nil {
				ok = false
				break
			}
			row[n] = v
		}
		if !ok {
			break
		}
		for n, c := range idx {
			vals[c] = append(vals[c], row[n])
		}
	}
	if k == i+1 {
		return 0
	}
	hdr := fields(d.ls[i].Text)
	var out []CounterColumn
	ns := kernel.Groups{}
	g := kernel.Group{Name: "TcpExt"}
	for _, c := range idx {
		name := cols[c]
		out = append(out, CounterColumn{Group: "TcpExt", Name: name, Header: hdr[c], Values: vals[c]})
		g.Counters.Set(name, vals[c][len(vals[c])-1])
	}
	ns = append(ns, g)
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	d.addSamples(KindCounterTable, d.label(i), first, last, []model.Sample{{Source: spanSource(first, last) + " (last row)", NetStat: ns}})
	d.addArtifact(KindCounterTable, first, last, out)
	return k - i
}
