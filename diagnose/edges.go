package diagnose

import (
	"fmt"
	"slices"

	"headroom/kernel"
)

// Edges: which finding can explain which other (issue 19). A diagnosis is a story, not a
// list: the cause, the chain of consequences each proved by a number, the first change. The
// story is computed from these edges and from the evidence of the findings that fired; an
// edge holds only when its condition, read from the two findings, holds (the same time, the
// same memory zone, a share large enough to matter). Nothing here names a seed.

// Edge says that finding Cause can explain finding Effect.
type Edge struct {
	Cause, Effect string
	// Link is the mechanism, one clause, read as "Cause, so Effect": "socket buffers
	// live in lowmem and may grow to tcp_mem before TCP backs off".
	Link string
	// Holds reads the condition from the two findings' evidence; nil means the mechanism
	// needs no condition beyond the same time. It returns what made the edge hold.
	Holds func(cause, effect *Finding) (string, bool)
	// Aggravates marks a cause that made the effect worse or kept a fix from working
	// without being where the effect comes from: it is told beside the effect, never as
	// the root of its chain.
	Aggravates bool
	// RuledOut reads the effect's own facts that exclude this cause whatever the input
	// holds of it (a slab held by one cache the network stack does not allocate from cannot
	// be socket memory): the edge neither holds nor leaves the cause open. nil: never.
	RuledOut func(effect *Finding) bool
}

var edges []Edge

// Explains declares edges; a rule family calls it from its init next to its registration.
func Explains(e ...Edge) { edges = append(edges, e...) }

// Edges returns the declared edges in declaration order.
func Edges() []Edge { return append([]Edge(nil), edges...) }

// The alloc-fail-* rules are the symptoms most chains end in on a pasted report.
var allocFailIDs = []string{"alloc-fail-lowmem", "alloc-fail-reserve", "alloc-fail-fragmented", "alloc-fail-high-order-atomic"}

