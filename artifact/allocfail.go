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

// Page allocation failure reports, every era:
//
//	2.4:       "__alloc_pages: 2-order allocation failed (gfp=0x20/0)" (mm/page_alloc.c; the
//	           number after '/' is PF_MEMALLOC of the caller; no process name)
//	2.6-2.6.3x "afpd: page allocation failure. order:2, mode:0x20"
//	3.x-4.x    "swapper/0: page allocation failure: order:1, mode:0x204020"
//	4.x-       "kworker/0:1: page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)"
//	4.12-      "... mode:0x14000c0(GFP_KERNEL), nodemask=(null)"
//	5.x-6.x    "... mode:0xa20(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0" (warn_alloc)
//	vmemmap    "kworker/0:1: vmemmap alloc failure: order:9, mode:0x4cc0(GFP_KERNEL|__GFP_RETRY_MAYFAIL), ..."
//	           (warn_alloc from vmemmap_alloc_block, mm/sparse-vmemmap.c: memory hot-add)
//
// followed by the task line ("CPU: 0 PID: 1 Comm: x Not tainted 4.4.0 #1", 2.6's "Pid: 1,
// comm: x Not tainted 2.6.32 #1", 6.11+'s "CPU: 3 UID: 1000 PID: 4108 Comm: x"), the call trace (calltrace.go) and the show_mem dump
// (showmem.go). No mode holds a '[': one after the mode is the next record's dmesg stamp,
// glued on where a paste lost its newlines ("mode:0x20[2662122.262119] Pid: 0, comm: ...",
// fix57c), and ends the mode.
var (
	reAllocHeader26 = lazyre.New(`^(?:(.*?): )?(?:page allocation failure[.:]|vmemmap alloc failure:) order:\s*(\d+), mode:\s*([^,\s\[]+(?:\([^)]*\))?)(?:, nodemask=([^,\s]+(?:\([^)]*\))?))?(?:,\s*cpuset=([^,]*),\s*mems_allowed=(\S+))?`)
	// The space before "(gfp=" may be lost where a mail wrapped the header there and a
	// syslog record's wrapped piece was joined back to it without one (g274's 6145).
	reAllocHeader24 = lazyre.New(`__alloc_pages: (\d+)-order allocation failed ?\(gfp=([0-9a-fA-Fx]+)/(\d+)\)`)
	// 2.4.0-2.4.8 printed the order alone: printk(KERN_ERR "__alloc_pages: %lu-order
	// allocation failed.\n", order) (mm/page_alloc.c); 2.4.9 added the gfp mask. The full
	// stop is required: without it the line may be the later form wrapped before its
	// "(gfp=0x1f0/0)", which kernelReport joins.
	reAllocHeader24Bare = lazyre.New(`^__alloc_pages: (\d+)-order allocation failed\.(?:\s|$)`)
	reTainted           = lazyre.New(`(?:Not tainted|Tainted: [A-Z \t]*?)[ \t]?(\d+\.\d+[^\s#]*)`)
	reCommLine          = lazyre.New(`^(?:CPU: \d+ (?:UID: \d+ )?PID: \d+ Comm: |Pid: \d+, comm: )`)
)

// isAllocHeader is the cheap test run on every line before the regular expressions.
func isAllocHeader(t string) bool {
	for _, m := range kernel.MsgPageAllocFailure {
		if strings.Contains(t, m) {
			return true
		}
	}
	return false
}

