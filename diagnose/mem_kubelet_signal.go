package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/model"
	"headroom/units"
)

// kubelet-eviction-signal: what the kubelet measured when it decided the node was under
// memory pressure. The eviction manager compares memory.available = node capacity − the
// root cgroup's working set (usage − inactive_file; pkg/kubelet/eviction/helpers.go
// makeSignalObservations, from the summary API's node memory stats) with its thresholds, and
// sets MemoryPressure and evicts pods below one. Two readings need an expert's eye:
//   - memory.available below zero is impossible for the node's memory: the working set was
//     read above the machine's capacity, a statistics bug (an unsigned underflow; kubernetes
//     #52386), so MemoryPressure and the evictions say nothing about the kernel's memory;
//   - memory.available at or above zero but below the threshold is the kubelet evicting for
//     a shortage as it counts it, where active page cache is "used": the kernel may still
//     have MemAvailable to spare.
func init() {
	Register(Rule{
		ID:     "kubelet-eviction-signal",
		Title:  "what the kubelet's eviction manager observed: an impossible or below-threshold memory.available",
		Family: FamilyMemory,
		Check:  checkKubeletEvictionSignal,
	})
}

func checkKubeletEvictionSignal(tl *model.Timeline) Result {
	var mem []model.KubeletSignal
	for _, s := range tl.KubeletSignals {
		if s.ObservedBytes != nil && (strings.HasPrefix(s.Signal, "memory.") || strings.HasPrefix(s.Signal, "allocatableMemory.")) {
			mem = append(mem, s)
		}
	}
	var pressure []model.NodeCondition
	for _, c := range tl.NodeConditions {
		if c.Type == "MemoryPressure" && c.Status == "True" {
			pressure = append(pressure, c)
		}
	}
	if len(mem) == 0 {
		if len(pressure) > 0 {
			return Fired(memoryPressureOnly(pressure))
		}
		return NotChecked("no kubelet eviction-manager observation of memory.available in the input (the kubelet's log)")
	}
	var negative, below, compared []model.KubeletSignal
	var uncompared []string
	for _, s := range mem {
		thr, ok := kubeletThresholdBytes(tl, s)
		switch {
		case *s.ObservedBytes < 0:
			negative = append(negative, s)
		case !ok:
			uncompared = append(uncompared, s.Threshold)
		case *s.ObservedBytes < thr:
			s.ThresholdBytes = &thr
			below = append(below, s)
		default:
			compared = append(compared, s)
		}
	}
	condEv := func(ev []Evidence) []Evidence {
		for _, c := range pressure {
			v := "True"
			if c.Reason != "" {
				v += " (" + c.Reason + ")"
			}
			ev = append(ev, Evidence{What: "node condition MemoryPressure", Value: v, Source: c.Source})
		}
		return ev
	}
	if len(negative) > 0 {
		s := negative[0]
		against := "against its threshold " + s.Threshold
		if s.Threshold == "" {
			against = "(an observation line, without its threshold)"
		}
		ev := []Evidence{{What: "kubelet observed " + s.Signal, Value: fmt.Sprintf("%s (%s) %s, in %d observation(s)", s.Observed, signedBytes(*s.ObservedBytes), against, len(negative)), Source: s.Source}}
		ev = condEv(ev)
		if last := tl.LastWith(func(x *model.Sample) bool { _, ok := x.Mem("MemAvailable"); return ok }); last != nil {
			v, _ := last.Mem("MemAvailable")
			ev = append(ev, Evidence{What: "the kernel's MemAvailable", Value: units.FormatBytes(v * 1024), Source: sampleSource(last, "/proc/meminfo")})
		}
		return Fired(Finding{
			Severity: Warning,
			Title:    fmt.Sprintf("the kubelet's %s reading is impossible (%s): its MemoryPressure and evictions are not a memory shortage", s.Signal, s.Observed),
			Evidence: ev,
			Explanation: "The kubelet computes memory.available as the node's capacity minus the root cgroup's working set " +
				"(pkg/kubelet/eviction/helpers.go). Below zero means it read a working set larger than the machine, which " +
				"no kernel reports: the statistics it read were wrong (an unsigned underflow in the cgroup or cAdvisor " +
				"numbers, kubernetes/kubernetes#52386). Every comparison with the threshold then says \"under pressure\", " +
				"so pods are evicted from a node with memory to spare. Tuning the kernel's reserve changes nothing here; " +
				"the kubelet's stats source must be fixed.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "kubelet memory statistics",
				Recommended: "compare the root cgroup's memory usage (memory.current or memory.usage_in_bytes, minus inactive_file) with MemTotal on the node; update the kubelet/cAdvisor, and restart the kubelet to clear the condition",
				Why:         "a negative memory.available is a reading error; the evictions follow from it, not from the kernel's memory"}},
		})
	}
	if len(below) > 0 {
		s := below[0]
		ev := []Evidence{{What: "kubelet observed " + s.Signal, Value: fmt.Sprintf("%s (%s), below its threshold %s (%s)", s.Observed, signedBytes(*s.ObservedBytes), s.Threshold, units.FormatBytes(*s.ThresholdBytes)), Source: s.Source}}
		ev = condEv(ev)
		return Fired(Finding{
			Severity: Warning,
			Title:    fmt.Sprintf("the kubelet sees %s below its eviction threshold: it is evicting pods", s.Signal),
			Evidence: ev,
			Explanation: "The kubelet evicts pods while memory.available, capacity minus the working set (usage minus " +
				"inactive_file), is below its threshold. Active page cache counts as used there, so the kubelet can " +
				"evict while the kernel still has reclaimable memory (MemAvailable); compare the two before adding memory.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "pod memory",
				Recommended: "set pod memory limits and requests that fit the node, or move load off it; see kubelet-eviction-below-reserve for the threshold against vm.min_free_kbytes",
				Why:         "the kubelet evicts to keep memory.available above its threshold"}},
		})
	}
	if len(compared) == 0 {
		return NotChecked("the kubelet's observations are not below zero, but their threshold %s is a share of the node's memory and MemTotal is not in the input", uncompared[0])
	}
	s := compared[len(compared)-1]
	return Healthy("kubelet observed %s %s against its threshold %s (%s): neither below zero nor below the threshold", s.Signal, s.Observed, s.Threshold, s.Source)
}