func init() {
	for _, id := range []string{"alloc-fail-lowmem", "alloc-fail-reserve"} {
		Explains(
			Edge{Cause: "tcp-mem-oversized", Effect: id, Holds: sameMemory,
				Link: "socket buffers may grow to tcp_mem before TCP backs off, and they are kernel memory the failing allocation competes for"},
			Edge{Cause: "tcp-buffers-exceed-budget", Effect: id, Holds: sameMemory,
				Link: "per-socket buffer maxima × streams exceed the memory the kernel can spare, so busy sockets take it"},
			Edge{Cause: "slab-unreclaimable-growth", Effect: id, Holds: slabMatters,
				Link: "unreclaimable slab holds the memory reclaim could otherwise free for the allocation"},
			Edge{Cause: "orphan-send-queues", Effect: id, Holds: orphansMatter,
				Link: "closed sockets keep their send queues in kernel memory"},
		)
	}
	// tcp_mem[2] is the kernel's bound on all TCP buffers (__sk_mem_raise_allocated,
	// net/core/sock.c): set above what the memory can back, it lets the busy flows' buffers
	// grow past the budget (seed 004: 1.6 GB of tcp_mem, 20 × 16 MB × 2 against 896 MB lowmem).
	Explains(Edge{Cause: "tcp-mem-oversized", Effect: "tcp-buffers-exceed-budget", Holds: sameMemory,
		Link: "tcp_mem is above what the memory can back, so it does not stop the busy flows' buffers"})
	// min_free_kbytes sizes the reserve atomic allocations may dig into (__zone_watermark_ok,
	// mm/page_alloc.c); before 4.4 it also sizes the per-order reserve for high orders.
	for _, id := range []string{"alloc-fail-reserve", "alloc-fail-high-order-atomic", "alloc-fail-fragmented", "alloc-fail-lowmem"} {
		Explains(Edge{Cause: "min-free-too-low", Effect: id,
			Link: "vm.min_free_kbytes keeps too small a reserve for atomic allocations at line rate: kswapd wakes too late"})
	}
	for _, id := range allocFailIDs {
		Explains(
			// SLUB prints "unable to allocate memory on node" after the page allocator's own
			// failure report when a cache cannot get a new slab (mm/slub.c slab_out_of_memory):
			// the cache's growth is the request that failed.
			Edge{Cause: "slab-alloc-failure", Effect: id, Holds: slabGrowthUndecided,
				Link: "the failing page allocation is a slab cache growing by a new slab"},
			// Memory exhausted: the OOM killer runs for allocations that may wait for it,
			// those that may not (atomic) fail (mm/page_alloc.c __alloc_pages_slowpath).
			Edge{Cause: "oom-kill", Effect: id, Holds: globalOOM,
				Link: "memory ran out: allocations that can wait invoked the OOM killer, those that cannot failed"},
		)
	}
	for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-high-order-atomic", "slab-alloc-failure"} {
		Explains(
			Edge{Cause: "memory-fragmented", Effect: id, Holds: fragmentedForNICs,
				Link: "free memory is split into blocks smaller than the order asked for"},
			Edge{Cause: "compaction-failing", Effect: id,
				Link: "compaction cannot rebuild the large free blocks the allocation needs"},
		)
	}
	// fix68i: an OOM report of order above 0 whose own zones held free memory above their
	// watermarks and no block of the order: fragmentation ran the killer.
	Explains(Edge{Cause: "memory-fragmented", Effect: "oom-kill", Holds: fragmentedAtOOM,
		Link: "the request's order found no free block while free pages stood above the watermarks, and the allocator ran the OOM killer"})
	// fix22d: buddy lists judged at the order the failures themselves asked for (no NIC's
	// MTU; /proc/buddyinfo pasted beside the failure, corpus 1941) are the failure's state,
	// as the lists of its own Mem-Info are: the failure is the root, as it is then.
	for _, id := range []string{"alloc-fail-fragmented", "alloc-fail-high-order-atomic", "slab-alloc-failure"} {
		Explains(Edge{Cause: id, Effect: "memory-fragmented", Holds: fragmentedAtFailure,
			Link: "the failing request's order is the one the buddy lists lack: the scattered free memory is this failure's state"})
	}
	// A new slab is an unmovable allocation (mm/slub.c allocate_slab without __GFP_MOVABLE),
	// which may not use MIGRATE_CMA pageblocks either: when the free memory was mostly CMA, the
	// cache's growth failed for the same reason as the page allocation (corpus 122).
	Explains(Edge{Cause: "alloc-fail-cma", Effect: "slab-alloc-failure",
		Link: "the free memory was mostly CMA, which a slab cache's new (unmovable) slab may not use either"})
	// A key the kernel does not have never took effect: it is why a fix did not work, told
	// beside the failure it was meant to prevent.
	for _, id := range append([]string{"min-free-too-low"}, allocFailIDs...) {
		Explains(Edge{Cause: "sysctl-unknown-key", Effect: id, Holds: namesMinFree, Aggravates: true,
			Link: "the setting meant to keep a reserve was written under a key the kernel does not have, so it never took effect"})
	}
	Explains(
		// On a 32-bit HighMem kernel reclaim frees HighMem pages by swapping while the
		// failing allocations need lowmem (mm/vmscan.c balances every zone).
		Edge{Cause: "alloc-fail-lowmem", Effect: "swap-under-load",
			Link: "the box swaps trying to free memory, but what it frees is HighMem the failing lowmem allocations cannot use"},
		Edge{Cause: "swap-under-load", Effect: "nic-rx-overruns", Holds: busyCPU,
			Link: "receivers wait on swap-in and reclaim takes the CPU, so the NIC's ring is serviced late"},
		Edge{Cause: "swap-under-load", Effect: "rcvq-pruning",
			Link: "receivers slowed by swap-in leave data unread, so receive queues outgrow their buffers"},
		Edge{Cause: "kswapd-saturated", Effect: "tlb-shootdown-storm",
			Link: "every mapped page kswapd unmaps costs a TLB flush on each CPU that used it"},
		Edge{Cause: "tlb-shootdown-storm", Effect: "kswapd-saturated",
			Link: "the flush IPIs make each reclaimed page expensive, so kswapd falls further behind"},
		Edge{Cause: "kswapd-saturated", Effect: "direct-reclaim-stalls",
			Link: "when kswapd cannot keep free memory above the low watermark, allocating tasks reclaim themselves"},
		// kswapd is woken when a zone falls below its low watermark and reclaims until it
		// is above high (wakeup_kswapd, balance_pgdat, mm/vmscan.c): a zone below min while
		// kswapd runs flat out is allocation outpacing it, not a second problem (corpus 775:
		// kswapd at 100% on a Normal zone of a few pages, free 7 below min 18).
		Edge{Cause: "kswapd-saturated", Effect: "zone-reserve-low",
			Link: "kswapd runs flat out and still cannot lift the zone, so allocations dig into its reserve"},
		Edge{Cause: "allocator-churn", Effect: "nic-rx-overruns",
			Link: "per-packet allocation and free slow the receive path, so the ring fills before it is refilled"},
		Edge{Cause: "allocator-churn", Effect: "softnet-squeeze",
			Link: "per-packet allocation and free make each poll slower, so NAPI runs out of budget or time"},
		Edge{Cause: "nic-ring-below-max", Effect: "nic-rx-overruns",
			Link: "a ring below its maximum absorbs a shorter burst"},
		Edge{Cause: "softnet-squeeze", Effect: "nic-rx-overruns",
			Link: "polls end on budget or time with frames still in the ring"},
		Edge{Cause: "tcp-memory-pressure", Effect: "rcvq-pruning",
			Link: "under memory pressure TCP collapses and prunes receive queues"},
		Edge{Cause: "rcvq-pruning", Effect: "retransmit-rate", Holds: prunedCanRetransmit,
			Link: "pruned data must be sent again"},
		Edge{Cause: "orphan-send-queues", Effect: "tcp-memory-pressure", Holds: orphansMatter,
			Link: "closed sockets keep their send queues, counted against tcp_mem"},
		Edge{Cause: "tcp-mem-oversized", Effect: "slab-unreclaimable-growth", Holds: sameMemory,
			RuledOut: slabOwnedElsewhere,
			Link:     "socket buffer data is allocated from the kmalloc slab caches"},
		Edge{Cause: "slab-unreclaimable-growth", Effect: "kernel-time-growth",
			Link: "growing kernel tables and caches make each operation walk more"},
		Edge{Cause: "conntrack-full", Effect: "kernel-time-growth",
			Link: "a full or oversized connection table makes every new flow cost more"},
		// A memory cgroup at its limit fails the charge of its own slab copies (memcg slab
		// caches are named "cache(id:cgroup)" before 5.9, mm/memcontrol.c).
		Edge{Cause: "oom-kill", Effect: "slab-alloc-failure", Holds: memcgSlab,
			Link: "the memory cgroup hit its limit, so its slab cache could not be charged for a new slab"},
		// A new slab is a page allocation of the cache's order (allocate_slab, mm/slub.c);
		// with the zone below min only requests allowed into the reserve get pages, and
		// those fail when it is gone too (__zone_watermark_ok, mm/page_alloc.c): the zone
		// is where the slab failure comes from, not the other way (corpus 545).
		Edge{Cause: "zone-reserve-low", Effect: "slab-alloc-failure", Holds: zoneBelowMin,
			Link: "the zone was below its min watermark, so the cache's new slab found no free page"},
		// When the accept queue is full the final ACK is dropped and the server resends its
		// SYN-ACK (tcp_check_req, net/ipv4/tcp_minisocks.c), counted in RetransSegs.
		Edge{Cause: "listen-overflow", Effect: "retransmit-rate", Holds: overflowsCanRetransmit,
			Link: "handshakes dropped at a full accept queue are retried with retransmitted SYN-ACKs"},
		// Only promises the memory cannot back end in the killer: a commit limit that
		// refused (an OpenVZ container's privvmpages failcnt) held, and its ENOMEM is no
		// step toward the container's OOM kills (oomguarpages failcnt), which come from its
		// resident memory.
		Edge{Cause: "overcommit-exposed", Effect: "oom-kill", Holds: overcommitted,
			Link: "commitments beyond what memory and swap can back end in the OOM killer"},
		// fix64a: a host-wide OOM is memory exhausted: the zones' free pages below their
		// min watermark in the same report are what is left of it, the end of that story
		// and not a reserve set too small (corpus 1493: a Mem-Info dump whose header is cut).
		Edge{Cause: "oom-kill", Effect: "zone-reserve-low", Holds: globalOOM,
			Link: "memory ran out: the zone's free pages below min are the last of it, not a reserve set too small"},
		// Unreclaimable slab that grows by half the memory or more a day, as stated (fix24b),
		// fills the host within a day or two: no shrinker frees it, so the host runs out.
		Edge{Cause: "slab-unreclaimable-growth", Effect: "oom-kill", Holds: slabLeakFills,
			Link: "unreclaimable slab grows until nothing is left for the workload, and reclaim cannot free it"},
	)
}

