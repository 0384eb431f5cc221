package artifact

import (
	"fmt"
	"math"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// sysstat's tools (sar, mpstat, pidstat, iostat) print tables whose rows start with the
// interval's time ("11:30:51 AM", "18:02:11") or "Average:", under a header row of the same
// shape naming the columns ("CPU %usr %nice %sys ...", "IFACE rxpck/s txpck/s ...",
// "pgpgin/s ... pgscank/s pgscand/s pgsteal/s %vmeff"). iostat prints "Device r/s w/s ..."
// without a time. The values use the locale's decimal separator (RHEL 8 in a German locale
// prints "0,00").
//
// The columns the rules read become rates under the model's keys, one sample per interval
// (the "Average:" rows only when no interval was pasted); every other column is kept in the
// artifact. sar's page counters are pages: swap pages are taken as 4 KiB, and the artifact
// says so.

// SysstatTable is one parsed sysstat table.
type SysstatTable struct {
	Tool    string     `json:"tool"` // "sar", "mpstat", "pidstat", "iostat"
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"` // each row: time (or "Average"), then the values
	// Values are each row's numeric cells by column name (cellValues), in the order of Rows.
	Values []map[string]float64 `json:"values,omitempty"`
	Note   string               `json:"note,omitempty"`
	Label  string               `json:"label,omitempty"`
	// Banner is the tool's first line above the table, when the paste kept it.
	Banner *SysstatBanner `json:"banner,omitempty"`
	// CutAfter is the number of values the last row kept when the paste ends inside it.
	CutAfter int `json:"cut_after,omitempty"`
}

// SysstatBanner is the line every sysstat tool prints first (common.c print_gal_header):
// "Linux 4.17.11-1.el7.elrepo.x86_64 (master3) \t12/04/2023 \t_x86_64_\t(128 CPU)" — system
// name, release, node name, date, machine and the number of CPUs. Versions before 9.x
// print neither the machine nor the CPU count.
type SysstatBanner struct {
	Release string `json:"release"`
	Host    string `json:"host,omitempty"`
	Date    string `json:"date,omitempty"`
	Machine string `json:"machine,omitempty"`
	CPUs    int    `json:"cpus,omitempty"`
}

var reSysstatBanner = lazyre.New(`^Linux\s+([2-9]\.\S+)\s+\(([^)\s]*)\)\s+(\S+)(?:\s+_([0-9A-Za-z_]+?)_)?(?:\s+\((\d+) CPU\))?\s*$`)

// sysstatBanner reads a sysstat banner line; ok is false for any other line.
func sysstatBanner(t string) (*SysstatBanner, bool) {
	m := reSysstatBanner.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return nil, false
	}
	b := &SysstatBanner{Release: m[1], Host: m[2], Date: m[3], Machine: m[4]}
	if m[5] != "" {
		n, _ := atoi(m[5])
		b.CPUs = int(n)
	}
	return b, true
}

// bannerAbove finds the banner a few lines above a table's header (sar prints it, a blank
// line, then the header).
func bannerAbove(ls []Line, i int) *SysstatBanner {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		if isBlank(ls[j].Text) {
			continue
		}
		b, _ := sysstatBanner(ls[j].Text)
		return b
	}
	return nil
}

// decimals counts the digits after the decimal separator ("." or the locale's ",").
func decimals(s string) int {
	if i := strings.LastIndexAny(s, ".,"); i >= 0 {
		return len(s) - i - 1
	}
	return 0
}

// sysstat's nls/*.po "Average:": de "Durchschn.:", fr "Moyenne :" (a no-break or narrow
// no-break space before the colon in newer fr.po), es and it "Media:", pt and pt_BR "Média:",
// pl "Średnia:", nl "Gemiddeld:" (h25b).
var reSysstatTime = lazyre.New(`^(\d{1,2}:\d\d:\d\d(?:\s+[AP]M)?|Average:|Durchschn\.:|Moyenne[ \x{a0}\x{202f}]?:|Media:|Média:|Średnia:|Gemiddeld:)\s+`)

