package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"syscall"
)

// TaskStat is the part of /proc/PID/stat headroom uses: CPU time of kernel threads such as
// kswapd0, kcompactd0 and ksoftirqd/N (fields 14 and 15, utime and stime, in USER_HZ ticks;
// proc(5)). Comm may contain spaces and parentheses; it is the text between the first "("
// and the last ")".
type TaskStat struct {
	PID        int    `json:"pid"`
	Comm       string `json:"comm"`
	State      string `json:"state"`
	UTimeTicks int64  `json:"utime_ticks"`
	STimeTicks int64  `json:"stime_ticks"`
	// PPID is field 4; kernel threads are children of kthreadd, PID 2.
	PPID int `json:"ppid"`
	// StartTicks is field 22, the start time after boot in clock ticks. A sampler that keeps
	// PIDs across reads compares it to notice a PID that was reused.
	StartTicks int64 `json:"start_ticks"`
}

// The comm prefixes of the kernel threads whose CPU time shows memory and network pressure:
// "kswapd%d" per node (mm/vmscan.c kswapd_run), "kcompactd%d" per node (mm/compaction.c
// kcompactd_run, 4.6+), "ksoftirqd/%u" per CPU (kernel/softirq.c softirq_threads). The one
// home of these names (issue 31): the sampler, the rates and the rules read them here.
const (
	KthreadKswapd    = "kswapd"
	KthreadKcompactd = "kcompactd"
	KthreadKsoftirqd = "ksoftirqd"
)

// KernelThreadPrefixes are the comm prefixes ReadKernelThreads looks for by default.
var KernelThreadPrefixes = []string{KthreadKswapd, KthreadKcompactd, KthreadKsoftirqd}

// kthreaddPID is the PID of kthreadd, parent of every kernel thread since 2.6.22
// (kernel/kthread.c; init/main.c rest_init creates it second).
const kthreaddPID = 2

// TaskStatPath is the stat file of pid relative to a Root ("proc/42/stat"); join it with
// Root.Dir to keep a file descriptor open and re-read it with pread.
func TaskStatPath(pid int) string { return "proc/" + strconv.Itoa(pid) + "/stat" }

// ReadTaskStat reads /proc/<pid>/stat under root.
func ReadTaskStat(root Root, pid int) (TaskStat, error) {
	return parseFile(root, TaskStatPath(pid), ParseTaskStat)
}

// ReadKernelThreads scans /proc/[0-9]*/stat for kernel threads (parent kthreadd) whose comm
// starts with one of prefixes (KernelThreadPrefixes when none is given), sorted by PID.
// Tasks that exit during the scan are skipped. Inside a PID namespace other than the
// initial one kernel threads are invisible and the result is empty.
//
// Before 2.6.22 kernel threads were children of init (PID 1) rather than kthreadd, and
// this filter finds none; such kernels are only met as pasted text.
func ReadKernelThreads(root Root, prefixes ...string) ([]TaskStat, error) {
	if len(prefixes) == 0 {
		prefixes = KernelThreadPrefixes
	}
	ents, err := root.ReadDir("proc")
	if err != nil {
		return nil, err
	}
	var out []TaskStat
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid <= 0 {
			continue
		}
		t, err := ReadTaskStat(root, pid)
		if err != nil {
			if errors.Is(err, ErrNotSupported) || errors.Is(err, syscall.ESRCH) {
				continue // exited between ReadDir and the read
			}
			return nil, err
		}
		if t.PPID != kthreaddPID {
			continue
		}
		for _, p := range prefixes {
			if strings.HasPrefix(t.Comm, p) {
				out = append(out, t)
				break
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].PID < out[j].PID })
	return out, nil
}

// ParseTaskStat parses the text of /proc/PID/stat.
func ParseTaskStat(r io.Reader) (TaskStat, error) {
	return parseText(r, ParseTaskStatInto)
}

