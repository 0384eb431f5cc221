package artifact

import "strings"

// 0-day's (LKP's) "fail:runs" table compares how many of a test's runs printed each dmesg
// signature on the base and the patched kernel:
//
//	       fail:runs  %reproduction    fail:runs
//	           |             |             |
//	          3:100         -1%           2:100   dmesg.invoked_oom-killer:gfp_mask=0x
//	          6:100         -4%           2:100   dmesg.page_allocation_failure:order:#,mode:#(GFP_NOWAIT|__GFP_COMP),nodemask=(null)
//
// Its counts are runs (boots) that printed a message, not one host's counters, and the
// signatures have their numbers replaced by '#' or cut ("gfp_mask=0x"): no order, mode, zone
// or victim is left. The table is named as not read (unparsed), so the text is not called
// evidence-free, and nothing of it becomes evidence.

// failRunsTable consumes the table whose header is at line i and returns its number of lines,
// 0 when line i is no such header.
func (d *doc) failRunsTable(i int) int {
	if h := strings.Fields(d.ls[i].Text); len(h) != 3 || h[0] != "fail:runs" || h[1] != "%reproduction" || h[2] != "fail:runs" {
		return 0
	}
	last, rows := i, 0
	for j := i + 1; j < len(d.ls) && !d.used[j]; j++ {
		f := strings.Fields(d.ls[j].Text)
		if len(f) > 0 && strings.Trim(strings.Join(f, ""), "|") == "" {
			last = j // the column guides "|   |   |"
			continue
		}
		if !failRunsRow(f) {
			break
		}
		last, rows = j, rows+1
	}
	if rows == 0 {
		return 0
	}
	for k := i; k <= last; k++ {
		d.used[k] = true
	}
	d.unparsed(i, last, "0-day's fail:runs table: how many of each kernel's test runs printed each dmesg signature (counts of runs, not this host's counters; the signatures' numbers are cut), not read")
	return last - i + 1
}

// failRunsRow: "3:100  -1%  2:100  dmesg.X" or, when a kernel never printed it, ":100" in
// its column; the %reproduction column may be empty.
func failRunsRow(f []string) bool {
	if len(f) < 3 || !runsCell(f[0]) {
		return false
	}
	k := 1
	if strings.HasSuffix(f[k], "%") {
		k++
	}
	return k+1 < len(f) && runsCell(f[k])
}

func runsCell(s string) bool {
	a, b, ok := strings.Cut(s, ":")
	return ok && b != "" && strings.Trim(a, "0123456789") == "" && strings.Trim(b, "0123456789") == ""
}
