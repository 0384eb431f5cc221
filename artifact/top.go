package artifact

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// top's summary area, procps and 2.4 layouts:
//
//	2.4:        "52 processes: 51 sleeping, 1 running, 0 zombie, 0 stopped"
//	            "CPU states:  0.0% user, 32.8% system,  0.0% nice, 67.1% idle"
//	            "Mem:   897904K av,  869248K used,   28656K free,       0K shrd,    3724K buff"
//	            "Swap: 1052216K av,       0K used, 1052216K free                   46596K cached"
//	uptime:     " 23:51:26 up 21:31,  1 user,  load average: 30.02, 26.43, 19.02" (alone, too),
//	            Android's "Load: 56.48 / 30.74 / 22.68" (dumpsys cpuinfo)
//	3.2:        "top - 08:55:45 up 11:07,  1 user,  load average: 19.21, 16.71,  9.73"
//	            "Tasks: 111 total,   1 running, 110 sleeping,   0 stopped,   0 zombie"
//	            "Cpu(s):  4.6% us, 10.1% sy,  0.0% ni,  0.0% id, 75.9% wa,  0.5% hi,  8.9% si"
//	            (3.2.7+: "4.6%us, 10.1%sy, ... 0.0%st")
//	            "Mem:  8310800k total,  8168972k used,   141828k free,     2788k buffers"
//	            "Swap: 17133272k total,   479180k used, 16654092k free,  5320120k cached"
//	3.3-4.x:    "%Cpu(s):  4.6 us, 10.1 sy, ..."; "KiB Mem :  8010856 total, 123456 free, 2345678 used,
//	            5541722 buff/cache"; "KiB Swap: ... total, ... free, ... used.  5300000 avail Mem";
//	            "MiB Mem :   7822.9 total, ..." (MiB/GiB with decimals)
//
//	BusyBox:    "Mem: 418740K used, 81752K free, 1528K shrd, 0K buff, 146184K cached"
//	            (procps/top.c display_header: used is total minus free, no total printed)
//
// The Swap line's "cached" (2.4, 3.2) is the page cache (meminfo Cached); "avail Mem"
// (3.3.10+) is MemAvailable. MiB/GiB lines are converted to kB and also kept as printed.

// TopSummary is one parsed top summary area.
type TopSummary struct {
	Clock  string             `json:"clock,omitempty"` // "08:55:45"
	Uptime string             `json:"uptime,omitempty"`
	Load   []float64          `json:"load,omitempty"`
	Tasks  map[string]int64   `json:"tasks,omitempty"`
	CPU    map[string]float64 `json:"cpu,omitempty"` // percent by top's label: us, sy, ni, id, wa, hi, si, st
	MemKB  map[string]int64   `json:"mem_kb,omitempty"`
	SwapKB map[string]int64   `json:"swap_kb,omitempty"`
	// MemPrinted and SwapPrinted are the lines' numbers in the unit printed, when it is not
	// kB ("MiB Mem :    974.1 total"): the kB figures above are rounded from them.
	MemPrinted  map[string]float64 `json:"mem_printed,omitempty"`
	SwapPrinted map[string]float64 `json:"swap_printed,omitempty"`
	PerCPU      []string           `json:"per_cpu,omitempty"`
	// PerCPUValues are the per-CPU lines' shares by top's label, with the CPU's number
	// under "cpu" ("Cpu15 : 10.3%us, ..." in procps 3.2 after '1'; 2.4's "CPU0 states:").
	PerCPUValues []map[string]float64 `json:"per_cpu_values,omitempty"`
	Label        string               `json:"label,omitempty"`
	first        int
	last         int
	memLabel     string
}

