package artifact

import (
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// trySwaps reads /proc/swaps and `swapon -s` (--summary), which prints the same table
// (mm/swapfile.c swap_show: "Filename\t\t\t\tType\t\tSize\t\tUsed\t\tPriority", then one
// row a device: path, "partition" or "file", size and used in KiB, priority). sosreport keeps
// it in sos_commands/memory/swapon_--summary_--verbose and proc/swaps, supportconfig in
// memory.txt. The rows' sums are the host's SwapTotal and SwapTotal − SwapFree, the figures
// swap-under-load reads from free or /proc/meminfo (pre-round 15, h15b).
func (d *doc) trySwaps(i int) int {
	if fs := fields(d.ls[i].Text); len(fs) != 5 || fs[1] != "Type" || fs[2] != "Size" || fs[3] != "Used" || fs[4] != "Priority" {
		return 0
	}
	var size, used int64
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) != 5 || fs[1] != "partition" && fs[1] != "file" || !isDigits(fs[2]) || !isDigits(fs[3]) {
			break
		}
		if _, err := strconv.Atoi(strings.TrimPrefix(fs[4], "-")); err != nil {
			break
		}
		s, _ := strconv.ParseInt(fs[2], 10, 64)
		u, _ := strconv.ParseInt(fs[3], 10, 64)
		if u > s {
			break
		}
		size += s
		used += u
	}
	if k == i+1 && !swapsHeaderAlone(d, k) {
		return 0 // a header followed by rows it cannot read
	}
	c := kernel.Counters{}
	c.Set("SwapTotal", size)
	c.Set("SwapFree", size-used)
	c.Set("SwapUsed", used)
	return d.addTable(KindMemInfo, i, k, model.Sample{MemInfo: &c}, &c)
}

// swapsHeaderAlone: the header is the whole table (the text, a paragraph or a code block
// ends after it), which is how /proc/swaps and swapon -s print a
// host with no swap device: SwapTotal 0, the fact "no swap configured".
func swapsHeaderAlone(d *doc, k int) bool {
	if k >= len(d.ls) {
		return true
	}
	t := strings.TrimSpace(d.ls[k].Text)
	return t == "" || strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") || d.ls[k].No > d.ls[k-1].No+1
}

// trySwaponShow reads `swapon --show` (util-linux sys-utils/swapon.c show_table, h28c): a
// header of its column names, by default "NAME TYPE SIZE USED PRIO" (--output may pick and
// order NAME, TYPE, SIZE, USED, PRIO), then one row a device, the sizes human-readable with
// a 1024-based suffix ("7.7G", "0B") or in bytes with --bytes. The rows' sums are SwapTotal
// and the swap used, as trySwaps' are. Another tool's table under NAME (lsblk's "NAME MAJ:MIN
// RM SIZE RO TYPE", zramctl's "NAME ALGORITHM DISKSIZE ...") has a column swapon has not.
func (d *doc) trySwaponShow(i int) int {
	hs := fields(d.ls[i].Text)
	col := map[string]int{}
	for n, h := range hs {
		switch h {
		case "NAME", "TYPE", "SIZE", "USED", "PRIO":
			col[h] = n
		default:
			return 0
		}
	}
	if len(col) != len(hs) || hs[0] != "NAME" {
		return 0
	}
	ti, okT := col["TYPE"]
	si, okS := col["SIZE"]
	ui, okU := col["USED"]
	if !okT || !okS || !okU {
		return 0
	}
	var size, used int64
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) != len(hs) || fs[ti] != "partition" && fs[ti] != "file" {
			break
		}
		s, ok1 := freeValue(fs[si], "human")
		u, ok2 := freeValue(fs[ui], "human")
		if !ok1 || !ok2 || u > s {
			break
		}
		size += s
		used += u
	}
	if k == i+1 {
		return 0
	}
	c := kernel.Counters{}
	c.Set("SwapTotal", size)
	c.Set("SwapFree", size-used)
	c.Set("SwapUsed", used)
	return d.addTable(KindMemInfo, i, k, model.Sample{MemInfo: &c}, &c)
}
