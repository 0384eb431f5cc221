package artifact

import "testing"

// fix59b: a headerless OOM trace in which every frame is stale ("? "), from a kernel
// without frame pointers; the syslog prefix of a GKE node's journal.
const fix59bStaleTrace = "Aug 24 22:40:22 node-a kernel: [1646426.830676] Call Trace:\n" +
	"Aug 24 22:40:22 node-a kernel: [1646426.831078] [<ffffffff81544e1f>] ? dump_stack+0x41/0x51\n" +
	"Aug 24 22:40:22 node-a kernel: [1646426.831764] [<ffffffff815423e7>] ? dump_header+0x76/0x1ec\n" +
	"Aug 24 22:40:22 node-a kernel: [1646426.832577] [<ffffffff8115084c>] ? find_lock_task_mm+0x4c/0xa0\n" +
	"Aug 24 22:40:22 node-a kernel: [1646426.833420] [<ffffffff81150d5a>] ? oom_kill_process+0x28a/0x3e0\n" +
	"Aug 24 22:40:22 node-a kernel: [1646426.834177] [<ffffffff810f154c>] ? css_next_descendant_pre+0x1c/0x60\n"

func TestFix59bStaleOOMTrace(t *testing.T) {
	if n := fix29cKills(fix59bStaleTrace); n != 1 {
		t.Errorf("all-stale trace on the killer's printing path: %d kills, want 1", n)
	}
	for _, e := range ParseString(fix59bStaleTrace, "t", Options{}).Events {
		if e.OOMKill != nil && e.OOMKill.Constraint != "" {
			t.Errorf("constraint %q from stale frames, want none", e.OOMKill.Constraint)
		}
	}
}

func TestFix59bStaleOOMTraceCounterCases(t *testing.T) {
	for _, text := range []string{
		// stale oom_kill_process deep in another stack: no dump_stack/dump_header on top
		"Call Trace:\n [<ffffffff81544e1f>] ? dump_stack+0x41/0x51\n [<ffffffff810a1111>] ? warn_slowpath_common+0x81/0xa0\n [<ffffffff81150d5a>] ? oom_kill_process+0x28a/0x3e0\n [<ffffffff81150d5a>] ? schedule+0x28/0x80\n",
		// dump_header with no kill (out_of_memory's panic path): no oom_kill_process frame
		"Call Trace:\n [<ffffffff81544e1f>] ? dump_stack+0x41/0x51\n [<ffffffff815423e7>] ? dump_header+0x76/0x1ec\n [<ffffffff8115084c>] ? panic+0xc4/0x1e0\n [<ffffffff8115084c>] ? out_of_memory+0x4c/0x480\n",
		// the kill frame too deep below the printer
		"Call Trace:\n [<ffffffff81544e1f>] ? dump_stack+0x41/0x51\n [<ffffffff815423e7>] ? dump_header+0x76/0x1ec\n [<ffffffff8115084c>] ? a+0x4c/0xa0\n [<ffffffff8115084c>] ? b+0x4c/0xa0\n [<ffffffff8115084c>] ? c+0x4c/0xa0\n [<ffffffff81150d5a>] ? oom_kill_process+0x28a/0x3e0\n",
		// a patch mail quoting it
		"Subject: [PATCH] mm: oom\n\n" + fix59bStaleTrace + "\nSigned-off-by: A <a@b>\n",
	} {
		if n := fix29cKills(text); n != 0 {
			t.Errorf("%q: %d kills, want none", text, n)
		}
	}
}
