package artifact

import "strings"

// KindPsTasks is a BSD-style ps table (`ps aux`, `ps u`, procps ps/display.c's "u" format:
// "USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND"), corpus case 1591: a cache's
// traffic_server with RSS 384980056 kB, 97.5% of the host's memory. VSZ and RSS are KiB
// (procps pr_vsz, pr_rss); %MEM is RSS over MemTotal (pr_pmem); %CPU is the CPU time over
// the process's lifetime, not a current rate, so nothing here feeds the CPU rules. No rule
// reads the table: it says which process holds the memory, and RSS / %MEM bounds MemTotal.
const KindPsTasks = "ps_tasks"

// PsTasks is the table: one row per process, the command as printed (ps cuts it to the
// terminal's width).
type PsTasks struct {
	Rows []PsTask `json:"rows"`
	// MemTotalKBFromRSS: the host's MemTotal implied by the largest RSS and its %MEM
	// (RSS / %MEM × 100), when that row's %MEM is at least 1 (ps rounds it to 0.1).
	MemTotalKBFromRSS int64 `json:"memtotal_kb_from_rss,omitempty"`
}

// PsTask is one row.
type PsTask struct {
	User    string  `json:"user"`
	PID     int64   `json:"pid"`
	CPUPct  float64 `json:"cpu_pct"`
	MemPct  float64 `json:"mem_pct"`
	VSZKB   int64   `json:"vsz_kb"`
	RSSKB   int64   `json:"rss_kb"`
	Command string  `json:"command"`
}

// psAuxColumns is the "u" format's header, in order.
var psAuxColumns = []string{"USER", "PID", "%CPU", "%MEM", "VSZ", "RSS", "TTY", "STAT", "START", "TIME", "COMMAND"}

func isPsAuxHeader(t string) bool {
	fs := fields(t)
	if len(fs) != len(psAuxColumns) {
		return false
	}
	for i, c := range psAuxColumns {
		if fs[i] != c {
			return false
		}
	}
	return true
}

// maxPsRows bounds one table (a host's process list).
const maxPsRows = 4096

// psAuxRow reads one row: USER PID %CPU %MEM VSZ RSS TTY STAT START TIME COMMAND...
func psAuxRow(t string) (PsTask, bool) {
	fs := fields(t)
	if len(fs) < len(psAuxColumns) {
		return PsTask{}, false
	}
	pid, ok1 := atoi(fs[1])
	cpu, ok2 := atof(fs[2])
	mem, ok3 := atof(fs[3])
	vsz, ok4 := atoi(fs[4])
	rss, ok5 := atoi(fs[5])
	if !ok1 || !ok2 || !ok3 || !ok4 || !ok5 || mem > 100 || !strings.Contains(fs[9], ":") {
		return PsTask{}, false
	}
	return PsTask{User: fs[0], PID: pid, CPUPct: cpu, MemPct: mem, VSZKB: vsz, RSSKB: rss,
		Command: strings.Join(fs[10:], " ")}, true
}

func (d *doc) tryPsAux(i int) int {
	if !isPsAuxHeader(d.ls[i].Text) {
		return 0
	}
	return d.psRows(i, i+1)
}

// The rows under the command that printed them, the header gone (fix33a, corpus 2817):
// "# ps aux | grep nfs" drops the header line with every other line grep does not match, and
// leaves the rows of the "u" format as ps printed them. Only a shell line that runs ps with
// BSD options holding 'u' ("ps aux", "ps -aux", "ps auxww") opens them: a table of the same
// shape under no such line is not known to be ps's.
//
// fix41b (corpus 3468, gobgp#404): the command as a code block shows it, with no prompt
// ("ps aux|grep gobgp" in a ```bash fence), and the pipe glued to the options: the line is
// the command itself when it starts with "ps " (a sentence that starts so opens nothing
// unless the next line is a row of the "u" format, which psRows requires), and the options
// end at the first '|', ';' or '&'.
func isPsUCommandLine(_, t string) bool {
	if !strings.Contains(t, "ps ") {
		return false // the cheap test: most lines name no ps
	}
	cmd, _, ok := shellCommandLine(t)
	if !ok {
		if cmd = strings.TrimSpace(t); !strings.HasPrefix(cmd, "ps ") {
			return false
		}
	}
	fs := fields(cmd)
	if len(fs) < 2 || fs[0] != "ps" {
		return false
	}
	o := strings.TrimPrefix(fs[1], "-")
	if k := strings.IndexAny(o, "|;&"); k >= 0 {
		o = o[:k] // "aux|grep": the pipe glued to the options
	}
	if !strings.Contains(o, "u") {
		return false
	}
	for k := 0; k < len(o); k++ {
		if strings.IndexByte("auxwf", o[k]) < 0 {
			return false
		}
	}
	return true
}