// parseAllocHeader reads a header line into a report; ok is false when the line is not one.
func parseAllocHeader(t string) (af *model.AllocFailure, ok bool) {
	m := reAllocHeader26.FindStringSubmatch(t)
	if m == nil {
		if k, ok := headerInProse(t); ok {
			m = reAllocHeader26.FindStringSubmatch(t[k:])
		}
	}
	if m != nil {
		order, _ := strconv.Atoi(m[2])
		// Markdown bold or emphasis closing the line ("...mode:0xc0d0**") is the paste's.
		// A header quoted in a sentence closes its quotation after the mode ("...mode:0x20\"
		// (with 512MB ram free", corpus 539), or in single quotes ("'...mode:0x20' message가",
		// corpus 722).
		mode := trimProseParen(strings.TrimRight(m[3], "*_`\"'\u201d\u2019.,;"))
		af = &model.AllocFailure{Process: strings.TrimSpace(m[1]), Order: order, Mode: mode, Nodemask: m[4],
			Zones: []model.ZoneReport{}, CallTrace: []string{}, GFPFlags: []string{}}
		af.ModeValue, _ = kernel.ParseGFPNumber(mode)
		// A syslog or prose prefix may precede the comm; the comm itself has no ": ", but
		// for a thread named "Name : N" (Java's pools): see commWithColon.
		if c, ok := commWithColon(m[1]); ok {
			af.Process = c
		} else if w := reKworkerSplit.FindStringSubmatch(af.Process); w != nil {
			af.Process = w[1] + ":" + w[2] // a mail's blank after a worker's colon (corpus 6672)
		} else if i := strings.LastIndex(af.Process, ": "); i >= 0 {
			af.Process = af.Process[i+2:]
		}
		// A header quoted in a sentence: the comm starts after the opening quotation mark
		// ('... the problem I have with "kworker/u:0: page allocation failure: ...', corpus
		// 539). A comm is at most 15 bytes (TASK_COMM_LEN) and the kernel prints it bare.
		if i := strings.LastIndexFunc(af.Process, func(r rune) bool { return r == '"' || r == '\u201c' || r == '`' }); i >= 0 {
			_, w := utf8.DecodeRuneInString(af.Process[i:])
			af.Process = af.Process[i+w:]
		}
		// Markdown headings and list marks ("# dlad: page allocation failure ...").
		af.Process = strings.TrimLeft(af.Process, "#*- ")
		// A comm has no ']' (the kernel prints it bare; ps adds the brackets): what ends in
		// one is a prefix the paste left, a console's status line or a vendor's caller block.
		if i := strings.LastIndexByte(af.Process, ']'); i >= 0 && i < len(af.Process)-1 {
			af.Process = strings.TrimSpace(af.Process[i+1:])
		}
		// A header quoted bare in a sentence (fix33b, corpus 2803: "I have also been seeing
		// some swapper/0: page allocation failure: order:5, ..."): what is left is longer than
		// a comm can be (TASK_COMM_LEN-1 = 15 bytes) and holds blanks, so the sentence runs
		// into the comm; the comm is its last word. A comm of 15 bytes or less, blanks and
		// all ("Web Content"), stays whole.
		if len(af.Process) > 15 {
			if i := strings.LastIndexByte(af.Process, ' '); i >= 0 {
				af.Process = af.Process[i+1:]
			}
		}
		return af, true
	}
	if m := reAllocHeader24.FindStringSubmatch(t); m != nil {
		order, _ := strconv.Atoi(m[1])
		mode := m[2]
		if !strings.HasPrefix(mode, "0x") {
			mode = "0x" + mode
		}
		af = &model.AllocFailure{Order: order, Mode: mode, Zones: []model.ZoneReport{}, CallTrace: []string{}, GFPFlags: []string{}}
		af.ModeValue, _ = kernel.ParseGFPNumber(mode)
		return af, true
	}
	if order, ok := parseAllocHeader24Bare(t); ok {
		// No mode printed: Mode stays empty, so the decoding says the mode is unknown.
		return &model.AllocFailure{Order: order, Zones: []model.ZoneReport{}, CallTrace: []string{}, GFPFlags: []string{}}, true
	}
	return nil, false
}

