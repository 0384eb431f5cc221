package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// A kernel BUG line quoted in a sentence (fix37b, corpus 3154): 'The system log shows "BUG:
// scheduling while atomic: kswapd0/142/0x00000002"'. The kernel prints it from
// kernel/sched/core.c __schedule_bug ("BUG: scheduling while atomic: %s/%d/0x%08x", the
// task's comm, pid and preempt count) when a task sleeps while atomic, and from
// __might_resched ("BUG: sleeping function called from invalid context at %s:%d"): a kernel
// bug in the code path, the host's own log quoted, but no memory or network figure, so no
// rule reads it. In a text where nothing else was read it is named as unread evidence of the
// host (statedFiguresUnread) instead of exit 3.
//
// Counter-cases (not matched): the words without the kernel's form ("a BUG: scheduling
// problem", "scheduling while atomic bugs are common"), the task without its pid and
// preempt count, a file without its line.

const whyQuotedKernelBug = "a sentence quotes the kernel's BUG line (kernel/sched/core.c: \"BUG: scheduling while atomic: COMM/PID/0xCOUNT\" or \"BUG: sleeping function called from invalid context at FILE:LINE\"): a task slept where it must not (a lock or I/O path that blocks in atomic context), a kernel bug of that path; the host's log, but no memory or network figure, and no rule reads it"

// reQuotedKernelBug: the two forms, with their figures.
var reQuotedKernelBug = lazyre.New(`BUG: (?:scheduling while atomic: [^\s/"']{1,64}/\d{1,9}/0x[0-9a-fA-F]{1,16}|sleeping function called from invalid context at [\w./-]{1,128}:\d{1,6})`)

// quotedKernelBug reports whether prose line t quotes one of the kernel's BUG lines above.
func quotedKernelBug(t string) bool {
	if !strings.Contains(t, "BUG: ") {
		return false // cheap byte test first
	}
	return reQuotedKernelBug.MatchString(t)
}
