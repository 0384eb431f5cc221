package artifact

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// OOM-killer reports (mm/oom_kill.c) across eras:
//
//	2.6.12   "oom-killer: gfp_mask=0xd2"
//	2.6.1x   "oom-killer: gfp_mask=0xd0, order=0"
//	2.6.2x-  "java invoked oom-killer: gfp_mask=0x201da, order=0, oomkilladj=0"
//	2.6.36-  "... gfp_mask=0x280da, order=0, oom_adj=0, oom_score_adj=0"
//	4.x-     "... gfp_mask=0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), order=0, oom_score_adj=0"
//	4.12-    "... gfp_mask=0x14200ca(GFP_HIGHUSER_MOVABLE), nodemask=(null),  order=0, oom_score_adj=0"
//	kill:    "Out of Memory: Killed process 1234 (java)." (2.6), "Out of memory: Kill process 1234
//	         (java) score 900 or sacrifice child" + "Killed process 1234 (java) total-vm:NkB,
//	         anon-rss:NkB, file-rss:NkB[, shmem-rss:NkB (4.6+)]" (3.x-4.x), "Out of memory: Killed
//	         process 1234 (java) total-vm:... UID:0 pgtables:NkB oom_score_adj:0" (5.x)
//	memcg:   "Memory cgroup out of memory: Kill process ...", "Task in /a killed as a result of
//	         limit of /a" (3.x-4.x), "oom-kill:constraint=CONSTRAINT_MEMCG,...,oom_memcg=/a,..." (4.19+)
//
// SLUB failures (mm/slub.c slab_out_of_memory):
//
//	"SLUB: Unable to allocate memory on node -1 (gfp=0x20)" (2.6.3x-3.x)
//	"SLUB: Unable to allocate memory on node -1, gfp=0x20(GFP_ATOMIC)" (4.x-)
//	"SLUB: Unable to allocate memory on CPU 0 (of node 0) on node -1, gfp=0x820(GFP_ATOMIC)"
//	         (6.x: slab_out_of_memory names the CPU that tried, and its node, first)
//	"  cache: kmalloc-2048, object size: 2048, buffer size: 2048, default order: 3, min order: 0"
//	"  node 0: slabs: 123, objs: 456, free: 0"
var (
	reOOMInvoked = lazyre.New(`^(?:(.*?) invoked )?oom-killer: gfp_mask=([^,\s]+(?:\([^)]*\))?)(?:,(?:\s*nodemask=[^,]*,)?\s*order=(-?\d+)(?:, (?:oomkilladj|oom_adj)=-?\d+)?(?:, oom_score_adj=(-?\d+))?)?`)
	// RHEL 6's kernel puts the victim's uid between its pid and comm: "Killed process
	// 16929, UID 0, (beam.smp) total-vm:..." (CentOS 7's "Killed process 918 (mysqld), UID
	// 27, total-vm:..." puts it after the comm, where the rest of the line holds it).
	// Runs of spaces between the words are a re-typed or re-flowed line's ("Kill process
	// 1234 (java)  score 900"); the kernel prints one.
	// OpenVZ/Virtuozzo's container OOM killer words it "OOM killed process N (x)" (isUBOOMKill).
	reOOMKilled = lazyre.New(`(?:Kill|Killed|OOM killed) +process +(\d+)(?:, UID \d+,)? +\(([^)]*)\)(.*)`)
	// The kill line by its fields alone, whatever words precede the pid: a page translated
	// by a browser prints "Out of memory: Process stopped 2953 (python) total-vm:8142876kB,
	// anon-rss:..." (corpus 505). "pid (comm) total-vm:NkB" is printed only by the kill
	// (mm/oom_kill.c __oom_kill_process); oom_reaper's line has no total-vm.
	reOOMKilledShape = lazyre.New(`\b(\d+) \(([^)]*)\),?(?: UID \d+,)? (total-vm:\d+kB.*)`)
	reOOMKV          = lazyre.New(`([a-z_-]+):(-?\d+)kB`)
	reOOMAdj         = lazyre.New(`oom_score_adj:(-?\d+)`)
	reTaskIn         = lazyre.New(`^Task in (\S+) killed as a result of limit of (\S+)`)
	reSlubHead       = lazyre.New(`SLUB: Unable to allocate memory (?:on CPU \d+ \(of node -?\d+\) )?on node (-?\d+)[, (]+gfp=([^,\s()]+(?:\([^)]*\))?)`)
	reSlubCache      = lazyre.New(`cache: ([^,]+), object size: (\d+), buffer size: (\d+), default order: (\d+), min order: (\d+)`)
)