// parseAllocHeader24Bare reads early 2.4's header without a mode ("__alloc_pages: 1-order
// allocation failed."), the message ending the line or followed by a blank (a log flattened
// onto one line). What precedes it must be a log's prefix (a syslog stamp and tag, a dmesg
// stamp, quotation marks) or a clause that introduces it ("... and found this:"); a mail's
// or a tracker's title naming the message ("Subject: Re: __alloc_pages: 0-order allocation
// failed."), and a sentence that only supposes or denies it ("if you see __alloc_pages:
// ..."), report nothing of this host.
func parseAllocHeader24Bare(t string) (order int, ok bool) {
	k := strings.Index(t, "__alloc_pages: ")
	if k < 0 {
		return 0, false
	}
	m := reAllocHeader24Bare.FindStringSubmatch(t[k:])
	if m == nil {
		return 0, false
	}
	if b := strings.TrimRight(strings.TrimLeft(t[:k], " \t>|"), " \t"); b != "" {
		clause := b
		for _, end := range []string{". ", "? ", "! "} {
			if j := strings.LastIndex(clause, end); j >= 0 {
				clause = clause[j+2:]
			}
		}
		low := strings.ToLower(clause)
		title := false
		for _, w := range []string{"subject:", "title:", "re:"} {
			title = title || strings.HasPrefix(low, w) || strings.HasSuffix(low, w)
		}
		if !strings.HasSuffix(b, ":") && !strings.HasSuffix(b, "]") || title || reHypothetical.MatchString(clause) || reNegated.MatchString(clause) {
			return 0, false
		}
	}
	order, err := strconv.Atoi(m[1])
	return order, err == nil
}

// headerInProse finds a header quoted in a sentence without its comm ("I have the next
// message page allocation stalls for 27840ms, order:0, mode:0x14200ca(...)", a stall read
// as a failure header by parseAllocStall): the header starts at k, its process unknown. A
// sentence that names it as a possibility or denies it ("if you see page allocation
// failure: order:0", "we never got ...") quotes no report of this host.
func headerInProse(t string) (k int, ok bool) {
	k = strings.Index(t, "page allocation failure")
	if k <= 0 || strings.HasSuffix(strings.TrimRight(t[:k], " "), ":") {
		return 0, false // no prose before, or a prefix the regexp already refused
	}
	clause := t[:k]
	for _, end := range []string{". ", "? ", "! "} {
		if j := strings.LastIndex(clause, end); j >= 0 {
			clause = clause[j+2:]
		}
	}
	if reHypothetical.MatchString(clause) || reNegated.MatchString(clause) {
		return 0, false
	}
	return k, true
}

// reKworkerSplit: a workqueue worker's name ("kworker/1:0", "kworker/u8:2", "kworker/0:1H";
// kernel/workqueue.c create_worker) with a blank a mail put after its colon ("[71553.093623]
// kworker/1: 0: page allocation failure", g287's 6672): the name is whole again. The worker
// names its CPU (or "u" and a pool) and a number, and nothing else ends so.
var reKworkerSplit = lazyre.New(`(?:^|[\s\]])(kworker/u?\d+): (\d+H?)$`)

// commWithColon reads the comm of a header whose task is named with a " : " inside (a Java
// thread "WebContainer : 3", cut to TASK_COMM_LEN-1 = 15 bytes: "WebContainer : ", printed
// "kernel: WebContainer : : page allocation failure"). warn_alloc prints "%s: %pV" with
// current->comm (mm/page_alloc.c), so the comm is the text before the last ": " ahead of
// the message, whole, and a prefix ends at an earlier ": ": the longest such suffix of
// before that fits 15 bytes and holds the " : " is the comm, trailing blank kept. ok is
// false for every other header (the comm after the last ": ", as before).
func commWithColon(before string) (string, bool) {
	if !strings.Contains(before, " :") {
		return "", false
	}
	for i := 0; i+2 <= len(before); i++ {
		if before[i] != ':' || before[i+1] != ' ' {
			continue
		}
		c := before[i+2:]
		if len(c) <= 15 && strings.Contains(c, " :") && strings.TrimSpace(c) != "" {
			return c, true
		}
	}
	// The comm at the line's start, its prefix already read ("WebContainer : : page
	// allocation failure" after a stamp or a syslog tag): all of it, its blank kept.
	if len(before) <= 15 && strings.TrimSpace(before) != "" && before[0] != ' ' {
		return before, true
	}
	return "", false
}

