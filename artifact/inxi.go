package artifact

import (
	"math"
	"strings"

	"headroom/internal/lazyre"
)

// inxi's memory and swap figures (fix43c). inxi (smxi/inxi, the system-information script
// forums ask for) prints its report as "Section: key: value key: value ..." lines, a
// section's later lines indented under it. Two of its items are figures swap-under-load reads:
//
//	Swap:      ID-1: swap-1 type: partition size: 512 MiB used: 512 MiB (100.0%) dev: /dev/sdb
//	Swap:
//	  ID-1: swap-1 type: file size: 2 GiB used: 1.2 GiB (60.0%) priority: -2 file: /swapfile
//	Partition: ID-4: swap-1 size: 8.00GB used: 0.00GB (0%) fs: swap dev: /dev/sda3   (inxi 2.x -p)
//
// one row a swap device or file (inxi's swap item: the device's name "swap-N", or a zram
// device's path, its type partition, file or zram, its size and use from /proc/swaps, the
// percentage used of size), and the RAM line:
//
//	Mem: 939.2/976.4 MiB (96.2%)                              (the short report, inxi 3)
//	Info:      Processes: 186 Uptime: 1:47 Memory: 1283.6/7917.4MB Init: systemd   (inxi 2.x -I)
//	Info:      Processes: 254 Uptime: 2h 17m Memory: 15.51 GiB used: 3.18 GiB (20.5%)   (3.1+)
//	Memory:    RAM: total: 16 GiB available: 15.54 GiB used: 2.7 GiB (17.4%)           (3.3+)
//
// inxi's "used" RAM is MemTotal less what is available (MemAvailable, or MemFree + Buffers +
// Cached before 3.14), so total − used is the RAM available. The sizes carry inxi's
// 1024-based units (KiB, MiB, GiB, TiB; inxi 2.x printed them KB, MB, GB). Each form is
// checked against its own percentage where it prints one (used / size within a point), so a
// sentence that happens to say "used:" is not read; a row without "swap" in its name or type
// (a disk's partition row) is not a swap row.
var (
	inxiUnit       = `(KiB|MiB|GiB|TiB|KB|MB|GB|TB)`
	inxiNum        = `(\d+(?:\.\d+)?)`
	reInxiSwapRow  = lazyre.New(`^(?:(?:Swap|Partition):\s+)?ID-\d+:\s+(\S+)\s+(?:type:\s+(partition|file|zram)\s+)?size:\s+` + inxiNum + `\s?` + inxiUnit + `\s+used:\s+` + inxiNum + `\s?` + inxiUnit + `\s+\(` + inxiNum + `%\)(.*)$`)
	reInxiSwapName = lazyre.New(`^swap-\d+$`)
	reInxiMemSlash = lazyre.New(`(?:^|\s)Mem(?:ory)?:\s+` + inxiNum + `/` + inxiNum + `\s?` + inxiUnit + `(?:\s+\(` + inxiNum + `%\))?(?:\s|$)`)
	reInxiMemUsed  = lazyre.New(`(?:^|\s)Memory:\s+(?:(?:System\s+)?RAM:\s+)?(?:total:\s+)?` + inxiNum + `\s?` + inxiUnit + `\s+(?:available:\s+` + inxiNum + `\s?` + inxiUnit + `\s+)?used:\s+` + inxiNum + `\s?` + inxiUnit + `\s+\(` + inxiNum + `%\)`)
)

// inxiKB converts an inxi figure to KiB.
func inxiKB(v float64, unit string) int64 {
	mult := 1.0
	switch unit {
	case "MiB", "MB":
		mult = 1024
	case "GiB", "GB":
		mult = 1024 * 1024
	case "TiB", "TB":
		mult = 1024 * 1024 * 1024
	}
	return int64(math.Round(v * mult))
}

// inxiPctAgrees: the percentage inxi printed is used over size, within a point (inxi rounds
// to one decimal, 2.x to a whole number).
func inxiPctAgrees(used, size int64, pct float64) bool {
	if size <= 0 || used < 0 || used > size {
		return false
	}
	return math.Abs(100*float64(used)/float64(size)-pct) <= 1
}

// isInxiLine: line t may be one of inxi's memory or swap lines (formats' detect).
func isInxiLine(ft, t string) bool {
	switch {
	case ft == "Swap:" || ft == "Partition:" || strings.HasPrefix(ft, "ID-"):
		return strings.Contains(t, "size:") && strings.Contains(t, "used:")
	case ft == "Mem:" || ft == "Memory:" || ft == "Info:":
		return strings.Contains(t, "/") || strings.Contains(t, "used:")
	}
	return false
}

