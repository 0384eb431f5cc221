package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// The OOM killer's call trace without its "invoked oom-killer" header (an excerpt that starts
// at the CPU line, the header cut off above it). dump_header (mm/oom_kill.c) calls
// dump_stack, so the stack printed under an OOM report is the killer's own path:
//
//	dump_stack / dump_header / oom_kill_process (5.x: oom_kill_process.cold)
//	out_of_memory                   (mm/oom_kill.c: the victim chosen, oom_kill_process called)
//	mem_cgroup_out_of_memory        (mm/memcontrol.c: a memory cgroup at its limit)
//	try_charge_memcg / try_charge   (the charge that failed)
//	    or __alloc_pages_may_oom / __alloc_pages_slowpath (the page allocator: host or cpuset)
//	    or pagefault_out_of_memory  (a fault that returned VM_FAULT_OOM)
//
// oom_kill_process runs only once out_of_memory (or, before 4.6, mem_cgroup_out_of_memory
// itself) has chosen a victim, so a reliable oom_kill_process frame with one of its callers
// proves a kill (or a victim found already exiting). mem_cgroup_out_of_memory among the
// frames makes it a memory cgroup's OOM (out_of_memory's oc->memcg set). Frames printed with
// "? " are stale addresses (not reliable) and prove nothing.

// oomTraceScan bounds the lines a headerless trace is looked through for the killer's frames:
// a CPU line, "Hardware name:", "Call Trace:" and a few dozen frames.
const oomTraceScan = 120

// mayStartOOMTrace is the one-line test of startsOOMTrace for the streaming reader's filter
// (stream.go mayStartReport): the CPU line dump_stack prints first, or the trace's marker.
func mayStartOOMTrace(t string) bool {
	s := trimBlankLeft(t)
	if s != "" && s[0] == '[' {
		// fix29c: a frame with an address that may be out_of_memory's, the trace cut above it.
		return strings.HasPrefix(s, "[<") && (strings.Contains(s, "out_of_memory") || killFrameFirst(s))
	}
	if s == "" || s[0] != 'C' && s[0] != 'P' {
		return false
	}
	s = strings.TrimSpace(s)
	return s == "Call Trace:" || s == "Call trace:" || (strings.HasPrefix(s, "CPU: ") || strings.HasPrefix(s, "Pid: ")) && reCommLine.MatchString(s)
}

// startsOOMTrace reports whether ls[i] opens the OOM killer's call trace whose header is not
// in the text (see above), and whether the frames make it a memory cgroup's. The trace's
// lines are read from i on: task lines and trace lines, up to the first other line.
func startsOOMTrace(ls []Line, used []bool, i int) (memcg, ok bool) {
	if !mayStartOOMTrace(ls[i].Text) {
		return false, false
	}
	if s := trimBlankLeft(ls[i].Text); s[0] == '[' {
		if killFrameFirst(s) {
			return startsKillFrameTrace(ls, used, i) // fix54c_oomtrace.go
		}
		return startsCutOOMTrace(ls, used, i)
	}
	var ct CallTrace
	from := ""
	for j := i; j < len(ls) && j < i+oomTraceScan; j++ {
		if used != nil && used[j] {
			continue
		}
		t := ls[j].Text
		k := reportLineKind(t)
		if k != "task" && k != "trace" {
			break
		}
		if k == "trace" && traceLineKind(t) != "regs" {
			ct.addTraceLine(t, &from)
		}
	}
	ct.finish(&from)
	kill, caller, memcg := killerFrames(ct.Functions)
	if !(kill && caller) && ct.Unreliable == len(ct.Functions) && staleKillerPath(ct.Functions) {
		return false, true // every frame stale: the killer's printing path on top (fix59b)
	}
	return memcg, kill && caller
}

// killerFrames reads the OOM killer's frames among fns: its kill (oom_kill_process), its
// caller (out_of_memory, pagefault_out_of_memory, mem_cgroup_out_of_memory) and whether the
// caller is a memory cgroup's. A "? " frame (stale) matches none.
func killerFrames(fns []string) (kill, caller, memcg bool) {
	for _, f := range fns {
		// "oom_kill_process.cold", "out_of_memory.part.0": the compiler's split parts.
		name, _, _ := strings.Cut(f, ".")
		switch name {
		case "oom_kill_process", "__oom_kill_process", "oom_kill_task":
			kill = true
		case "out_of_memory", "__out_of_memory", "pagefault_out_of_memory":
			caller = true
		case "mem_cgroup_out_of_memory":
			caller, memcg = true, true
		}
	}
	return kill, caller, memcg
}