// memoryPressureOnly is the finding of a node whose kubelet reported MemoryPressure (the
// condition in kubectl describe node, its NodeHasInsufficientMemory or EvictionThresholdMet
// events, the eviction manager reclaiming memory) with no observation of memory.available in
// the input. The condition is set only when a memory threshold is met
// (pkg/kubelet/eviction/eviction_manager.go synchronize → nodeConditions), so the kubelet's
// memory.available was below its threshold and it evicts; whether that was a real shortage, a
// count in which page cache is used, or an impossible reading is what the observation would
// tell.
func memoryPressureOnly(pressure []model.NodeCondition) Finding {
	var ev []Evidence
	for _, c := range pressure {
		v := "True"
		if c.Reason != "" {
			v += " (" + c.Reason + ")"
		}
		ev = append(ev, Evidence{What: "node condition MemoryPressure", Value: v, Source: c.Source})
	}
	return Finding{
		Severity: Warning,
		Title:    "the kubelet reports MemoryPressure: its memory.available fell below an eviction threshold and it evicts pods (no observation in the input says by how much)",
		Evidence: ev,
		Explanation: "The kubelet sets MemoryPressure only when memory.available, the node's capacity minus the root cgroup's " +
			"working set (usage minus inactive_file), is below one of its eviction thresholds (pkg/kubelet/eviction). Active " +
			"page cache and whatever runs outside the pods count as used there, so the kubelet can be under pressure while its " +
			"pods request little and the kernel still has MemAvailable to spare; a statistics bug can even make the reading " +
			"negative (kubernetes#52386). The eviction manager's log at -v=2 (\"eviction manager: thresholds - updated stats\") " +
			"says which.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "kubelet memory.available",
			Recommended: "read what the kubelet observed (journalctl -u kubelet | grep 'eviction manager', or its /stats/summary) and the node's MemAvailable; then fit pod limits and system daemons to the node, or fix the kubelet's statistics when the reading is impossible",
			Why:         "the condition says the threshold was crossed, not whether the kernel was short"}},
	}
}

// kubeletThresholdBytes is an observation's threshold in bytes: as printed, or a percentage
// of the node's memory (the kubelet's "memory.available<5%" is of capacity,
// pkg/kubelet/eviction/helpers.go GetThresholdQuantity) when MemTotal is known.
func kubeletThresholdBytes(tl *model.Timeline, s model.KubeletSignal) (int64, bool) {
	if s.ThresholdBytes != nil {
		return *s.ThresholdBytes, true
	}
	pct, ok := strings.CutSuffix(s.Threshold, "%")
	if !ok {
		return 0, false
	}
	p, err := strconv.ParseFloat(pct, 64)
	kb, _, okM := memTotalKB(tl)
	if err != nil || !okM || p < 0 || p > 100 {
		return 0, false
	}
	return int64(p / 100 * float64(kb) * 1024), true
}

// signedBytes formats a byte count that may be negative.
func signedBytes(b int64) string {
	if b < 0 {
		return "-" + units.FormatBytes(-b)
	}
	return units.FormatBytes(b)
}
