package artifact

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// reportExtras are the numbers of a kernel report (allocation failure, OOM kill, SLUB
// failure) that no rule reads yet but that an operator reads off it and that a later rule may
// need: which task and CPU printed it, the show_mem footer, how many reports were suppressed
// before it, SLUB's per-node slab counts, a memcg's usage lines and the OOM task table. Kept
// as printed, so that a paste's every number is in the artifact.
type reportExtras struct {
	// UptimeS is the header's dmesg stamp, seconds since boot as printed ("[ 1146.798700]").
	UptimeS    float64          `json:"uptime_s,omitempty"`
	Task       *TaskLine        `json:"task,omitempty"`
	Suppressed int64            `json:"suppressed,omitempty"` // "warn_alloc: N callbacks suppressed" just before
	Totals     *kernel.Counters `json:"totals,omitempty"`     // show_mem footer (showmem.go)
	Nodes      []NodeCounters   `json:"nodes,omitempty"`      // show_mem's per-node lines
	SlabNodes  []SlabNode       `json:"slab_nodes,omitempty"`
	MemcgUsage []MemcgUsage     `json:"memcg_usage,omitempty"`
	MemcgStats *kernel.Counters `json:"memcg_stats,omitempty"` // "Memory cgroup stats for /a: cache:NKB rss:NKB ..."
	Score      int64            `json:"score,omitempty"`       // "Kill process N (x) score N or sacrifice child"
	// Selected is the task that line names (3.x-4.x): the one the OOM killer chose, which
	// "Killed process" may not be (oom_kill_process kills a child instead when one has memory
	// of its own, "or sacrifice child"); under vm.oom_kill_allocating_task it is the
	// allocating task.
	Selected *SelectedTask `json:"selected,omitempty"`
	Tasks    []OOMTask     `json:"tasks,omitempty"`
}

// TaskLine is the line dump_stack prints before the trace (lib/dump_stack.c
// dump_stack_print_info): "CPU: 3 PID: 1652 Comm: kworker/17:1H Tainted: G ..." (3.x-),
// "CPU: 3 UID: 1000 PID: 4108 Comm: mprime ..." (6.11+, which prints the task's UID), or
// 2.6's "Pid: 12845, comm: java Not tainted 2.6.32 #1", which names no CPU.
type TaskLine struct {
	CPU *int `json:"cpu,omitempty"`
	// UID is the task's user ID, printed since 6.11 (dump_stack_print_info: "UID: %u").
	UID  *int64 `json:"uid,omitempty"`
	PID  int64  `json:"pid"`
	Comm string `json:"comm"`
}

// SelectedTask is the task named by "Kill process N (x) score N or sacrifice child".
type SelectedTask struct {
	PID  int64  `json:"pid"`
	Comm string `json:"comm"`
}

// SlabNode is one "node 0: slabs: 854, objs: 42320, free: 0" line of a SLUB failure
// (mm/slub.c slab_out_of_memory, per node with slabs).
type SlabNode struct {
	Node  int   `json:"node"`
	Slabs int64 `json:"slabs"`
	Objs  int64 `json:"objs"`
	Free  int64 `json:"free"`
}

// MemcgUsage is one of the memcg OOM report's counter lines (mm/memcontrol.c
// mem_cgroup_print_oom_meminfo; 3.x-4.x mem_cgroup_print_oom_info): "memory: usage 122880kB,
// limit 122880kB, failcnt 83", likewise "memory+swap:", "kmem:", "swap:".
type MemcgUsage struct {
	Counter string `json:"counter"`
	UsageKB int64  `json:"usage_kb"`
	LimitKB int64  `json:"limit_kb"`
	Failcnt int64  `json:"failcnt"`
}

// OOMTask is one row of the OOM killer's task table (mm/oom_kill.c dump_task), its columns
// named by the table's header as this kernel printed it: "[ pid ]   uid  tgid total_vm
// rss nr_ptes swapents oom_score_adj name" (3.x), "pgtables_bytes" for nr_ptes (4.15+),
// "rss_anon rss_file rss_shmem" (6.x).
type OOMTask struct {
	Name   string           `json:"name"`
	Fields *kernel.Counters `json:"fields"`
}