func isOOMHeader(t string) bool {
	return strings.Contains(t, "oom-killer: gfp_mask=") || isOOMKillPhrase(t) || isOOMExcerptHeader(t)
}

// isOOMKillPhrase: the OOM killer's line naming the task it chose, "Out of memory: Kill
// process N" (2.6.1x "Out of Memory: Killed process N"), and the same line when
// vm.oom_kill_allocating_task is set: mm/oom_kill.c out_of_memory kills the allocating task
// with the message "Out of memory (oom_kill_allocating_task)" (3.x-4.x "...: Kill process N
// (x) score 0 or sacrifice child"; 5.x "...: Killed process N").
func isOOMKillPhrase(t string) bool {
	if strings.Contains(t, ":  ") && strings.Contains(t, "rocess") {
		// "Memory cgroup out of memory:  Kill process  1234 (java) ...": re-typed spacing
		t = collapseSpaces(t)
	}
	return (strings.Contains(t, "ut of memory: Kill") || strings.Contains(t, "ut of Memory: Kill") ||
		strings.Contains(t, "ut of memory (oom_kill_allocating_task): Kill") || isUBOOMKill(t)) && !oomKillPlaceholder(t)
}

// reUBOOM: the OpenVZ/Virtuozzo kernel's per-container OOM killer (kernel/bc/oom_kill.c
// ub_oom_kill / out_of_memory_in_ub passes "Out of memory in UB" to oom_kill_process):
// "Out of memory in UB 317592: OOM killed process 2946 (npm) score 0 vm:1506164kB,
// rss:237752kB, swap:120052kB". The container (its beancounter id, "UB N") hit its own
// memory limit; the host's RAM is not what ran out. A line cut after "process" still
// reports the kill.
var reUBOOM = lazyre.New(`ut of memory in UB (\w+): OOM killed process\b`)

// isUBOOMKill reports whether t is the OpenVZ container OOM killer's kill line.
func isUBOOMKill(t string) bool {
	return strings.Contains(t, "ut of memory in UB ") && reUBOOM.MatchString(t)
}

// collapseSpaces turns each run of spaces in t into one.
func collapseSpaces(t string) string {
	var b strings.Builder
	b.Grow(len(t))
	prev := byte(0)
	for i := 0; i < len(t); i++ {
		if t[i] == ' ' && prev == ' ' {
			continue
		}
		prev = t[i]
		b.WriteByte(t[i])
	}
	return b.String()
}

// reOOMKillPlaceholder: a kill line whose victim is a placeholder: "Kill process ...",
// "Killed process <pid> (<comm>)", "%d", "{pid}", "$PID", "N", "[pid] [name]" (the pattern
// a reader searched for and quotes as absent: "there are no `Out of Memory: Killed process
// [pid] [name].` in kern.log"). A victim redacted by hand ("Kill process xxxx(juci-eventd)
// score 673", corpus 706) keeps the kernel's other fields.
var (
	reOOMKillPlaceholder = lazyre.New(`(?i)\bkill(?:ed)?\s+process\s+(?:\.\.\.|…|<[^>]*>|\[[^\]]*\]|%d|\{[^}]*\}|\$\w+|pid\b|n\b)`)
	reOOMKillFields      = lazyre.New(`\bscore \d|total-vm:\d|anon-rss:\d`)
)

// oomKillPlaceholder reports whether the kill line stands for the message's form, not a kill:
// its victim a placeholder (reOOMKillPlaceholder) and none of the numbers the kernel prints
// with a victim (mm/oom_kill.c: "%d (%s) score %u", "total-vm:%lukB, anon-rss:%lukB"), as in
// a guide's "Out of memory: Kill process ... (memory used: X.XGB, process memory: X.XGB,
// process oom_score_adj: X) in dmesg".
func oomKillPlaceholder(t string) bool {
	return reOOMKillPlaceholder.MatchString(t) && !reOOMKillFields.MatchString(t)
}

// isOOMExcerptHeader: lines that report a kill on their own when the header was cut (an
// excerpt from grep, or the first line lost): the 2.4 kernel's "VM: killing process x"
// (mm/oom_kill.c oom_kill_task), a memcg's "Task in /a killed as a result of limit of /b"
// (3.x-4.x mem_cgroup_print_oom_info), 4.19+'s "oom-kill:constraint=..." line, and a bare
// "Killed process 1234 (x)" line.
func isOOMExcerptHeader(t string) bool {
	s := strings.TrimSpace(t)
	return strings.HasPrefix(s, "VM: killing process ") || strings.HasPrefix(s, "Task in ") && strings.Contains(s, " killed as a result of limit of ") ||
		strings.HasPrefix(s, "oom-kill:constraint=") || strings.HasPrefix(s, "Killed process ") && reOOMKilled.MatchString(s) ||
		killSacrificeCut(s) ||
		strings.HasPrefix(s, "Out of memory: ") && reOOMKilledShape.MatchString(s) || killPhraseHeading(s)
}