// A time and an average label in the Japanese and Chinese locales: sysstat prints the time
// with strftime's %X (sa_common.c set_record_timestamp_string), "00時10分01秒" under ja_JP,
// and translates "Average:" (po/ja.po "平均値:", po/zh_CN.po "平均时间:"). glibc's t_fmt of
// zh_CN is "%H时%M分%S秒" (zh_TW's as ja_JP's) and ko_KR's "%H시 %M분 %S초" (h13b).
var reSysstatTimeCJK = lazyre.New(`^(?:(\d{1,2})(?:時|时|시 ?)(\d\d)(?:分|분 ?)(\d\d)(?:秒|초)|(平均値:|平均时间:))\s*`)

// sysstatStamp splits a row's time (or average label) from its cells; a localised time is
// given as "HH:MM:SS", the label as it is. stamp is "" when the row has none.
func sysstatStamp(s string) (stamp, rest string) {
	if m := reSysstatTime.FindString(s); m != "" {
		return strings.TrimSpace(m), s[len(m):]
	}
	m := reSysstatTimeCJK.FindStringSubmatch(s)
	if m == nil || len(m[0]) == len(s) {
		return "", s
	}
	if m[4] != "" {
		return m[4], s[len(m[0]):]
	}
	return m[1] + ":" + m[2] + ":" + m[3], s[len(m[0]):]
}

// isSysstatGap: a line a paster left between a table's rows in place of the rows elided
// (":", "...", "…").
func isSysstatGap(s string) bool {
	if s == ":" || s == "：" {
		return true
	}
	// Rows elided with a run of dots or ellipses ("...", "......", "…", "⋮"): any length,
	// as posters type them.
	dots := 0
	for _, r := range s {
		switch r {
		case '.':
			dots++
		case '…', '⋮':
			dots += 3
		default:
			return false
		}
	}
	return dots >= 3
}

// sysstatRowAfterGap is the index of the row that goes on the table after the blank or
// elision lines at k: a time-stamped row with ncols cells. It returns k when none follows
// (the table ended: another header, prose, another command).
func sysstatRowAfterGap(ls []Line, k, ncols int) int {
	j := k
	for j < len(ls) && j-k < 8 {
		s := strings.TrimSpace(ls[j].Text)
		if s != "" && !isSysstatGap(s) {
			break
		}
		j++
	}
	if j >= len(ls) || j-k >= 8 {
		return k
	}
	// The first cell may name the row (an interface, "all"), as the rows of the loop in
	// trySysstat do.
	stamp, rest := sysstatStamp(strings.TrimSpace(ls[j].Text))
	if fs := fields(rest); stamp == "" || len(fs) != ncols || !allNumericish(fs[1:]) {
		return k
	}
	return j
}

// sysstatKey maps a column to a rate key and the factor that brings it to the key's unit.
var sysstatKey = map[string]struct {
	key    string
	factor float64
	allRow bool // read only from the CPU "all" row
}{
	"%usr": {model.RateCPUUserPct, 1, true}, "%user": {model.RateCPUUserPct, 1, true},
	"%sys": {model.RateCPUSystemPct, 1, true}, "%system": {model.RateCPUSystemPct, 1, true},
	"%iowait": {model.RateCPUIOWaitPct, 1, true}, "%idle": {model.RateCPUIdlePct, 1, true},
	"%irq": {model.RateCPUIRQPct, 1, true}, "%soft": {model.RateCPUSoftIRQPct, 1, true},
	"%steal":    {model.RateCPUStealPct, 1, true},
	"pgscank/s": {model.RatePgscanKswapdPerSec, 1, false}, "pgscand/s": {model.RatePgscanDirectPerSec, 1, false},
	"pgsteal/s": {model.RatePgstealKswapdPerSec, 1, false},
	"pswpin/s":  {model.RateSwapInKBPerSec, 4, false}, "pswpout/s": {model.RateSwapOutKBPerSec, 4, false},
	"rxpck/s": {model.RateRxPacketsPerSec, 1, false}, "rxkB/s": {model.RateRxBytesPerSec, 1024, false},
	"txkB/s":    {model.RateTxBytesPerSec, 1024, false},
	"retrans/s": {model.RateTCPRetransPerSec, 1, false}, "oseg/s": {model.RateTCPOutSegsPerSec, 1, false},
	"cswch/s":  {model.RateCtxtPerSec, 1, false},
	"rxfifo/s": {model.RateNICRxFIFOPerSec, 1, false},
}

