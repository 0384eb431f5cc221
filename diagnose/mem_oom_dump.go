package diagnose

import (
	"fmt"

	"headroom/kernel"
	"headroom/model"
)

// A show_mem dump whose header the paste cut (model.MemDump) is the kernel's own picture
// of memory at the moment something printed it: a page allocation failure (warn_alloc), a
// host-wide OOM (dump_header; a memory cgroup's OOM prints the cgroup's counters, never
// show_mem), or SysRq-m. When the dump shows nothing left to reclaim, the page cache gone
// beside the anonymous memory that fills the host, no swap to put it in (or the node's
// reclaim already given up) and the zones at their watermarks, the kernel was in the OOM
// killer's state: a request that may reclaim finds nothing and out_of_memory runs
// (mm/page_alloc.c __alloc_pages_may_oom). An expert reads such a dump as the OOM report it
// came from (corpus 1493, 3483: the report's header and the victim line are cut).

// dumpCacheShare: page cache at most this share of the anonymous memory is "gone": reclaim
// has already evicted it, and the few megabytes left are the running programs' own text.
const dumpCacheShare = 0.05

// dumpOOM reports the newest stand-alone dump that shows memory exhausted, with why; nil
// when none does, or when the text holds an allocation failure (the dump may be its own) or
// SysRq-m's line (the dump was asked for).
func dumpOOM(tl *model.Timeline) (*model.MemDump, []Evidence) {
	if len(tl.MemDumps) == 0 {
		return nil, nil
	}
	for _, e := range tl.Events {
		if e.Kind == model.EventAllocFailure || e.Kind == model.EventAllocStall || e.Kind == model.EventSlabFailure {
			return nil, nil
		}
	}
	if len(logMatches(tl, kernel.MsgSysrqShowMem...)) > 0 || len(logMatches(tl, kernel.MsgAllocFailure...)) > 0 {
		return nil, nil
	}
	for i := len(tl.MemDumps) - 1; i >= 0; i-- {
		d := &tl.MemDumps[i]
		if ev := dumpExhausted(d); ev != nil {
			return d, ev
		}
	}
	return nil, nil
}

// dumpExhausted says why d shows memory with nothing left to reclaim, nil when it does not.
func dumpExhausted(d *model.MemDump) []Evidence {
	if d.FileKB == nil || d.AnonKB == nil || *d.AnonKB <= 0 || float64(*d.FileKB) > dumpCacheShare*float64(*d.AnonKB) {
		return nil
	}
	noSwap := d.FreeSwapKB != nil && *d.FreeSwapKB == 0
	if !noSwap && !d.NodeUnreclaimable {
		return nil
	}
	var present int64
	for _, z := range d.Zones {
		present += z.PresentKB
	}
	var low *model.ZoneReport
	for k := range d.Zones {
		z := &d.Zones[k]
		// A zone of a twentieth of the memory or less (x86's 16 MiB DMA) is kept from
		// ordinary requests by lowmem_reserve: its free pages say nothing of the host's.
		if z.PresentKB <= 0 || z.LowKB <= 0 || present > 0 && float64(z.PresentKB) < zoneMarkMinShare*float64(present) {
			continue
		}
		if z.FreeKB <= z.LowKB && (low == nil || z.FreeKB-z.MinKB < low.FreeKB-low.MinKB) {
			low = z
		}
	}
	if low == nil && !d.NodeUnreclaimable {
		return nil
	}
	ev := []Evidence{{What: "page cache left against anonymous memory (" + d.FileFrom + ")",
		Value:  fmt.Sprintf("%s of page cache beside %s anonymous (%.2f%%)", memKB(*d.FileKB), memKB(*d.AnonKB), 100*float64(*d.FileKB)/float64(*d.AnonKB)),
		Source: d.Source}}
	if noSwap {
		v := "Free swap = 0 kB"
		if d.TotalSwapKB != nil && *d.TotalSwapKB == 0 {
			v = "no swap (Total swap = 0 kB)"
		} else if d.TotalSwapKB != nil {
			v = fmt.Sprintf("Free swap = 0 kB of %s: full", memKB(*d.TotalSwapKB))
		}
		ev = append(ev, Evidence{What: "swap", Value: v, Source: d.Source})
	}
	if d.NodeUnreclaimable {
		ev = append(ev, Evidence{What: "the node's reclaim", Value: "all_unreclaimable? yes: kswapd gave up on the node", Source: d.Source})
	}
	if low != nil {
		ev = append(ev, Evidence{What: "zone " + low.Zone + " at its watermarks",
			Value:  fmt.Sprintf("free %s, min %s, low %s", memKB(low.FreeKB), memKB(low.MinKB), memKB(low.LowKB)),
			Source: d.Source})
	}
	return ev
}

// dumpOOMFinding is oom-kill read from a dump whose report header is cut.
func dumpOOMFinding(d *model.MemDump, ev []Evidence) Finding {
	f := Finding{
		Severity: Critical,
		Title:    "the host ran out of memory: its Mem-Info dump shows nothing left to reclaim (the report's header and victim line are not in the text)",
		Evidence: ev,
		Explanation: "The kernel prints a Mem-Info dump for a page allocation failure, for a host-wide OOM (a memory cgroup's OOM " +
			"prints the cgroup's counters instead) and for SysRq-m. This one shows the page cache already evicted, the " +
			"anonymous memory filling the host and nowhere to put it (no free swap, or the node's reclaim given up), with the " +
			"zones at their watermarks: every request that may reclaim found nothing, which is when out_of_memory runs " +
			"(mm/page_alloc.c __alloc_pages_may_oom). The header (who invoked it, gfp_mask, order) and the victim line were " +
			"cut from the text; the task table that follows the dump in the kernel log names what held the memory.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "memory budget",
			Recommended: "find the report's header and victim (dmesg -T | grep -iE 'invoked oom-killer|killed process'), then size the workload that holds the anonymous memory to its peak, add swap, or cap what grows",
			Why:         "nothing reclaimable was left; min_free_kbytes or swappiness do not create memory"}},
		Facts: Facts{OOM: OOMHost},
	}
	return f
}