// killSacrificeCut: 3.x-4.x oom_kill_process's victim line with its "Out of memory: " (or
// "Memory cgroup out of memory: ") cut off, as a grep -o or a cut of the field prints it:
// "Kill process 2345 (tikv-server) score 912 or sacrifice child". The kernel's whole tail
// (the score and "or sacrifice child") is the proof; a sentence does not end so (h23b).
func killSacrificeCut(s string) bool {
	return strings.HasPrefix(s, "Kill process ") && strings.HasSuffix(s, " or sacrifice child") &&
		!oomKillPlaceholder(s) && reOOMKilled.MatchString(s)
}

// reKillPhraseAlone: the whole of the OOM killer's victim phrase, "Kill process N (x)"
// (3.x-4.x mm/oom_kill.c oom_kill_process: "%s: Kill process %d (%s) score %u or sacrifice
// child") or "Killed process N (x)", and nothing else.
var reKillPhraseAlone = lazyre.New(`^Kill(?:ed)? process (\d+) \(([^)\s]+)\)$`)

// killPhraseHeading: a markdown heading (an issue's title, "# Kill process 204002
// (ganesha.nfsd)") that is the OOM killer's victim phrase and nothing more: the kernel's
// words copied as the report's name. A heading that says more ("# Kill process 1234 (java)
// to free memory?") or a sentence is not the phrase.
func killPhraseHeading(s string) bool {
	if len(s) < 2 || s[0] != '#' {
		return false
	}
	h := strings.TrimLeft(s, "#")
	if len(h) == len(s) || h == "" || h[0] != ' ' {
		return false
	}
	h = strings.TrimSpace(h)
	return strings.HasPrefix(h, "Kill") && reKillPhraseAlone.MatchString(h)
}

// killedProcess reads a kill line: pid, comm and what follows them.
func killedProcess(s string) []string {
	if m := reOOMKilled.FindStringSubmatch(s); m != nil {
		return m
	}
	return reOOMKilledShape.FindStringSubmatch(s)
}

// The OOM killer's task table without the rest of its report (corpus case 380: an issue's
// excerpt of "dmesg -T" holding only rows). dump_tasks (mm/oom_kill.c) prints it only from
// dump_header, that is only while the OOM killer is choosing a victim, so the table alone
// proves a kill: 4.19+ print "Tasks state (memory values in pages):" first, then the header
// "[  pid  ]   uid  tgid total_vm      rss pgtables_bytes swapents oom_score_adj name" (the
// columns changed across eras: nr_ptes, nr_pmds, rss_anon/rss_file/rss_shmem in 6.x), then one
// "[%7d] %5d %5d %8lu %8lu ... %5hd %s" row per task.

// isOOMTaskRow: "[ 1234]     0  1234   123456    65432 ... name": a bracketed pid, at least
// six numbers (uid, tgid, total_vm, rss, a page-table count and oom_score_adj in the
// shortest layout, 2.6.3x's "cpu oom_adj" instead), then the comm.
func isOOMTaskRow(t string) bool {
	s := trimBlankLeft(t)
	if len(s) < 4 || s[0] != '[' {
		return false
	}
	e := strings.IndexByte(s, ']')
	if e < 2 || !isDigits(strings.TrimSpace(s[1:e])) {
		return false
	}
	// At least six numeric columns, then a name: counted without splitting the line, since
	// every line of a log is asked (mayStartReport).
	rest, nums := s[e+1:], 0
	for {
		rest = strings.TrimLeft(rest, " \t")
		if rest == "" {
			return false // no name after the numbers
		}
		end := strings.IndexAny(rest, " \t")
		if end < 0 {
			end = len(rest)
		}
		if _, ok := atoi(rest[:end]); !ok {
			return nums >= 6
		}
		nums++
		rest = rest[end:]
	}
}

