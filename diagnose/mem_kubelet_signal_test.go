package diagnose

import (
	"strings"
	"testing"
)

// Corpus 381 (kubernetes#52386): the eviction manager observed memory.available
// -2097758044639028Ki against 100Mi and the node reports MemoryPressure: an impossible
// reading, so the finding says the pressure is not a memory shortage.
func TestKubeletEvictionSignalNegative381(t *testing.T) {
	tl := pasteTimeline(t, "MemoryPressure \tTrue \tWed, 13 Sep 2017 12:54:10 +0800 \tWed, 13 Sep 2017 11:54:03 +0800 \tKubeletHasInsufficientMemory \tkubelet has insufficient memory available\n"+
		"\n"+
		"I0913 15:20:47.884883  104204 helpers.go:826] eviction manager: thresholds - updated stats: threshold [signal=memory.available, quantity=100Mi] observed -2097758044639028Ki\n"+
		"I0913 15:20:47.884896  104204 eviction_manager.go:288] eviction manager: node conditions - observed: [MemoryPressure]\n")
	f := mustFire(t, run(t, "kubelet-eviction-signal", tl), Warning)
	if !strings.Contains(f.Title, "impossible") || !evidenceHas(f, "kubelet observed memory.available", "-2097758044639028Ki") {
		t.Errorf("%q %+v", f.Title, f.Evidence)
	}
	conds := 0
	for _, e := range f.Evidence {
		if e.What == "node condition MemoryPressure" {
			conds++
		}
	}
	if conds != 2 || !evidenceHas(f, "node condition MemoryPressure", "KubeletHasInsufficientMemory") {
		t.Errorf("want the describe row and the log's condition: %+v", f.Evidence)
	}
}

// The same line with a positive observation below and above the threshold, and the
// condition alone: True fires (the kubelet sets it only below a threshold), False with no
// observation is not checked, never healthy.
func TestKubeletEvictionSignalThreshold(t *testing.T) {
	line := func(observed string) string {
		return "I0913 15:20:47.884883  104204 helpers.go:826] eviction manager: thresholds - updated stats: threshold [signal=memory.available, quantity=100Mi] observed " + observed + "\n"
	}
	f := mustFire(t, run(t, "kubelet-eviction-signal", pasteTimeline(t, line("81920Ki"))), Warning)
	if !strings.Contains(f.Title, "evicting") || !evidenceHas(f, "kubelet observed memory.available", "below its threshold 100Mi") {
		t.Errorf("%q %+v", f.Title, f.Evidence)
	}
	mustBeHealthyNaming(t, run(t, "kubelet-eviction-signal", pasteTimeline(t, line("52428800Ki"))), "52428800Ki")
	tl := pasteTimeline(t, "MemoryPressure \tTrue \tWed, 13 Sep 2017 12:54:10 +0800 \tWed, 13 Sep 2017 11:54:03 +0800 \tKubeletHasInsufficientMemory \tkubelet has insufficient memory available\n")
	f = mustFire(t, run(t, "kubelet-eviction-signal", tl), Warning)
	if !strings.Contains(f.Title, "MemoryPressure") || !evidenceHas(f, "node condition MemoryPressure", "KubeletHasInsufficientMemory") {
		t.Errorf("condition alone: %q %+v", f.Title, f.Evidence)
	}
	// False: no pressure, and nothing observed: not checked, never healthy.
	tl.NodeConditions[0].Status = "False"
	mustNotCheck(t, run(t, "kubelet-eviction-signal", tl), "no kubelet eviction-manager observation")
	tl.NodeConditions = nil
	mustNotCheck(t, run(t, "kubelet-eviction-signal", tl), "no kubelet eviction-manager observation")
}

// A threshold written as a share ("5%") is of the node's memory: compared only when MemTotal
// is in the input, otherwise not checked (never healthy by default).
func TestKubeletEvictionSignalPercent(t *testing.T) {
	line := "I0913 15:20:47.884883  104204 helpers.go:826] eviction manager: thresholds - updated stats: threshold [signal=memory.available, quantity=5%] observed 1048576Ki\n"
	mustNotCheck(t, run(t, "kubelet-eviction-signal", pasteTimeline(t, line)), "MemTotal")
	tl := pasteTimeline(t, "MemTotal:       32768000 kB\nMemFree:         1048576 kB\nMemAvailable:    2097152 kB\n\n"+line)
	f := mustFire(t, run(t, "kubelet-eviction-signal", tl), Warning) // 1 GiB < 5% of 31.25 GiB
	if !evidenceHas(f, "kubelet observed memory.available", "below its threshold 5%") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}