// rePatchMail: a patch as mailed or committed (git format-patch, a commit message): its
// sign-off, its diff, or "[PATCH" in its subject. A trace quoted there is the patch author's
// reproduction, not this host's log.
var rePatchMail = lazyre.New(`(?m)^[ \t>]*(?:Signed-off-by: |diff --git a/|Subject:.*\[PATCH|#* *\[PATCH)`)

// rePatchMailInline: the same patch flattened onto one line (a page's text that lost its
// line breaks), where no sign is at a line's start: two of them in their order on one
// line, the sign-off with its address, then the diff, or the subject's "[PATCH" then the
// sign-off. A sentence that names one of them does not hold the other after it.
var rePatchMailInline = lazyre.New(`Subject: .{0,40}\[PATCH[^\]\n]{0,40}\] .*Signed-off-by: [^<>\n]{1,80} <[^<>@\s]+@[^<>\s]+>|Signed-off-by: [^<>\n]{1,80} <[^<>@\s]+@[^<>\s]+> .*diff --git a/`)

// patchMail reports whether the text is a patch mail or commit (rePatchMail), read once.
func (d *doc) patchMail() bool {
	if d.patch == 0 {
		d.patch = 1
		if rePatchMail.MatchString(d.text) || strings.Contains(d.text, "Signed-off-by: ") && rePatchMailInline.MatchString(d.text) {
			d.patch = 2
		} else {
			// Each line as read, its paste form taken off (a list marker, inline code, a
			// chat's nick, a compose prefix, zero-width spaces): the same mail pasted so is
			// the same patch (forms52a, corpus 4413).
			for k := range d.ls {
				if t := d.ls[k].Text; len(t) > 12 && rePatchMail.MatchString(strings.ReplaceAll(t, "\u200b", "")) {
					d.patch = 2
					break
				}
			}
		}
	}
	return d.patch == 2
}

// oomTraceGap: a trace that starts within this many lines after an OOM report read from its
// header is that report's own stack (its collector stopped at a line a mail client or the
// log broke, such as "emerge cpuset=" / "/" / " mems_allowed=0", corpus 123), not a second kill.
const oomTraceGap = 8

// afterOOMHeader reports whether line i follows an OOM report read from its header closely
// enough to be its stack (oomTraceGap).
func (d *doc) afterOOMHeader(i int) bool {
	for k := len(d.tl.Events) - 1; k >= 0; k-- {
		e := &d.tl.Events[k]
		if e.LastLine <= 0 {
			continue
		}
		return e.OOMKill != nil && d.ls[i].No-e.LastLine <= oomTraceGap
	}
	return false
}

// oomTraceReport reads the OOM killer's headerless trace at line i (startsOOMTrace) as an
// OOM report: a kill happened; its trigger, order, mode and victim are not in the text.
func (d *doc) oomTraceReport(i int, memcg bool) bool {
	o := &model.OOMKill{Order: -1}
	note := "the OOM killer's call trace without its report header (oom_kill_process called from out_of_memory: mm/oom_kill.c dump_header prints this stack while killing), so a kill happened; its trigger, mode and victim are not in the text"
	if s := trimBlankLeft(d.ls[i].Text); s[0] == '[' && !killFrameFirst(s) && !memcg {
		note = "the OOM killer's call trace cut above its out_of_memory frame (startsCutOOMTrace: out_of_memory called by the page allocator once reclaim failed; mm/oom_kill.c dump_header prints this stack while killing, or before its panic when no task is killable), so the OOM killer ran; its trigger, mode and victim are not in the text"
	} else if memcg {
		o.Constraint = "CONSTRAINT_MEMCG"
		note = "the OOM killer's call trace without its report header, through mem_cgroup_out_of_memory (mm/memcontrol.c): a memory cgroup reached its limit and the OOM killer ran in it; its trigger, mode and victim are not in the text"
	}
	return d.oomReportNoted(i, o, 0, note)
}