// isOOMTaskHeader: the table's header ("[ pid ]" with its column names) or 4.19+'s line before it.
func isOOMTaskHeader(t string) bool {
	// Every line of a log is asked (mayStartReport): one whose first byte after blanks
	// is neither of the two the header starts with is settled before any trimming.
	if b := trimBlankLeft(t); b != "" && b[0] != 'T' && b[0] != '[' && b[0] < utf8.RuneSelf && !asciiSpace(b[0]) {
		return false
	}
	s := strings.TrimSpace(t)
	if strings.HasPrefix(s, "Tasks state (memory values in pages)") {
		return true
	}
	if !strings.HasPrefix(s, "[") {
		return false
	}
	e := strings.IndexByte(s, ']')
	// The header cut after its first columns ("[ pid ]   uid  tgid t", a paste that ends
	// inside it): dump_tasks' "[  pid  ]   uid  tgid" is the kernel's alone.
	// (fix22d: its columns are told by their names, not their spacing: a page that squashes
	// white space runs prints "[ pid ] uid tgid total".)
	return e > 0 && strings.TrimSpace(s[1:e]) == "pid" && (strings.Contains(s[e:], "total_vm") ||
		uidTgidNext(s[e+1:]))
}

// uidTgidNext reports whether t's first two words are dump_tasks' "uid" and "tgid", however
// many blanks stand between them.
func uidTgidNext(t string) bool {
	t = strings.TrimLeft(t, " \t")
	rest, ok := strings.CutPrefix(t, "uid")
	if !ok || rest == "" || (rest[0] != ' ' && rest[0] != '\t') {
		return false
	}
	rest = strings.TrimLeft(rest, " \t")
	return rest == "tgid" || strings.HasPrefix(rest, "tgid ") || strings.HasPrefix(rest, "tgid\t")
}

// mayStartOOMTaskTable is the one-line test of startsOOMTaskTable, for the streaming reader's
// filter (stream.go mayStartReport).
func mayStartOOMTaskTable(t string) bool {
	// Both start with '[' or 'T' after blanks (isOOMTaskHeader's first test, once).
	if b := trimBlankLeft(t); b != "" && b[0] != 'T' && b[0] != '[' && b[0] < utf8.RuneSelf && !asciiSpace(b[0]) {
		return false
	}
	return isOOMTaskHeader(t) || isOOMTaskRow(t)
}

// startsOOMTaskTable: ls[i] opens a task table whose report header is not in the text: the
// table's header, or a row followed by another (one row alone is too little to tell).
func startsOOMTaskTable(ls []Line, used []bool, i int) bool {
	t := ls[i].Text
	if isOOMTaskHeader(t) {
		return true
	}
	if !isOOMTaskRow(t) {
		return false
	}
	if loneOOMTaskRow(ls[i]) {
		return true
	}
	for j := i + 1; j < len(ls); j++ {
		if used != nil && used[j] {
			continue
		}
		return isOOMTaskRow(ls[j].Text)
	}
	return false
}

// startsMemcgOOMInfo: a memory cgroup's counter line of an OOM report whose header is not in
// the text ("memory: usage 1048576kB, limit 1048576kB, failcnt 141"). Only dump_header
// (mm/oom_kill.c) prints it, through mem_cgroup_print_oom_meminfo (mm/memcontrol.c), for an
// OOM constrained to that cgroup: a memcg OOM happened. The first counter printed is
// "memory:" (cgroup v1 and v2); "memory+swap:", "swap:" and "kmem:" follow it.
func startsMemcgOOMInfo(t string) bool {
	if b := trimBlankLeft(t); !strings.HasPrefix(b, "memory: usage ") {
		return false
	}
	return reMemcgUsage.MatchString(strings.TrimSpace(t))
}

// oomReport collects the OOM report that starts at line i (its header read into o, its mode's
// value v) and adds its event and artifact. A report that starts at a task table reads that
// first line too (collectReport reads the lines after the first).
func (d *doc) oomReport(i int, o *model.OOMKill, v uint64) bool { return d.oomReportNoted(i, o, v, "") }