// sysstatHeader returns the header's columns when t is one: its fields after the time are
// names, at least two of them rates or shares.
func sysstatHeader(t string) ([]string, bool) {
	s := strings.TrimSpace(t)
	rest := s
	if m, r := sysstatStamp(s); m != "" {
		rest = r
	} else if !strings.HasPrefix(s, "Device") {
		return nil, false
	}
	fs := fields(rest)
	return fs, ratedColumns(fs)
}

// ratedColumns: fs are a sar header's column names, none a number, at least two of them a
// rate ("/s") or a share ("%").
func ratedColumns(fs []string) bool {
	if len(fs) < 2 {
		return false
	}
	rated := 0
	for _, f := range fs {
		if _, num := atof(f); num {
			return false
		}
		if strings.HasSuffix(f, "/s") || strings.HasPrefix(f, "%") {
			rated++
		}
	}
	return rated >= 2 || sarSockColumns(fs)
}

// sarSockColumns: sar -n SOCK's or SOCK6's header, whose columns are counts, no rates.
func sarSockColumns(fs []string) bool {
	return containsStr(fs, "totsck") && containsStr(fs, "tcpsck") || containsStr(fs, "tcp6sck") && containsStr(fs, "udp6sck")
}

// sarSockKeys are sar -n SOCK's and SOCK6's columns as the /proc/net/sockstat and sockstat6
// fields sysstat reads them from (rd_stats.c read_net_sock, read_net_sock6): totsck is
// "sockets: used", tcp-tw is TCP's tw, the others each protocol's inuse.
var sarSockKeys = map[string][2]string{
	"totsck": {"sockets", "used"}, "tcpsck": {"TCP", "inuse"}, "udpsck": {"UDP", "inuse"},
	"rawsck": {"RAW", "inuse"}, "ip-frag": {"FRAG", "inuse"}, "tcp-tw": {"TCP", "tw"},
	"tcp6sck": {"TCP6", "inuse"}, "udp6sck": {"UDP6", "inuse"}, "raw6sck": {"RAW6", "inuse"}, "ip6-frag": {"FRAG6", "inuse"},
}

// sarSockStat reads a sar -n SOCK(6) row as the sockstat fields it prints; nil for a row of
// another table.
func sarSockStat(cols, vals []string) kernel.Groups {
	var g kernel.Groups
	for c, n := range cols {
		if k, ok := sarSockKeys[n]; ok {
			if x, ok := atoi(vals[c]); ok {
				g.Set(k[0], k[1], x)
			}
		}
	}
	return g
}

// sysstatBareHeader reads a header whose time the paster removed, leaving the column names
// alone ("             pgpgin/s pgpgout/s ... %vmeff" over "03:10:01 AM  50112.99 ...",
// corpus 2633): the names as sysstatHeader takes them, and the line after it (a blank line
// may come between) a time-stamped row of numbers with one cell per name. Without that row
// the names are a sentence or another tool's, and nothing is read.
func sysstatBareHeader(ls []Line, i int) ([]string, bool) {
	fs := fields(ls[i].Text)
	if len(fs) > 2 && (fs[0] == "AM" || fs[0] == "PM") {
		// The time cut from a 12-hour header leaves its AM or PM ("         AM  pgpgin/s
		// pgpgout/s ..."): the columns follow it.
		fs = fs[1:]
	}
	if !ratedColumns(fs) {
		return nil, false
	}
	for j := i + 1; j < len(ls) && j <= i+2; j++ {
		s := strings.TrimSpace(ls[j].Text)
		if s == "" {
			continue
		}
		stamp, rest := sysstatStamp(s)
		if row := fields(rest); stamp == "" || len(row) != len(fs) || !allNumericish(row) {
			return nil, false
		}
		return fs, true
	}
	return nil, false
}

