package artifact

import (
	"math"
	"strconv"
	"strings"

	"headroom/model"
	"headroom/units"
)

// ZFS's ARC (pre-round 17, h17d; from OpenZFS's own sources). Proxmox VE, TrueNAS SCALE and
// other virtualization hosts on ZFS keep guests' disks on it, and the ARC holds up to c_max of
// RAM (zfs_arc_max; by default half of RAM before 2.3, most of it since on Linux). Two forms:
//
//   - /proc/spl/kstat/zfs/arcstats: the kstat header "kid type 0xflags ndata size crtime
//     snaptime", the column line "name type data" (spl-kstat.c kstat_seq_show_headers:
//     "%-31s %-4s %s\n"), then each named value as "%-31s %-4d " and the value (type 4,
//     KSTAT_DATA_UINT64, "%llu"; type 3, KSTAT_DATA_INT64, "%lld": memory_available_bytes).
//   - arc_summary (cmd/arc_summary): "ARC size (current):  P %  S UNIT", "Target size
//     (adaptive):", "Min size (hard limit):", "Max size (high water):  R:1  S UNIT" (f_bytes:
//     "Bytes", "KiB" … "PiB"); the older arc_summary.py printed "ARC Size:", "Target Size:
//     (Adaptive)", "Min Size (Hard Limit):", "Max Size (High Water):" with tabs.
//
// Rows and lines of these forms are read (d.used); the figures go to the timeline's ZFSARC,
// which oom-kill cites beside a kill (the ARC's memory is not in the report's LRU lists).

// arcstatFields: the arcstats rows whose values ZFSARC keeps.
var arcstatFields = map[string]func(a *model.ZFSARC, v int64){
	"size":                   func(a *model.ZFSARC, v int64) { a.SizeBytes = v },
	"c":                      func(a *model.ZFSARC, v int64) { a.TargetBytes = v },
	"c_min":                  func(a *model.ZFSARC, v int64) { a.CMinBytes = v },
	"c_max":                  func(a *model.ZFSARC, v int64) { a.CMaxBytes = v },
	"memory_all_bytes":       func(a *model.ZFSARC, v int64) { a.MemoryAllBytes = v },
	"memory_available_bytes": func(a *model.ZFSARC, v int64) { a.MemoryAvailableBytes, a.HasAvailable = v, true },
	"memory_throttle_count":  func(a *model.ZFSARC, v int64) { a.ThrottleCount, a.HasThrottle = v, true },
	"arc_no_grow":            func(a *model.ZFSARC, v int64) { a.NoGrow, a.HasNoGrow = v, true },
}

// arcSummaryLabels: arc_summary's labels (both generations), lower-cased, for the same figures.
var arcSummaryLabels = map[string]func(a *model.ZFSARC, v int64){
	"arc size (current)":      arcstatFields["size"],
	"arc size":                arcstatFields["size"],
	"target size (adaptive)":  arcstatFields["c"],
	"target size: (adaptive)": arcstatFields["c"],
	"min size (hard limit)":   arcstatFields["c_min"],
	"max size (high water)":   arcstatFields["c_max"],
}