// oomReportNoted is oomReport with a note on how the report was recognised (oomtrace.go).
func (d *doc) oomReportNoted(i int, o *model.OOMKill, v uint64, note string) bool {
	r := report{kind: "oom", oom: o}
	if note != "" {
		r.notes = append(r.notes, note)
	}
	if t := d.ls[i].Text; isOOMTaskHeader(t) || isOOMTaskRow(t) {
		r.x.addOOMLine(t, &r.taskHeader)
		r.notes = append(r.notes, "the OOM killer's task table without its report header: only dump_tasks (mm/oom_kill.c) prints it, "+
			"during an OOM kill, so a kill happened; its trigger, constraint and victim are not in the text")
	} else if note != "" && reportLineKind(t) == "task" {
		r.x.addTask(t) // a headerless trace that starts at dump_stack's CPU line (oomtrace.go)
	} else if note != "" {
		r.trace.addTraceLine(t, &r.from) // or at its "Call Trace:" marker
	} else if isOOMChoice(t) {
		r.x.addOOMLine(t, &r.taskHeader) // a report that starts at its kill line: its score
	} else if path, ok := memcgOOMStatsPath(t); ok && startsMemcgOOMStats(t) {
		r.x.addOOMLine(t, &r.taskHeader) // v1's stats on the line
		o.Constraint, o.Memcg = "CONSTRAINT_MEMCG", path
		r.notes = append(r.notes, memcgOOMStatsNote)
	} else if startsMemcgOOMInfo(t) {
		r.x.addOOMLine(t, &r.taskHeader)
		o.Constraint = "CONSTRAINT_MEMCG"
		r.notes = append(r.notes, "a memory cgroup's counters from an OOM report whose header is not in the text: only dump_header "+
			"(mm/oom_kill.c, mem_cgroup_print_oom_meminfo) prints them, for an OOM of that cgroup; its trigger and victim are not in the text")
	}
	collectReport(d.ls, i, d.used, &r)
	d.markUsed(r.used)
	d.reportKernel(&r)
	for _, u := range r.x.MemcgUsage {
		o.MemcgCounters = append(o.MemcgCounters, model.MemcgCounter{Name: u.Counter, UsageKB: u.UsageKB, LimitKB: u.LimitKB, Failcnt: u.Failcnt})
	}
	if r.memcgStatFirst > 0 && r.x.MemcgStats != nil {
		// fix52a: cgroup v2's memory.stat printed in the report is the cgroup's memory.stat,
		// as a pasted one is (tryCgroupMemStat).
		d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: 2, Path: o.Memcg, Stat: r.x.MemcgStats,
			Source: spanSource(r.memcgStatFirst, r.memcgStatLast)})
	}
	ev, art := r.finishOOM(d.ls)
	art.ModeValue = v
	d.tl.Events = append(d.tl.Events, ev)
	a := &art
	d.gfpLater = append(d.gfpLater, a)
	d.addArtifact(KindOOMKill, ev.FirstLine, ev.LastLine, a)
	return true
}

func isSlabHeader(t string) bool { return strings.Contains(t, "SLUB: Unable to allocate memory") }

// isOOMDetail matches the lines that follow an OOM header.
func isOOMDetail(s string) bool {
	switch {
	case isOOMKillPhrase(s),
		strings.HasPrefix(s, "Killed process "), strings.HasPrefix(s, "Task in "),
		strings.HasPrefix(s, "memory: usage"), strings.HasPrefix(s, "memory+swap: usage"),
		strings.HasPrefix(s, "kmem: usage"), strings.HasPrefix(s, "Memory cgroup stats"),
		// cgroup v2's swap counter, in memory+swap's place (mm/memcontrol.c
		// mem_cgroup_print_oom_meminfo: "swap: usage %llukB, limit %llukB, failcnt %lu").
		strings.HasPrefix(s, "swap: usage"),
		strings.HasPrefix(s, "oom-kill:"), strings.HasPrefix(s, "oom_reaper:"),
		strings.HasPrefix(s, "Tasks state"), strings.HasPrefix(s, "[ pid ]"),
		strings.HasPrefix(s, "mems_allowed="), strings.Contains(s, "cpuset=") && strings.Contains(s, "mems_allowed="),
		strings.HasPrefix(s, "Memory cgroup out of memory"),
		strings.HasPrefix(s, "Out of memory: ") && reOOMKilledShape.MatchString(s):
		return true
	}
	// task table rows: "[ 1234]     0  1234   123456    65432 ..."
	if strings.HasPrefix(s, "[") {
		if e := strings.IndexByte(s, ']'); e > 1 && (isDigits(strings.TrimSpace(s[1:e])) || strings.TrimSpace(s[1:e]) == "pid") {
			return true
		}
	}
	return false
}

// reSlubCacheTail is the end of a cache line that a mail client wrapped after "default
// order:" or "default" (corpus case 121): "0, min order: 0", "order: 0, min order: 0".
var reSlubCacheTail = lazyre.New(`^(?:order: )?\d+, min order: \d+$`)

// reSlubCachePart is the head of a cache line up to its name and, when printed, the object
// size: all a cut line may hold.
var reSlubCachePart = lazyre.New(`^cache: ([^,]+),(?: object size: (\d+),)?`)

func isSlabDetail(s string) bool {
	return strings.HasPrefix(s, "cache: ") && strings.Contains(s, "object size:") || reSlubCacheTail.MatchString(s) ||
		strings.HasPrefix(s, "node ") && strings.Contains(s, "slabs:") ||
		strings.Contains(s, "debugging increased min order")
}