var (
	reTaskLine   = lazyre.New(`^(?:CPU: (\d+) (?:UID: (\d+) )?PID: (\d+) Comm: (\S+)|Pid: (\d+), comm: (\S+))`)
	reSuppressed = lazyre.New(`^(?:warn_alloc|slab_out_of_memory|warn_alloc_show_mem): (\d+) callbacks suppressed`)
	reSlabNode   = lazyre.New(`^node (\d+): slabs: (\d+), ?objs: (\d+), ?free: (\d+)`)
	reMemcgUsage = lazyre.New(`^([a-z+]+): usage (\d+)kB, limit (\d+)kB, failcnt (\d+)`)
	reOOMScore   = lazyre.New(`(?:Kill process (\d+) \(([^)]*)\))? score (\d+) or sacrifice child`)
)

// taskTableDefault is the 3.x header (and 4.15+'s, with pgtables_bytes for nr_ptes), for rows
// whose header the paste cut; taskTableByWidth holds the layouts that a row's count of numbers
// tells apart: 4.0-4.14 added nr_pmds (commit dc6c9a35b66b, "mm: account pmd page tables to
// the process"), 6.x split rss into rss_anon, rss_file and rss_shmem (mm/oom_kill.c dump_task).
var taskTableDefault = []string{"pid", "uid", "tgid", "total_vm", "rss", "nr_ptes", "swapents", "oom_score_adj"}

var taskTableByWidth = map[int][]string{
	8:  {"pid", "uid", "tgid", "total_vm", "rss", "nr_ptes", "nr_pmds", "swapents", "oom_score_adj"},
	10: {"pid", "uid", "tgid", "total_vm", "rss", "rss_anon", "rss_file", "rss_shmem", "pgtables_bytes", "swapents", "oom_score_adj"},
}

// setUptime keeps the header line's dmesg stamp; an exact decimal in microseconds, so the
// division gives the float nearest the printed seconds.
func (x *reportExtras) setUptime(l *Line) {
	if l != nil && l.UptimeUsec > 0 {
		x.UptimeS = float64(l.UptimeUsec) / 1e6
	}
}

// addTask reads a task line.
func (x *reportExtras) addTask(s string) {
	m := reTaskLine.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil || x.Task != nil {
		return
	}
	t := &TaskLine{}
	if m[3] != "" {
		cpu, _ := strconv.Atoi(m[1])
		t.CPU = &cpu
		if m[2] != "" {
			uid, _ := strconv.ParseInt(m[2], 10, 64)
			t.UID = &uid
		}
		t.PID, _ = strconv.ParseInt(m[3], 10, 64)
		t.Comm = m[4]
	} else {
		t.PID, _ = strconv.ParseInt(m[5], 10, 64)
		t.Comm = m[6]
	}
	x.Task = t
}

// addSuppressed reads "warn_alloc: 59 callbacks suppressed" (lib/ratelimit.c ___ratelimit).
func (x *reportExtras) addSuppressed(s string) {
	if m := reSuppressed.FindStringSubmatch(strings.TrimSpace(s)); m != nil {
		x.Suppressed, _ = strconv.ParseInt(m[1], 10, 64)
	}
}

// addSlabNode reads a SLUB failure's per-node line.
func (x *reportExtras) addSlabNode(s string) {
	m := reSlabNode.FindStringSubmatch(strings.TrimSpace(s))
	if m == nil {
		return
	}
	n := SlabNode{}
	n.Node, _ = strconv.Atoi(m[1])
	n.Slabs, _ = strconv.ParseInt(m[2], 10, 64)
	n.Objs, _ = strconv.ParseInt(m[3], 10, 64)
	n.Free, _ = strconv.ParseInt(m[4], 10, 64)
	x.SlabNodes = append(x.SlabNodes, n)
}