// zfsARCLine reads line i when it is an arcstats header, column line or row, or one of
// arc_summary's size lines.
func (d *doc) zfsARCLine(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if d.arcstatTableLine(i, t) {
		return true
	}
	if t == "" || strings.IndexAny(t, "0123456789") < 0 && !isArcstatsColumns(t) {
		return false
	}
	if isArcstatsColumns(t) {
		d.arcstatsRows = true
		d.zfsARCUse(i, "arcstats", nil, 0)
		return true
	}
	f := fields(t)
	if d.arcstatsRows && len(f) == 3 && (f[1] == "4" || f[1] == "3") && isArcstatName(f[0]) {
		set := arcstatFields[f[0]]
		v, err := strconv.ParseInt(f[2], 10, 64)
		if err != nil {
			u, uerr := strconv.ParseUint(f[2], 10, 64)
			if uerr != nil {
				return false
			}
			// Before OpenZFS 2.0 memory_available_bytes was KSTAT_DATA_UINT64: a negative
			// arc_available_memory() printed as its two's complement. Other rows above
			// int64 keep no figure.
			v = int64(u)
			if f[0] != "memory_available_bytes" {
				set = nil
			}
		}
		d.zfsARCUse(i, "arcstats", set, v)
		return true
	}
	d.arcstatsRows = false
	// The kstat header before the column line: seven numbers, the third 0xNN.
	if len(f) == 7 && strings.HasPrefix(f[2], "0x") && i+1 < len(d.ls) && isArcstatsColumns(strings.TrimSpace(d.ls[i+1].Text)) {
		d.used[i] = true
		return true
	}
	if !strings.Contains(t, "ize") && !strings.Contains(t, "ount") {
		return false
	}
	c := strings.IndexByte(t, ':')
	if c < 0 || c > 40 {
		return false
	}
	label := strings.ToLower(strings.Join(fields(t[:c]), " "))
	rest := t[c+1:]
	if label == "target size" {
		// arc_summary.py's "Target Size: (Adaptive)\t\t90.72%\t335.66\tGiB": the colon
		// before "(Adaptive)".
		r := strings.TrimSpace(rest)
		if !strings.HasPrefix(r, "(Adaptive)") {
			return false
		}
		label, rest = "target size: (adaptive)", r[len("(Adaptive)"):]
	}
	if label == "memory throttle count" {
		if f := fields(rest); len(f) == 1 && isDigits(f[0]) {
			n, _ := strconv.ParseInt(f[0], 10, 64)
			d.zfsARCUse(i, "arc_summary", arcstatFields["memory_throttle_count"], n) // writes the ARC throttled: no memory figure
			return true
		}
		return false
	}
	set, ok := arcSummaryLabels[label]
	if !ok {
		return false
	}
	v := fields(rest)
	if len(v) < 2 {
		return false
	}
	n, err := units.ParseSize(v[len(v)-2] + strings.Replace(v[len(v)-1], "Bytes", "", 1))
	if err != nil || !strings.HasSuffix(v[len(v)-1], "iB") && v[len(v)-1] != "Bytes" {
		return false
	}
	d.zfsARCUse(i, "arc_summary", set, n)
	return true
}

// isArcstatsColumns: the kstat column line "name type data".
func isArcstatsColumns(t string) bool {
	f := fields(t)
	return len(f) == 3 && f[0] == "name" && f[1] == "type" && f[2] == "data"
}

// isArcstatName: a kstat row's name: lower-case letters, digits and '_'.
func isArcstatName(s string) bool {
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return s != ""
}

func (d *doc) zfsARCUse(i int, form string, set func(*model.ZFSARC, int64), v int64) {
	d.used[i] = true
	no := d.ls[i].No
	a := d.tl.ZFSARC
	if a == nil {
		a = &model.ZFSARC{Form: form, FirstLine: no}
		d.tl.ZFSARC = a
	}
	if set != nil && a.Form == form {
		set(a, v)
	}
	a.LastLine = no
	a.Source = spanSource(a.FirstLine, a.LastLine)
}

// sysfsVirtValue reads line i when it is `grep . FILE` output (or `grep -H`) of KSM's or
// ZFS's ARC module parameters: "/sys/kernel/mm/ksm/pages_sharing:2234567" (mm/ksm.c's
// sysfs attributes: pages_shared, pages_sharing, pages_unshared, pages_volatile, full_scans,
// run, pages_to_scan, sleep_millisecs, general_profit …) or
// "/sys/module/zfs/parameters/zfs_arc_max:0" (0: the module's default). Named with the figure
// (a program_limit artifact); no rule reads them: KSM's counts are pages merged between
// guests, not free memory, and zfs_arc_max is a bound, not the ARC's size.
func (d *doc) sysfsVirtValue(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	var prog, why string
	rest, ok := strings.CutPrefix(t, "/sys/kernel/mm/ksm/")
	if ok {
		prog, why = "ksm", "KSM's sysfs counter or setting (mm/ksm.c, /sys/kernel/mm/ksm/): pages merged across the guests' memory (pages_sharing: the pages saved, pages_shared: the pages kept), the scanner's work and switch; no free-memory figure and no rule reads it"
	} else if rest, ok = strings.CutPrefix(t, "/sys/module/zfs/parameters/"); ok && strings.HasPrefix(rest, "zfs_arc_") {
		prog, why = "zfs", "a ZFS module parameter (/sys/module/zfs/parameters/): the ARC's bound as set (zfs_arc_max 0: the default, half of RAM before OpenZFS 2.3 on Linux, most of it since), not its size; the ARC's size is arcstats' size"
	} else {
		return false
	}
	name, v, ok := strings.Cut(rest, ":")
	if !ok || !isArcstatName(name) || !isDigits(strings.TrimSpace(v)) || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, why)
	if d.programFigureCount < maxProgramFigureArtifacts {
		d.programFigureCount++
		n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
		d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, map[string]any{"program": prog, name: n, "message": clip(t, 120)})
	}
	return true
}

