package diagnose

import (
	"strings"
	"testing"
)

// OOM kills that Kubernetes or a container runtime reported (Timeline.RuntimeOOMs): the
// kubelet's SystemOOM is the whole node's (critical), CgroupOOM a container's limit
// (warning, never called a host shortage); with the kernel's own report in the input, the
// runtime's word is evidence beside it and the kill is not counted twice. Before: the events
// were prose and oom-kill was not checked.
func TestOOMKillFromRuntimeReports(t *testing.T) {
	head := "Events:\n  Type     Reason     Age               From              Message\n  ----     ------     ----              ----              -------\n"
	sys := pasteTimeline(t, head+"  Warning  SystemOOM  6m (x5 over 9m)   kubelet, node-a   System OOM encountered, victim process: ruby, pid: 8123\n")
	f := mustFire(t, run(t, "oom-kill", sys), Critical)
	if !strings.Contains(f.Title, "5×") || !evidenceHas(f, "global OOM kill reported by kubelet event SystemOOM", "killed ruby (pid 8123), 5×") {
		t.Errorf("SystemOOM: %q %+v", f.Title, f.Evidence)
	}
	cg := pasteTimeline(t, head+"  Warning  CgroupOOM  40s               kubelet           Cgroup OOM encountered, victim process: node, pid: 5150\n")
	f = mustFire(t, run(t, "oom-kill", cg), Warning)
	if !strings.Contains(f.Title, "memory cgroup") || strings.Contains(f.Title, "host ran out") || f.Facts.OOM != OOMCgroup {
		t.Errorf("CgroupOOM: %q %+v", f.Title, f.Facts)
	}
	// docker's "container oom": the container's memory cgroup at its limit.
	dock := pasteTimeline(t, "2023-07-14T02:10:09.551020311Z container oom 9c0ffee12345 (image=postgres:15, name=db)\n")
	if f = mustFire(t, run(t, "oom-kill", dock), Warning); f.Facts.OOM != OOMCgroup || !evidenceHas(f, "docker events", "in container db") {
		t.Errorf("docker: %q %+v", f.Title, f.Evidence)
	}
	// The kernel's report of the same kill beside the event: one kill, the kernel's.
	both := pasteTimeline(t, "[ 912.331201] Out of memory: Killed process 8123 (ruby) total-vm:4194304kB, anon-rss:3145728kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:6500kB oom_score_adj:0\n\n"+
		head+"  Warning  SystemOOM  6m (x5 over 9m)   kubelet, node-a   System OOM encountered, victim process: ruby, pid: 8123\n")
	f = mustFire(t, run(t, "oom-kill", both), Critical)
	if strings.Contains(f.Title, "6×") || strings.Contains(f.Title, "5×") || !evidenceHas(f, "reported by kubelet event SystemOOM", "ruby") {
		t.Errorf("kernel and event: %q %+v", f.Title, f.Evidence)
	}
	// A container's OOMKilled state: a kill, host or cgroup not said (undecided, warning).
	st := pasteTimeline(t, "    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n")
	if f = mustFire(t, run(t, "oom-kill", st), Warning); f.Facts.OOM != OOMUndecided {
		t.Errorf("OOMKilled: %q %+v", f.Title, f.Facts)
	}
	// Counter-cases: exit code 137 with reason Error is a SIGKILL, not an OOM; a node's
	// events without an OOM leave oom-kill not checked.
	if r := run(t, "oom-kill", pasteTimeline(t, "    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    137\n")); r.NotChecked == "" {
		t.Errorf("exit 137 alone: %+v", r)
	}
	calm := pasteTimeline(t, head+"  Normal   NodeReady  6m                kubelet, node-a   Node node-a status is now: NodeReady\n")
	if r := run(t, "oom-kill", calm); r.NotChecked == "" {
		t.Errorf("no OOM event: %+v", r)
	}
}

// The node's memory events alone (NodeHasInsufficientMemory, EvictionThresholdMet on memory)
// are the kubelet's MemoryPressure: kubelet-eviction-signal fires; NodeHasSufficientMemory
// alone does not.
func TestKubeletSignalFromNodeEvents(t *testing.T) {
	head := "Events:\n  Type     Reason                     Age                 From            Message\n  ----     ------                     ----                ----            -------\n"
	tl := pasteTimeline(t, head+"  Warning  EvictionThresholdMet       30s (x12 over 4h)   kubelet, n2     Attempting to reclaim memory\n")
	f := mustFire(t, run(t, "kubelet-eviction-signal", tl), Warning)
	if !evidenceHas(f, "node condition MemoryPressure", "EvictionThresholdMet") {
		t.Errorf("%+v", f.Evidence)
	}
	tl = pasteTimeline(t, head+"  Normal   NodeHasSufficientMemory    30s (x12 over 4h)   kubelet, n2     Node n2 status is now: NodeHasSufficientMemory\n")
	mustNotCheck(t, run(t, "kubelet-eviction-signal", tl), "no kubelet eviction-manager observation")
}
