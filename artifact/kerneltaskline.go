package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix52d (corpus 4348): the kernel's own lines about a task or a CPU in a stall or dump report,
// quoted without a stamp, were listed as "name: value counters in a form headroom does not
// read" because of their "key:value" look. Each is printed by the kernel alone:
//
//   - kernel/sched/core.c sched_show_task (5.14+): "task:%-15.15s state:%c stack:%-5lu
//     pid:%-5d tgid:%-5d ppid:%-6d flags:0x%08lx" (tgid since 6.5), in hung-task, RCU-stall
//     and sysrq dumps;
//   - lib/dump_stack.c dump_stack_print_info: "CPU: %d PID: %d Comm: %.20s %s%s %s %.*s"
//     (6.10+ with " UID: %u" after the CPU), then "Not tainted" or "Tainted: ...";
//   - kernel/rcu/tree_stall.h print_cpu_stall_info: "\t%d-%c%c%c%c: (%lu %s) idle=..." under
//     pr_fmt "rcu: ", the stalled CPU's ticks this grace period or its GPs behind, and
//     print_cpu_stall's "\t(t=%lu jiffies g=%ld q=%lu ncpus=%d)" (ncpus since 5.x), and the
//     report's first line, "INFO: %s self-detected stall on CPU" or "INFO: %s detected
//     stalls on CPUs/tasks:".
//
// They are read as kernel log records (barekernel.go), the way they are with their stamp; no
// rule judges them. A "CPU: 45%" of top, "task: build" of a CI log or a "pid:12" of a program
// lacks the rest of the template and stays what it was.
var (
	reSchedShowTask = lazyre.New(`^task:\S{1,15}\s+state:[A-Za-z] stack:\s*\d{1,12}\s+pid:\s*\d{1,10}\s+(?:tgid:\s*\d{1,10}\s+)?ppid:\s*\d{1,10}\s+flags:0x[0-9a-f]{1,16}\b`)
	reDumpStackCPU  = lazyre.New(`^CPU: \d{1,5} (?:UID: \d{1,10} )?PID: \d{1,10} Comm: .{1,20}? (?:Not tainted|Tainted: )`)
	reRCUStallCPU   = lazyre.New(`^rcu:\s+(?:INFO: \w{1,32} (?:self-detected stall on CPU|detected stalls on CPUs/tasks:)|\d{1,5}-\S{4}: \(\d{1,12} (?:ticks this GP|GPs behind)\) idle=[0-9a-f]{1,8}/|\(t=\d{1,12} jiffies g=-?\d{1,20} q=\d{1,12}(?: ncpus=\d{1,5})?\))`)
)

// kernelTaskLine: one of the lines above, trimmed.
func kernelTaskLine(s string) bool {
	switch {
	case strings.HasPrefix(s, "task:"):
		return reSchedShowTask.MatchString(s)
	case strings.HasPrefix(s, "CPU: "):
		return reDumpStackCPU.MatchString(s)
	case strings.HasPrefix(s, "rcu:"):
		return reRCUStallCPU.MatchString(s)
	}
	return false
}