// arcstat's table (OpenZFS cmd/arcstat.in, h19b; TrueNAS, Proxmox, Unraid's ZFS): a header
// of column names, "time" first ("    time  read  ddread  ddh%  dmread  dmh%  pread  ph%
// size      c  avail" since 2.2; "time  read  miss  miss%  dmis  dm%  pmis  pm%  mmis  mm%
// arcsz     c" in arcstat.py), printed again every terminal page, then one row per interval,
// the clock first. The byte columns (scale 1024 in cols) are prettynum's "49G", "3.9G",
// "-1.2G" (K, M, G, T, P, E by 1024) or, with -p, bytes: size and arcsz are arcstats' size,
// c its target, avail memory_available_bytes (below zero the ARC must shrink). The last
// row's figures go to the timeline's ZFSARC, as arcstats' rows do.

// arcstatByteCols: arcstat's columns whose figures ZFSARC keeps.
var arcstatByteCols = map[string]func(a *model.ZFSARC, v int64){
	"size":  arcstatFields["size"],
	"arcsz": arcstatFields["size"],
	"c":     arcstatFields["c"],
	"avail": arcstatFields["memory_available_bytes"],
}

// arcstatTableLine reads line i when it is arcstat's header (a row right under it) or one of
// its rows. Gate: the header's first word "time"; a row only under a header.
func (d *doc) arcstatTableLine(i int, t string) bool {
	if strings.HasPrefix(t, "time ") {
		f := fields(t)
		if !isArcstatHeader(f) || i+1 >= len(d.ls) {
			return false
		}
		// A row must follow: the clock and as many fields (a sentence starting "time" is no header).
		if g := fields(d.ls[i+1].Text); len(g) != len(f) || !isClockField(g[0]) {
			return false
		}
		d.arcstatCols = append(d.arcstatCols[:0], f...)
		d.zfsARCUse(i, "arcstat", nil, 0)
		return true
	}
	if len(d.arcstatCols) == 0 {
		return false
	}
	f := fields(t)
	if len(f) != len(d.arcstatCols) || !isClockField(f[0]) {
		d.arcstatCols = d.arcstatCols[:0]
		return false
	}
	type fig struct {
		set func(*model.ZFSARC, int64)
		v   int64
	}
	var figs []fig
	for k, c := range d.arcstatCols {
		if set, ok := arcstatByteCols[c]; ok {
			v, ok := arcstatBytes(f[k])
			if !ok {
				d.arcstatCols = d.arcstatCols[:0]
				return false
			}
			figs = append(figs, fig{set, v})
		}
	}
	d.zfsARCUse(i, "arcstat", nil, 0)
	for _, g := range figs {
		d.zfsARCUse(i, "arcstat", g.set, g.v)
	}
	return true
}

// isArcstatHeader: "time" and arcstat's column names (lower-case letters, digits, '%', at
// most 8 bytes), one of them a memory column ZFSARC keeps.
func isArcstatHeader(f []string) bool {
	if len(f) < 2 || len(f) > 64 || f[0] != "time" {
		return false
	}
	mem := false
	for _, c := range f[1:] {
		if len(c) > 8 {
			return false
		}
		for k := 0; k < len(c); k++ {
			if b := c[k]; !(b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '%') {
				return false
			}
		}
		if _, ok := arcstatByteCols[c]; ok {
			mem = true
		}
	}
	return mem
}

// isClockField: "HH:MM:SS".
func isClockField(s string) bool {
	return len(s) == 8 && s[2] == ':' && s[5] == ':' && isDigits(s[:2]) && isDigits(s[3:5]) && isDigits(s[6:])
}

// arcstatBytes reads a byte column of arcstat: prettynum's number with a 1024-based suffix,
// or bytes (-p).
func arcstatBytes(s string) (int64, bool) {
	mult := 1.0
	if n := len(s); n > 1 {
		if k := strings.IndexByte("KMGTPE", s[n-1]); k >= 0 {
			mult = math.Pow(1024, float64(k+1))
			s = s[:n-1]
		}
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v*mult) > 1<<62 {
		return 0, false
	}
	return int64(v * mult), true
}