// addOOMLine reads the OOM report's lines that carry numbers: the memcg counters and stats,
// the kill line's score, the task table's header and rows.
func (x *reportExtras) addOOMLine(s string, header *[]string) {
	s = strings.TrimSpace(s)
	if m := reMemcgUsage.FindStringSubmatch(s); m != nil {
		u := MemcgUsage{Counter: m[1]}
		u.UsageKB, _ = strconv.ParseInt(m[2], 10, 64)
		u.LimitKB, _ = strconv.ParseInt(m[3], 10, 64)
		u.Failcnt, _ = strconv.ParseInt(m[4], 10, 64)
		x.MemcgUsage = append(x.MemcgUsage, u)
		return
	}
	if m := reOOMScore.FindStringSubmatch(s); m != nil {
		x.Score, _ = strconv.ParseInt(m[3], 10, 64)
		if pid, err := strconv.ParseInt(m[1], 10, 64); err == nil {
			x.Selected = &SelectedTask{PID: pid, Comm: m[2]}
		}
		return
	}
	if strings.HasPrefix(s, "Memory cgroup stats for ") {
		// "Memory cgroup stats for /a: cache:28030012KB rss:3958288KB ..." (3.x-4.x)
		_, rest, ok := strings.Cut(s, ": ")
		if !ok || x.addMemcgV2Stat(rest) { // or v2's first key joined to the line (fix52a)
			return
		}
		for _, f := range fields(rest) {
			k, v, ok := strings.Cut(f, ":")
			if !ok {
				continue
			}
			v = strings.TrimSuffix(strings.TrimSuffix(v, "KB"), "kB")
			if n, ok := atoi(v); ok {
				if x.MemcgStats == nil {
					x.MemcgStats = &kernel.Counters{}
				}
				x.MemcgStats.Set(k+"_kb", n)
			}
		}
		return
	}
	if !strings.HasPrefix(s, "[") {
		return
	}
	e := strings.IndexByte(s, ']')
	if e < 0 {
		return
	}
	head := strings.TrimSpace(s[1:e])
	cols := fields(s[e+1:])
	if head == "pid" {
		// "[ pid ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name"
		h := []string{"pid"}
		for _, c := range cols {
			if c != "name" {
				h = append(h, c)
			}
		}
		*header = h
		return
	}
	pid, ok := atoi(head)
	if !ok || len(cols) < 2 {
		return
	}
	h := *header
	if h == nil {
		h = taskTableDefault
		if w, ok := taskTableByWidth[len(cols)-1]; ok {
			h = w
		}
	}
	t := OOMTask{Fields: &kernel.Counters{}, Name: cols[len(cols)-1]}
	if len(cols) < len(h) {
		// A row cut short ("[29039]     0 29039  8457", corpus case 380): its last cell is
		// a number the cut truncated, not the comm.
		t.Name = ""
		if _, ok := atoi(cols[len(cols)-1]); ok {
			cols = append(cols, "")
		}
	}
	t.Fields.Set("pid", pid)
	for i, c := range cols[:len(cols)-1] {
		if i+1 >= len(h) {
			break
		}
		if n, ok := atoi(c); ok {
			t.Fields.Set(h[i+1], n)
		}
	}
	x.Tasks = append(x.Tasks, t)
}

// KernelLogData is the data of the "kernel_log" artifact: how many records the text's kernel
// log holds, and the "N callbacks suppressed" lines among them, whose counts are messages the
// kernel did not print (lib/ratelimit.c ___ratelimit: "%s: %d callbacks suppressed").
type KernelLogData struct {
	Records    int              `json:"records"`
	Suppressed []SuppressedLine `json:"suppressed,omitempty"`
	// Numbers are the numbers of the log's messages that state a size or a limit
	// (logNumbers): the conntrack table at boot, the vmalloc requests that failed.
	Numbers []LogNumbers `json:"numbers,omitempty"`
	// AllocFailureFrames are call-trace frames of warn_alloc (warn_alloc_failed before 4.9,
	// mm/page_alloc.c) on log lines outside any report: allocation failures whose header
	// the text does not have (an excerpt cut it, or "dmesg | grep warn_alloc" kept only the
	// frame). Order and mode are unknown; that failures happened is not.
	AllocFailureFrames []LogFrame `json:"alloc_failure_frames,omitempty"`
}

// LogFrame is one call-trace frame found on a log line.
type LogFrame struct {
	Line     int    `json:"line"`
	Function string `json:"function"`
}

// allocFailureFrame reports the warn_alloc frame of a log line, if it has one; the
// caller has checked that the line contains "warn_alloc".
func allocFailureFrame(text string) (string, bool) {
	if traceLineKind(text) != "frame" {
		return "", false
	}
	var ct CallTrace
	var from string
	ct.addTraceLine(text, &from)
	ct.finish(&from)
	for _, f := range ct.Functions {
		if f = strings.TrimPrefix(f, "? "); f == "warn_alloc" || f == "warn_alloc_failed" {
			return f, true
		}
	}
	return "", false
}

// LogNumbers is one message's numbers by name.
type LogNumbers struct {
	Line    int              `json:"line"`
	Message string           `json:"message"`
	Values  map[string]int64 `json:"values"`
}