// overflowsCanRetransmit holds unless the retransmissions outnumber every SYN-ACK the
// dropped handshakes could have caused: each handshake dropped at a full accept queue is
// resent at most tcp_synack_retries times (kernel.TCPSynackRetriesDefault), so with more
// retransmitted segments than that over the same span (both since boot, or both while
// sampled) most of the loss is elsewhere and the overflows cannot be its root. Counts of
// different spans, or a count not read, keep the edge.
func overflowsCanRetransmit(cause, effect *Finding) (string, bool) {
	c, e := cause.Facts, effect.Facts
	if c.Counted <= 0 || e.Counted <= 0 || c.CountedSinceBoot != e.CountedSinceBoot {
		return "", true
	}
	return "", e.Counted <= c.Counted*kernel.TCPSynackRetriesDefault
}

// prunedCanRetransmit holds unless the retransmissions outnumber what the dropped segments
// could cause: each segment the pruning dropped (rcvqDropCount) is sent again at most
// tcp_retries2 times (kernel.TCPRetries2Default) before its connection is aborted. Counts of
// different spans, or no bound (an OfoPruned purge), keep the edge.
func prunedCanRetransmit(cause, effect *Finding) (string, bool) {
	c, e := cause.Facts, effect.Facts
	if c.Counted <= 0 || e.Counted <= 0 || c.CountedSinceBoot != e.CountedSinceBoot {
		return "", true
	}
	return "", e.Counted <= c.Counted*kernel.TCPRetries2Default
}

