package artifact

import "strings"

// A lone row of the OOM killer's task table in a kernel log (corpus case 1599: "I have
// checked the logs it shows like:" and one dmesg line, "[4081125.742864] [  24983]    13
// 24983 148914113  2436617 19648512        0           870 squid", the next cut in its
// stamp). startsOOMTaskTable wants two rows, since one bracketed row of numbers could be
// anything's; but a row the kernel log carries (a dmesg stamp, a "kernel:" syslog tag) in
// dump_task's exact layout is the OOM killer's: only dump_tasks (mm/oom_kill.c) prints
// "[%7d] %5d %5d %8lu %8lu ... %5hd %s" to the kernel log, and only while choosing a victim.
// The layout is checked column by column: the bracketed pid repeated as tgid (dump_tasks
// prints one thread of each process, normally its leader), rss no larger than total_vm, and a
// last number that is an oom_score_adj (-1000..1000) or, before 2.6.36, an oom_adj (-17..15).
// A row outside the kernel log (a program's own table, a quoted example) still needs a second
// row.
func loneOOMTaskRow(l Line) bool {
	if !l.Kernel || !isOOMTaskRow(l.Text) {
		return false
	}
	s := trimBlankLeft(l.Text)
	e := strings.IndexByte(s, ']')
	pid := strings.TrimSpace(s[1:e])
	f := strings.Fields(s[e+1:])
	// uid tgid total_vm rss, a page-table count, (nr_pmds,) swapents, oom_score_adj, name:
	// at least six numbers before the name (isOOMTaskRow), the name last.
	nums := f[:len(f)-1]
	if len(nums) < 6 || nums[1] != pid {
		return false
	}
	vm, ok1 := atoi(nums[2])
	rss, ok2 := atoi(nums[3])
	adj, ok3 := atoi(nums[len(nums)-1])
	return ok1 && ok2 && ok3 && rss <= vm && adj >= -1000 && adj <= 1000
}
