package diagnose

import (
	"fmt"

	"headroom/model"
)

// tlb-shootdown-storm: TLB-shootdown IPIs (the "TLB" line of /proc/interrupts on x86,
// arch/x86/kernel/irq.c; counted in flush_tlb_func, arch/x86/mm/tlb.c) far above normal.
// Reclaim that unmaps mapped pages (try_to_unmap, mm/rmap.c) must flush every CPU that may
// cache the mapping; before 4.3 it sent one IPI per page, so kswapd reclaiming 1.5 M pages/s
// from a big mmap flooded all CPUs with ~900 K IPIs/s (seed 003). 4.3 batches them: one IPI
// per CPU per batch (CONFIG_ARCH_WANT_BATCHED_UNMAP_TLB_FLUSH, commit 72b252aed506, x86;
// later arm64 and riscv, Documentation/features/vm/TLB/arch-support.txt).
func init() {
	Register(Rule{
		ID:     "tlb-shootdown-storm",
		Title:  "TLB-shootdown IPIs far above normal, during reclaim",
		Family: FamilyMemory,
		Check:  checkTLBStorm,
	})
}

// Thresholds per CPU (the line counts receptions on every CPU): ≥ 1000/s warns, ≥ 10000/s is
// critical, when reclaim runs in the same samples; without reclaim the cause is an
// application's munmap/mprotect/migration, one level lower. An idle host receives a few per
// second per CPU (this 2-CPU machine: 135 K since boot); seed 003's 900 K/s on 48 CPUs is
// ~19 K/s per CPU. No anchor alerts on it (netdata charts interrupts, node-mixin and PCP
// pmie have no rule).
const (
	tlbWarnPerCPU = 1000.0
	tlbCritPerCPU = 10000.0
)

func checkTLBStorm(tl *model.Timeline) Result {
	idx, vals := tl.Series(model.RateTLBShootdownPerSec)
	if len(vals) == 0 {
		if tl.LastWith(func(s *model.Sample) bool { _, ok := tlbLine(s); return ok }) != nil {
			return NotChecked("one sample of the TLB interrupt line: a rate needs two")
		}
		return NotChecked("no TLB-shootdown line in /proc/interrupts (x86 only) in the input")
	}
	cpus := tl.Host.CPUs
	if cpus <= 0 {
		if s := tl.LastWith(func(s *model.Sample) bool { return s.Interrupts != nil && len(s.Interrupts.CPUs) > 0 }); s != nil {
			cpus = len(s.Interrupts.CPUs)
		}
	}
	if cpus <= 0 {
		cpus = 1
	}
	var sum, peak float64
	peakIdx := -1
	var reclaimN int
	var withReclaim float64
	for k, v := range vals {
		sum += v
		if peakIdx < 0 || v > peak {
			peak, peakIdx = v, idx[k]
		}
		r := tl.Samples[idx[k]].Rates
		ks, _ := r.Get(model.RatePgscanKswapdPerSec)
		ds, _ := r.Get(model.RatePgscanDirectPerSec)
		if ks+ds > 0 {
			reclaimN++
			withReclaim = max(withReclaim, v)
		}
	}
	mean := sum / float64(len(vals))
	perCPU := mean / float64(cpus)
	src := memSampleWhere(tl, peakIdx, "/proc/interrupts")
	ev := []Evidence{{What: "TLB shootdowns", Value: fmt.Sprintf("mean %.0f/s (%.0f/s per CPU over %d CPUs), peak %.0f/s", mean, perCPU, cpus, peak), Source: src}}
	if perCPU < tlbWarnPerCPU {
		return Healthy("TLB shootdowns %.0f/s per CPU (warning at %.0f)", perCPU, tlbWarnPerCPU)
	}
	sev := Warning
	if perCPU >= tlbCritPerCPU {
		sev = Critical
	}
	if reclaimN > 0 {
		ev = append(ev, Evidence{What: "reclaim in the same samples", Value: fmt.Sprintf("%d of %d samples scanning (pgscan_kswapd/pgscan_direct)", reclaimN, len(vals)), Source: "/proc/vmstat"})
	} else {
		sev--
		ev = append(ev, Evidence{What: "reclaim in the same samples", Value: "none: the flushes come from applications (munmap, mprotect, NUMA balancing, page migration)", Source: "/proc/vmstat"})
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("TLB-shootdown IPIs at %.0f/s per CPU", perCPU),
		Evidence: ev,
		Explanation: "Every IPI interrupts a CPU that may be processing packets; at tens of thousands per second per CPU the " +
			"interrupts themselves eat the time. During reclaim they come from unmapping mapped pages (mmap'ed files, " +
			"shared memory): each page's mapping must be flushed from every CPU that may cache it. Kernels from 4.3 batch " +
			"these flushes into one IPI per CPU per reclaim batch (the LKML CDN-cache report: 900 K → 60 K IPIs/s, 14 → 60 Gbit/s). " +
			"Fewer mapped pages in the reclaim path (read() instead of mmap for streaming data) removes them altogether.",
	}
	if ch, ok := batchedFlushChange(tl); ok {
		f.Changes = append(f.Changes, ch)
	} else {
		f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "mapped page cache", Recommended: "serve streaming data with read()/sendfile() instead of mmap, or keep the mapped working set in memory",
			Why: "each reclaimed mapped page costs a flush on every CPU that used it; batching (4.3+) reduces but does not remove it"})
	}
	return Fired(f)
}

func tlbLine(s *model.Sample) (int64, bool) {
	if s.Interrupts == nil {
		return 0, false
	}
	return s.Interrupts.Total("TLB")
}