func (d *doc) trySysstat(i int) int {
	cols, ok := sysstatHeader(d.ls[i].Text)
	if !ok {
		if cols, ok = sysstatBareHeader(d.ls, i); !ok {
			return 0
		}
	}
	tb := &SysstatTable{Columns: cols, Label: d.label(i), Banner: bannerAbove(d.ls, i)}
	switch {
	case cols[0] == "Device" || cols[0] == "Device:":
		tb.Tool = "iostat"
	case cols[0] == "CPU" && containsStr(cols, "%soft"):
		tb.Tool = "mpstat"
	case containsStr(cols, "Command") || containsStr(cols, "PID"):
		tb.Tool = "pidstat"
	default:
		tb.Tool = "sar"
	}
	k := i + 1
	for ; k < len(d.ls); k++ {
		s := strings.TrimSpace(d.ls[k].Text)
		if s == "" || isSysstatGap(s) {
			if n := sysstatRowAfterGap(d.ls, k, len(cols)); n > k {
				k = n - 1 // blank lines between rows, or rows elided with ':'
				continue
			}
			break
		}
		if _, again := sysstatHeader(s); again {
			break
		}
		stamp := ""
		if m, r := sysstatStamp(s); m != "" {
			stamp, s = m, r
		} else if tb.Tool != "iostat" {
			break
		}
		fs := fields(s)
		if n := len(cols); len(fs) > n && cols[n-1] == "Command" && tb.Tool == "pidstat" {
			// pidstat -l prints the whole command line in its last column ("/pg/bin/postgres
			// -D /pg/data"): the words after the last number are one cell.
			fs = append(fs[:n-1:n-1], strings.Join(fs[n-1:], " "))
		}
		if len(fs) > len(cols) {
			// A note the paster appended after the last column ("4760.78  5.00  #
			// Problematic", corpus 451): the row is the cells before it.
			if a := fields(stripAnnotation(s)); len(a) == len(cols) {
				fs = a
			}
		}
		if stamp == "" && (len(fs) != len(cols) || !allNumericish(fs[1:])) {
			break // iostat's rows carry no time: a line of another shape ends the table
		}
		if len(fs) < len(cols) && len(fs) >= 1 && lastTextLine(d.ls, k) && (len(fs) >= 2 || decimals(fs[0]) == 2) {
			// The paste ends inside this row: the cells it kept are in their columns.
			// sysstat prints every rate of a row with the same precision (%9.2f), so a
			// last cell with fewer decimals than the one before it was cut mid-number; a
			// row cut after its first cell keeps it when it has the two decimals of %9.2f
			// (corpus 618: "03:50:01 PM   3585.67" under sar -B's header).
			if n := len(fs); n >= 2 && allNumericish(fs[n-2:n-1]) && decimals(fs[n-1]) != decimals(fs[n-2]) {
				fs = fs[:n-1]
			}
			tb.CutAfter = len(fs)
			tb.Note = fmt.Sprintf("the last row was cut by the paste after %d of %d columns", len(fs), len(cols))
			fs = append(fs, make([]string, len(cols)-len(fs))...)
		}
		if len(fs) != len(cols) {
			d.unparsed(k, k, fmt.Sprintf("%s row has %d values for %d columns", tb.Tool, len(fs), len(cols)))
			continue
		}
		tb.Rows = append(tb.Rows, append([]string{stamp}, fs...))
	}
	if len(tb.Rows) == 0 {
		d.unparsed(i, i, tb.Tool+" header without rows")
		return 1
	}
	tb.Values = make([]map[string]float64, len(tb.Rows))
	for r, row := range tb.Rows {
		tb.Values[r] = cellValues(tb.Columns, row[1:])
	}
	if containsStr(cols, "pswpin/s") {
		tb.Note = strings.TrimRight("pswpin/s and pswpout/s are pages: taken as 4 KiB pages; "+tb.Note, "; ")
	}
	first, last := d.ls[i].No, d.ls[k-1].No
	d.segSeq++
	ss, stamps := tb.samples(spanSource(first, last))
	d.sarRowIntervals(ss, stamps) // sarinterval.go
	d.addSamples(KindSysstat, tb.Label, first, last, ss)
	d.addArtifact(KindSysstat, first, last, tb)
	return k - i
}