var (
	reTopFirst = lazyre.New(`^top - (\d+:\d+:\d+) up (.*?),\s+\d+ users?,\s+load average: ([\d.]+),\s*([\d.]+),\s*([\d.]+)`)
	reTop24Up  = lazyre.New(`^\s*\d+:\d+(?::\d+)?(?:am|pm)?\s+up (.*?),\s+\d+ users?,\s+load average: ([\d.]+),\s*([\d.]+),\s*([\d.]+)`)
	// reAndroidLoad is dumpsys cpuinfo's first line as ANR traces quote it
	// (frameworks/base ProcessCpuTracker.printCurrentLoad: "Load: 56.48 / 30.74 / 22.68").
	reAndroidLoad = lazyre.New(`^Load: ([\d.]+) / ([\d.]+) / ([\d.]+)$`)
	reTopCount    = lazyre.New(`(\d+) (total|running|sleeping|stopped|zombie|processes)`)
	reTopCPU      = lazyre.New(`([\d.]+)%?\s*(user|system|nice|idle|iowait|usr|sys|nic|sirq|irq|io|us|sy|ni|id|wa|hi|si|st)\b`)
	// A unit letter may touch its label in a header typed by hand ("37388kfree").
	reTopMem = lazyre.New(`([\d.]+)(?:([kKmMgG])\s*|\s+)(av|total|used|free|shrd|buff/cache|buffers|buff|cached|avail)\b`)
)

// topLineKind classifies a summary line; "" when it is not one.
func topLineKind(t string) string {
	s := topEnglish(strings.TrimSpace(t)) // a translated locale's line (top_locales.go)
	switch {
	case strings.HasPrefix(s, "top - "):
		return "first"
	case reTop24Up.MatchString(s), strings.HasPrefix(s, "Load: ") && reAndroidLoad.MatchString(s):
		return "first"
	case strings.HasPrefix(s, "Tasks:") || strings.HasPrefix(s, "Threads:"):
		return "tasks"
	case strings.Contains(s, " processes:") && strings.Contains(s, "sleeping"):
		return "tasks"
	case strings.HasPrefix(s, "CPU states:") || strings.HasPrefix(s, "Cpu(s):") || strings.HasPrefix(s, "%Cpu(s):"):
		return "cpu"
	case strings.HasPrefix(s, "CPU:") && strings.Contains(s, "% usr") && strings.Contains(s, "% sirq"):
		return "cpu" // BusyBox's whole-machine line (shortCPULabel)
	case (strings.HasPrefix(s, "Cpu") || strings.HasPrefix(s, "%Cpu") || strings.HasPrefix(s, "CPU")) && strings.Contains(s, ":") && (strings.Contains(s, " us") || strings.Contains(s, "%us") || strings.Contains(s, "user")):
		return "percpu"
	}
	if i := strings.Index(s, "Mem"); i >= 0 && i <= 4 && strings.Contains(s, ":") && reTopMem.MatchString(s) && (strings.Contains(s, "total") || strings.Contains(s, " av")) {
		return "mem"
	}
	if strings.HasPrefix(s, "Mem: ") && strings.Contains(s, " used, ") && strings.Contains(s, " free, ") && strings.Contains(s, " shrd") {
		return "mem" // BusyBox
	}
	if i := strings.Index(s, "Swap"); i >= 0 && i <= 4 && strings.Contains(s, ":") && reTopMem.MatchString(s) && (strings.Contains(s, "total") || strings.Contains(s, " av")) {
		return "swap"
	}
	// A header typed by hand may lose the colon ("Swap12008576k total, 6911328k used,
	// 5097248k free"): the label's own words, used and free read as numbers, still say it.
	if strings.HasPrefix(s, "Swap") && len(s) > 4 && (s[4] == ' ' || s[4] >= '0' && s[4] <= '9') && strings.Contains(s, " total") {
		if m := parseTopMemLabels(s); m["used"] && m["free"] {
			return "swap"
		}
	}
	return ""
}

// topUnitKB returns the multiplier to kB for a Mem/Swap line.
func topUnitKB(s string, suffix string) float64 {
	switch {
	case strings.HasPrefix(s, "MiB"):
		return 1024
	case strings.HasPrefix(s, "GiB"):
		return 1024 * 1024
	case strings.HasPrefix(s, "TiB"):
		return 1024 * 1024 * 1024
	}
	switch suffix {
	case "m", "M":
		return 1024
	case "g", "G":
		return 1024 * 1024
	}
	return 1
}

// parseTopMemLabels is the set of labels of a Mem or Swap line that carry a number.
func parseTopMemLabels(s string) map[string]bool {
	out := map[string]bool{}
	for _, m := range reTopMem.FindAllStringSubmatch(s, -1) {
		out[m[3]] = true
	}
	return out
}