func (r *report) addOOMDetail(t string) {
	if r.oom == nil {
		return
	}
	s := strings.TrimSpace(t)
	o := r.oom
	if strings.Contains(s, "Memory cgroup out of memory") && o.Constraint == "" {
		o.Constraint = "CONSTRAINT_MEMCG"
	}
	if strings.Contains(s, "ut of memory in UB ") {
		if m := reUBOOM.FindStringSubmatch(s); m != nil {
			// The container's limit, like a memory cgroup's: named by its beancounter.
			o.Constraint, o.Memcg = "CONSTRAINT_MEMCG", "UB "+m[1]
		}
	}
	if m := killedProcess(s); m != nil {
		o.KilledPID, _ = strconv.Atoi(m[1])
		o.KilledComm = m[2]
		for _, kv := range reOOMKV.FindAllStringSubmatch(m[3], -1) {
			v, _ := strconv.ParseInt(kv[2], 10, 64)
			switch kv[1] {
			case "total-vm": // not OpenVZ's "vm:" (reUBOOM): its rss: is not split into anon and file
				o.TotalVMKB = v
			case "anon-rss":
				o.AnonRSSKB = v
			case "file-rss":
				o.FileRSSKB = v
			case "shmem-rss":
				o.ShmemRSSKB = v
			case "pgtables":
				o.PgtablesKB = v
			}
		}
		if a := reOOMAdj.FindStringSubmatch(m[3]); a != nil {
			o.OOMScoreAdj, _ = strconv.ParseInt(a[1], 10, 64)
		}
	}
	if m := reTaskIn.FindStringSubmatch(s); m != nil {
		o.Memcg = m[2]
		o.Constraint = "CONSTRAINT_MEMCG"
	}
	if strings.HasPrefix(s, "oom-kill:") {
		for _, kv := range strings.Split(strings.TrimPrefix(s, "oom-kill:"), ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "constraint":
				o.Constraint = v
			case "oom_memcg":
				o.Memcg = v
			}
		}
	}
}

func (r *report) addSlabDetail(t string) {
	if r.slab == nil {
		return
	}
	s := strings.TrimSpace(t)
	if strings.HasPrefix(s, "cache: ") && !reSlubCache.MatchString(s) {
		r.slabCacheBuf = s // wrapped: the tail follows
		// Or cut, the paste ending inside the line ("cache: xfrm_dst_cache, object size:
		// 448, bu", corpus 545): what it holds is kept; a tail that follows completes it.
		if m := reSlubCachePart.FindStringSubmatch(s); m != nil && r.slab.Cache == "" {
			r.slab.Cache = strings.TrimSpace(m[1])
			r.slab.ObjectSize, _ = strconv.ParseInt(m[2], 10, 64)
		}
		return
	}
	if reSlubCacheTail.MatchString(s) && r.slabCacheBuf != "" {
		t, r.slabCacheBuf = r.slabCacheBuf+" "+s, ""
	}
	if m := reSlubCache.FindStringSubmatch(t); m != nil {
		r.slab.Cache = strings.TrimSpace(m[1])
		r.slab.ObjectSize, _ = strconv.ParseInt(m[2], 10, 64)
		r.slab.BufferSize, _ = strconv.ParseInt(m[3], 10, 64)
		r.slab.DefaultOrder, _ = strconv.Atoi(m[4])
		r.slab.MinOrder, _ = strconv.Atoi(m[5])
	}
}

// oomArtifact is the data of an "oom_kill" artifact.
type oomArtifact struct {
	*model.OOMKill
	reportExtras
	ModeValue uint64             `json:"mode_value"`
	Zones     []model.ZoneReport `json:"zones,omitempty"`
	// The dump's global counters, as an allocation failure's (model.AllocFailure).
	MemInfo    *kernel.Counters `json:"mem_info,omitempty"`
	FreeSwapKB *int64           `json:"free_swap_kb,omitempty"`
	PagesRAM   *int64           `json:"pages_ram,omitempty"`
	CallTrace  []string         `json:"call_trace,omitempty"`
	Notes      []string         `json:"notes,omitempty"`
}

type slabArtifact struct {
	*model.SlabFailure
	reportExtras
	ModeValue uint64   `json:"mode_value"`
	Notes     []string `json:"notes,omitempty"`
}

// gfpLater is a report whose GFP mode is decoded when the parse finishes: the flags' names
// depend on the kernel release (kernel/gfp.go), which the text may print after the report.
type gfpLater interface{ decodeGFP(release string) }

