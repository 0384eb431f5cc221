package artifact

import "strings"

// fix54c: the OOM killer's trace cut above its dump_header frame: the CPU line, "Hardware
// name:" and "Call Trace:" left out, the stack quoted from its first frame, as a reply
// quotes "the stack" it asks about:
//
//	[<ffffffff810d1a5e>] dump_header+0x7e/0x1e0
//	[<ffffffff810d195f>] ? find_lock_task_mm+0x2f/0x70
//	[<ffffffff810d1f25>] oom_kill_process+0x85/0x2a0
//	[<ffffffff810d24a8>] mem_cgroup_out_of_memory+0xa8/0xf0
//
// dump_header (mm/oom_kill.c) prints this stack while the killer works, called by
// oom_kill_process; so the same proof as a trace with its CPU line (startsOOMTrace): a
// reliable oom_kill_process frame with one of its callers, mem_cgroup_out_of_memory making
// it a memory cgroup's. "? " frames are stale and count for nothing; dump_stack above it
// (cut too) changes nothing.

// killFrameScan: the reliable frames read from the first one for the killer and its caller
// (dump_header, oom_kill_process, out_of_memory or mem_cgroup_out_of_memory, and the
// allocator's or the fault's frame in the kernels since 2.6: never deeper than this).
const killFrameScan = 6

// killFrameFirst: a frame line (s starts with "[<") of the killer's own first frames.
func killFrameFirst(s string) bool {
	return strings.Contains(s, "] dump_header") || strings.Contains(s, "] oom_kill_process")
}

// startsKillFrameTrace reads ls[i], a dump_header or oom_kill_process frame, as the first
// frame of the OOM killer's trace cut above it (see above).
func startsKillFrameTrace(ls []Line, used []bool, i int) (memcg, ok bool) {
	if !opensTrace(ls, used, i) {
		return false, false
	}
	ct := leadingFrames(ls, used, i, killFrameScan, true)
	if len(ct.Functions) == 0 || strings.HasPrefix(ct.Functions[0], "? ") {
		return false, false
	}
	kill, caller, memcg := killerFrames(ct.Functions)
	return memcg, kill && caller
}