// parseTopMem reads a Mem or Swap line: kB by label, and the printed numbers when their
// unit is not kB (nil otherwise).
func parseTopMem(s string) (map[string]int64, map[string]float64) {
	out := map[string]int64{}
	var printed map[string]float64
	for _, m := range reTopMem.FindAllStringSubmatch(s, -1) {
		v, err := strconv.ParseFloat(m[1], 64)
		if err != nil {
			continue
		}
		unit := topUnitKB(strings.TrimSpace(s), m[2])
		out[m[3]] = int64(math.Round(v * unit))
		if unit != 1 {
			if printed == nil {
				printed = map[string]float64{}
			}
			printed[m[3]] = v
		}
	}
	return out, printed
}

// topAt parses the summary area starting at ls[i].
func topAt(ls []Line, i int) (*TopSummary, int) {
	ts := &TopSummary{first: ls[i].No}
	k := i
	seen := map[string]bool{}
	for ; k < len(ls); k++ {
		s := topEnglish(strings.TrimSpace(ls[k].Text))
		kind := topLineKind(s)
		if kind == "" && seen["percpu"] && strings.Trim(s, ".…") == "" && s != "" {
			continue // "....." between per-CPU lines: the paste left some CPUs out
		}
		if kind == "" || (kind != "percpu" && seen[kind]) {
			break
		}
		seen[kind] = true
		switch kind {
		case "first":
			if m := reTopFirst.FindStringSubmatch(s); m != nil {
				ts.Clock, ts.Uptime = m[1], m[2]
				ts.Load = parseFloats(m[3:6])
			} else if m := reTop24Up.FindStringSubmatch(s); m != nil {
				ts.Uptime = m[1]
				ts.Load = parseFloats(m[2:5])
			} else if m := reAndroidLoad.FindStringSubmatch(s); m != nil {
				ts.Load = parseFloats(m[1:4])
			}
		case "tasks":
			ts.Tasks = map[string]int64{}
			for _, m := range reTopCount.FindAllStringSubmatch(s, -1) {
				v, _ := strconv.ParseInt(m[1], 10, 64)
				key := m[2]
				if key == "processes" {
					key = "total"
				}
				ts.Tasks[key] = v
			}
		case "cpu":
			ts.CPU = map[string]float64{}
			body := s[strings.IndexByte(s, ':')+1:]
			for _, m := range reTopCPU.FindAllStringSubmatch(body, -1) {
				v, _ := strconv.ParseFloat(m[1], 64)
				ts.CPU[shortCPULabel(m[2])] = v
			}
		case "percpu":
			ts.PerCPU = append(ts.PerCPU, s)
			ts.PerCPUValues = append(ts.PerCPUValues, perCPUValues(s))
		case "mem":
			s, k = joinTopLabel(ls, k, s)
			ts.MemKB, ts.MemPrinted = parseTopMem(s)
		case "swap":
			s, k = joinTopLabel(ls, k, s)
			ts.SwapKB, ts.SwapPrinted = parseTopMem(s)
		}
	}
	// uptime(1)'s line alone ("23:51:26 up 21:31,  1 user,  load average: 30.02, 26.43,
	// 19.02", procps w.c print_uptime) is its own artifact: the load averages.
	if !seen["cpu"] && !seen["mem"] && len(ts.PerCPU) < 2 && len(ts.Load) != 3 {
		return nil, 0
	}
	ts.last = ls[k-1].No
	return ts, k - i
}

// perCPUValues reads "Cpu15 : 10.3%us,  8.0%sy, ..." or "CPU0 states:  0.5% user, ...".
func perCPUValues(s string) map[string]float64 {
	m := map[string]float64{}
	colon := strings.IndexByte(s, ':')
	if colon < 0 {
		return m
	}
	head := strings.TrimLeft(s[:colon], "%")
	head = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(head), "states"))
	for _, p := range []string{"Cpu", "CPU", "cpu"} {
		if n, ok := atoi(strings.TrimPrefix(head, p)); ok && strings.HasPrefix(head, p) {
			m["cpu"] = float64(n)
		}
	}
	for _, sm := range reTopCPU.FindAllStringSubmatch(s[colon+1:], -1) {
		if v, err := strconv.ParseFloat(sm[1], 64); err == nil {
			m[shortCPULabel(sm[2])] = v
		}
	}
	return m
}

