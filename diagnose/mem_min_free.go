package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// min-free-too-low: vm.min_free_kbytes (the emergency reserve, spread over the zones' min
// watermarks by __setup_per_zone_wmarks, mm/page_alloc.c) is below what plan computes for the
// NICs present: the memory their receive path allocates atomically at line rate while kswapd
// is woken and catches up (plan.MinFreeKBytes). A static check: no failure needs to have
// happened. Seeds for context: 000 raised 2000 → 20000 kB on a 512 MB ARM NAS at 1 Gbit/s;
// 004 recommends 65536 kB on 8 GB 32-bit servers with 2 × 1 Gbit/s.
func init() {
	Register(Rule{
		ID:     "min-free-too-low",
		Title:  "vm.min_free_kbytes below the reserve the NICs' line rate needs",
		Family: FamilyMemory,
		Check:  checkMinFreeTooLow,
	})
}

func checkMinFreeTooLow(tl *model.Timeline) Result {
	cur, ok := currentSetting(tl, "vm.min_free_kbytes")
	if !ok {
		return NotChecked("vm.min_free_kbytes is not in the input (live /proc/sys, sysctl -a, or the text)")
	}
	c, ok := settingInt(cur)
	if !ok {
		return NotChecked("vm.min_free_kbytes %q is not a number", cur.Value)
	}
	in, missing := memPlanInput(tl)
	kv, _ := kernel.ParseKernelVersion(in.KernelVersion)
	basis := in.MemoryBytes
	basisName := "MemTotal"
	if in.LowmemBytes > 0 && in.LowmemBytes < in.MemoryBytes {
		basis, basisName = in.LowmemBytes, "lowmem"
	}
	def := plan.KernelDefaultMinFreeKBytesForVersion(basis/1024, kv)
	defEv := Evidence{What: "kernel default for this " + basisName, Value: fmt.Sprintf("%d kB (4·√%d kB, calculate_min_free_kbytes)", def, basis/1024), Source: "plan.KernelDefaultMinFreeKBytesForVersion"}
	if len(missing) > 0 {
		// Without the link the reserve it needs is unknown, but the kernel's own default for
		// the memory is not: a value under half of it is too low for any link (corpus 7193:
		// 100 kB, lowered by hand on a 248 MB box whose RX refills then failed; the default
		// there is about 1900 kB).
		if basis > 0 && def > 0 && c*2 < def {
			return Fired(Finding{
				Severity: Warning,
				Title:    fmt.Sprintf("vm.min_free_kbytes %d kB is under half the kernel's own default for this %s (%d kB)", c, basisName, def),
				Evidence: []Evidence{settingEvidence("vm.min_free_kbytes", cur),
					defEv,
					{What: "the reserve the NICs need", Value: "not computed: the input lacks " + strings.Join(missing, " and "), Source: "plan.MinFreeKBytes"}},
				Explanation: "The kernel sizes min_free_kbytes from the memory it manages (init_per_zone_wmark_min). A value " +
					"far under that default leaves atomic allocations, the NIC's receive refill among them, almost no reserve " +
					"below the min watermark while kswapd frees memory. Restore the default at least; headroom plan --bandwidth " +
					"sizes it for the link.",
				Changes: []model.Change{{Kind: model.ChangeSysctl, Key: "vm.min_free_kbytes", Current: strconv.FormatInt(c, 10), Recommended: strconv.FormatInt(def, 10),
					Why: "the kernel's own default for this memory; the link's need is not in the input"}},
			})
		}
		return NotChecked("cannot compute the reserve the NICs need: the input lacks %s", strings.Join(missing, " and "))
	}
	need, why := plan.MinFreeKBytes(in)
	if c >= need {
		return Healthy("vm.min_free_kbytes %d kB ≥ the %d kB plan computes for %s (%s)", c, need, memNICList(in.NICs), why)
	}
	ev := []Evidence{
		settingEvidence("vm.min_free_kbytes", cur),
		{What: "reserve plan computes", Value: fmt.Sprintf("%d kB: %s", need, why), Source: "plan.MinFreeKBytes"},
		{What: "NICs", Value: memNICList(in.NICs), Source: "/sys/class/net"},
		defEv,
	}
	f := Finding{
		Severity: Warning,
		Title:    fmt.Sprintf("vm.min_free_kbytes %d kB is below the %d kB the NICs' line rate needs", c, need),
		Evidence: ev,
		Explanation: "The reserve below the min watermark is what atomic allocations — the NIC's receive refill in softirq — may " +
			"use while kswapd, woken at the low watermark, frees memory. At line rate the receive path allocates faster than " +
			"a small reserve lasts, and refills fail (page allocation failure, then RX overruns). The kernel's default grows " +
			"only with the square root of memory and knows nothing of the link. For context: the SheevaPlug NAS report's expert raised 2000 → " +
			"20000 kB on a 512 MB NAS at 1 Gbit/s; Fermilab recommends 65536 kB on 8 GB 32-bit servers at 2 × 1 Gbit/s.",
	}
	if ch, need := memMinFreeChange(tl, cur, true); need {
		f.Changes = append(f.Changes, ch)
	}
	if ch, need := memWatermarkScaleChange(tl); need {
		f.Changes = append(f.Changes, ch)
	}
	return Fired(f)
}

func memNICList(ns []plan.NIC) string {
	var parts []string
	for _, n := range ns {
		p := fmt.Sprintf("%s %s", n.Name, units.FormatBitsPerSec(float64(n.SpeedMbps)*1e6))
		if n.RxRing > 0 {
			p += fmt.Sprintf(" (RX ring %d)", n.RxRing)
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ", ")
}