// logSynFlood reads the port of "TCP: request_sock_TCP: Possible SYN flooding on port 443.
// Sending cookies." (net/ipv4/tcp_input.c tcp_syn_flood_action; 2.6-3.x "possible SYN flooding
// on port 80. Sending cookies."), kept with the log's other numbers; has says whether t holds
// "SYN flooding on port " (the caller knows it cheaply).
func logSynFlood(t string, has bool) (port int64, ok bool) {
	if !has {
		return 0, false
	}
	_, rest, _ := strings.Cut(t, "SYN flooding on port ")
	return atoi(strings.TrimRight(firstField(rest), ".,"))
}

// synFloodPortsKept bounds the SYN flood ports a log keeps: a flood logs the same line for
// each burst (one port, or a few), and a log of millions of them keeps one record per port,
// not one per line.
const synFloodPortsKept = 64

// logNumbers reads the numbers of the messages that state a size or a limit:
//
//	"nf_conntrack version 0.5.0 (16384 buckets, 65536 max)" (net/netfilter/nf_conntrack_core.c
//	    nf_conntrack_init_start: the table's hash size and nf_conntrack_max at boot)
//	"vmap allocation for size 20480 failed: use vmalloc=<size> ..." (mm/vmalloc.c
//	    alloc_vmap_area: the vmalloc address space, not memory, ran out)
//	"insmod: vmalloc error: size 16384, vm_struct allocation failed, ..." (mm/vmalloc.c
//	    __vmalloc_node_range's warn_alloc, 5.x+)
//	"tracebox: vmalloc: allocation failure: 32768 bytes, mode:0xcc0(GFP_KERNEL), ..." and
//	"vmalloc: allocation failure, allocated 12288 of 20480 bytes" (fix60c: the same
//	    warn_alloc's words from 4.12 to 5.12, __vmalloc_node_range and __vmalloc_area_node)
//
// It runs on every kernel log line, so each test starts with a prefix or one Contains.
//
// vmallocErr says whether t holds "vmalloc error: size " or vmallocFailure (the caller
// knows it cheaply).
func logNumbers(no int, t string, vmallocErr bool) (LogNumbers, bool) {
	if !vmallocErr && (t == "" || t[0] != 'n' && t[0] != 'v') {
		return LogNumbers{}, false // neither prefix below
	}
	switch {
	case strings.HasPrefix(t, "nf_conntrack version "):
		var b, m int64
		if _, rest, ok := strings.Cut(t, "("); ok {
			fs := fields(strings.NewReplacer(",", " ", ")", " ").Replace(rest))
			for j := 0; j+1 < len(fs); j++ {
				if n, ok := atoi(fs[j]); ok {
					switch fs[j+1] {
					case "buckets":
						b = n
					case "max":
						m = n
					}
				}
			}
		}
		if b == 0 && m == 0 {
			return LogNumbers{}, false
		}
		return LogNumbers{Line: no, Message: "nf_conntrack version", Values: map[string]int64{"buckets": b, "max": m}}, true
	case strings.HasPrefix(t, "vmap allocation for size "):
		if n, ok := atoi(firstField(strings.TrimPrefix(t, "vmap allocation for size "))); ok {
			return LogNumbers{Line: no, Message: "vmap allocation failed", Values: map[string]int64{"size": n}}, true
		}
	case vmallocErr && strings.Contains(t, vmallocFailure):
		_, rest, _ := strings.Cut(t, vmallocFailure)
		if n, ok := atoi(firstField(strings.TrimPrefix(rest, ": "))); ok && strings.HasPrefix(rest, ": ") {
			return LogNumbers{Line: no, Message: "vmalloc allocation failure", Values: map[string]int64{"size": n}}, true
		}
		// ", allocated 12288 of 20480 bytes": the pages it got before one failed, of the size.
		if fs := fields(strings.TrimPrefix(rest, ",")); len(fs) >= 4 && fs[0] == "allocated" && fs[2] == "of" {
			got, ok1 := atoi(fs[1])
			if size, ok2 := atoi(fs[3]); ok1 && ok2 {
				return LogNumbers{Line: no, Message: "vmalloc allocation failure", Values: map[string]int64{"allocated": got, "size": size}}, true
			}
		}
	case vmallocErr:
		_, rest, _ := strings.Cut(t, "vmalloc error: size ")
		if n, ok := atoi(strings.TrimSuffix(firstField(rest), ",")); ok {
			return LogNumbers{Line: no, Message: "vmalloc error", Values: map[string]int64{"size": n}}, true
		}
	}
	return LogNumbers{}, false
}