// joinTopLabel joins a Mem or Swap line whose last label a wrap moved to the next line:
// "... 282336K" / "buff" (a terminal), or "... 76K bu=" / "ff" (a quoted-printable soft
// break, 2.4 top in a mail, corpus cases 356 and 357). It returns the line and the index of
// the last line it used.
func joinTopLabel(ls []Line, k int, s string) (string, int) {
	if k+1 >= len(ls) {
		return s, k
	}
	next := strings.TrimSpace(ls[k+1].Text)
	if next == "" || strings.ContainsAny(next, " \t:") || len(next) > 8 || topLineKind(next) != "" {
		return s, k
	}
	joined := s + " " + next
	if strings.HasSuffix(s, "=") {
		joined = strings.TrimSuffix(s, "=") + next
	}
	if !strings.HasSuffix(joined, "buff") && !strings.HasSuffix(joined, "buffers") && !strings.HasSuffix(joined, "cached") && !strings.HasSuffix(joined, "buff/cache") {
		return s, k
	}
	return joined, k + 1
}

// shortCPULabel: procps' two-letter label for a CPU share, from the long words of old
// procps ("user", "system") or BusyBox's own (procps/top.c display_cpus: "usr sys nic idle io
// irq sirq"; corpus 7163: a router's softirq at 94%).
func shortCPULabel(l string) string {
	switch l {
	case "user", "usr":
		return "us"
	case "system", "sys":
		return "sy"
	case "nice", "nic":
		return "ni"
	case "idle":
		return "id"
	case "iowait", "io":
		return "wa"
	case "irq":
		return "hi"
	case "sirq":
		return "si"
	}
	return l
}

func parseFloats(ss []string) []float64 {
	out := make([]float64, 0, len(ss))
	for _, s := range ss {
		v, _ := strconv.ParseFloat(s, 64)
		out = append(out, v)
	}
	return out
}

// sample turns the summary into a Sample: CPU shares under the model's rate keys, memory
// as meminfo counters (kB), load averages.
func (ts *TopSummary) sample() model.Sample {
	s := model.Sample{Source: spanSource(ts.first, ts.last)}
	if len(ts.CPU) > 0 {
		s.Rates = model.Rates{}
		if us, ok := ts.CPU["us"]; ok {
			s.Rates[model.RateCPUUserPct] = us + ts.CPU["ni"]
		}
		for label, key := range map[string]string{"sy": model.RateCPUSystemPct, "id": model.RateCPUIdlePct,
			"wa": model.RateCPUIOWaitPct, "hi": model.RateCPUIRQPct, "si": model.RateCPUSoftIRQPct, "st": model.RateCPUStealPct} {
			if v, ok := ts.CPU[label]; ok {
				s.Rates[key] = v
			}
		}
		if r, ok := ts.Tasks["running"]; ok {
			s.Rates[model.RateRunnable] = float64(r)
		}
	}
	mem := &kernel.Counters{}
	set := func(m map[string]int64, label, name string) {
		if v, ok := m[label]; ok {
			mem.Set(name, v)
		}
	}
	set(ts.MemKB, "total", "MemTotal")
	set(ts.MemKB, "av", "MemTotal")
	set(ts.MemKB, "free", "MemFree")
	set(ts.MemKB, "buffers", "Buffers")
	set(ts.MemKB, "buff", "Buffers")
	set(ts.MemKB, "shrd", "MemShared") // 2.4 /proc/meminfo had MemShared
	set(ts.SwapKB, "total", "SwapTotal")
	set(ts.SwapKB, "av", "SwapTotal")
	set(ts.SwapKB, "free", "SwapFree")
	// Swap used as top prints it (total - free, procps top.c), the name vmstat's swpd takes
	// too: a Swap line quoted without its free field still says how much is used (fix54d).
	set(ts.SwapKB, "used", "SwapUsed")
	set(ts.SwapKB, "cached", "Cached")
	// top's Swap total is used + free (procps top.c): a line whose total did not read (a
	// retyped "12008576l total") still gives it from the other two.
	if _, ok := ts.SwapKB["total"]; !ok && !mem.Has("SwapTotal") {
		used, okU := ts.SwapKB["used"]
		free, okF := ts.SwapKB["free"]
		if okU && okF {
			mem.Set("SwapTotal", used+free)
		}
	}
	// BusyBox prints no total: used is total minus free (procps/top.c display_header). Its
	// cached is meminfo Cached, believed only when it fits in what is used (a 64-bit
	// BusyBox on some builds prints garbage there, corpus case 358).
	if _, ok := ts.MemKB["shrd"]; ok && !mem.Has("MemTotal") {
		used, okU := ts.MemKB["used"]
		free, okF := ts.MemKB["free"]
		if okU && okF {
			mem.Set("MemTotal", used+free)
			if c, ok := ts.MemKB["cached"]; ok && c <= used {
				mem.Set("Cached", c)
			}
		}
	}
	set(ts.SwapKB, "avail", "MemAvailable")
	if mem.Len() > 0 {
		s.MemInfo = mem
	}
	if len(ts.Load) == 3 {
		s.LoadAvg = &kernel.LoadAvg{Load1: ts.Load[0], Load5: ts.Load[1], Load15: ts.Load[2], Runnable: ts.Tasks["running"], Threads: ts.Tasks["total"]}
	}
	return s
}