// overcommitted holds when the cause is memory promised beyond what backs it, not a limit
// that refused the promise.
func overcommitted(cause, effect *Finding) (string, bool) {
	return "", !cause.Facts.RefusedAtLimit
}

// fragmentedForNICs holds when memory-fragmented judged an order of its own (a NIC's
// receive buffers), not the order of the failures it would explain.
func fragmentedForNICs(cause, effect *Finding) (string, bool) {
	return "", !cause.Facts.OrderOfFailure
}

// fragmentedAtOOM holds when memory-fragmented judged a host OOM report's own dump at its
// request's order (oomFragmented).
func fragmentedAtOOM(cause, effect *Finding) (string, bool) {
	if !cause.Facts.OrderOfFailure || cause.Facts.OOM != OOMHost {
		return "", false
	}
	return "the OOM report's own zones at its order", true
}

// fragmentedAtFailure holds when memory-fragmented judged the failures' own order.
func fragmentedAtFailure(cause, effect *Finding) (string, bool) {
	if !effect.Facts.OrderOfFailure {
		return "", false
	}
	return "the order the failure asked for", true
}

// sameMemory holds when both findings are about the same memory: both about lowmem (a
// 32-bit HighMem kernel) or neither.
func sameMemory(cause, effect *Finding) (string, bool) {
	c, e := cause.Facts.Memory == MemoryLowmem, effect.Facts.Memory == MemoryLowmem
	switch {
	case c && e:
		return "both in lowmem", true
	case effect.ID == "alloc-fail-lowmem" && !c:
		return "", false
	}
	return "the same memory", true
}

// slabMatters holds when unreclaimable slab is a large share of the memory the failing
// allocation could use (at least 30%): a smaller share is context, not the cause.
func slabMatters(cause, effect *Finding) (string, bool) {
	if _, ok := sameMemory(cause, effect); !ok {
		return "", false
	}
	if s := cause.Facts.Share; s >= slabMattersShare {
		return fmt.Sprintf("slab holds %.0f%% of the memory", 100*s), true
	}
	return "", false
}

const slabMattersShare = 0.30