func (a *oomArtifact) decodeGFP(release string) {
	a.OOMKill.GFPFlags = kernel.GFPNames(a.Mode, a.ModeValue, release)
}

func (a *slabArtifact) decodeGFP(release string) {
	a.SlabFailure.GFPFlags = kernel.GFPNames(a.Mode, a.ModeValue, release)
}

// parseOOMHeader starts an OOM report from its first line.
func parseOOMHeader(t string) (*model.OOMKill, uint64, bool) {
	if m := reOOMInvoked.FindStringSubmatch(t); m != nil {
		o := &model.OOMKill{Invoker: strings.TrimSpace(m[1]), Mode: m[2]}
		if i := strings.LastIndex(o.Invoker, ": "); i >= 0 {
			o.Invoker = o.Invoker[i+2:]
		}
		o.Order = -1 // 2.6.12 printed no order: "oom-killer: gfp_mask=0xd2"
		if m[3] != "" {
			o.Order, _ = strconv.Atoi(m[3])
		}
		if m[4] != "" {
			o.OOMScoreAdj, _ = strconv.ParseInt(m[4], 10, 64)
		}
		v, _ := kernel.ParseGFPNumber(m[2])
		return o, v, true
	}
	if isOOMKillPhrase(t) {
		// A kill line without the "invoked oom-killer" header (2.6, or an excerpt): it
		// names the victim ("Out of Memory: Killed process 9308 (l804.exe).").
		r := report{oom: &model.OOMKill{Order: -1}}
		r.addOOMDetail(t)
		return r.oom, 0, true
	}
	s := strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(s, "VM: killing process "):
		o := &model.OOMKill{Order: -1, Constraint: "CONSTRAINT_NONE"}
		o.KilledComm = strings.TrimSpace(strings.TrimPrefix(s, "VM: killing process "))
		return o, 0, true
	case strings.HasPrefix(s, "Task in "):
		if m := reTaskIn.FindStringSubmatch(s); m != nil {
			return &model.OOMKill{Order: -1, Constraint: "CONSTRAINT_MEMCG", Memcg: m[2]}, 0, true
		}
	case strings.HasPrefix(s, "oom-kill:constraint="):
		o := &model.OOMKill{Order: -1}
		for _, kv := range strings.Split(strings.TrimPrefix(s, "oom-kill:"), ",") {
			k, v, _ := strings.Cut(kv, "=")
			switch k {
			case "constraint":
				o.Constraint = v
			case "oom_memcg":
				if o.Constraint == "CONSTRAINT_MEMCG" {
					o.Memcg = v
				}
			case "task": // dump_oom_summary's victim (h23b): the one line alone names it
				o.KilledComm = v
			case "pid":
				o.KilledPID, _ = strconv.Atoi(v)
			}
		}
		return o, 0, true
	case strings.HasPrefix(s, "Killed process "), killPhraseHeading(s), killSacrificeCut(s):
		r := report{oom: &model.OOMKill{Order: -1}}
		r.addOOMDetail(s)
		return r.oom, 0, true
	}
	return nil, 0, false
}

func (r *report) finishOOM(ls []Line) (model.Event, oomArtifact) {
	r.trace.finish(&r.from)
	var af model.AllocFailure
	r.mem.fill(&af)
	first, last := lineSpan(ls, r.used)
	ev := model.Event{Kind: model.EventOOMKill, Source: spanSource(first, last), FirstLine: first, LastLine: last,
		UptimeUsec: max(r.first.UptimeUsec, 0), OOMKill: r.oom}
	if r.oom.Constraint == "" && r.oom.Memcg == "" && strings.Contains(r.first.Text, "invoked oom-killer") {
		r.oom.Constraint = "CONSTRAINT_NONE"
		if memcgCountersPrinted(r.x.MemcgUsage) {
			// dump_header (mm/oom_kill.c) prints the page counters ("memory: usage N,
			// limit N, failcnt N": mem_cgroup_print_oom_meminfo, mem_cgroup_print_oom_info
			// before 4.19) only when is_memcg_oom(oc), and show_mem otherwise: a report
			// cut before its "oom-kill:constraint=" line is still a memory cgroup's.
			r.oom.Constraint = "CONSTRAINT_MEMCG"
		}
		if traceThroughMemcgOOM(r.trace.Functions) {
			// fix36a: the killer's own stack through mem_cgroup_out_of_memory
			// (mm/memcontrol.c, after try_charge_memcg failed): out_of_memory ran with
			// oc->memcg set, a memory cgroup's OOM, also when the report is cut before its
			// counters and its constraint line (as oomTraceReport reads a headerless one).
			r.oom.Constraint = "CONSTRAINT_MEMCG"
		}
	}
	r.x.Totals, r.x.Nodes = r.mem.totals, r.mem.nodes
	for _, n := range r.mem.nodes {
		if n.AllUnreclaimable != nil {
			if r.oom.NodesUnreclaimable == nil {
				r.oom.NodesUnreclaimable = map[int]bool{}
			}
			r.oom.NodesUnreclaimable[n.Node] = *n.AllUnreclaimable
		}
	}
	r.x.setUptime(r.first)
	r.oom.Zones, r.oom.MemInfo, r.oom.PagesRAM = af.Zones, af.MemInfo, af.PagesRAM
	return ev, oomArtifact{OOMKill: r.oom, reportExtras: r.x, Zones: af.Zones, CallTrace: r.trace.Functions, Notes: r.notes,
		MemInfo: af.MemInfo, FreeSwapKB: af.FreeSwapKB, PagesRAM: af.PagesRAM}
}

