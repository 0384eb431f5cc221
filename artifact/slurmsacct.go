package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Slurm's accounting of a job's end (h19c, from Slurm's sacct, seff and scontrol sources).
// The job state JOB_OOM, printed OUT_OF_MEMORY (src/common/slurm_protocol_defs.c
// job_state_string), is set when slurmstepd's task/cgroup plugin counted oom_kill events in
// the step's memory cgroup (task_cgroup_memory_check_oom): a memory-cgroup OOM, the same kill
// as slurmoom.go's lines, at second hand.
//
//	sacct:    a header ("JobID JobName ... State ..."), a row of dashes that gives each
//	          column's width (sacct's print_fields, truncated values end in '+', so
//	          "OUT_OF_ME+"), then one row per job and step; or --parsable2's '|'-separated
//	          rows under "JobID|...|State|...".
//	seff:     "State: OUT_OF_MEMORY (exit code 0)" (contribs/seff).
//	scontrol: "JobState=OUT_OF_MEMORY Reason=OutOfMemory ..." (scontrol show job).
//
// A table whose rows are all COMPLETED, FAILED, TIMEOUT, ... (MaxRSS below ReqMem or not)
// is read, kind slurm_sacct, with no kill. One kill per job id (the job's row and its
// .batch/.0 steps' rows say the same), none when Slurm's own step line already counted it.
const KindSlurmSacct = "slurm_sacct"

// SlurmSacct is a sacct table: its rows and the jobs whose state was OUT_OF_MEMORY.
type SlurmSacct struct {
	Rows    int      `json:"rows"`
	OOMRows int      `json:"oom_rows,omitempty"` // the job's and its steps' rows in state OUT_OF_MEMORY
	OOMJob  []string `json:"oom_jobs,omitempty"`
}

var (
	reSeffOOM     = lazyre.New(`^\s*State: OUT_OF_MEMORY \(exit code \d+\)\s*$`)
	reScontrolOOM = lazyre.New(`^\s*JobState=OUT_OF_MEMORY\s+Reason=`)
)

// maxSacctRows bounds a table's rows read.
const maxSacctRows = 4096

// sacctTable reads the sacct table whose header is line i; it returns the lines it read.
func (d *doc) sacctTable(i int) int {
	h := d.ls[i].Text
	if !strings.Contains(h, "JobID") || !strings.Contains(h, "State") {
		return 0
	}
	var cols [][2]int // fixed-width columns, from the dashes
	var names []string
	sep := ""
	first := i + 1
	if strings.Count(h, "|") >= 2 {
		sep = "|"
		names = strings.Split(strings.TrimSpace(h), "|")
	} else {
		if i+1 >= len(d.ls) {
			return 0
		}
		dash := d.ls[i+1].Text
		if strings.Trim(dash, "- \t") != "" || !strings.Contains(dash, "----") {
			return 0
		}
		for k := 0; k < len(dash); {
			if dash[k] != '-' {
				k++
				continue
			}
			s := k
			for k < len(dash) && dash[k] == '-' {
				k++
			}
			cols = append(cols, [2]int{s, k})
		}
		for _, c := range cols {
			names = append(names, strings.TrimSpace(cut(h, c)))
		}
		if f := strings.Fields(h); len(f) == len(cols) && !sacctNamed(names) {
			names = f // a header whose spaces a paste squashed or turned into tabs: one word a column
		}
		first = i + 2
	}
	idJ, stJ := -1, -1
	for k, n := range names {
		switch n {
		case "JobID", "JobIDRaw":
			if idJ < 0 {
				idJ = k
			}
		case "State":
			stJ = k
		}
	}
	if idJ < 0 || stJ < 0 {
		return 0
	}
	var s SlurmSacct
	seen := map[string]bool{}
	last := first - 1
	for k := first; k < len(d.ls) && k-first < maxSacctRows; k++ {
		r := d.ls[k].Text
		if isBlank(r) {
			break
		}
		var cells []string
		if sep != "" {
			cells = strings.Split(strings.TrimSpace(r), sep)
		} else {
			for _, c := range cols {
				cells = append(cells, strings.TrimSpace(cut(r, c)))
			}
		}
		if sep == "" && idJ == 0 && !sacctJobID(cells[0]) {
			// Columns a paste shifted (tabs, squashed spaces): the job id is the row's first word.
			if f := strings.Fields(r); len(f) > 0 && sacctJobID(f[0]) {
				cells[0] = f[0]
			}
		}
		if len(cells) <= max(idJ, stJ) || !sacctJobID(cells[idJ]) {
			break
		}
		last = k
		s.Rows++
		// The State cell, or any cell of a row whose columns a paste shifted (tabs, a
		// proportional font): a state is one word.
		if st := cells[stJ]; strings.HasPrefix(st, "OUT_OF_ME") || sep == "" && oomStateWord(r) {
			s.OOMRows++
			job, _, _ := strings.Cut(cells[idJ], ".")
			if !seen[job] {
				seen[job] = true
				s.OOMJob = append(s.OOMJob, job)
			}
		}
	}
	if s.Rows == 0 {
		return 0
	}
	for k := i; k <= last; k++ {
		d.used[k] = true
	}
	d.addArtifact(KindSlurmSacct, d.ls[i].No, d.ls[last].No, s)
	for _, job := range s.OOMJob {
		d.slurmStateOOM("sacct (State OUT_OF_MEMORY)", job, d.ls[i].No)
	}
	return last - i + 1
}

// sacctNamed: names holds sacct's JobID and State columns.
func sacctNamed(names []string) bool {
	id, st := false, false
	for _, n := range names {
		id = id || n == "JobID" || n == "JobIDRaw"
		st = st || n == "State"
	}
	return id && st
}

// cut is row's text in column c, the last column running to the row's end.
func cut(row string, c [2]int) string {
	if c[0] >= len(row) {
		return ""
	}
	return row[c[0]:min(c[1], len(row))]
}

// sacctJobID: "123456", "123456.batch", "123456_7.0", "123456+1.extern"; or the same with
// the job's number redacted by the one who pasted it, as one bracketed word ("[JOBID].0",
// "<jobid>.batch", "[JOBID].bat+": fix44c, corpus 3724): the step suffix and the table's
// dashes and header still make it sacct's row.
func sacctJobID(s string) bool {
	if r, ok := redactedJobID(s); ok {
		s = "0" + r
	}
	if s == "" || s[0] < '0' || s[0] > '9' {
		return false
	}
	for k := 0; k < len(s); k++ {
		c := s[k]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c == '.' || c == '_' || c == '+' || c == '[' || c == ']' || c == '-') {
			return false
		}
	}
	return true
}