// slabLeakFills holds when the stated slab growth adds at least half of the host's memory a
// day and the OOM kill is not only a memory cgroup's: a driver's or a protocol's slab is
// the host's memory, so when the text leaves open where memory ran out (a stated OOM), the
// leak that fills all of it is the host's exhaustion. A slab table whose caches no shrinker
// frees hold sunreclaimAbsWarnKB or more, the memory size unknown, fills memory the same way
// when the text leaves open where memory ran out (g259: SELinux's ebitmap_node, 44 GiB, and
// "my vms constantly being killed due to OOM"). A host OOM kill with slabMattersShare of the
// memory or more in unreclaimable slab is that slab's too.
func slabLeakFills(cause, effect *Finding) (string, bool) {
	if effect.Facts.OOM == OOMCgroup {
		return "", false
	}
	if s := cause.Facts.DayGrowthShare; s >= slabLeakFillsShare {
		return fmt.Sprintf("slab grows by %.0f%% of the memory a day", 100*s), true
	}
	// The host ran out with a third of its memory or more in slab no shrinker frees (all of
	// the memory: on a 32-bit HighMem kernel slab's share of lowmem is one tenant of the
	// lowmem that sockets, page tables and slab all crowd)
	// (g292's 6861: slab_unreclaimable 3 GiB, 39%, in the OOM report's own memory line, the
	// victims' RSS under a megabyte): what the workload lacked, the kernel's objects held.
	if s := cause.Facts.Share; s >= slabMattersShare && cause.Facts.Memory == MemoryAll && (effect.Facts.OOM == OOMHost || effect.Facts.OOM == OOMHostAndCgroup) {
		return fmt.Sprintf("unreclaimable slab holds %.0f%% of the memory the host ran out of", 100*s), true
	}
	if kb := cause.Facts.UnreclaimableKB; kb >= sunreclaimAbsWarnKB && effect.Facts.OOM == OOMUndecided {
		return fmt.Sprintf("%s of slab no shrinker frees, more than any workload's kernel objects", memKB(kb)), true
	}
	return "", false
}

const slabLeakFillsShare = 0.5

// globalOOM holds for an OOM kill of the whole host, not one inside a memory cgroup: a
// cgroup at its limit does not starve the kernel's atomic allocations. A kill known only
// from a counter or unparsed log lines counts as the host's, as its severity does
// (mem_oom.go); one whose report leaves host or cgroup open does not. When the killer ran
// both for the host and inside cgroups, the host's own kills are the exhausted memory.
func globalOOM(cause, effect *Finding) (string, bool) {
	switch cause.Facts.OOM {
	case OOMCgroup, OOMUndecided:
		return "", false
	}
	return "the same exhausted memory", true
}

// memcgSlab holds when the OOM kill was inside a memory cgroup and the slab cache that could
// not grow is a cgroup's copy, or is not named while only cgroups ran out.
func memcgSlab(cause, effect *Finding) (string, bool) {
	switch cause.Facts.OOM {
	case OOMCgroup, OOMHostAndCgroup, OOMUndecided:
	default:
		return "", false
	}
	if effect.Facts.CgroupCache {
		return "the cache is the cgroup's own copy", true
	}
	// The SLUB message without its cache line (a title, a cut paste) beside kills inside
	// memory cgroups only: nothing says the host's memory ran out, and a cgroup at its
	// limit fails its slab charges with that message (memcg_charge_slab, before 5.9), so
	// the kill is the event and the failure its echo (corpus 544), not the reverse.
	if effect.Facts.CacheUnnamed && cause.Facts.OOM == OOMCgroup {
		return "the cache is not named and only a memory cgroup ran out of memory", true
	}
	return "", false
}

// zoneBelowMin holds when the zone was below its min watermark, not only near it: above
// min a new slab's pages were still there for the asking.
func zoneBelowMin(cause, effect *Finding) (string, bool) {
	if cause.Facts.BelowMin {
		return "the zone below min at the same time", true
	}
	return "", false
}

// orphansMatter holds when the closed sockets' queues are a share of memory that can
// explain a shortage: at least 64 MiB.
func orphansMatter(cause, effect *Finding) (string, bool) {
	if total := cause.Facts.HeldBytes; total >= orphansMatterBytes {
		return "closing sockets hold " + memKB(total/1024), true
	}
	return "", false
}

const orphansMatterBytes = 64 << 20

// busyCPU holds when the effect says the CPU was busy around it.
func busyCPU(cause, effect *Finding) (string, bool) {
	if effect.Facts.CPUBusy {
		return "CPU busy around the counters", true
	}
	if effect.When != nil && cause.When != nil {
		return "the same time", true
	}
	return "", false
}

// namesMinFree holds when the unknown key was meant as vm.min_free_kbytes and the text does
// not say the setting worked.
func namesMinFree(cause, effect *Finding) (string, bool) {
	if cause.Facts.StatedWorked || !slices.Contains(cause.Facts.MeantKeys, "vm.min_free_kbytes") {
		return "", false
	}
	return "the key was meant as vm.min_free_kbytes", true
}

