package diagnose

import (
	"fmt"
	"strings"

	"headroom/model"
	"headroom/units"
)

// oomFragmented reads a host OOM report of an order above 0 (fork's order-2 stack, a
// GFP_KERNEL kmalloc of 16 KiB) against its own show_mem dump (fix68i; g291's 6832 and 6833,
// the 2016 premature-OOM reports): every zone the request may use held more free memory than
// its low watermark, and none held a free block of the order or larger. The allocator found
// pages but no contiguous run of them, reclaim and compaction did not make one, and
// __alloc_pages_may_oom ran the killer: fragmentation invoked it. x86's 16 MiB ISA DMA zone is
// left out beside DMA32 or Normal (its lowmem_reserve keeps it from their requests,
// memISADMA), as are HighMem and Movable for a request that may not use them.
func oomFragmented(tl *model.Timeline) (Finding, bool) {
	psz := memPage(tl)
	for i := range tl.Events {
		e := &tl.Events[i]
		o := e.OOMKill
		if o == nil || o.Order <= 0 || o.Memcg != "" || o.Constraint == "CONSTRAINT_MEMCG" || len(o.Zones) == 0 {
			continue
		}
		var all []memZoneFree
		for _, z := range o.Zones {
			if z.FreeBlocks != nil {
				all = append(all, memZoneFree{z.Node, z.Zone, z.FreeBlocks})
			}
		}
		highmemOK := false
		for _, f := range o.GFPFlags {
			highmemOK = highmemOK || strings.Contains(f, "HIGHUSER") || f == "__GFP_HIGHMEM" || f == "__GFP_MOVABLE"
		}
		var free, low int64
		var ev []Evidence
		eligible, ok := 0, true
		for _, z := range o.Zones {
			r := memZoneRank(z.Zone)
			if r < 0 || z.Unpopulated() || (r > memZoneRank("Normal") && !highmemOK) || z.FreeBlocks == nil {
				continue
			}
			if memISADMA(tl, all, memZoneFree{z.Node, z.Zone, z.FreeBlocks}, psz) {
				continue
			}
			if z.LowKB <= 0 || z.FreeKB <= 0 {
				ok = false // a zone without its watermarks says nothing here
				break
			}
			for k := o.Order; k < len(z.FreeBlocks); k++ {
				if z.FreeBlocks[k] > 0 && !oomUnusableBlocks(z, k, highmemOK) {
					ok = false
				}
			}
			eligible++
			free += z.FreeKB
			low += z.LowKB
			ev = append(ev, Evidence{What: fmt.Sprintf("zone %s (node %d)", z.Zone, z.Node),
				Value:  fmt.Sprintf("free %d kB, min %d kB, low %d kB; free blocks by order %s: none of order %d or larger that it may use", z.FreeKB, z.MinKB, z.LowKB, memBlocks(z.FreeBlocks), o.Order),
				Source: memEventSource(e)})
		}
		if !ok || eligible == 0 || free <= low {
			continue
		}
		who := o.Invoker
		if who == "" {
			who = "a task"
		}
		f := Finding{Severity: Critical,
			Title:    fmt.Sprintf("an order-%d request invoked the OOM killer with free memory above the watermarks and no free block of order %d or larger", o.Order, o.Order),
			Evidence: append([]Evidence{{What: "the OOM killer's request", Value: fmt.Sprintf("%s, order %d (%s), mode %s; %d kB free in the zones it may use, above their low watermarks (%d kB)", who, o.Order, units.FormatBytes(psz<<o.Order), memOr(o.Mode, "unknown"), free, low), Source: memEventSource(e)}}, ev...),
			Explanation: "The request needed 2^order contiguous pages. The zones it may use held free pages above their watermarks, but " +
				"split into blocks smaller than that: reclaim frees pages wherever they are and compaction did not build a block, so " +
				"the allocator, out of retries for an order it must not fail (orders up to PAGE_ALLOC_COSTLY_ORDER are retried), ran the " +
				"OOM killer. Killing a task frees pages, not necessarily contiguous ones; the fix is in what fragments memory " +
				"(see compaction-failing) or in the request's order.",
			Changes: fragmentationChanges(tl, &model.AllocFailure{Order: o.Order}),
			Facts:   Facts{OrderOfFailure: true, OOM: OOMHost},
		}
		return f, true
	}
	return Finding{}, false
}

// oomUnusableBlocks: the free blocks of order k of zone z are all in pageblocks an OOM
// killer's request may not take: the highatomic reserve ("(H)": a request that may reclaim
// has no ALLOC_HARDER or ALLOC_HIGHATOMIC, and the OOM killer runs only for those), or CMA
// ("(C)") for a request that is not movable (g291's 6831: Normal's order-2 to order-4 blocks
// all "(H)").
func oomUnusableBlocks(z model.ZoneReport, k int, movable bool) bool {
	if k >= len(z.MigrateTypes) || z.MigrateTypes[k] == "" {
		return false
	}
	for _, c := range z.MigrateTypes[k] {
		if c != 'H' && (c != 'C' || movable) {
			return false
		}
	}
	return true
}