// allocOrderWarn reads the buddy allocator's WARN for an order above its largest
// (kernel.IsAllocOrderWarn) at line i as a kernel log record wherever it stands: syzbot's
// mails and 0-day's reports print the console without dmesg stamps, and mail quotes it
// ("> WARNING: ..."). A mail client's soft break between the site and its function
// (format=flowed, kernel.AllocOrderWarnSite) is joined. In a patch mail (patchMail) the
// WARN is the author's reproduction, not this host's: prose.
func (d *doc) allocOrderWarn(i int) bool {
	l := &d.ls[i]
	msg := l.Text
	next := -1
	if !kernel.IsAllocOrderWarn(msg) {
		if !kernel.AllocOrderWarnSite(msg) || i+1 >= len(d.ls) || d.used[i+1] || isBlank(d.ls[i+1].Text) {
			return false
		}
		joined := strings.TrimRight(msg, " \t") + " " + strings.TrimSpace(d.ls[i+1].Text)
		if !kernel.IsAllocOrderWarn(joined) {
			return false
		}
		msg, next = joined, i+1
	}
	if d.patchMail() {
		d.prose(i)
		return true
	}
	if !l.Kernel && d.exampleLog(i) {
		return false
	}
	l.Kernel = true
	d.logLine(i)
	d.tl.Log.SetMessage(d.tl.Log.Len()-1, msg)
	if next >= 0 {
		d.used[next] = true
	}
	return true
}

// fix29c: the OOM killer's trace cut above its out_of_memory frame (a paste or an excerpt
// that starts inside the backtrace: no CPU line, no "Call Trace:", no dump_stack or
// oom_kill_process frame). ARM's unwinder prints "[<8028db58>] (out_of_memory) from
// [<802da420>] (__alloc_pages_nodemask+0xbe8/0x121c)", with register lines between frames;
// x86 before 4.x "[<c01403a2>] out_of_memory+0x1b2/0x1e0". out_of_memory (mm/oom_kill.c)
// is called by the page allocator (__alloc_pages_may_oom, inlined into
// __alloc_pages_slowpath / __alloc_pages_nodemask), by pagefault_out_of_memory or by
// mem_cgroup_out_of_memory only once reclaim has failed; a stack through it is printed by
// its dump_header (a kill, or the panic when no task is killable). So a reliable
// out_of_memory frame, the first frame of its trace, called from one of those, is the
// OOM killer run. Not read: the frame below another frame (a soft lockup's trace in
// select_bad_process, a trace whose own header is in the text), a "? " frame, another
// caller.

// oomCallers: the callers of out_of_memory that mean an allocation ran out (see above).
var oomCallers = map[string]bool{
	"__alloc_pages_may_oom": true, "__alloc_pages_slowpath": true, "__alloc_pages_nodemask": true,
	"__alloc_pages": true, "__alloc_pages_internal": true, "pagefault_out_of_memory": true,
	"mem_cgroup_out_of_memory": true,
}

// startsCutOOMTrace reads ls[i], a frame line, as the first frame of the OOM killer's trace
// cut above out_of_memory (see above).
func startsCutOOMTrace(ls []Line, used []bool, i int) (memcg, ok bool) {
	if !opensTrace(ls, used, i) {
		return false, false
	}
	ct := leadingFrames(ls, used, i, 3, false)
	if len(ct.Functions) < 2 {
		return false, false
	}
	name, _, _ := strings.Cut(ct.Functions[0], ".")
	caller, _, _ := strings.Cut(ct.Functions[1], ".")
	if name != "out_of_memory" && name != "__out_of_memory" || !oomCallers[caller] {
		return false, false
	}
	return caller == "mem_cgroup_out_of_memory", true
}

// opensTrace reports whether the frame at ls[i] opens its trace: above it only register
// lines, then no trace or task line.
func opensTrace(ls []Line, used []bool, i int) bool {
	for j := i - 1; j >= 0 && j >= i-oomTraceScan; j-- {
		if used != nil && used[j] {
			break
		}
		k := reportLineKind(ls[j].Text)
		if k == "trace" && traceLineKind(ls[j].Text) == "regs" {
			continue
		}
		return k != "trace" && k != "task"
	}
	return true
}

// leadingFrames reads the trace lines from ls[i] on, up to the first other line, until n
// frames are read (reliable frames only, when reliable: "? " frames are stale).
func leadingFrames(ls []Line, used []bool, i, n int, reliable bool) CallTrace {
	var ct CallTrace
	from := ""
	for j := i; j < len(ls) && j < i+oomTraceScan; j++ {
		if got := len(ct.Functions); reliable && got-ct.Unreliable >= n || !reliable && got >= n {
			break
		}
		if used != nil && used[j] {
			continue
		}
		t := ls[j].Text
		if reportLineKind(t) != "trace" {
			break
		}
		if traceLineKind(t) != "regs" {
			ct.addTraceLine(t, &from)
		}
	}
	ct.finish(&from)
	return ct
}