// samples gives one sample per interval: rates summed over the interval's rows (interfaces),
// CPU shares from the "all" row, kernel threads' %CPU from pidstat; stamps holds each
// sample's row time.
func (tb *SysstatTable) samples(src string) (kept []model.Sample, stamps []string) {
	timed := false
	for _, r := range tb.Rows {
		if !strings.HasPrefix(r[0], "Average") && r[0] != "" && !strings.HasSuffix(r[0], ":") {
			timed = true
		}
	}
	cpuCol, cmdCol, ifCol := -1, -1, -1
	for c, n := range tb.Columns {
		switch n {
		case "CPU":
			cpuCol = c
		case "Command":
			cmdCol = c
		case "IFACE":
			ifCol = c
		}
	}
	var out []model.Sample
	var outStamps []string
	byStamp := map[string]int{}
	for _, r := range tb.Rows {
		stamp := r[0]
		average := !strings.Contains(stamp, ":") || strings.HasSuffix(stamp, ":")
		if timed && average {
			continue
		}
		vals := r[1:]
		j, seen := byStamp[stamp]
		if !seen {
			out = append(out, model.Sample{Source: src, Rates: model.Rates{}})
			outStamps = append(outStamps, stamp)
			j = len(out) - 1
			byStamp[stamp] = j
		}
		rates := out[j].Rates
		if ifCol >= 0 && vals[ifCol] == "lo" {
			continue
		}
		allRow := cpuCol < 0 || vals[cpuCol] == "all" || vals[cpuCol] == "-1"
		for c, n := range tb.Columns {
			if m, ok := sysstatKey[n]; ok && (!m.allRow || allRow) && cmdCol < 0 {
				if v, ok := atof(vals[c]); ok {
					rates[m.key] += v * m.factor
				}
			}
		}
		if mi := sarMemInfo(tb.Columns, vals); mi != nil {
			out[j].MemInfo = mi
		}
		if ss := sarSockStat(tb.Columns, vals); len(ss) > 0 {
			out[j].SockStat = ss
		}
		if cmdCol >= 0 {
			for c, n := range tb.Columns {
				if n != "%CPU" {
					continue
				}
				if v, ok := atof(vals[c]); ok {
					if key, ok := model.KernelThreadRate(vals[cmdCol]); ok {
						rates[key] += v
					}
				}
			}
		}
	}
	for i, s := range out {
		if len(s.Rates) > 0 || s.MemInfo != nil || len(s.SockStat) > 0 {
			kept = append(kept, s)
			stamps = append(stamps, outStamps[i])
		}
	}
	return kept, stamps
}

// sarMeminfoKeys are sar -r's columns that are /proc/meminfo fields in kB (sysstat rd_stats.c
// read_meminfo): kbcommit is Committed_AS.
var sarMeminfoKeys = [][2]string{
	{"kbmemfree", "MemFree"}, {"kbavail", "MemAvailable"}, {"kbbuffers", "Buffers"}, {"kbcached", "Cached"},
	{"kbcommit", "Committed_AS"}, {"kbactive", "Active"}, {"kbinact", "Inactive"}, {"kbdirty", "Dirty"},
}

// sarMemInfo reads a sar -r row as the meminfo fields it prints, with the totals its shares
// imply (sysstat pr_stats.c): %memused is kbmemused over MemTotal (kbmemused is MemTotal −
// MemFree before sysstat 11.x printed kbavail, MemTotal − free − buffers − cached − slab
// after), and %commit is kbcommit over MemTotal + SwapTotal. So MemTotal is kbmemfree +
// kbmemused in the older layout, kbmemused ÷ %memused in the newer, and SwapTotal is
// kbcommit ÷ %commit − MemTotal, 0 when within what the two printed decimals of %commit
// leave uncertain. nil for a row of another table.
func sarMemInfo(cols, vals []string) *kernel.Counters {
	v := map[string]float64{}
	for c, n := range cols {
		if x, ok := atof(vals[c]); ok {
			v[n] = x
		}
	}
	if _, ok := v["kbcommit"]; !ok {
		if _, ok := v["kbmemfree"]; !ok {
			return nil
		}
	}
	var mi kernel.Counters
	for _, ck := range sarMeminfoKeys {
		if x, ok := v[ck[0]]; ok {
			mi.Set(ck[1], int64(x))
		}
	}
	var total float64
	used, okUsed := v["kbmemused"]
	if free, ok := v["kbmemfree"]; ok && okUsed && !containsStr(cols, "kbavail") {
		total = free + used
	} else if pct := v["%memused"]; okUsed && pct > 0 {
		total = math.Round(used * 100 / pct)
	}
	if total > 0 {
		mi.Set("MemTotal", int64(total))
		if pct, com := v["%commit"], v["kbcommit"]; pct > 0 && com > 0 {
			backing := com * 100 / pct
			swap := backing - total
			if swap <= backing*0.006/pct+total*0.0001 {
				swap = 0
			}
			mi.Set("SwapTotal", int64(math.Round(swap)))
		}
	}
	if mi.Len() == 0 {
		return nil
	}
	return &mi
}

func containsStr(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
