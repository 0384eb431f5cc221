package artifact

import "strings"

// abrtReason reads abrt's (libreport's) "reason:" field of a kernel oops report as pasted in
// Fedora's and Red Hat's Bugzilla ("reason:         kworker/u16:2: page allocation failure:
// order:4, mode:0x40cc0(…)", "reason:         WARNING: CPU: 2 PID: 0 at net/sched/…"): the
// report's summary, the first line of the oops that its "backtrace" element holds in full.
// When that line follows in the text, the field is the report's title and is not read again
// (a failure counted twice); alone, its value is read as the kernel line it is. It reports
// whether line i was taken as the title.
func (d *doc) abrtReason(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	v, ok := strings.CutPrefix(t, "reason:")
	if v = strings.TrimSpace(v); !ok || len(v) < 12 {
		return false
	}
	for j := i + 1; j < len(d.ls) && j < i+400; j++ {
		if strings.Contains(d.ls[j].Text, v) {
			d.acct.Prose++
			return true
		}
	}
	l := &d.ls[i]
	parseLineInto(l, l.No, v, rawFacts{})
	if bareWarnLine(l.Text) {
		l.Kernel = true
	}
	return false
}

// bareWarnLine: the kernel's __warn() line without a log prefix, "WARNING: CPU: 2 PID: 0 at
// net/sched/sch_generic.c:443 dev_watchdog+0x248/0x250" (kernel/panic.c: "WARNING: CPU: %d
// PID: %d at %pS" or, older, "at %s:%d %pS"), as abrt's backtrace and pasted oopses hold it.
func bareWarnLine(t string) bool {
	rest, ok := strings.CutPrefix(t, "WARNING: CPU: ")
	if !ok {
		return false
	}
	p := strings.Index(rest, " PID: ")
	return p > 0 && p <= 4 && isDigits(rest[:p]) && strings.Contains(rest[p:], " at ")
}

// abrtHookWhy says what abrt-hook-ccpp's own line t (its message, after the syslog tag)
// proves (src/hooks/abrt-hook-ccpp.c): "Process %s (%s) of user %lu killed by SIG%s - %s"
// and "Saved core dump of pid %lu (%s) to %s (%llu bytes)". The process crashed with a
// core-dumping signal (SIGSEGV, SIGABRT, SIGBUS): no kill by the kernel's OOM killer, whose
// SIGKILL dumps no core, and no figure of memory. Named by systemdKilledUnread when nothing
// else was read.
func abrtHookWhy(t string) (string, bool) {
	if rest, ok := strings.CutPrefix(t, "Process "); ok {
		if k := strings.Index(rest, " killed by SIG"); k > 0 && strings.Contains(rest[:k], " of user ") && strings.Contains(rest[k:], " - ") {
			return "abrt-hook-ccpp: a process crashed with a core-dumping signal (src/hooks/abrt-hook-ccpp.c: \"Process N (name) of user U killed by SIGxxx - dumping core\"): the program's own crash (a SIGABRT can be a runtime aborting on its own out-of-memory), no kill by the kernel's OOM killer (SIGKILL dumps no core) and no memory figure; headroom has no reader for this log", true
		}
	}
	if strings.HasPrefix(t, "Saved core dump of pid ") && strings.HasSuffix(t, " bytes)") {
		return "abrt-hook-ccpp: the core dump of a crashed process saved (src/hooks/abrt-hook-ccpp.c: \"Saved core dump of pid N (exe) to PATH (N bytes)\"): the size is the core file's, no statement about the host's memory; headroom has no reader for this log", true
	}
	return "", false
}