// redactedJobID: s starts with a placeholder for a job's number, "[WORD]" or "<WORD>" where
// WORD is letters, digits or '_' and names a job ("JOBID", "job_id", "jobid"); it returns
// the rest (the step suffix, "" for the job's own row).
func redactedJobID(s string) (string, bool) {
	if len(s) < 3 || s[0] != '[' && s[0] != '<' {
		return "", false
	}
	closer := byte(']')
	if s[0] == '<' {
		closer = '>'
	}
	end := strings.IndexByte(s, closer)
	if end < 2 {
		return "", false
	}
	w := s[1:end]
	for k := 0; k < len(w); k++ {
		c := w[k]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return "", false
		}
	}
	if !strings.Contains(strings.ToLower(w), "job") {
		return "", false
	}
	return s[end+1:], true
}

// slurmStateOOM keeps a job state OUT_OF_MEMORY as a memory-cgroup kill, unless Slurm's own
// step line in the text counted it.
func (d *doc) slurmStateOOM(reporter, job string, no int) {
	for _, o := range d.tl.RuntimeOOMs {
		if strings.HasPrefix(o.Reporter, "slurmstepd task/cgroup") || strings.HasPrefix(o.Reporter, "srun ") {
			return
		}
	}
	d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: reporter + ", the step's memory cgroup", Container: job,
		Count: 1, Source: fmt.Sprintf("line %d", no)})
}

// slurmStateLine reads seff's and scontrol's OUT_OF_MEMORY state lines.
func (d *doc) slurmStateLine(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "OUT_OF_MEMORY") {
		return false
	}
	switch {
	case reSeffOOM.MatchString(t):
		d.used[i] = true
		d.slurmStateOOM("seff (State: OUT_OF_MEMORY)", "", d.ls[i].No)
		return true
	case reScontrolOOM.MatchString(t):
		d.used[i] = true
		d.slurmStateOOM("scontrol show job (JobState=OUT_OF_MEMORY)", "", d.ls[i].No)
		return true
	}
	return false
}

// oomStateWord: a word of row r is the state OUT_OF_MEMORY, whole or truncated by sacct.
func oomStateWord(r string) bool {
	if !strings.Contains(r, "OUT_OF_ME") {
		return false
	}
	for _, w := range strings.Fields(r) {
		if w == "OUT_OF_MEMORY" || strings.HasPrefix(w, "OUT_OF_ME") && strings.HasSuffix(w, "+") {
			return true
		}
	}
	return false
}