// allocArtifact is the data of an "alloc_failure" artifact: the report with the notes the
// parser had about it (elisions, truncated traces, interleaving).
type allocArtifact struct {
	*model.AllocFailure
	reportExtras
	Notes []string `json:"notes,omitempty"`
}

// report collects one kernel report (allocation failure, OOM kill, SLUB failure) from the
// lines that follow its header.
type report struct {
	kind   string
	af     *model.AllocFailure
	oom    *model.OOMKill
	slab   *model.SlabFailure
	mem    showMem
	trace  CallTrace
	from   string
	used   []int // indexes of the lines consumed
	kernel string
	kLine  int
	notes  []string
	caller string
	first  *Line
	x      reportExtras
	// taskHeader names the columns of the OOM task table, from its "[ pid ]" line.
	taskHeader []string
	// headerComm is the comm of a task line on the text's line right after the header
	// (fix55c_allochdr.go noteHeaderTask); afterTask: the first line after it was read.
	headerComm string
	afterTask  bool
	headerWrap int // fix65i: lines of the header's own end a page wrapped after it
	// slabCacheBuf is a SLUB "cache:" line waiting for its wrapped tail.
	slabCacheBuf string
	// inMemcgStat: the last line read was cgroup v2's "Memory cgroup stats for PATH:" or a
	// memory.stat line after it (memcgoomstats.go memcgV2StatLine).
	inMemcgStat bool
	// memcgStatFirst, memcgStatLast: the text's lines of cgroup v2's memory.stat read into
	// x.MemcgStats (0: none).
	memcgStatFirst, memcgStatLast int
}

// reportLineKind says whether a line continues a report.
func reportLineKind(t string) string {
	s := strings.TrimSpace(t)
	if s == "" {
		return ""
	}
	if s == "..." || s == "[...]" || s == "<snip>" || s == "[snip]" {
		return "elision"
	}
	if k := showMemKind(s); k != "" {
		return "mem"
	}
	if k := traceLineKind(s); k != "" {
		return "trace"
	}
	// reCommLine is anchored on "CPU: " or "Pid: ": the prefixes spare the regexp
	// every other line.
	if (strings.HasPrefix(s, "CPU: ") || strings.HasPrefix(s, "Pid: ")) && reCommLine.MatchString(s) ||
		strings.HasPrefix(s, "Hardware name:") || strings.HasPrefix(s, "Workqueue:") ||
		strings.HasPrefix(s, "task: ") || strings.HasPrefix(s, "Modules linked in:") {
		return "task"
	}
	if strings.HasPrefix(s, "warn_alloc_show_mem:") || strings.HasPrefix(s, "warn_alloc:") && strings.Contains(s, "callbacks suppressed") {
		return "task"
	}
	if headerWrapLine(s) { // fix65i: a warn_alloc header and its task line wrapped by a page
		return "task"
	}
	if isOOMDetail(s) {
		return "oom"
	}
	if isSlabDetail(s) {
		return "slab"
	}
	return ""
}

// collectReport consumes the lines of the report whose header is ls[i]. Lines already
// consumed are skipped. When the header carries a printk caller id, only lines with the
// same id belong to it (two CPUs printing at once, CONFIG_PRINTK_CALLER).
// isOOMChoice: the line that names the task an OOM kill chose, printed once per kill
// (mm/oom_kill.c oom_kill_process: "Out of memory: Kill process N (x) score S or sacrifice
// child" before 5.x, then "Killed process M (y) ..." without the prefix for a child killed
// in its place; __oom_kill_process since 5.x: "Out of memory: Killed process N (x) ...";
// "Memory cgroup out of memory: Kill..." for a cgroup's).
func isOOMChoice(t string) bool {
	return strings.Contains(t, "ut of memory: Kill") || strings.Contains(t, "ut of Memory: Kill")
}

