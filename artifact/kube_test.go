package artifact

import "testing"

// `kubectl describe node` Conditions rows (k8s.io/kubectl pkg/describe/describe.go,
// "  %v \t%v \t%s \t%s \t%v \t%v\n") copied raw with their tabs and wrapped inside the
// Reason, or as a terminal prints them (spaces); and the kubelet eviction manager's klog
// lines (pkg/kubelet/eviction/helpers.go) with a negative memory.available.
func TestKubeNodeConditionsAndEvictionLog(t *testing.T) {
	for _, c := range []struct{ name, text, reason string }{
		{"tabs, wrapped mid-word", "```\nMemoryPressure \tTrue \tWed, 13 Sep 2017 12:54:10 +0800 \tWed, 13 Sep 2017 11:54:03 +0800 \tKubeletHasInsufficientM\nemory \tkubelet has insufficient memory available\n```\n", "KubeletHasInsufficientMemory"},
		{"terminal spaces with header", "  Type             Status  LastHeartbeatTime                 LastTransitionTime                Reason                       Message\n" +
			"  MemoryPressure   False   Mon, 01 Jan 2024 10:00:00 +0000   Mon, 01 Jan 2024 09:00:00 +0000   KubeletHasSufficientMemory   kubelet has sufficient memory available\n", "KubeletHasSufficientMemory"},
	} {
		tl := ParseString(c.text, c.name, Options{})
		if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindKubeNodeCond {
			t.Fatalf("%s: artifacts %+v unparsed %+v", c.name, tl.Artifacts, tl.Unparsed)
		}
		conds := tl.Artifacts[0].Data.([]KubeNodeCondition)
		if len(conds) != 1 || conds[0].Type != "MemoryPressure" || conds[0].Reason != c.reason {
			t.Errorf("%s: %+v", c.name, conds)
		}
	}

	text := "I0913 15:20:47.884880  104204 helpers.go:826] eviction manager: thresholds - reclaim not satisfied: threshold [signal=memory.available, quantity=100Mi] observed -2097758044639028Ki\n" +
		"I0913 15:20:47.884896  104204 eviction_manager.go:288] eviction manager: node conditions - observed: [MemoryPressure]\n"
	tl := ParseString(text, "kubelet", Options{})
	if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindKubeletEviction {
		t.Fatalf("kubelet log: artifacts %+v unparsed %+v", tl.Artifacts, tl.Unparsed)
	}
	ev := tl.Artifacts[0].Data.(KubeletEvictionLog)
	if len(ev.Observations) != 1 || ev.Observations[0].ObservedKiB == nil || *ev.Observations[0].ObservedKiB != -2097758044639028 {
		t.Errorf("observations %+v", ev.Observations)
	}
	if len(ev.Conditions) != 1 || ev.Conditions[0] != "MemoryPressure" || ev.Note == "" {
		t.Errorf("conditions %v note %q", ev.Conditions, ev.Note)
	}
	if tl.Kubelet == nil || tl.Kubelet.Threshold != "100Mi" || tl.Kubelet.Bytes != 100<<20 {
		t.Errorf("kubelet threshold %+v", tl.Kubelet)
	}

	// Prose that starts with a condition's name, and other klog lines, are not read.
	tl = ParseString("Ready  to go after the upgrade\nI0913 15:20:47.884880  104204 kubelet.go:1] Started kubelet\n", "prose", Options{})
	if len(tl.Artifacts) != 0 || tl.Kubelet != nil {
		t.Errorf("prose read as kubelet output: %+v", tl.Artifacts)
	}
}

// "Allocated resources" in both layouts describe.go has printed (describeNodeResource).
func TestKubeAllocatedResources(t *testing.T) {
	for _, c := range []struct{ name, text string }{
		{"before 1.10, tabs", "Allocated resources:\n  (Total limits may be over 100 percent, i.e., overcommitted.)\n  CPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\n" +
			"  ------------\t----------\t---------------\t-------------\n  11590m (48%)\t9500m (39%)\t72888Mi (56%)\t72888Mi (56%)\n"},
		{"resource rows", "Allocated resources:\n  Resource           Requests       Limits\n  --------           --------       ------\n" +
			"  cpu                11590m (48%)   9500m (39%)\n  memory             72888Mi (56%)  72888Mi (56%)\n"},
	} {
		tl := ParseString(c.text, c.name, Options{})
		var a *KubeAllocated
		for _, art := range tl.Artifacts {
			if x, ok := art.Data.(KubeAllocated); ok {
				a = &x
			}
		}
		if a == nil {
			t.Fatalf("%s: artifacts %+v unparsed %+v", c.name, tl.Artifacts, tl.Unparsed)
		}
		if a.CPURequestsM != 11590 || a.CPULimitsM != 9500 || a.MemoryRequestsMi != 72888 || a.Pct != [4]float64{48, 39, 56, 56} {
			t.Errorf("%s: %+v", c.name, *a)
		}
	}
}