// inxiSwapRow reads one swap row: size and used in KiB and as printed.
func inxiSwapRow(t string) (size, used int64, ps, pu float64, ok bool) {
	m := reInxiSwapRow.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return 0, 0, 0, 0, false
	}
	name, typ, rest := m[1], m[2], m[8]
	if !reInxiSwapName.MatchString(name) && typ == "" && !strings.Contains(rest, "fs: swap") {
		return 0, 0, 0, 0, false // a disk partition's row ("ID-1: / size: ... fs: ext4")
	}
	return inxiSizeUsed(m, 3, 5, 7)
}

// inxiSizeUsed reads a size and a used figure from match m, each followed by its unit
// (groups s, s+1 and u, u+1), checked against the percentage in group p.
func inxiSizeUsed(m []string, s, u, p int) (size, used int64, ps, pu float64, ok bool) {
	ps, _ = atof(m[s])
	pu, _ = atof(m[u])
	pct, _ := atof(m[p])
	size, used = inxiKB(ps, m[s+1]), inxiKB(pu, m[u+1])
	if !inxiPctAgrees(used, size, pct) {
		return 0, 0, 0, 0, false
	}
	return size, used, ps, pu, true
}

// inxiWrapped: an indented line that carries only the rest of the swap row above it, as inxi
// wraps a long row ("dev: /dev/sdb", "priority: -2 dev: /dev/sda2").
func inxiWrapped(t string) bool {
	if t == "" || t[0] != ' ' && t[0] != '\t' {
		return false
	}
	switch firstField(t) {
	case "dev:", "file:", "priority:", "uuid:", "label:", "maj-min:", "mapped:", "dev-mapped:":
		return true
	}
	return false
}

// tryInxi reads inxi's swap rows (consecutive ones summed, as SwapTotal and the swap used) or
// its RAM line at i, as free's table with the Swap or Mem row.
func (d *doc) tryInxi(i int) int {
	t := d.ls[i].Text
	if size, used, ps, pu, ok := inxiSwapRow(t); ok {
		k := i + 1
		for ; k < len(d.ls); k++ {
			if inxiWrapped(d.ls[k].Text) {
				continue
			}
			s, u, _, _, ok := inxiSwapRow(d.ls[k].Text)
			if !ok {
				break
			}
			size, used = size+s, used+u
			ps, pu = -1, -1 // the sum is not a printed figure
		}
		tb := &FreeTable{Columns: []string{"total", "used", "free", "available"}, Unit: "KiB",
			Rows:    map[string][]int64{"Swap": {size, used, size - used, -1}},
			Printed: map[string][]float64{"Swap": {ps, pu, -1, -1}},
			Note:    "inxi's swap item (ID-N rows: size and used of each swap device, from /proc/swaps)",
			Label:   d.label(i)}
		if ps < 0 {
			tb.Printed = nil
		}
		d.addMemTable(i, k-i, tb)
		return k - i
	}
	total, used, pt, pu, ok := inxiMemLine(t)
	if !ok {
		return 0
	}
	tb := &FreeTable{Columns: []string{"total", "used", "free", "available"}, Unit: "KiB",
		Rows:    map[string][]int64{"Mem": {total, used, -1, total - used}},
		Printed: map[string][]float64{"Mem": {pt, pu, -1, -1}},
		Note:    "inxi's memory item: used is MemTotal - MemAvailable (or - free - buffers - cached), so available is total - used",
		Label:   d.label(i)}
	d.addMemTable(i, 1, tb)
	return 1
}

// inxiMemLine reads inxi's RAM figures from line t: the total and used in KiB and as printed.
func inxiMemLine(t string) (total, used int64, pt, pu float64, ok bool) {
	if m := reInxiMemSlash.FindStringSubmatch(t); m != nil {
		pu, _ = atof(m[1])
		pt, _ = atof(m[2])
		total, used = inxiKB(pt, m[3]), inxiKB(pu, m[3])
		if m[4] != "" {
			pct, _ := atof(m[4])
			if !inxiPctAgrees(used, total, pct) {
				return 0, 0, 0, 0, false
			}
		} else if total <= 0 || used > total {
			return 0, 0, 0, 0, false
		}
		return total, used, pt, pu, true
	}
	if m := reInxiMemUsed.FindStringSubmatch(t); m != nil {
		return inxiSizeUsed(m, 1, 5, 7)
	}
	return 0, 0, 0, 0, false
}