// isOOMSummary: 4.19+'s one-line summary of a kill (mm/oom_kill.c dump_oom_summary,
// "oom-kill:constraint=...,task=x,pid=N,uid=U"), printed once per kill as the choice is.
func isOOMSummary(t string) bool {
	return strings.HasPrefix(strings.TrimSpace(t), "oom-kill:constraint=")
}

// chosenBefore: the report already holds a line that once is: a kill's choice line or its
// summary, so another one is the next kill (a grep of the kill lines, one line per kill:
// corpus 664; two memcg kills' summaries of /dev/kmsg in an exporter's test, corpus 7103).
func chosenBefore(ls []Line, r *report, once func(string) bool) bool {
	for _, k := range r.used {
		if once(ls[k].Text) {
			return true
		}
	}
	return false
}

func collectReport(ls []Line, i int, used []bool, r *report) {
	hdr := &ls[i]
	r.first = hdr
	r.caller = hdr.Caller
	r.used = append(r.used, i)
	prevKernel := hdr.Kernel
	elided := false
	joinTo, joinedLast := -1, -1 // the kill line a broken field was joined to, and that field's line
	if r.kind == "oom" {
		r.openMemcgStat(hdr)
	}
	for j := i + 1; j < len(ls); j++ {
		if used != nil && used[j] {
			continue
		}
		l := &ls[j]
		if r.caller != "" && l.Caller != "" && l.Caller != r.caller {
			continue // another CPU's lines, interleaved
		}
		if l.Syslog && !l.Kernel && prevKernel {
			continue // another program's syslog line between kernel lines
		}
		t := l.Text
		if strings.TrimSpace(t) == "" {
			if k, ok := blankThenDump(ls, used, j); ok {
				j = k - 1
				continue
			}
			if k, ok := replyCommentThenReport(ls, used, j, r.used[len(r.used)-1]); ok {
				j = k - 1
				continue
			}
			break
		}
		// The rest of a kill line a page broke after one of its commas ("... file-rss:31684kB,"
		// / "shmem-rss:4kB, UID:0 pgtables:4552kB oom_score_adj:400", corpus 595): joined to
		// it and the kill line read again whole.
		// Or broken before each field, one a line with its comma (corpus 2721, fix32a:
		// "Killed process 7794 (dotnet)" / "total-vm:18186076kB," / "anon-rss:5366016kB,"
		// ...): a first "total-vm:" joins a kill line that ends at its comm's ")".
		if r.kind == "oom" && !l.Syslog && !l.Kernel && (isKillLineTail(t) || isKillLineHead(t)) {
			p := r.used[len(r.used)-1]
			if p == joinedLast {
				p = joinTo // the next of a kill line's fields one a line
			}
			if prev := strings.TrimRight(ls[p].Text, " "); (strings.HasSuffix(prev, ",") && isKillLineTail(t) || strings.HasSuffix(prev, ")") && isKillLineHead(t)) && killedProcess(prev) != nil {
				ls[p].Text = prev + " " + strings.TrimSpace(t)
				ls[p].Pieces++
				joinTo, joinedLast = p, j
				r.used = append(r.used, j)
				r.addOOMDetail(ls[p].Text)
				continue
			}
		}
		if isSlabHeader(t) && r.kind == "alloc" && r.mem.lines == 0 {
			if k, ok := slabReportsThenDump(ls, used, j); ok {
				j = k - 1 // fix70b: other CPUs' SLUB reports inside this one, its Mem-Info after them
				continue
			}
		}
		if isAllocHeader(t) || isOOMHeader(t) || isSlabHeader(t) || isAllocStallHeader(t) {
			// An OOM report's own kill lines ("Out of memory: Kill", "Killed process",
			// "oom-kill:constraint=", "Task in ... killed") continue it; they start a
			// report only where its header was cut.
			inOOM := r.kind == "oom" && (strings.Contains(t, "ut of memory") || strings.Contains(t, "ut of Memory") || isOOMExcerptHeader(t))
			if strings.Contains(t, "invoked oom-killer") || !inOOM || isOOMChoice(t) && chosenBefore(ls, r, isOOMChoice) || isOOMSummary(t) && chosenBefore(ls, r, isOOMSummary) {
				break
			}
		}
		// A line without the syslog prefix its neighbours have is a hard-wrapped piece of
		// the previous one (seed 004: zone lines wrapped after "active:0kB").
		wrapped := prevKernel && hdr.Syslog && !l.Syslog && !l.Kernel
		k := reportLineKind(t)
		if r.inMemcgStat {
			if r.x.addMemcgV2Stat(t) {
				r.memcgStatLast = l.No
				if r.memcgStatFirst == 0 {
					r.memcgStatFirst = l.No
				}
				r.used = append(r.used, j)
				prevKernel = l.Kernel || wrapped
				continue
			}
			r.inMemcgStat = false
		}
		if k == "" && (isContinuation(t) && (wrapped || r.mem.pendKind != "") || r.mem.continues(t)) {
			// hard-wrapped paste, or the unprefixed " active_file:..." lines that 3.x+
			// print as continuations of the Mem-Info block
			k = "mem"
		}
		if k == "" {
			if k, ok := replyCommentThenReport(ls, used, j, r.used[len(r.used)-1]); ok {
				j = k - 1
				continue
			}
			break
		}
		if k == "elision" {
			elided = true
			r.used = append(r.used, j)
			continue
		}
		r.used = append(r.used, j)
		prevKernel = l.Kernel || wrapped
		r.noteHeaderTask(k, t, ls, i, j) // fix55c: the task line dump_stack prints right after the header
		switch k {
		case "mem":
			if !r.mem.add(t) && isContinuation(t) {
				r.mem.pendBuf += " " + strings.TrimSpace(t)
			}
		case "trace":
			if tk := traceLineKind(t); tk == "regs" {
				continue // register and raw stack dumps name no function
			}
			if strings.TrimSpace(t) == "[" {
				r.notes = append(r.notes, fmt.Sprintf("line %d: call trace cut off after \"[\"", l.No))
				continue
			}
			r.trace.addTraceLine(t, &r.from)
		case "task":
			if m := reTainted.FindStringSubmatch(t); m != nil && r.kernel == "" {
				r.kernel, r.kLine = m[1], l.No
			}
			r.x.addTask(t)
			r.x.addSuppressed(t)
		case "oom":
			r.addOOMDetail(t)
			r.x.addOOMLine(t, &r.taskHeader)
			r.openMemcgStat(l)
		case "slab":
			r.addSlabDetail(t)
			r.x.addSlabNode(t)
		}
	}
	if elided {
		r.notes = append(r.notes, "the paste elides lines (\"...\") inside the report")
	}
}