func parseSlabHeader(t string) (*model.SlabFailure, uint64, bool) {
	m := reSlubHead.FindStringSubmatch(t)
	if m == nil {
		return nil, 0, false
	}
	node, _ := strconv.Atoi(m[1])
	s := &model.SlabFailure{Node: node, Mode: m[2]}
	v, _ := kernel.ParseGFPNumber(m[2])
	return s, v, true
}

func (r *report) finishSlab(ls []Line) model.Event {
	r.x.setUptime(r.first)
	first, last := lineSpan(ls, r.used)
	return model.Event{Kind: model.EventSlabFailure, Source: spanSource(first, last), FirstLine: first, LastLine: last,
		UptimeUsec: max(r.first.UptimeUsec, 0), SlabFailure: r.slab}
}

// ParseOOM parses one pasted OOM-killer report.
func ParseOOM(text, kernelRelease string) (*model.OOMKill, error) {
	var v uint64
	ls, r := firstReport(text, func(t string) (report, bool) {
		o, ver, ok := parseOOMHeader(t)
		v = ver
		return report{kind: "oom", oom: o}, ok
	})
	if r == nil {
		return nil, fmt.Errorf("artifact: no OOM-killer report in the text")
	}
	ev, _ := r.finishOOM(ls)
	ev.OOMKill.GFPFlags = kernel.GFPNames(r.oom.Mode, v, kernelRelease)
	return ev.OOMKill, nil
}

// ParseSlabFailure parses one pasted SLUB "Unable to allocate memory" report.
func ParseSlabFailure(text, kernelRelease string) (*model.SlabFailure, error) {
	var v uint64
	ls, r := firstReport(text, func(t string) (report, bool) {
		s, ver, ok := parseSlabHeader(t)
		v = ver
		return report{kind: "slab", slab: s}, ok
	})
	if r == nil {
		return nil, fmt.Errorf("artifact: no SLUB allocation failure in the text")
	}
	ev := r.finishSlab(ls)
	ev.SlabFailure.GFPFlags = kernel.GFPNames(r.slab.Mode, v, kernelRelease)
	return ev.SlabFailure, nil
}

// firstReport splits a pasted report into lines and collects the report that starts at the
// first line start accepts (what ParseAllocFailure, ParseOOM and ParseSlabFailure share);
// nil when no line starts one.
func firstReport(text string, start func(line string) (report, bool)) ([]Line, *report) {
	ls := SplitLines(text)
	for i := range ls {
		r, ok := start(ls[i].Text)
		if !ok {
			continue
		}
		collectReport(ls, i, nil, &r)
		return ls, &r
	}
	return ls, nil
}

// trimBlankLeft is strings.TrimLeft(s, " \t") without building its cut set on every call.
func trimBlankLeft(s string) string {
	i := 0
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return s[i:]
}

// memcgCountersPrinted: the report holds the memory cgroup's own page counter ("memory:
// usage N, limit N, failcnt N"), which dump_header prints only for a memory cgroup's OOM.
func memcgCountersPrinted(us []MemcgUsage) bool {
	for _, u := range us {
		if u.Counter == "memory" {
			return true
		}
	}
	return false
}

// traceThroughMemcgOOM: the call trace's frames (stale "? " ones are not among them) hold
// mem_cgroup_out_of_memory (or a compiler's split part of it).
func traceThroughMemcgOOM(fns []string) bool {
	for _, f := range fns {
		if name, _, _ := strings.Cut(f, "."); name == "mem_cgroup_out_of_memory" {
			return true
		}
	}
	return false
}