// vmallocFailure opens warn_alloc's message for a failed vmalloc from 4.12 to 5.12
// (mm/vmalloc.c); 5.13+ writes "vmalloc error: size ".
const vmallocFailure = "vmalloc: allocation failure"

// SuppressedLine is one "net_ratelimit: 23807 callbacks suppressed" line.
type SuppressedLine struct {
	Line     int    `json:"line"`
	Function string `json:"function"`
	Count    int64  `json:"count"`
}

// suppressedLine reads a "callbacks suppressed" line; the caller has checked the suffix,
// since it runs on every kernel log line.
func suppressedLine(no int, text string) (SuppressedLine, bool) {
	if sl, ok := suppressedUsual(no, text); ok {
		return sl, true
	}
	return suppressedLineGeneral(no, text)
}

// suppressedSuffix ends every line suppressedLine reads.
const suppressedSuffix = " callbacks suppressed"

// suppressedUsual reads the usual "name: N callbacks suppressed" (lib/ratelimit.c
// ___ratelimit) in one pass back from the end, and says false of any other shape, which
// suppressedLineGeneral then reads: a first byte that is ASCII and not blank and the suffix
// at the very end leave its trims nothing to do, and N of at most 18 digits cannot
// overflow. One kernel line in ten of the bench's syslog is net_ratelimit's, and the trims,
// strconv and LastIndexAny of the general reading were 2% of its parse (issue 33, perf15q;
// TestSuppressedUsualIsGeneral).
func suppressedUsual(no int, text string) (SuppressedLine, bool) {
	if len(text) <= len(suppressedSuffix) || text[0] <= ' ' || text[0] >= utf8.RuneSelf || !strings.HasSuffix(text, suppressedSuffix) {
		return SuppressedLine{}, false
	}
	r := text[:len(text)-len(suppressedSuffix)]
	j := len(r)
	for j > 0 && isDigit(r[j-1]) {
		j--
	}
	if nd := len(r) - j; nd == 0 || nd > 18 || j < 2 || r[j-1] != ' ' || r[j-2] != ':' {
		return SuppressedLine{}, false
	}
	var n int64
	for i := j; i < len(r); i++ {
		n = n*10 + int64(r[i]-'0')
	}
	fn := r[:j-2]
	for i := len(fn) - 1; i >= 0; i-- {
		if fn[i] == ' ' || fn[i] == ']' {
			fn = fn[i+1:]
			break
		}
	}
	return SuppressedLine{Line: no, Function: fn, Count: n}, true
}

// suppressedLineGeneral is suppressedLine for any shape.
func suppressedLineGeneral(no int, text string) (SuppressedLine, bool) {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(text), " callbacks suppressed"))
	sp := strings.LastIndexByte(s, ' ')
	if sp <= 0 || !strings.HasSuffix(s[:sp], ":") {
		return SuppressedLine{}, false
	}
	n, ok := atoi(s[sp+1:])
	if !ok {
		return SuppressedLine{}, false
	}
	fn := s[:sp-1]
	if i := strings.LastIndexAny(fn, " ]"); i >= 0 {
		fn = fn[i+1:]
	}
	return SuppressedLine{Line: no, Function: fn, Count: n}, true
}

const synFloodTemplateWhy = "the SYN flood message with a placeholder for its port (\"port X\"): the message's form as a guide lists it, not a line this host logged"

// synFloodTemplate reports whether the line is the SYN flood message with a placeholder for
// its port (kernel.SynFloodPortPlaceholder: "port X", "port <port>") on a line of its own: a
// KB's or a guide's list of the message's forms ("kernel: possible SYN flooding on port X.",
// "kernel: TCPv6: Possible SYN flooding on port X."). Before the message only the prefixes
// the kernel prints may stand (a quote or a list mark too): a line that joined a real record
// to a quoted template (a wrapped paste) stays that record. has says whether t holds "SYN
// flooding on port " (the caller knows it cheaply).
func synFloodTemplate(t string, has bool) bool {
	if !has || !kernel.SynFloodPortPlaceholder(t) || kernel.SynFloodRedacted(t) {
		return false // a reporter's own record with its port redacted is read (fix38a)
	}
	before, _, _ := strings.Cut(t, "SYN flooding on port ")
	for _, w := range fields(strings.Trim(before, " \t\"'`>*•-")) {
		switch strings.Trim(w, "\"'`") {
		case "kernel:", "TCP:", "TCPv6:", "request_sock_TCP:", "request_sock_TCPv6:", "Possible", "possible":
		default:
			return false
		}
	}
	return true
}