// isKillLineTail: a line that starts with a field of the kill line's end (mm/oom_kill.c
// __oom_kill_process: "shmem-rss:%lukB, UID:%u pgtables:%lukB oom_score_adj:%hd").
func isKillLineTail(t string) bool {
	s := strings.TrimSpace(t)
	return strings.HasPrefix(s, "shmem-rss:") || strings.HasPrefix(s, "file-rss:") || strings.HasPrefix(s, "UID:") ||
		strings.HasPrefix(s, "pgtables:") || strings.HasPrefix(s, "oom_score_adj:") || strings.HasPrefix(s, "anon-rss:")
}

// isKillLineHead: a line that starts with the kill line's first field ("total-vm:%lukB,").
func isKillLineHead(t string) bool {
	return strings.HasPrefix(strings.TrimSpace(t), "total-vm:")
}

// finishAlloc builds the event of a collected allocation-failure report.
func (r *report) finishAlloc(ls []Line) model.Event {
	af := r.af
	if af.Process == "" {
		af.Process = r.headerComm // fix55c: a header whose comm the paste lost
	}
	r.trace.finish(&r.from)
	if len(r.trace.Functions) > 0 {
		af.CallTrace = r.trace.Functions
	}
	af.InInterrupt = r.trace.InInterrupt
	r.mem.fill(af)
	r.x.Totals, r.x.Nodes = r.mem.totals, r.mem.nodes
	r.x.setUptime(r.first)
	if r.kernel != "" {
		af.Kernel, af.KernelSource = r.kernel, fmt.Sprintf("line %d", r.kLine)
	}
	first, last := lineSpan(ls, r.used)
	ev := model.Event{Kind: model.EventAllocFailure, Source: spanSource(first, last), FirstLine: first, LastLine: last,
		UptimeUsec: r.first.UptimeUsec, AllocFailure: af}
	if ev.UptimeUsec < 0 {
		ev.UptimeUsec = 0
	}
	af.Count = 1
	return ev
}

