package artifact

import (
	"testing"

	"headroom/model"
)

// fix39a (round 34, corpus 3283, 3284, 3285, 3318): OOM kills told by the kubelet's SystemOOM
// message without its Events table cells, by a person in two prose forms, and by a title over
// a Mem-Info dump whose header the paste left out.

// The kubelet's SystemOOM message alone (pkg/kubelet/oom oom_watcher_linux.go), with the From
// cell or without: one host-scope OOM kill with its victim and pid.
func TestFix39aKubeletSystemOOMMessage(t *testing.T) {
	for _, text := range []string{
		"**Error:**\n`kubelet     System OOM encountered, victim process: php, pid: 27824`\n",
		"kubelet, ip-10-0-1-2.ec2.internal  System OOM encountered, victim process: php, pid: 27824\n",
		"System OOM encountered, victim process: php, pid: 27824\n",
		"- System OOM encountered, victim process: php, pid: 27824\n",          // a list of the events seen
		"* kubelet  System OOM encountered, victim process: php, pid: 27824\n", // the same, "* " bullets
	} {
		tl := ParseString(text, "p", Options{})
		evs := artifactsOf(tl, KindKubeEventMessage)
		if len(evs) != 1 || len(tl.RuntimeOOMs) != 1 {
			t.Errorf("%q: artifacts %+v, runtime OOMs %+v", text, tl.Artifacts, tl.RuntimeOOMs)
			continue
		}
		o := tl.RuntimeOOMs[0]
		if o.Scope != model.OOMScopeHost || o.Victim != "php" || o.PID != 27824 || o.Reporter != "kubelet event SystemOOM" {
			t.Errorf("%q: read %+v", text, o)
		}
	}
	// counter-cases: the message quoted in a sentence, asked about, advice, the message
	// without a victim in prose, another program's line; and a describe row, which the
	// Events table reader takes (one kill, not two).
	for _, text := range []string{
		"If you see System OOM encountered, victim process: php, pid: 1 in the events, raise the limit.\n",
		"Why does the kubelet say System OOM encountered, victim process: php, pid: 27824?\n",
		"The kubelet logs System OOM encountered when the node runs out of memory.\n",
		"myapp: System OOM encountered, victim process: php, pid: 27824\n",
		"- if you see System OOM encountered, victim process: php, pid: 1, raise the limit\n",
	} {
		tl := ParseString(text, "p", Options{})
		if len(artifactsOf(tl, KindKubeEventMessage)) != 0 || len(tl.RuntimeOOMs) != 0 {
			t.Errorf("%q: read as the event: %+v", text, tl.RuntimeOOMs)
		}
	}
	row := "  Warning  SystemOOM  7m  kubelet  System OOM encountered, victim process: php, pid: 27824\n"
	tl := ParseString(row, "p", Options{})
	if len(artifactsOf(tl, KindKubeEventMessage)) != 0 || len(artifactsOf(tl, KindKubeEvents)) != 1 || len(tl.RuntimeOOMs) != 1 {
		t.Errorf("describe row: %+v, %+v", tl.Artifacts, tl.RuntimeOOMs)
	}
}

// A person's statement of the kill: the killer set on its victim, and the container's reason
// OOMKilled told as a crash's outcome.
func TestFix39aStatedOOM(t *testing.T) {
	wantStated(t, model.RateStatedOOM, []statedCase{
		{"It goes into crashloop. This is because:\n- the pod hard limit is 512MB\n- the kernel triggers the OOM killer on the puma worker\n- the liveness probe fails\n", 1},
		{"After about a week the pod crashes with a OOMKilled and error code 137.\n", 1},
		{"The container crashed with OOMKilled after the import.\n", 1},
		// counter-cases: a condition, advice, a question, a negation, the killer without a
		// victim, an exit code 137 without the reason
		{"If the kernel triggers the OOM killer on the worker, the pod restarts.\n", 0},
		{"To avoid that the kernel triggers the OOM killer on puma, lower the worker count.\n", 0},
		{"Does the pod crash with OOMKilled?\n", 0},
		{"The pod did not crash with OOMKilled; it failed its liveness probe.\n", 0},
		{"The pod crashes with exit code 137 after a week.\n", 0},
	})
}

// A title saying the process was killed by the OS over the tail of the kernel's Mem-Info dump
// (no allocation-failure header): the OOM report's tail. The same title without a dump, or a
// dump under a title that says nothing of a kill, states no kill.
func TestFix39aTitleKilledByOSOverMemInfo(t *testing.T) {
	head := "manticoresoftware/manticoresearch · issue #959 · closed · C++\nlabels: waiting for reply\n# Manticore get killed by OS\n\n"
	dump := "```\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.823963] Node 0 DMA: 1*4kB (U) 0*8kB 0*16kB 1*32kB (U) 2*64kB (U) 1*128kB (U) 1*256kB (U) 0*512kB 1*1024kB (U) 1*2048kB (M) 3*4096kB (M) = 15908kB\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.824010] 72509 total pagecache pages\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.824012] 71462 pages in swap cache\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.824013] Swap cache stats: add 500402, delete 429863, find 679/2127\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.824014] Free swap  = 0kB\n" +
		"Dec 12 12:55:17 search kernel: [ 3494.824014] Total swap = 998396kB\n```\n"
	wantStated(t, model.RateStatedOOM, []statedCase{
		{head + dump, 1},
		{"x/y · issue #1 · open · Go\n# mysqld killed by the kernel\n\n" + dump, 1},
		// counter-cases: no dump; a question; advice; a title without a kill
		{head + "It happens every night.\n", 0},
		{"x/y · issue #1 · open · Go\n# Why is manticore killed by the OS?\n\n" + dump, 0},
		{"x/y · issue #1 · open · Go\n# Document how to avoid being killed by the OS\n\n" + dump, 0},
		{"x/y · issue #1 · open · Go\n# Manticore slow after restart\n\n" + dump, 0},
	})
	if !titleKilledByOS("Manticore get killed by OS") || titleKilledByOS("Manticore was not killed by the OS") || titleKilledByOS("Manticore killed by SIGTERM") {
		t.Error("titleKilledByOS")
	}
}
