package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// SPAdes' own log (fix44c, from SPAdes' sources: src/common/utils/logger/log_writers.cpp
// console_writer::write_msg and the pipeline's spades_pipeline/support.py, blind to the case
// beyond its form). The C++ stages (spades-core, hammer, ...) write each record as
//
//	"{elapsed:14s} {cmem:>5s} / {max_rss:<5s} {level:<5.5s} {source:30s} ({file:26s}:{line:4d})   {msg}"
//
// elapsed "h:mm:ss.mmm" since the stage began, then the stage's memory in use and its peak
// resident set so far (human_readable_memory: "512M", "31G"), the level (TRACE, DEBUG, INFO,
// WARN, ERROR), the component and the source file and line. The figures are one process's,
// the assembler's, never the host's RAM or free memory: read (kind spades_log, the rows'
// figures in bytes), no finding of their own.
//
// spades.py runs each stage as a child and, when it ends with a nonzero status, logs
// "== Error ==  system call for: "CMD" finished abnormally, OS return value: N" (older
// releases "..., err code: N"). N is Python's return code: a negative N is the child killed
// by signal -N, so -9 is SIGKILL, which the kernel's OOM killer sends and so does a memory
// cgroup's, a batch scheduler's kill at the job's limit and anyone's kill -9: which one is not
// in the line. It is named unread and kept as a SIGKILL notice (no OOM by itself); another
// signal or a positive status is no kill for memory and stays prose.
const KindSPAdesLog = "spades_log"

// SPAdesLog is a run of SPAdes' log records with their memory figures.
type SPAdesLog struct {
	Rows     []SPAdesRow `json:"rows"`
	PeakRSS  int64       `json:"peak_rss_bytes"` // the largest peak the rows show
	LastCMem int64       `json:"last_mem_bytes"` // the memory in use at the last row
}

// SPAdesRow is one record: its elapsed time, memory in use and peak (as printed and in
// bytes), level, source file and line.
type SPAdesRow struct {
	Elapsed   string `json:"elapsed"`
	Mem       string `json:"mem"`
	Peak      string `json:"peak"`
	MemBytes  int64  `json:"mem_bytes"`
	PeakBytes int64  `json:"peak_bytes"`
	Level     string `json:"level"`
	Component string `json:"component"`
	File      string `json:"file"`
	Line      int    `json:"line"`
	Reads     int64  `json:"reads,omitempty"` // the read mappers' progress, "Processed N reads"
}

var (
	reSPAdesRow   = lazyre.New(`^\s*(\d{1,4}:\d\d:\d\d\.\d{3})\s+(\d{1,6}[KMGT]?)\s+/\s+(\d{1,6}[KMGT]?)\s+(TRACE|DEBUG|INFO|WARN|ERROR)\s+(\S(?:.*?\S)?)\s+\(\s*([\w.+-]{1,64}\.(?:h|hpp|cpp|cc|c|hh|inl))\s*:\s*(\d{1,6})\)\s+(\S.*)?$`)
	reSPAdesReads = lazyre.New(`^Processed (\d{1,15}) reads\s*$`)
	reSPAdesAbort = lazyre.New(`^\s*(?:== Error ==\s+)?system call for: (".*"|'.*'|\[.*\]) finished abnormally, (?:OS return value|err code): (-?\d{1,4})\s*$`)
)

// spadesMem converts SPAdes' human_readable_memory figure to bytes.
func spadesMem(s string) (int64, bool) {
	k := strings.IndexByte("KMGT", s[len(s)-1])
	if k < 0 {
		return 0, false // a bare number is no figure SPAdes prints
	}
	n, err := strconv.ParseInt(s[:len(s)-1], 10, 64)
	if err != nil {
		return 0, false
	}
	return n << (10 * (k + 1)), true
}

// spadesLog reads SPAdes' records from line i on; it returns the lines it read.
func (d *doc) spadesLog(i int) int {
	t := d.ls[i].Text
	if !strings.Contains(t, " / ") || !strings.Contains(t, ":") {
		return 0
	}
	var s SPAdesLog
	last := i - 1
	for k := i; k < len(d.ls) && k-i < maxSacctRows; k++ {
		m := reSPAdesRow.FindStringSubmatch(d.ls[k].Text)
		if m == nil {
			break
		}
		mem, ok1 := spadesMem(m[2])
		peak, ok2 := spadesMem(m[3])
		if !ok1 || !ok2 {
			break
		}
		ln, _ := strconv.Atoi(m[7])
		r := SPAdesRow{Elapsed: m[1], Mem: m[2], Peak: m[3], MemBytes: mem, PeakBytes: peak,
			Level: m[4], Component: m[5], File: m[6], Line: ln}
		if rm := reSPAdesReads.FindStringSubmatch(m[8]); rm != nil {
			r.Reads, _ = strconv.ParseInt(rm[1], 10, 64)
		}
		s.Rows = append(s.Rows, r)
		s.PeakRSS = max(s.PeakRSS, peak)
		s.LastCMem = mem
		last = k
	}
	if len(s.Rows) == 0 {
		return 0
	}
	for k := i; k <= last; k++ {
		d.used[k] = true
	}
	d.addArtifact(KindSPAdesLog, d.ls[i].No, d.ls[last].No, s)
	return last - i + 1
}

const spadesKillWhy = "spades.py's report that a SPAdes stage ended with OS return value -9: Python's return code of a child killed by signal 9, SIGKILL, which the kernel's OOM killer, a memory cgroup's, a batch scheduler's kill at the job's limit and any kill -9 all send; which one is not in this line (the kernel's own \"Out of memory: Killed process\" line would say)"

// spadesAbort reads spades.py's "finished abnormally" line: -9 is kept as a SIGKILL notice.
func (d *doc) spadesAbort(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "finished abnormally") {
		return false
	}
	m := reSPAdesAbort.FindStringSubmatchIndex(t)
	if m == nil || batchQuoted(t, t[:m[0]]) {
		return false
	}
	if t[m[4]:m[5]] != "-9" {
		return false
	}
	d.batchSigkill(i, "spades.py (a SPAdes stage finished abnormally, OS return value -9: SIGKILL)", spadesKillWhy)
	return true
}