func lineSpan(ls []Line, used []int) (first, last int) {
	first, last = -1, -1
	for _, u := range used {
		n := ls[u].No
		if first < 0 || n < first {
			first = n
		}
		if n > last {
			last = n
		}
	}
	return first, last
}

func spanSource(first, last int) string {
	if first == last {
		return fmt.Sprintf("line %d", first)
	}
	return fmt.Sprintf("lines %d-%d", first, last)
}

// ApplyGFP decodes the mode of a report for the kernel release in force and sets GFPFlags,
// GFPCandidates, GFPNote and Atomic. The printed symbolic decoding, when present, is the
// kernel's own and is used as is.
func ApplyGFP(af *model.AllocFailure, kernelRelease string) {
	d := kernel.DecodeGFPMode(af.Mode, af.ModeValue, kernelRelease)
	af.GFPFlags, af.GFPCandidates, af.GFPNote, af.Atomic = d.Flags, d.Candidates, d.Note, d.Atomic
}

// ParseAllocFailure parses one pasted allocation-failure report (header, trace, show_mem)
// and decodes its mode for kernelRelease ("" when unknown; a release printed in the report
// wins over it).
func ParseAllocFailure(text, kernelRelease string) (*model.AllocFailure, error) {
	ls, r := firstReport(text, func(t string) (report, bool) {
		if !isAllocHeader(t) {
			return report{}, false
		}
		af, ok := parseAllocHeader(t)
		return report{kind: "alloc", af: af}, ok
	})
	if r == nil {
		return nil, fmt.Errorf("artifact: no page allocation failure header in the text")
	}
	ev := r.finishAlloc(ls)
	rel := kernelRelease
	if ev.AllocFailure.Kernel != "" {
		rel = ev.AllocFailure.Kernel
	} else if rel != "" {
		ev.AllocFailure.Kernel, ev.AllocFailure.KernelSource = rel, "given"
	}
	ApplyGFP(ev.AllocFailure, rel)
	return ev.AllocFailure, nil
}

// blankThenDump: the blank line(s) at ls[j] (at most two) are followed by a line of a
// show_mem dump, which then continues the report or dump: a mail client or a list archive put
// blank lines between a dump's lines. It returns the index of that line.
func blankThenDump(ls []Line, used []bool, j int) (int, bool) {
	for k := j + 1; k < len(ls) && k <= j+2; k++ {
		if used != nil && used[k] {
			return 0, false
		}
		if isBlank(ls[k].Text) {
			continue
		}
		return k, showMemKind(ls[k].Text) != ""
	}
	return 0, false
}

