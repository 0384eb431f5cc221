package artifact

import (
	"strconv"
	"strings"
)

// KindVMStatColumns: /proc/vmstat counters of several runs set side by side, one column a
// run ("pgpgin  163016456  145617236" under "v4.4  v3.18", corpus 7274).
const KindVMStatColumns = "vmstat_columns"

// VMStatColumns is such a table: each counter's values in the columns' order.
type VMStatColumns struct {
	Columns  []string           `json:"columns,omitempty"` // the header's names, when it has one a column
	Counters map[string][]int64 `json:"counters"`
}

// vmstatColumnsWhy: why the table is read but not judged.
const vmstatColumnsWhy = "/proc/vmstat counters of several runs side by side (a column a run: another kernel, another setting or another test): each is a count over its own run, not this host's since boot, and no column is told to be the host's now; headroom keeps them (vmstat_columns) and judges none"

// vmstatColumnsMinRows: fewer rows could be any table of names and numbers.
const vmstatColumnsMinRows = 4

// vmstatColumnPrefixes: how /proc/vmstat's counters are named (mm/vmstat.c vmstat_text):
// a table of other names and numbers (ZFS's arcstats "name type data", a slab tool's
// columns) is no vmstat, and numastat's numa_hit rows under "node0 node1" are nodes, not runs.
var vmstatColumnPrefixes = []string{"pg", "ps", "nr_", "workingset_", "allocstall", "compact_", "thp_", "kswapd_",
	"slabs_scanned", "pageoutrun", "drop_", "oom_kill", "unevictable_", "htlb_", "balloon_", "swap_ra", "zone_reclaim"}

// isVMStatColumnsRow: a vmstat counter's name and two or more numbers.
func isVMStatColumnsRow(ft, t string) bool {
	named := false
	for _, p := range vmstatColumnPrefixes {
		named = named || strings.HasPrefix(ft, p)
	}
	if !named {
		return false
	}
	fs := fields(t)
	return len(fs) >= 3 && allNumeric(fs[1:])
}

// tryVMStatColumns reads such a table: its rows have the same number of values, and the
// line above names as many columns and holds no number (without that header the table is
// not told to be runs side by side, and is left to the other readers).
func (d *doc) tryVMStatColumns(i int) int {
	n := len(fields(d.ls[i].Text))
	t := &VMStatColumns{Counters: map[string][]int64{}}
	k := i
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) != n || !isVMStatColumnsRow(fs[0], d.ls[k].Text) {
			break
		}
		vs := make([]int64, 0, n-1)
		for _, f := range fs[1:] {
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				return 0
			}
			vs = append(vs, v)
		}
		t.Counters[fs[0]] = vs
	}
	if k-i < vmstatColumnsMinRows {
		return 0
	}
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		if hs := fields(d.ls[j].Text); len(hs) == n-1 && !strings.ContainsAny(d.ls[j].Text, ":=") && !allNumeric(hs[:1]) {
			t.Columns = hs
			break
		} else if len(hs) > 0 {
			break
		}
	}
	if t.Columns == nil {
		return 0 // no header naming the runs: not told to be a comparison
	}
	d.addArtifact(KindVMStatColumns, d.ls[i].No, d.ls[k-1].No, t)
	d.unparsed(i, k-1, vmstatColumnsWhy)
	return k - i
}