// ParseTaskStatInto parses the text of /proc/PID/stat into dst, keeping dst's Comm and
// State strings when they are unchanged.
func ParseTaskStatInto(dst *TaskStat, data []byte) error {
	if taskStatSameLayout(dst, data) {
		return nil
	}
	lines := txtLines{data: data}
	line, ok := lines.nextNonBlank()
	if !ok {
		return fmt.Errorf("PID stat: empty")
	}
	open := bytes.IndexByte(line, '(')
	closing := bytes.LastIndexByte(line, ')')
	if open < 0 || closing < open {
		return lines.errorf("no \"(comm)\" in %q", txtTrim(line))
	}
	pid, ok := txtInt(txtTrim(line[:open]))
	if !ok || pid <= 0 || pid > 1<<30 {
		return lines.errorf("bad PID %q", txtTrim(line[:open]))
	}
	comm := line[open+1 : closing]
	// Fields 3.. follow the comm; f[i] is field i+3.
	var f [20][]byte
	rest := line[closing+1:]
	for i := range f {
		f[i], rest = txtField(rest)
		if len(f[i]) == 0 {
			return lines.errorf("%d fields after the comm, want at least %d (up to starttime)", i, len(f))
		}
	}
	ppid, ok1 := txtInt(f[1])
	utime, ok2 := txtInt(f[11])
	stime, ok3 := txtInt(f[12])
	start, ok4 := txtInt(f[19])
	switch {
	case !ok1 || ppid < 0 || ppid > 1<<30:
		return lines.errorf("ppid %q is not a PID", f[1])
	case !ok2 || utime < 0:
		return lines.errorf("utime %q is not a tick count", f[11])
	case !ok3 || stime < 0:
		return lines.errorf("stime %q is not a tick count", f[12])
	case !ok4 || start < 0:
		return lines.errorf("starttime %q is not a tick count", f[19])
	}
	if len(f[0]) != 1 {
		return lines.errorf("state %q is not one letter", f[0])
	}
	dst.PID = int(pid)
	dst.Comm = txtString(dst.Comm, comm)
	dst.State = txtString(dst.State, f[0])
	dst.PPID = int(ppid)
	dst.UTimeTicks = utime
	dst.STimeTicks = stime
	dst.StartTicks = start
	return nil
}

// taskStatSameLayout is the fast path of ParseTaskStatInto (see txtIntAt): "PID (COMM) S"
// with the comm dst already holds, then fields separated by single spaces as
// fs/proc/array.c do_task_stat prints them. The general parser takes the comm up to the
// last ')' of the line, so the fast path makes sure no ')' follows the comm's.
func taskStatSameLayout(dst *TaskStat, data []byte) bool {
	if dst.Comm == "" {
		return false
	}
	line := data // the general parser reads the first line only
	if nl := bytes.IndexByte(data, '\n'); nl >= 0 {
		line = data[:nl]
	}
	open := 0
	for open < len(line) && line[open]-'0' <= 9 {
		open++
	}
	pid, ok := txtInt(line[:open])
	if !ok || pid <= 0 || pid > 1<<30 || !txtAt(line, open, " (") || !txtAt(line, open+2, dst.Comm) {
		return false
	}
	closing := open + 2 + len(dst.Comm)
	if !txtAt(line, closing, ") ") || bytes.IndexByte(line[closing+1:], ')') >= 0 {
		return false
	}
	// Fields 3.. follow; f[i] is field i+3, as in the general parser.
	var f [20][]byte
	q := closing + 2
	for i := range f {
		e := q
		for e < len(line) && !txtSpace(line[e]) {
			e++
		}
		if e == q || (e < len(line) && line[e] != ' ') {
			return false
		}
		f[i], q = line[q:e], e+1
	}
	ppid, ok1 := txtInt(f[1])
	utime, ok2 := txtInt(f[11])
	stime, ok3 := txtInt(f[12])
	start, ok4 := txtInt(f[19])
	if !ok1 || ppid < 0 || ppid > 1<<30 || !ok2 || utime < 0 || !ok3 || stime < 0 || !ok4 || start < 0 || len(f[0]) != 1 {
		return false
	}
	dst.PID = int(pid)
	dst.State = txtString(dst.State, f[0])
	dst.PPID = int(ppid)
	dst.UTimeTicks = utime
	dst.STimeTicks = stime
	dst.StartTicks = start
	return true
}
