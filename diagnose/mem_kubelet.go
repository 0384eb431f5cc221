package diagnose

import (
	"fmt"
	"headroom/units"
	"strconv"

	"headroom/model"
)

// kubelet-eviction-below-reserve: the kubelet evicts pods when memory.available falls below
// its hard threshold (100Mi by default). vm.min_free_kbytes is memory the kernel keeps
// free for allocations that cannot wait (GFP_ATOMIC, the NIC receive refill; mm/page_alloc.c
// __setup_per_zone_wmarks), and kswapd works to keep free memory above the zones' high
// watermarks, which sit above it. When the eviction threshold is below the reserve, the
// node's free memory reaches the reserve — direct reclaim, atomic allocation failures, the
// OOM killer — before the kubelet sees any pressure (kubernetes/kubernetes#131319). Raising
// min_free_kbytes for the NICs (min-free-too-low) can create this inversion.
func init() {
	Register(Rule{
		ID:     "kubelet-eviction-below-reserve",
		Title:  "kubelet memory eviction threshold below the kernel's reserve",
		Family: FamilyMemory,
		Check:  checkKubeletEviction,
	})
}

func checkKubeletEviction(tl *model.Timeline) Result {
	k := tl.Kubelet
	if k == nil {
		return NotChecked("no kubelet found and no kubelet configuration given (doctor --kubelet-config)")
	}
	mf, src, ok := sysctlInts(tl, "vm.min_free_kbytes")
	if !ok || len(mf) != 1 {
		return NotChecked("vm.min_free_kbytes not read")
	}
	reserve := mf[0] * 1024
	ev := []Evidence{
		{What: "kubelet evictionHard memory.available", Value: fmt.Sprintf("%s (%s)", k.Threshold, units.FormatBytes(k.Bytes)), Source: k.Source},
		{What: "vm.min_free_kbytes", Value: fmt.Sprintf("%d kB (%s)", mf[0], units.FormatBytes(reserve)), Source: src},
	}
	// The zones' high watermarks: where kswapd stops. Evicting above them leaves the
	// kernel its whole working band.
	var high int64
	psz, _ := pageSize(tl)
	if s := tl.LastWith(func(s *model.Sample) bool { return len(s.Zones) > 0 }); s != nil {
		for _, z := range s.ZoneWatermarks() {
			if z.Populated() && z.HasWatermarks {
				high += z.High * psz
			}
		}
		if high > 0 {
			ev = append(ev, Evidence{What: "sum of the zones' high watermarks", Value: units.FormatBytes(high), Source: "/proc/zoneinfo"})
		}
	}
	if k.Bytes > reserve {
		return Healthy("kubelet memory.available<%s (%s) above vm.min_free_kbytes (%s)", k.Threshold, units.FormatBytes(k.Bytes), units.FormatBytes(reserve))
	}
	want := max(high, reserve*3/2)
	wantMi := (want + (1<<20 - 1)) >> 20
	return Fired(Finding{
		ID:       "kubelet-eviction-below-reserve",
		Severity: Warning,
		Title:    fmt.Sprintf("kubelet evicts at memory.available<%s, below the kernel's %s reserve", k.Threshold, units.FormatBytes(reserve)),
		Evidence: ev,
		Explanation: "The kubelet evicts pods only when available memory falls below its threshold, but the kernel " +
			"holds vm.min_free_kbytes back for allocations that cannot wait and starts reclaiming above it. With the " +
			"threshold below the reserve the node reaches direct reclaim, failed atomic allocations (dropped packets) " +
			"and the OOM killer before the kubelet evicts anything. Raising min_free_kbytes makes this worse unless " +
			"the threshold follows.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "kubelet evictionHard memory.available",
			Current: k.Threshold, Recommended: strconv.FormatInt(wantMi, 10) + "Mi", Rule: "kubelet-eviction-below-reserve",
			Why: "above the zones' high watermarks (where kswapd stops) and at least 1.5 × vm.min_free_kbytes; in the KubeletConfiguration (evictionHard) or --eviction-hard, then restart the kubelet"}},
	})
}