// replyCommentThenReport: a mail reply that comments between the quoted lines of one report
// (linux-mm, corpus 6749: "> [  744.754199] bash invoked oom-killer: ..." / "It's an 2-page
// allocation in the Normal zone." / "> [  744.754202] bash cpuset=/ ..."). From line j, the
// replier's own lines (quoted less deep than the report) and blank lines are passed over, up to 16, to a quoted
// kernel line stamped within a second after the report's last line (ls[last]) that
// continues a report; its index is returned. The stamps make the quoted lines one report.
func replyCommentThenReport(ls []Line, used []bool, j, last int) (int, bool) {
	prev := ls[last]
	if prev.Quote == 0 || prev.UptimeUsec < 0 {
		return 0, false
	}
	for k := j; k < len(ls) && k < j+16; k++ {
		if used != nil && used[k] {
			return 0, false
		}
		l := ls[k]
		if l.Quote < prev.Quote || isBlank(l.Text) {
			continue // the replier's own line (quoted less deep: the reply itself quoted again)
		}
		ok := l.Quote == prev.Quote && l.UptimeUsec >= prev.UptimeUsec && l.UptimeUsec-prev.UptimeUsec <= 1_000_000 &&
			k > j && (reportLineKind(l.Text) != "" || isContinuation(l.Text))
		return k, ok
	}
	return 0, false
}

// slabReportsThenDump: ls[j] starts a run of SLUB failure reports (headers and their cache
// and node lines) that a show_mem dump follows; it returns the dump's first line. mm/slub.c
// slab_out_of_memory prints no Mem-Info, so the dump after them is the one warn_alloc was
// printing for the allocation failure they interrupted: an atomic skb allocation failing on
// another CPU while kswapd's failure dumped its stack (corpus 7206). The SLUB reports are
// left to be read as their own.
func slabReportsThenDump(ls []Line, used []bool, j int) (int, bool) {
	k := j
	for ; k < len(ls) && k < j+400; k++ {
		if used != nil && used[k] {
			return 0, false
		}
		s := strings.TrimSpace(ls[k].Text)
		if !isSlabHeader(s) && !isSlabDetail(s) {
			break
		}
	}
	if k == len(ls) || k == j+400 {
		return 0, false
	}
	return k, showMemKind(strings.TrimSpace(ls[k].Text)) != ""
}

// reassembleHeader rebuilds a header that CPUs printing at once broke into fragments
// ("swapper/12: " / "page allocation failure: order:0 0000000000000000" / ", mode:0x2080020")
// from the fragment at ls[i]: the mode from the first of the next four lines that starts
// with "mode:" or ", mode:", the task from a lone "comm:" line among the three before. It
// returns the header text and the indexes of the fragments used.
func reassembleHeader(ls []Line, used []bool, i int) (string, []int, bool) {
	t := strings.TrimSpace(ls[i].Text)
	at := strings.Index(t, "page allocation failure")
	if at < 0 {
		return "", nil, false
	}
	m := reOrderOnly.FindStringIndex(t[at:])
	if m == nil {
		return "", nil, false
	}
	head := t[:at+m[1]]
	var parts []int
	mode := ""
	for k := i + 1; k < len(ls) && k <= i+4; k++ {
		if used != nil && used[k] {
			continue
		}
		s := strings.TrimLeft(strings.TrimSpace(ls[k].Text), ", ")
		if strings.HasPrefix(s, "mode:") {
			mode, parts = s, append(parts, k)
			break
		}
	}
	if mode == "" {
		return "", nil, false
	}
	if at == 0 {
		for k := i - 1; k >= 0 && k >= i-3; k-- {
			s := strings.TrimSpace(ls[k].Text)
			if strings.HasSuffix(s, ":") && !strings.Contains(s, " ") && len(s) > 1 && len(s) <= 17 {
				head = s + " " + head
				parts = append(parts, k)
				break
			}
		}
	}
	return head + ", " + mode, parts, true
}

var reOrderOnly = lazyre.New(`^page allocation failure[.:] order:\s*\d+`)