// tryPsAuxUnder reads the rows under a ps command line (isPsUCommandLine), a blank line
// between them allowed.
func (d *doc) tryPsAuxUnder(i int) int {
	if !isPsUCommandLine("", d.ls[i].Text) {
		return 0
	}
	k := i + 1
	if k < len(d.ls) && d.ls[k].Blank() {
		k++
	}
	if n := d.psRows(k, k); n > 0 {
		return k - i + n
	}
	return 0
}

// psRows reads the rows from line k on into a table whose first line is line i; it returns
// the lines read from i, 0 when no row is.
func (d *doc) psRows(i, k int) int {
	var pt PsTasks
	for ; k < len(d.ls) && len(pt.Rows) < maxPsRows; k++ {
		r, ok := psAuxRow(d.ls[k].Text)
		if !ok {
			break
		}
		pt.Rows = append(pt.Rows, r)
	}
	if len(pt.Rows) == 0 {
		return 0
	}
	top := pt.Rows[0]
	for _, r := range pt.Rows[1:] {
		if r.RSSKB > top.RSSKB {
			top = r
		}
	}
	if top.MemPct >= 1 {
		pt.MemTotalKBFromRSS = int64(float64(top.RSSKB) * 100 / top.MemPct)
	}
	d.segSeq++
	d.addArtifact(KindPsTasks, d.ls[i].No, d.ls[k-1].No, &pt)
	return k - i
}

// KindCommRSS is a per-command resident-memory summary (round 16, fix21b): a script's sum
// of `ps -eo comm,rss` grouped by command, "Comm  # of instances  RSS in MiB" over rows
// "ceph  (183)  2654.61" (the comm, at most 15 bytes; its process count in parentheses; their
// summed RSS in MiB). The processes' own memory: no rule reads it; it names which command
// holds the memory and how many copies of it run.
const KindCommRSS = "comm_rss"

// CommRSS is the table.
type CommRSS struct {
	Rows []CommRSSRow `json:"rows"`
}

// CommRSSRow is one row.
type CommRSSRow struct {
	Comm      string  `json:"comm"`
	Instances int64   `json:"instances"`
	RSSMiB    float64 `json:"rss_mib"`
}

// isCommRSSHeader: the summary's header, "Comm", a count column and an RSS column in MiB.
func isCommRSSHeader(t string) bool {
	fs := fields(t)
	return len(fs) >= 3 && fs[0] == "Comm" && strings.Contains(t, "RSS in MiB") && strings.Contains(t, "instances")
}

// commRSSRow reads one row (reCommCountRSSRow's form).
func commRSSRow(t string) (CommRSSRow, bool) {
	if strings.IndexByte(t, '(') < 0 || !reCommCountRSSRow.MatchString(t) {
		return CommRSSRow{}, false
	}
	fs := fields(t)
	if len(fs) != 3 {
		return CommRSSRow{}, false
	}
	n, ok1 := atoi(strings.Trim(fs[1], "()"))
	rss, ok2 := atof(fs[2])
	if !ok1 || !ok2 {
		return CommRSSRow{}, false
	}
	return CommRSSRow{Comm: fs[0], Instances: n, RSSMiB: rss}, true
}

func (d *doc) tryCommRSS(i int) int {
	if !isCommRSSHeader(d.ls[i].Text) {
		return 0
	}
	var c CommRSS
	k := i + 1
	for ; k < len(d.ls) && len(c.Rows) < maxPsRows; k++ {
		r, ok := commRSSRow(d.ls[k].Text)
		if !ok {
			break
		}
		c.Rows = append(c.Rows, r)
	}
	if len(c.Rows) == 0 {
		return 0
	}
	d.segSeq++
	d.addArtifact(KindCommRSS, d.ls[i].No, d.ls[k-1].No, &c)
	return k - i
}
