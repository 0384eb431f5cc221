package diagnose

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// kernel-known-limits: facts of the kernel version and word size that change the advice the
// other memory rules give. Info only: they are not faults, but a fix that needs a sysctl the
// kernel lacks is no fix, and a 32-bit HighMem kernel changes every budget.
func init() {
	Register(Rule{
		ID:     "kernel-known-limits",
		Title:  "kernel version or word size limits what the memory fixes can use",
		Family: FamilyMemory,
		Check:  checkKernelLimits,
	})
}

// kernelFact is one version boundary.
type kernelFact struct {
	// id names the fact where the story reads it (Evidence.Fact, limitBearings).
	id                  string
	major, minor, patch int // the first version that has the feature
	what                string
	consequence         string
	x86Only             bool
	// needs is a sysctl the consequence names as the way out; without is said instead on
	// a kernel that lacks it too (kernel.SysctlExists).
	needs, without string
}

var kernelFacts = []kernelFact{
	{"compaction", 2, 6, 35, "memory compaction (2.6.35, commit 748446bb6b5a)", "no compaction: only reclaim rebuilds large free blocks; compact_* counters absent", false, "", ""},
	{"batched-tlb-flush", 4, 3, 0, "batched TLB flushes during reclaim (4.3, commit 72b252aed506)", "every page unmapped by reclaim costs an IPI to each CPU that mapped it (the LKML CDN-cache report)", true, "", ""},
	{"order0-watermarks", 4, 4, 0, "order-0-only watermarks and the MIGRATE_HIGHATOMIC reserve (4.4, commits 97a16fc82a7c, 0aaa29a56e4f)", "high-order requests must pass a per-order watermark check that discounts smaller blocks and halves min per order, so a small vm.min_free_kbytes leaves little at order > 0; from 2.6.24 the contiguous reserve is MIGRATE_RESERVE, sized by min_free_kbytes", false, "", ""},
	{"watermark-scale-factor", 4, 6, 0, "vm.watermark_scale_factor (4.6, commit 795ae7a0de6b)", "the low watermark is fixed at 5/4 of min: only vm.min_free_kbytes moves kswapd's wake-up point", false,
		"vm.min_free_kbytes", "the low watermark is fixed at 5/4 of min, and this kernel has no vm.min_free_kbytes either: no sysctl moves kswapd's wake-up point (2.4's vm/freepages is read-only)"},
	{"node-reclaim-counters", 4, 8, 0, "node-based reclaim counters (4.8)", "reclaim counters are per zone (pgscan_kswapd_normal, ...): summed by headroom", false, "", ""},
	{"psi", 4, 20, 0, "pressure stall information, /proc/pressure (4.20, commit eb414681d5a0)", "no PSI: stalls are inferred from allocstall and pgscan_direct only", false, "", ""},
	{"watermark-boost-factor", 5, 0, 0, "vm.watermark_boost_factor (5.0, commit 1c30844d2dfe)", "no watermark boost after fragmenting events", false, "", ""},
	{"compaction-proactiveness", 5, 9, 0, "vm.compaction_proactiveness (5.9, commit facdaa917c4d)", "no proactive background compaction", false, "", ""},
	{"skb-drop-reasons", 5, 17, 0, "skb drop reasons (5.17, kfree_skb_reason, commit c504e5c2f964)", "dropped packets cannot be attributed to a cause with the skb:kfree_skb tracepoint", false, "", ""},
}

// kernelFactByID is the kernel fact with this id.
func kernelFactByID(id string) (kernelFact, bool) {
	for _, lf := range kernelFacts {
		if lf.id == id {
			return lf, true
		}
	}
	return kernelFact{}, false
}