// ParseTop parses a pasted top summary area.
func ParseTop(text string) (*TopSummary, error) {
	ls := SplitLines(text)
	for i := range ls {
		if topLineKind(ls[i].Text) == "" {
			continue
		}
		if ts, n := topAt(ls, i); n > 0 {
			return ts, nil
		}
	}
	return nil, fmt.Errorf("artifact: no top summary in the text")
}

func (d *doc) tryTop(i int) int {
	if topLineKind(d.ls[i].Text) == "" {
		return 0
	}
	ts, n := topAt(d.ls, i)
	if n == 0 {
		return 0
	}
	ts.Label = d.label(i)
	s := ts.sample()
	if v, ok := s.Mem("MemTotal"); ok {
		d.host.memTotal(v, 3)
	}
	d.segSeq++
	if s.Rates != nil || s.MemInfo != nil || s.LoadAvg != nil { // per-CPU lines alone give none
		d.addSamples(KindTop, ts.Label, ts.first, ts.last, []model.Sample{s})
	}
	d.addArtifact(KindTop, ts.first, ts.last, ts)
	return n
}

// TopTasks is top's task table. Values holds each row's numeric cells by column name (PID,
// VIRT, RES, %CPU...), as printed: a cell with a unit ("574M", "1559m") or a time stays text.
type TopTasks struct {
	Columns []string             `json:"columns"`
	Rows    [][]string           `json:"rows"`
	Values  []map[string]float64 `json:"values,omitempty"`
	Note    string               `json:"note,omitempty"`
}

// fillValues sets Values from Rows.
func (tt *TopTasks) fillValues() {
	tt.Values = make([]map[string]float64, len(tt.Rows))
	for i, r := range tt.Rows {
		tt.Values[i] = cellValues(tt.Columns, r)
	}
}

func isTopTaskHeader(t string) bool {
	fs := fields(t)
	// procps: "PID USER PR NI ..."; BusyBox: "PID PPID USER STAT VSZ %VSZ [CPU] %CPU COMMAND".
	return len(fs) >= 4 && fs[0] == "PID" && strings.Contains(t, "COMMAND") &&
		(len(fs) >= 6 && (fs[1] == "USER" || fs[1] == "PPID" && fs[2] == "USER") || strings.Contains(t, "%CPU") && strings.Contains(t, "VSZ"))
}

func (d *doc) tryTopTasks(i int) int {
	if !isTopTaskHeader(d.ls[i].Text) {
		return 0
	}
	tt := &TopTasks{Columns: fields(d.ls[i].Text)}
	k := i + 1
	for ; k < len(d.ls); k++ {
		fs := fields(d.ls[k].Text)
		if len(fs) == 0 {
			break
		}
		if strings.HasPrefix(fs[0], "...") {
			continue
		}
		if !isDigits(fs[0]) || len(fs) < len(tt.Columns)-1 {
			break
		}
		tt.Rows = append(tt.Rows, fs)
	}
	d.segSeq++
	d.addTopTasks(tt, i, k)
	return k - i
}

// procpsTaskColumns are procps top's default task columns, for rows pasted without the header.
var procpsTaskColumns = []string{"PID", "USER", "PR", "NI", "VIRT", "RES", "SHR", "S", "%CPU", "%MEM", "TIME+", "COMMAND"}

