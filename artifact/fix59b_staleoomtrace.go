package artifact

import "strings"

// fix59b: the OOM killer's headerless trace from a kernel that could not tell any frame
// reliable. x86's unwinder without frame pointers (3.x-4.x kernels built without
// CONFIG_FRAME_POINTER, before ORC) prints every text address it finds on the stack with
// "? " (arch/x86/kernel/dumpstack.c printk_stack_address(addr, reliable=0)), so the whole
// trace is "? " frames:
//
//	Call Trace:
//	 [<ffffffff81544e1f>] ? dump_stack+0x41/0x51
//	 [<ffffffff815423e7>] ? dump_header+0x76/0x1ec
//	 [<ffffffff8115084c>] ? find_lock_task_mm+0x4c/0xa0
//	 [<ffffffff81150d5a>] ? oom_kill_process+0x28a/0x3e0
//
// One stale frame proves nothing, but a trace that opens with dump_stack and then
// dump_header is the stack dump_header (a static function of mm/oom_kill.c) printed itself:
// the top of the stack is the printer's own live path, which no leftover address imitates
// in that order. oom_kill_process among the next frames is dump_header's caller: the killer
// chose a victim. What called it (out_of_memory or mem_cgroup_out_of_memory) is not proven by
// the stale frames below, so the report is kept without a constraint.

// staleKillScan: the frames from the top of an all-stale trace within which dump_stack,
// dump_header and oom_kill_process must stand (a helper such as find_lock_task_mm between).
const staleKillScan = 5

// staleKillerPath reports whether fns, the frames of a trace in which every frame was
// printed with "? ", open with the OOM killer's own printing path (see above).
func staleKillerPath(fns []string) bool {
	if len(fns) < 3 {
		return false
	}
	want := []string{"dump_stack", "dump_header"}
	for k, f := range fns {
		name, ok := strings.CutPrefix(f, "? ")
		if !ok {
			return false // a reliable frame: the trace is judged by its reliable frames
		}
		name, _, _ = strings.Cut(name, ".")
		if k < len(want) {
			if name != want[k] {
				return false
			}
			continue
		}
		if k >= staleKillScan {
			return false
		}
		if name == "oom_kill_process" || name == "__oom_kill_process" {
			return true
		}
	}
	return false
}