func checkKernelLimits(tl *model.Timeline) Result {
	v, ok := tl.Host.KernelVersion()
	src := "host"
	rel := tl.Host.Kernel
	if !ok {
		for _, e := range tl.Events {
			if e.AllocFailure != nil && e.AllocFailure.Kernel != "" {
				if kv, err := kernel.ParseKernelVersion(e.AllocFailure.Kernel); err == nil && kv.Known {
					v, ok, rel = kv, true, e.AllocFailure.Kernel
					src = e.AllocFailure.KernelSource
					if src == "" {
						src = memEventSource(&e)
					}
					break
				}
			}
		}
	}
	highmem := (tl.Host.HighMem != nil && *tl.Host.HighMem)
	for _, e := range tl.Events {
		if e.AllocFailure != nil && memAllocHighMem(e.AllocFailure) {
			highmem = true
		}
	}
	lowmemWhy := ""
	if !highmem && tl.Host.Is32Bit() && kernel.ArchFamily(tl.Host.Arch) == "x86" {
		// An i386 kernel on a host with more memory than lowmem can map (corpus 938: "i386
		// arch, 16+ GB RAM") holds the rest in HighMem: it saw it, so it has the zone.
		if m := tl.Memory(); m.TotalKB > kernel.X86_32LowmemKB {
			highmem = true
			lowmemWhy = fmt.Sprintf(" (%s of memory, more than the %s an x86_32 kernel maps: the rest is HighMem)", memKB(m.TotalKB), memKB(kernel.X86_32LowmemKB))
		}
	}
	if !ok && !highmem {
		return NotChecked("kernel version not in the input")
	}
	var ev []Evidence
	if ok {
		ev = append(ev, Evidence{What: "kernel", Value: rel, Source: src, Role: Background})
		for _, f := range kernelFacts {
			if v.AtLeast(f.major, f.minor, f.patch) {
				continue
			}
			if f.x86Only && kernel.ArchFamily(tl.Host.Arch) != "x86" && tl.Host.Arch != "" {
				continue
			}
			consequence := f.consequence
			if f.needs != "" {
				if has, _ := kernel.SysctlExists(f.needs, v, true); !has {
					consequence = f.without
				}
			}
			ev = append(ev, Evidence{What: "before " + f.what, Value: consequence, Source: "kernel " + rel, Fact: f.id})
		}
	}
	if highmem || tl.Host.Is32Bit() {
		val := "32-bit kernel"
		if highmem {
			val += " with HighMem: kernel memory (socket buffers, slab, page tables) comes only from lowmem"
			if low, lsrc, ok := memLowmemKB(tl); ok {
				val += fmt.Sprintf(" (%s, %s)", memKB(low), lsrc)
			} else {
				val += lowmemWhy
			}
		}
		if ok && v.Major == 2 && v.Minor == 6 {
			val += "; 2.6-era budgets (tcp_mem, min_free_kbytes defaults) are computed from all memory, HighMem included"
		}
		ev = append(ev, Evidence{What: "word size", Value: val, Source: memOr(tl.Host.Arch, "HighMem zone in a report")})
	}
	limits := ev
	if ok {
		limits = ev[1:] // the kernel's own line is background
	}
	if len(limits) == 0 {
		msg := fmt.Sprintf("kernel %s has every feature the memory rules rely on (watermark_scale_factor, watermark_boost_factor, compaction_proactiveness, PSI, drop reasons)", rel)
		if tl.Host.WordBits == 0 && kernel.ArchWordBits(tl.Host.Arch) == 0 {
			// Is32Bit is false when the word size is unknown, not only on 64-bit hosts.
			msg += "; word size not in the input (a 32-bit kernel would confine kernel memory to lowmem)"
		}
		return Healthy("%s", msg)
	}
	f := Finding{
		Severity:    Info,
		Title:       "kernel " + memOr(rel, "(version unknown)") + " limits the memory fixes",
		Evidence:    ev,
		Explanation: kernelLimitsExplanation(limits),
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "kernel", Current: rel, Recommended: "a current 64-bit long-term kernel",
			Why: "each listed limit was lifted upstream in the version named"}},
	}
	if ok {
		f.Facts.Kernel = v
	}
	return Fired(f)
}

// kernelLimitsExplanation lists the limits shown (the evidence after the kernel's line), so
// the story can tell it again after it dropped the limits that bear on no finding.
func kernelLimitsExplanation(limits []Evidence) string {
	if len(limits) == 0 {
		// Every limit was dropped as bearing on no finding (trimKernelLimits): an empty
		// list in parentheses said nothing.
		return "These are properties of the kernel, not faults, and none of them bears on a finding here " +
			"(headroom explain kernel-known-limits lists them)."
	}
	var whats []string
	for _, e := range limits {
		whats = append(whats, e.What)
	}
	return "These are properties of the kernel, not faults: fixes that need a sysctl the kernel lacks are left out of " +
		"the other findings, and on a 32-bit HighMem kernel every memory budget is computed against lowmem. Upgrading " +
		"to a current 64-bit kernel removes all of them (" + strings.Join(whats, "; ") + ")."
}