// isProcpsTaskRow: "38 root 20 0 0 0 0 S 18.8 0.0 3:17.73 kswapd0".
func isProcpsTaskRow(t string) bool {
	fs := fields(t)
	if len(fs) < 12 || !isDigits(fs[0]) || len(fs[7]) != 1 || !strings.Contains("RSDZTIWX", fs[7]) {
		return false
	}
	_, okCPU := atof(fs[8])
	_, okMem := atof(fs[9])
	return okCPU && okMem && strings.Contains(fs[10], ":")
}

// tryTopTaskRows reads procps top task rows without their header.
func (d *doc) tryTopTaskRows(i int) int {
	k := i
	for k < len(d.ls) && isProcpsTaskRow(d.ls[k].Text) {
		k++
	}
	if k == i {
		return 0
	}
	tt := &TopTasks{Columns: procpsTaskColumns}
	for j := i; j < k; j++ {
		tt.Rows = append(tt.Rows, fields(d.ls[j].Text))
	}
	d.segSeq++
	d.addTopTasks(tt, i, k)
	return k - i
}

// addTopTasks records a task table and the CPU of the kernel threads the rules read
// (kswapd, kcompactd, ksoftirqd) as the rates top computed. procps top shows %CPU of one CPU
// (Irix mode, its default); BusyBox top shows the share of the whole machine, which is
// scaled to one CPU with the CPU count the table shows (its CPU column's highest value + 1).
func (d *doc) addTopTasks(tt *TopTasks, i, k int) {
	tt.fillValues()
	d.addArtifact(KindTopTasks, d.ls[i].No, d.ls[k-1].No, tt)
	col := func(names ...string) int {
		for c, n := range tt.Columns {
			for _, want := range names {
				if n == want {
					return c
				}
			}
		}
		return -1
	}
	cpuCol, cmdCol := col("%CPU", "CPU%"), col("COMMAND", "Command")
	if cpuCol < 0 || cmdCol < 0 {
		return
	}
	scale, busybox := 1.0, col("VSZ") >= 0
	if busybox {
		if c := col("CPU"); c >= 0 {
			ncpu := 0
			for _, r := range tt.Rows {
				if c < len(r) {
					if n, ok := atoi(r[c]); ok && int(n)+1 > ncpu {
						ncpu = int(n) + 1
					}
				}
			}
			scale = float64(max(ncpu, 1))
			tt.Note = fmt.Sprintf("BusyBox top: %%CPU is a share of all CPUs; scaled by %d (the highest CPU the table shows, plus one) to a share of one CPU", max(ncpu, 1))
		} else {
			tt.Note = "BusyBox top without a CPU column: %CPU is a share of all CPUs, taken as a share of one (a floor)"
		}
	}
	rates := model.Rates{}
	for _, r := range tt.Rows {
		if cmdCol >= len(r) || cpuCol >= len(r) {
			continue
		}
		comm := strings.Trim(r[cmdCol], "[]")
		v, ok := atof(r[cpuCol])
		if !ok {
			continue
		}
		if key, ok := model.KernelThreadRate(comm); ok {
			rates[key] += v * scale
		}
	}
	if len(rates) > 0 {
		first, last := d.ls[i].No, d.ls[k-1].No
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last), Rates: rates})
	}
}

// Android's CPU usage lines (dumpsys cpuinfo, ANR traces): "80% 84/kswapd0: 0% user + 80%
// kernel", or trimmed to "80% 84/kswapd0". The share is of one CPU, as procps top's.
var reCPUInfoLine = lazyre.New(`^\s*\+?(\d+(?:\.\d+)?)% (\d+)/(\S+?)(?::.*|\s+\(.*\))?\s*$`)

func (d *doc) tryCPUInfo(i int) int {
	k := i
	for k < len(d.ls) && reCPUInfoLine.MatchString(d.ls[k].Text) {
		k++
	}
	if k-i < 2 {
		return 0
	}
	tt := &TopTasks{Columns: []string{"%CPU", "PID", "COMMAND"}, Note: "Android CPU usage lines (dumpsys cpuinfo)"}
	for j := i; j < k; j++ {
		m := reCPUInfoLine.FindStringSubmatch(d.ls[j].Text)
		tt.Rows = append(tt.Rows, []string{m[1], m[2], m[3]})
	}
	d.segSeq++
	d.addTopTasks(tt, i, k)
	return k - i
}
