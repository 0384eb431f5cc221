package artifact

import (
	"fmt"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// vmstat tables (procps vmstat):
//
//	procps 2.x: "procs memory swap io system cpu" / "r b w swpd free buff cache si so bi bo in cs us sy id"
//	procps 3.x: "procs -----------memory---------- ---swap-- -----io---- -system-- ----cpu----"
//	            "r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa [st]"
//	-a:         "inact active" in place of "buff cache"
//	-w:         the same columns, wider
//	-t:         a "-----timestamp-----" group and a time zone column ("UTC") holding "2024-01-02 03:04:05"
//
// Units, per vmstat(8): memory columns in KiB (the default -S unit is 1024 bytes), si/so in
// KiB/s, bi/bo in blocks/s (1 KiB blocks), in/cs per second, CPU columns in percent. The
// first row of a `vmstat N` run is the average since boot, not one interval; a pasted
// excerpt may or may not start with it, so the artifact says when the command line directly
// precedes the table.

// VMStatTable is one parsed vmstat table.
type VMStatTable struct {
	Columns  []string  `json:"columns"`
	Rows     [][]int64 `json:"rows"`
	Times    []string  `json:"times,omitempty"`     // -t timestamps as printed
	TimeZone string    `json:"time_zone,omitempty"` // the -t column header ("UTC")
	Procps   string    `json:"procps"`              // "2.x" (w column) or "3.x"
	Note     string    `json:"note,omitempty"`
	Label    string    `json:"label,omitempty"`
	// DelaySec is the delay of the `vmstat N` command line directly above the table: each
	// row after the first is a mean over that many seconds (0: not stated).
	DelaySec int `json:"delay_s,omitempty"`
	rowLines []int
	first    int
	last     int
}

var vmstatColumns = map[string]bool{"r": true, "b": true, "w": true, "swpd": true, "free": true, "buff": true,
	"cache": true, "inact": true, "active": true, "si": true, "so": true, "bi": true, "bo": true, "in": true,
	"cs": true, "us": true, "sy": true, "id": true, "wa": true, "st": true, "gu": true}

// isVMStatHeader matches the column-name line.
func isVMStatHeader(t string) bool {
	fs := fields(t)
	if len(fs) < 10 || fs[0] != "r" || fs[1] != "b" {
		return false
	}
	n := 0
	for _, f := range fs {
		if vmstatColumns[f] {
			n++
		}
	}
	return n >= 10
}

func isVMStatGroupLine(t string) bool {
	f := fields(t)
	if len(f) >= 5 && f[0] == "--time--" {
		f = f[1:] // a collector's time column before vmstat's own (Oracle ExaWatcher)
	}
	return len(f) >= 4 && strings.Trim(f[0], "-") == "procs" && (strings.Contains(t, "memory") || strings.Contains(t, "swap"))
}

// isClock: "19:17:37", a collector's time of day before a row.
func isClock(s string) bool {
	return len(s) == 8 && s[2] == ':' && s[5] == ':' && isDigits(s[:2]) && isDigits(s[3:5]) && isDigits(s[6:])
}

// vmstatAt parses a table whose group or column header is at ls[i]. It returns the table
// and the number of lines consumed (0 when ls[i] is not a vmstat header).
func vmstatAt(ls []Line, i int) (*VMStatTable, int, []model.Unparsed) {
	j := i
	// A collector that writes the time of day before each row says so with a "--time--"
	// group before vmstat's own; the column header under it has no such column.
	leadClock := strings.HasPrefix(strings.TrimSpace(ls[i].Text), "--time--")
	if isVMStatGroupLine(ls[j].Text) {
		j++
		for j < len(ls) && isBlank(ls[j].Text) && j-i < 2 {
			j++
		}
	}
	if j >= len(ls) || !isVMStatHeader(ls[j].Text) {
		return nil, 0, nil
	}
	tb := &VMStatTable{first: ls[i].No}
	cols := fields(ls[j].Text)
	tz := ""
	last := cols[len(cols)-1]
	if !vmstatColumns[last] {
		tz, cols = last, cols[:len(cols)-1]
	}
	tb.Columns, tb.TimeZone = cols, tz
	tb.Procps = "3.x"
	for _, c := range cols {
		if c == "w" {
			tb.Procps = "2.x"
		}
	}
	var bad []model.Unparsed
	k := j + 1
	for ; k < len(ls); k++ {
		t := ls[k].Text
		if isBlank(t) {
			break
		}
		fs := fields(t)
		if leadClock && len(fs) > 0 && isClock(fs[0]) {
			fs = fs[1:]
		}
		if len(fs) > 0 && strings.Trim(fs[0], ".") == "" && strings.HasPrefix(fs[0], "...") {
			continue // "..." elision rows
		}
		if isVMStatGroupLine(t) || isVMStatHeader(t) {
			continue // vmstat repeats its header every screenful
		}
		want := len(cols)
		if tz != "" {
			want += 2
		}
		if len(fs) != want {
			if allNumeric(fs) {
				bad = append(bad, model.Unparsed{FirstLine: ls[k].No, LastLine: ls[k].No,
					Why: fmt.Sprintf("vmstat row has %d columns, the header has %d", len(fs), want)})
				continue
			}
			break
		}
		row := make([]int64, len(cols))
		ok := true
		for c := range cols {
			v, good := atoi(fs[c])
			if !good {
				ok = false
				break
			}
			row[c] = v
		}
		if !ok {
			if len(tb.Rows) == 0 {
				break
			}
			bad = append(bad, model.Unparsed{FirstLine: ls[k].No, LastLine: ls[k].No, Why: "vmstat row with a non-numeric column"})
			continue
		}
		tb.Rows = append(tb.Rows, row)
		tb.rowLines = append(tb.rowLines, ls[k].No)
		if tz != "" {
			tb.Times = append(tb.Times, fs[len(cols)]+" "+fs[len(cols)+1])
		}
	}
	if len(tb.Rows) == 0 {
		return nil, 0, nil
	}
	tb.last = ls[k-1].No
	return tb, k - i, bad
}

func allNumeric(fs []string) bool {
	if len(fs) == 0 {
		return false
	}
	for _, f := range fs {
		if !isDigits(f) {
			return false
		}
	}
	return true
}

// vmstatRateKey is the rate each of vmstat's rate and share columns is, in vmstat's units.
var vmstatRateKey = map[string]string{
	"r": model.RateRunnable, "b": model.RateBlocked,
	"si": model.RateSwapInKBPerSec, "so": model.RateSwapOutKBPerSec,
	"bi": model.RateBlockInPerSec, "bo": model.RateBlockOutPerSec,
	"in": model.RateIntrPerSec, "cs": model.RateCtxtPerSec,
	"us": model.RateCPUUserPct, "sy": model.RateCPUSystemPct, "id": model.RateCPUIdlePct,
	"wa": model.RateCPUIOWaitPct, "st": model.RateCPUStealPct,
}

// samples turns the rows into Samples: the rates vmstat computed under the model's keys,
// and the memory columns as meminfo counters (kB).
func (tb *VMStatTable) samples() []model.Sample {
	out := make([]model.Sample, 0, len(tb.Rows))
	for r, row := range tb.Rows {
		s := model.Sample{Source: fmt.Sprintf("line %d", tb.rowLines[r]), Rates: model.Rates{}}
		mem := &kernel.Counters{}
		for c, name := range tb.Columns {
			v := row[c]
			f := float64(v)
			if key, ok := vmstatRateKey[name]; ok {
				s.Rates[key] = f
				continue
			}
			switch name {
			case "free":
				mem.Set("MemFree", v)
			case "buff":
				mem.Set("Buffers", v)
			case "cache":
				mem.Set("Cached", v)
			case "inact":
				mem.Set("Inactive", v)
			case "active":
				mem.Set("Active", v)
			case "swpd":
				// Derived, not a /proc/meminfo line: procps prints swpd as
				// SwapTotal - SwapFree (kB).
				mem.Set("SwapUsed", v)
			}
		}
		if mem.Len() > 0 {
			s.MemInfo = mem
		}
		if tb.DelaySec > 0 && r > 0 {
			// The first row of a `vmstat N` run is the average since boot.
			s.Rates[model.RateIntervalSec] = float64(tb.DelaySec)
		}
		if r < len(tb.Times) && tb.TimeZone == "UTC" {
			if t, err := time.Parse("2006-01-02 15:04:05", tb.Times[r]); err == nil {
				s.Time = t
			}
		}
		out = append(out, s)
	}
	return out
}

// ParseVMStat parses a pasted vmstat table (any procps layout above).
func ParseVMStat(text string) (*VMStatTable, error) {
	ls := SplitLines(text)
	for i := range ls {
		if tb, n, _ := vmstatAt(ls, i); n > 0 {
			return tb, nil
		}
	}
	return nil, fmt.Errorf("artifact: no vmstat table in the text")
}

func (d *doc) tryVMStat(i int) int {
	tb, n, bad := vmstatAt(d.ls, i)
	if n == 0 {
		return 0
	}
	d.tl.Unparsed = append(d.tl.Unparsed, bad...)
	label := d.label(i)
	tb.Label = label
	if prev := strings.TrimSpace(strings.Trim(label, "#$ ")); strings.HasSuffix(prev, "vmstat 1") || strings.Contains(prev, "vmstat ") && strings.HasPrefix(prev, "vmstat") {
		tb.Note = "the vmstat command line directly precedes the table: its first row may be the average since boot"
	}
	tb.DelaySec = vmstatDelay(label)
	d.segSeq++
	d.addSamples(KindVMStat, label, tb.first, tb.last, tb.samples())
	d.addArtifact(KindVMStat, tb.first, tb.last, tb)
	return n
}

// vmstatDelay is the delay of a vmstat command line ("$ vmstat 10", "vmstat -w 5 3",
// "vmstat -S M 10"): its first number after the options, 0 when the line is none or
// states none. -S and -p take an argument; -s, -d, -D and -m print no interval table.
func vmstatDelay(label string) int {
	if k := strings.LastIndex(label, " / "); k >= 0 {
		label = label[k+3:] // the line just above the table (label joins two lines)
	}
	fs := fields(strings.TrimSpace(strings.Trim(label, "#$ ")))
	if len(fs) < 2 || fs[0] != "vmstat" {
		return 0
	}
	for k := 1; k < len(fs); k++ {
		f := fs[k]
		switch {
		case f == "-S" || f == "-p" || f == "--unit" || f == "--partition":
			k++
		case strings.HasPrefix(f, "-"):
			if strings.ContainsAny(strings.TrimLeft(f, "-"), "sdDm") && !strings.HasPrefix(f, "--") {
				return 0
			}
		default:
			if n, ok := atoi(f); ok && n > 0 && n < 86400 {
				return int(n)
			}
			return 0
		}
	}
	return 0
}

// vmstatDefaultColumns are procps 3.x's columns, for rows pasted without their header:
// a table's rows with the header cut off above them, or rows before the header that vmstat
// repeats every screenful.
var vmstatDefaultColumns = map[int][]string{
	16: {"r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa"},
	17: {"r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st"},
	18: {"r", "b", "swpd", "free", "buff", "cache", "si", "so", "bi", "bo", "in", "cs", "us", "sy", "id", "wa", "st", "gu"},
}

// isVMStatRow: all numeric, with a known column count, and CPU shares that add up to 100
// (±3 for rounding): the last check is what tells a vmstat row from another table of numbers.
func isVMStatRow(t string) ([]string, bool) {
	fs := fields(t)
	cols, ok := vmstatDefaultColumns[len(fs)]
	if !ok || !allNumeric(fs) {
		return nil, false
	}
	var cpu int64
	for c := 12; c < len(fs); c++ { // us sy id wa [st] [gu]
		v, _ := atoi(fs[c])
		cpu += v
	}
	return cols, cpu >= 97 && cpu <= 103
}

// tryVMStatRows reads at least two headerless vmstat rows in a row. Their columns are those of
// the next vmstat header in the text when it has as many (the rows are the screenful before
// it), else procps 3.x's, and the artifact says so.
func (d *doc) tryVMStatRows(i int) int {
	cols, ok := isVMStatRow(d.ls[i].Text)
	if !ok {
		return 0
	}
	k := i
	for k < len(d.ls) {
		if c, ok := isVMStatRow(d.ls[k].Text); !ok || len(c) != len(cols) {
			break
		}
		k++
	}
	if k-i < 2 {
		return 0
	}
	note := "rows without their header: columns taken as procps 3.x's (" + strings.Join(cols, " ") + ")"
	for j := k; j < len(d.ls) && j < k+4; j++ {
		t := d.ls[j].Text
		if isVMStatHeader(t) {
			if hc := fields(t); len(hc) == len(cols) {
				cols = hc
				note = fmt.Sprintf("rows without their header: columns taken from the header at line %d", d.ls[j].No)
			}
			break
		}
	}
	tb := &VMStatTable{Columns: cols, Procps: "3.x", Note: note, first: d.ls[i].No, last: d.ls[k-1].No}
	for j := i; j < k; j++ {
		fs := fields(d.ls[j].Text)
		row := make([]int64, len(cols))
		for c := range cols {
			row[c], _ = atoi(fs[c])
		}
		tb.Rows = append(tb.Rows, row)
		tb.rowLines = append(tb.rowLines, d.ls[j].No)
	}
	label := d.label(i)
	tb.Label = label
	d.segSeq++
	d.addSamples(KindVMStat, label, tb.first, tb.last, tb.samples())
	d.addArtifact(KindVMStat, tb.first, tb.last, tb)
	return k - i
}