// overlap is the time condition every edge shares: findings placed in time must overlap.
func overlap(a, b *Finding) bool {
	if a.When == nil || b.When == nil {
		return true
	}
	return !a.When.To.Before(b.When.From) && !b.When.To.Before(a.When.From)
}

// limitBearing says which findings a kernel limit (kernelFacts, mem_kernel_limits.go) bears
// on, and whether the version that lifted it is the fix for them rather than context.
type limitBearing struct {
	bears []string
	fixes bool
}

// limitBearings, by kernel fact id.
var limitBearings = map[string]limitBearing{
	"compaction": {bears: []string{"alloc-fail-fragmented", "alloc-fail-high-order-atomic", "memory-fragmented", "compaction-failing", "slab-alloc-failure"}},
	// Batched TLB flushes (72b252aed506) remove the per-page IPI that makes kswapd's
	// reclaim of mapped pages cost a flush on every CPU.
	"batched-tlb-flush":        {bears: []string{"tlb-shootdown-storm", "kswapd-saturated"}, fixes: true},
	"order0-watermarks":        {bears: []string{"alloc-fail-fragmented", "alloc-fail-high-order-atomic", "alloc-fail-reserve", "min-free-too-low", "memory-fragmented"}},
	"watermark-scale-factor":   {bears: []string{"kswapd-saturated", "direct-reclaim-stalls", "tlb-shootdown-storm", "min-free-too-low", "alloc-fail-reserve", "alloc-fail-fragmented", "alloc-fail-high-order-atomic", "alloc-fail-lowmem", "swap-under-load"}},
	"node-reclaim-counters":    {bears: []string{"kswapd-saturated", "direct-reclaim-stalls"}},
	"psi":                      {bears: []string{"direct-reclaim-stalls"}},
	"watermark-boost-factor":   {bears: []string{"memory-fragmented", "alloc-fail-fragmented"}},
	"compaction-proactiveness": {bears: []string{"memory-fragmented", "alloc-fail-fragmented", "compaction-failing"}},
	"skb-drop-reasons":         {bears: []string{"rx-dropped-software", "softnet-backlog-drops"}},
}

// trimKernelLimits keeps, in the kernel-known-limits finding, only the limits that bear on
// the problems found (issue 19: a 2.4 kernel's report does not list skb drop reasons from
// 5.17). A kernel before 2.6 lacks every one of them: one line says so, and the ones that
// matter here follow.
func trimKernelLimits(findings []Finding) {
	present := map[string]bool{}
	for i := range findings {
		if storyNode(&findings[i]) {
			present[findings[i].ID] = true
		}
	}
	for i := range findings {
		f := &findings[i]
		if f.ID != "kernel-known-limits" || len(f.Evidence) == 0 {
			continue
		}
		var kept []Evidence
		dropped := 0
		pre26 := f.Facts.Kernel.Known && !f.Facts.Kernel.AtLeast(2, 6, 0)
		for _, e := range f.Evidence {
			if e.Fact == "" {
				kept = append(kept, e)
				continue
			}
			bears := false
			for _, id := range limitBearings[e.Fact].bears {
				bears = bears || present[id]
			}
			if bears {
				kept = append(kept, e)
			} else {
				dropped++
			}
		}
		if pre26 {
			kept = append(kept[:1:1], append([]Evidence{{What: "before 2.6", Value: "every memory fix since 2.6 is missing (compaction, per-order watermarks, watermark_scale_factor, PSI, batched TLB flushes, drop reasons)", Source: f.Evidence[0].Source}}, kept[1:]...)...)
		}
		// The explanation lists the limits still shown (the lines after the kernel's).
		f.Explanation = kernelLimitsExplanation(kept[1:])
		if !pre26 && dropped > 0 {
			kept = append(kept, Evidence{What: "other limits", Value: fmt.Sprintf("%d more that bear on none of these findings (headroom explain kernel-known-limits)", dropped), Source: "kernel " + f.Evidence[0].Value})
		}
		f.Evidence = kept
	}
}

// slabOwnedElsewhere: most of the unreclaimable slab is one cache the network stack does not
// allocate from (g259: SELinux's ebitmap_node, 43.8 of 44.2 GiB), so socket memory is not
// what fills it.
func slabOwnedElsewhere(effect *Finding) bool { return effect.Facts.SlabOwner != "" }
