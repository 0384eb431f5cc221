package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// The alloc-fail-* family: "page allocation failure" reports (mm/page_alloc.c warn_alloc,
// formerly __alloc_pages' printk; the show_mem dump follows them) sorted by cause. Every
// report gets exactly one cause, decided from its own zone dump, else the dump of a report
// of the same order and mode in the same log, else the timeline; each rule reports the
// reports of its cause. One decision per report keeps the rules from contradicting each
// other: seed 004's lowmem failures are also reserve exhaustion, but the fix differs, and
// the more specific cause names it.
//
// How the allocator decides (mm/page_alloc.c __zone_watermark_ok):
//   - the zone's free pages, less (1 << order) − 1, must exceed min + lowmem_reserve[classzone];
//     __GFP_HIGH (part of GFP_ATOMIC in every era) lowers min by 1/2, and an allocation that
//     cannot direct-reclaim by a further 1/4 (ALLOC_HARDER until 6.2; 6.3 renamed it
//     ALLOC_NON_BLOCK and grants it only together with __GFP_HIGH): GFP_ATOMIC may take a zone
//     down to 3/8 of min.
//   - before 4.4, order > 0 also had to pass the same check order by order, with the free
//     pages of each lower order removed and min halved per order; 4.4 (commit 97a16fc82a7c,
//     "only enforce watermarks for order-0 allocations") replaced that with "one free block
//     of the order or larger" and added the MIGRATE_HIGHATOMIC reserve for atomic high-order
//     requests.
//   - lowmem_reserve[] (vm.lowmem_reserve_ratio) keeps part of each lower zone from
//     allocations that could have used a higher one.

func init() {
	for _, r := range []Rule{
		{ID: classReserve, Title: "allocation failed with the zones at their min watermark: the emergency reserve was exhausted"},
		{ID: classFragmented, Title: "allocation failed above the watermarks: no free block of the requested order"},
		{ID: classLowmem, Title: "32-bit kernel: allocation failed in lowmem while HighMem held the memory"},
		{ID: classZoneRestricted, Title: "GFP_DMA/GFP_DMA32 allocation failed in its own short zone while other zones had memory"},
		{ID: classCMA, Title: "allocation failed while the free memory was mostly CMA it may not use"},
		{ID: classNotPhysical, Title: "vmalloc-space, per-cpu or impossible-order failure that no memory tuning fixes"},
		{ID: classHighOrderAtomic, Title: "atomic allocation of order 4 or more: expected to fail; the caller is the fix"},
	} {
		id := r.ID
		r.Family = FamilyMemory
		r.Check = func(tl *model.Timeline) Result { return checkAllocClass(tl, id) }
		Register(r)
	}
}

const (
	classReserve         = "alloc-fail-reserve"
	classFragmented      = "alloc-fail-fragmented"
	classLowmem          = "alloc-fail-lowmem"
	classZoneRestricted  = "alloc-fail-zone-restricted"
	classCMA             = "alloc-fail-cma"
	classNotPhysical     = "alloc-fail-not-physical"
	classHighOrderAtomic = "alloc-fail-high-order-atomic"
)

// vmallocOverRAM: __vmalloc_node_range's message for a request above totalram_pages()
// (mm/vmalloc.c, 5.15+), one of kernel.MsgNotPhysical.
const vmallocOverRAM = ", exceeds total pages"

// maxBuddyOrder is the largest order the buddy allocator holds: MAX_ORDER − 1 = 10 on every
// common configuration before 6.4, MAX_PAGE_ORDER = 10 since (commit 23baf831a32c renamed
// it). A request above it can never be met, whatever the free memory.
const maxBuddyOrder = 10

// highOrderAtomicMin: order 4 is 16 pages, 64 KiB with 4 KiB pages. Above
// PAGE_ALLOC_COSTLY_ORDER (3) the allocator treats a request as costly (no retries, little
// compaction), and an atomic request can do neither reclaim nor compaction, so only free
// blocks already there — or the MIGRATE_HIGHATOMIC reserve (4.4+, at most ~1% of a zone) —
// can serve it.
const highOrderAtomicMin = 4

// pageAllocCostlyOrder is PAGE_ALLOC_COSTLY_ORDER (include/linux/mmzone.h): requests up to it
// that may reclaim are retried and may call the OOM killer.
const pageAllocCostlyOrder = 3

// Needles for log-only failures of address space rather than pages (mm/vmalloc.c:
// alloc_vmap_area "vmap allocation for size N failed: use vmalloc=<size> to increase size";
// 5.x+ __vmalloc_node_range "vmalloc error: size N, vm_struct allocation failed";
// mm/percpu.c pcpu_alloc "percpu: allocation failed").

// allocVerdict is the decision for one report.
type allocVerdict struct {
	ev       *model.Event
	af       *model.AllocFailure
	class    string
	also     []string           // further causes the same dump proves (a restricted zone that is also fragmented)
	zones    []model.ZoneReport // the dump used, own or borrowed
	borrowed string             // source of a borrowed dump
	inferred bool               // classified without a zone dump (classifyWithoutDump)
	oom      bool               // an OOM report's request, not a "page allocation failure" (oomLowmemVerdict)
	checks   []zoneCheck        // eligible zones
	others   []zoneCheck        // zones the mode may not use
	notes    []string           // reasoning specific to this report
	cz       string             // classzone: highest zone the mode may use
	flags    map[string]bool
	// highMemProof/highMemSource: where HighMem was seen when the dump has no HighMem line
	// (dumpHighMem).
	highMemProof, highMemSource string
}

// zoneCheck is one zone of a dump measured against the failed request.
type zoneCheck struct {
	z                     model.ZoneReport
	freePages, minPages   int64
	reservePages          int64
	reserveKnown          bool
	floorPages            int64 // the request's own order-0 limit: adjusted min + reserve
	belowMin              bool  // free ≤ min + lowmem_reserve: into the reserve
	belowFloor            bool  // free ≤ the request's floor: its own check failed
	orderKnown, orderFail bool
	// orderShort: the order part of the check failed above the order-0 floor: pre-4.4 too
	// few pages in blocks of the order's size above the halved min, 4.4+ no block of it.
	orderShort   bool
	orderWhy     string
	freeCMAPages int64
	cmaKnown     bool
	// highAtomicPages: free pages in blocks the dump marks highatomic only ("(H)"). A request
	// that is not ALLOC_HARDER (not atomic) cannot use them: __zone_watermark_ok subtracts
	// nr_reserved_highatomic for it (mm/page_alloc.c, 4.4+).
	highAtomicPages int64
	// unusablePages: what the watermark check takes off free before comparing it with the
	// floor (__zone_watermark_unusable_free), and unusableWhy its parts in words.
	unusablePages int64
	unusableWhy   string
	// wmUnknown: the dump holds the zone's buddy line but not its zone line (a paste elided
	// it): free is the buddy line's blocks, min and the reserve are not known.
	wmUnknown bool
}

func checkAllocClass(tl *model.Timeline, class string) Result {
	vs, n, nc := allocVerdicts(tl)
	// The allocator's own words for a failure that is not of free pages (its WARN for an
	// order above the largest, a vmalloc or percpu failure line) are this cause's evidence
	// whatever else the log holds: a failed cma_alloc falls back to the buddy allocator
	// (dma_alloc_contiguous → alloc_pages), and a request above MAX_ORDER − 1 warns there,
	// so a pool line (or an unparsed report) beside it does not leave the cause unknown.
	if nc != "" && class == classNotPhysical && len(vs) == 0 {
		if logOnly, orderWarns := logMatches(tl, kernel.MsgNotPhysical...), allocOrderWarns(tl); len(logOnly) > 0 || len(orderWarns) > 0 {
			f := allocFinding(tl, class, nil, logOnly)
			if len(orderWarns) > 0 {
				f.Evidence = append(f.Evidence, logEvidence(orderWarnWhat, orderWarns))
			}
			return Fired(f)
		}
	}
	if nc != "" {
		if class == classReserve && len(vs) == 0 {
			if f, ok := headerlessRxRefill(tl); ok {
				return Fired(f)
			}
		}
		return NotChecked("%s", nc)
	}
	var mine []allocVerdict
	counts := map[string]int{}
	for _, v := range vs {
		counts[v.class]++
		if v.class == class || slices.Contains(v.also, class) {
			mine = append(mine, v)
		}
	}
	var logOnly, orderWarns []model.LogRecord
	if class == classNotPhysical {
		logOnly = logMatches(tl, kernel.MsgNotPhysical...)
		orderWarns = allocOrderWarns(tl)
	}
	if len(mine) == 0 && len(logOnly) == 0 && len(orderWarns) == 0 {
		if len(vs) == 0 {
			return Healthy("no page allocation failure among %d kernel log records", n)
		}
		msg := fmt.Sprintf("%d allocation-failure reports, none of this cause (%s)", len(vs), memCounts(counts))
		// A report without a zone dump was classified by inference (classifyWithoutDump):
		// the zones that would show this cause were not read, so say the exclusion is inferred.
		inferred := 0
		for _, v := range vs {
			if v.inferred {
				inferred++
			}
		}
		if inferred > 0 {
			msg += fmt.Sprintf("; %d of them without a zone dump in the input: their cause is inferred, this one is excluded by inference, not by the zones", inferred)
		}
		return Healthy("%s", msg)
	}
	f := allocFinding(tl, class, mine, logOnly)
	if len(orderWarns) > 0 {
		f.Evidence = append(f.Evidence, logEvidence(orderWarnWhat, orderWarns))
	}
	return Fired(f)
}

// orderWarnWhat names the allocator's order WARN in a finding's evidence.
const orderWarnWhat = "the allocator's WARN for an order above its largest (order ≥ MAX_ORDER; the order itself is not printed)"

// allocOrderWarns: the buddy allocator's WARNING for a request above its largest order
// (kernel.IsAllocOrderWarn), read by the warning's site. No page-allocation-failure report
// follows it (the check returns before warn_alloc), so it is the failure's only trace.
func allocOrderWarns(tl *model.Timeline) []model.LogRecord {
	var out []model.LogRecord
	for _, r := range tl.Log.All() {
		if strings.Contains(r.Message, "page_alloc.c:") && kernel.IsAllocOrderWarn(r.Message) {
			out = append(out, r)
		}
	}
	return out
}

func memCounts(m map[string]int) string {
	var parts []string
	for k, v := range m {
		parts = append(parts, fmt.Sprintf("%s ×%d", k, v))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}

// allocVerdicts classifies every allocation-failure event. n is the number of log records
// searched; nc is set when the timeline has no log to search or failures that were not
// parsed.
func allocVerdicts(tl *model.Timeline) (vs []allocVerdict, n int, nc string) {
	var evs []*model.Event
	for i := range tl.Events {
		if tl.Events[i].Kind == model.EventAllocFailure && tl.Events[i].AllocFailure != nil {
			evs = append(evs, &tl.Events[i])
		}
	}
	if len(evs) == 0 {
		if ok, why := memLogAvailable(tl); !ok {
			return nil, 0, why + ": allocation failures are reported there"
		}
		if recs := logMatches(tl, "page allocation failure"); len(recs) > 0 {
			return nil, tl.Log.Len(), fmt.Sprintf("%d \"page allocation failure\" lines (first: %s) were not parsed into reports", len(recs), recs[0].Where())
		}
		// A trace or a rate-limit summary of warn_alloc without its header: failures
		// happened, and which cause is unknown, so no rule of the family may call the log
		// clean (corpus 369, 415, 416). A vmalloc failure prints the same trace under its own
		// header (mm/vmalloc.c warn_alloc, corpus 020): that trace is accounted for.
		if recs := logMatches(tl, kernel.MsgWarnAllocFrame...); len(recs) > 0 && len(logMatches(tl, kernel.MsgNotPhysical...)) == 0 {
			return nil, tl.Log.Len(), fmt.Sprintf("warn_alloc in %d kernel log line(s) (first: %s, %q) without a \"page allocation failure\" header: allocation failures happened, but their order, mode and zones are not in the input (paste the lines above the trace)",
				len(recs), memOr(recs[0].Where(), "kernel log"), strings.TrimSpace(recs[0].Message))
		}
		// A subsystem's or a driver's own words for a failed allocation ("failed to refill
		// rx ring: -12", "alloc_pages failed, order: 1", "LNET: out of memory at ...",
		// kernel.ParseSubsysAllocFailure) without a report: allocations failed on the host,
		// and no rule of the family may call the log clean; their order, mode and zones are
		// not in the input, so none of the family's causes is shown either.
		// An OOM report's own dump beside them shows the zones that failed (oomLowmemVerdicts):
		// that request is judged, and the driver's line is part of the same shortage (corpus
		// 6780: the NVIDIA driver's "failed to allocate a page" next to Xorg's OOM report with
		// Normal below min and HighMem free).
		if recs := subsysAllocRecords(tl); len(recs) > 0 && len(oomLowmemVerdicts(tl)) == 0 {
			what := "but their order, mode and zones are not in the input"
			f, _ := kernel.ParseSubsysAllocFailure(recs[0].Message)
			switch {
			case f.RX && f.Atomic != nil && *f.Atomic:
				what = "in the receive path with GFP_ATOMIC, as the line says (an RX buffer refill, which may not sleep: it fails at the zones' atomic floor, or for want of a free block when its buffers are larger than a page), and their order and zones are not in the input"
			case f.RX:
				what = "in the receive path (drivers refill there from NAPI's softirq, GFP_ATOMIC), and their order, mode and zones are not in the input"
			case f.DMA:
				// h19a: a DMA coherent buffer is no receive refill; name it for what it is.
				what = "for a DMA coherent buffer (dma_alloc_coherent: a driver's firmware image or memory, or a descriptor ring, allocated in process context at probe, firmware load or resume with GFP_KERNEL; physically contiguous unless an IOMMU maps it, so a large one fails for want of a free block of its order, not for the atomic reserve), and its order and zones are not in the input"
			}
			if pool := poolRecords(recs); pool != "" {
				return nil, tl.Log.Len(), pool
			}
			return nil, tl.Log.Len(), fmt.Sprintf("%d kernel log line(s) state a failed allocation in a subsystem's or driver's own words (first: %s, %q): allocations failed %s, so no cause of the family is shown or excluded (the driver allocates with __GFP_NOWARN or logs only the errno; a \"page allocation failure\" report or /proc/buddyinfo and /proc/zoneinfo from the host while it fails would decide)",
				len(recs), memOr(recs[0].Where(), "kernel log"), clipMsg(recs[0].Message), what)
		}
		vs := oomLowmemVerdicts(tl)
		// alloc_contig_range's "[%lx, %lx) PFNs busy" (mm/page_alloc.c, pr_info_ratelimited;
		// __func__ is alloc_contig_range_noprof since 6.10): pages of a contiguous range (a
		// CMA area's, a gigantic huge page's) could not be isolated or migrated out. cma_alloc
		// then tries the next range and prints its own failure ("alloc failed, req-size", a
		// PoolCMA line above) only when none was had: without that line whether the request
		// failed is not in the input, so the log is not called clean either.
		if busy := logMatches(tl, ") PFNs busy"); len(vs) == 0 && len(busy) > 0 {
			return nil, tl.Log.Len(), fmt.Sprintf("%d kernel log line(s) say a contiguous range's pages were busy (first: %s, %q): alloc_contig_range could not migrate pinned or in-use pages out of a CMA area; cma_alloc retries the next range and says \"alloc failed, req-size: N pages\" only when none was free, and no such line is in the input, so whether an allocation failed is not shown (the lines around it, or CmaTotal/CmaFree in /proc/meminfo, would say)",
				len(busy), memOr(busy[0].Where(), "kernel log"), clipMsg(busy[0].Message))
		}
		return vs, tl.Log.Len(), ""
	}
	order0 := false
	for _, e := range evs {
		if e.AllocFailure.Order == 0 {
			order0 = true
		}
	}
	above := notPhysicalAbove(tl)
	for i, e := range evs {
		v := allocVerdict{ev: e, af: e.AllocFailure, zones: e.AllocFailure.Zones}
		if len(v.zones) == 0 {
			if d := nearestDump(evs, i); d != nil {
				v.zones, v.borrowed = d.AllocFailure.Zones, memEventSource(d)
			}
		}
		if r, ok := above[e.FirstLine]; ok && e.FirstLine > 1 {
			// warn_alloc_failed's own message on the line above the header: the
			// report is the vmalloc's address-space failure (notPhysicalAbove).
			v.class = classNotPhysical
			v.notes = append(v.notes, fmt.Sprintf("the line above the report's header (%s, %q) is the message warn_alloc_failed printed before it: the report is vmalloc's failure to find address space, printed as order 0; free pages are not what failed", memOr(r.Where(), "kernel log"), clipMsg(r.Message)))
			vs = append(vs, v)
			continue
		}
		memClassify(tl, &v, order0)
		vs = append(vs, v)
	}
	return append(vs, oomLowmemVerdicts(tl)...), tl.Log.Len(), ""
}

// notPhysicalAbove maps a line number to the address-space failure message on the line
// before it (kernel.MsgNotPhysical). From 2.6.38 to 4.11 warn_alloc_failed (mm/page_alloc.c)
// printed its caller's message on a line of its own and then the usual "%s: page allocation
// failure: order:%d, mode:0x%x" header: vmalloc's "vmalloc: allocation failure: N bytes"
// (mm/vmalloc.c __vmalloc_node_range, no free range of the vmalloc area, or a zero size)
// comes with order 0 and the caller's mode, so the header alone reads as an order-0 request
// that found no free page. 4.12+ prints both on one line ("modprobe: vmalloc: allocation
// failure: ..., mode:...": memClassify reads it there). Its page failure, "vmalloc:
// allocation failure, allocated N of M bytes", is of pages and not in MsgNotPhysical.
func notPhysicalAbove(tl *model.Timeline) map[int]model.LogRecord {
	var m map[int]model.LogRecord
	for _, r := range logMatches(tl, kernel.MsgNotPhysical...) {
		if n := r.Line(); n > 0 {
			if m == nil {
				m = map[int]model.LogRecord{}
			}
			m[n+1] = r
		}
	}
	return m
}

// nearestDump finds the closest report of the same order and mode that has a zone dump: a
// paste often shows one dump and elides the others ("..."), and repeated failures of one
// caller happen under the same conditions.
func nearestDump(evs []*model.Event, i int) *model.Event {
	best, dist := -1, 0
	for j, e := range evs {
		af := e.AllocFailure
		if j == i || len(af.Zones) == 0 || af.Order != evs[i].AllocFailure.Order || af.ModeValue != evs[i].AllocFailure.ModeValue {
			continue
		}
		d := j - i
		if d < 0 {
			d = -d
		}
		if best < 0 || d < dist {
			best, dist = j, d
		}
	}
	if best < 0 {
		return nil
	}
	return evs[best]
}

func memClassify(tl *model.Timeline, v *allocVerdict, order0Seen bool) {
	af := v.af
	v.flags = kernel.GFPFlagSet(af.GFPFlags)
	v.cz = kernel.GFPClasszone(v.flags)
	if v.cz == "DMA32" && noDMA32Zone(v.zones) {
		// A kernel built without ZONE_DMA32 (32-bit x86, 32-bit ARM) maps __GFP_DMA32 to
		// ZONE_NORMAL (include/linux/gfp.h: OPT_ZONE_DMA32 is ZONE_NORMAL without
		// CONFIG_ZONE_DMA32). The dump says which kernel it was: a HighMem zone and no DMA32
		// (corpus 6783: i915's GFP_USER|GFP_DMA32 on a 4.9 i386 ThinkPad, Normal below min).
		v.cz = "Normal"
		v.notes = append(v.notes, "the mode asks for ZONE_DMA32, which this 32-bit kernel does not have (its dump lists HighMem and no DMA32): __GFP_DMA32 then means ZONE_NORMAL")
	}
	atomic := af.Atomic != nil && *af.Atomic

	if af.Order > maxBuddyOrder {
		v.class = classNotPhysical
		v.notes = append(v.notes, fmt.Sprintf("order %d is above the largest buddy order (%d): no amount of free memory can serve it", af.Order, maxBuddyOrder))
		return
	}
	if m := strings.ToLower(af.Process + " " + af.Mode); strings.Contains(m, "vmalloc") || strings.Contains(m, "vmap") {
		v.class = classNotPhysical
		v.notes = append(v.notes, "the report is a vmalloc failure: the kernel's virtual address space for vmalloc, not free pages, may be what ran out")
		return
	}
	if atomic && af.Order >= highOrderAtomicMin {
		v.class = classHighOrderAtomic
		measureZones(tl, v)
		// The caller is the fix, and the dump may also prove fragmentation: an eligible
		// zone above min + lowmem_reserve whose buddy line has no free block of the order
		// or larger had the pages but not the block (corpus 1963: Normal free 3028 kB
		// above high 2860 kB, largest block order 4, an order-5 request). Both are causes.
		if atomicFragmented(v) {
			v.also = append(v.also, classFragmented)
		}
		return
	}
	if af.Atomic == nil {
		v.notes = append(v.notes, "whether the request could reclaim is undecidable from the mode as printed (the kernel era of its GFP bits is unknown): the reserve it could reach is uncertain")
	}

	measureZones(tl, v)
	if len(v.checks) == 0 {
		classifyWithoutDump(tl, v, order0Seen)
		return
	}
	if allWatermarksUnknown(v.checks) {
		// Buddy lines without zone lines: what is free is known, the floor it was measured
		// against is not. Only the migrate letters can still prove a cause.
		if cmaByLetters(v) {
			v.class, v.inferred = classCMA, true
			v.notes = append(v.notes, "the dump's zone lines (free, min, free_cma) are not in the input; its buddy lines' migrate letters put most of the free memory in CMA pageblocks (C) and highatomic ones (H), which this request may not use: "+
				"an order-0 request fails only at its zone's floor, so the free memory it could use was at the floor while the rest looked plentiful")
			return
		}
		classifyWithoutDump(tl, v, order0Seen)
		return
	}
	allMin, allShort, orderOnly, allFloor := true, true, false, true
	for _, c := range v.checks {
		if c.wmUnknown {
			continue // a zone known only by its buddy line proves nothing about its floor
		}
		if !c.belowMin {
			allMin = false
		}
		if !c.belowFloor {
			allFloor = false
		}
		// Short: into the reserve, without a block of the order, or below the request's own
		// floor. The last is 4.4+'s order-0 part of __zone_watermark_ok (mm/page_alloc.c):
		// free less the request's 2^order − 1 pages not above min + lowmem_reserve fails the
		// request with blocks of its order present (corpus 1161: Normal 3040 kB free, min
		// 2940 kB, order 5 = 128 kB). Pre-4.4 the same check sets orderFail.
		if !c.belowMin && !c.orderFail && !c.belowFloor {
			allShort = false
		}
		if !c.belowMin && c.orderFail {
			orderOnly = true
		}
	}
	czRank := memZoneRank(v.cz)
	switch {
	case (v.cz == "DMA" || v.cz == "DMA32") && allShort && otherLowZoneHasRoom(v):
		v.class = classZoneRestricted
	case cmaExplains(v):
		v.class = classCMA
	case czRank < memZoneRank("HighMem") && allShort && dumpHighMem(tl, v) && !highMemAtMin(v.zones):
		v.class = classLowmem
	case allMin:
		v.class = classReserve
	case allFloor && !orderOnly && len(v.checks) > 0 && !allWatermarksUnknown(v.checks):
		// Every zone failed the request's own order-0 check: free, less what the request
		// may not count (its block's pages, the highatomic reserve, CMA), at or below its
		// floor, whatever blocks the buddy lists held (corpus 5948: Normal 97660 kB free,
		// min 95256 kB, 30720 kB of it the highatomic reserve a reclaiming request may not
		// use).
		v.class = classReserve
		v.notes = append(v.notes, "every zone the request may use failed the order-0 part of its watermark check: its free pages, less what the request may not count, were at or below its floor")
	case af.Order > 0 && allShort && orderOnly:
		v.class = classFragmented
	}
	// A zone that had the pages but not the block (free above min, order check failed) is
	// fragmented whatever else restricted the request: both are causes, and both have fixes.
	if v.class != classFragmented && af.Order > 0 && orderOnly {
		v.also = append(v.also, classFragmented)
	}
	if v.class != "" {
		return
	}
	switch {
	default:
		// warn_alloc prints the dump after the attempt failed; memory freed in between
		// (kswapd, a finished DMA) makes the dump look healthier than the moment of failure.
		v.class = classReserve
		if af.Order > 0 {
			v.class = classFragmented
		}
		v.notes = append(v.notes, "the dump, printed after the attempt, shows an eligible zone above its watermarks"+
			memOrderPhrase(af.Order)+": memory was freed between the failure and the dump, so the dump understates the shortage")
	}
}

// atomicFragmented: some zone v's request may use, with its zone line and buddy line read,
// was above min + lowmem_reserve while its buddy line holds no free block of the request's
// order or larger, or (fix62e) whose pre-4.4 order check failed above the order-0 floor: the
// kernel's own test that too few of its free pages sit in blocks of the order's size (corpus
// 5225: Normal 42648 kB free, min 2788 kB, one order-6 block, an order-6 request refused).
func atomicFragmented(v *allocVerdict) bool {
	for _, c := range v.checks {
		if c.wmUnknown || c.belowMin || !c.orderKnown || len(c.z.FreeBlocks) == 0 {
			continue
		}
		if c.orderShort {
			return true
		}
		var big int64
		for o := v.af.Order; o < len(c.z.FreeBlocks); o++ {
			big += c.z.FreeBlocks[o]
		}
		if big == 0 {
			return true
		}
	}
	return false
}

// alsoOfHighOrderAtomic: every verdict is a high-order atomic one that also showed a
// fragmented zone (atomicFragmented).
func alsoOfHighOrderAtomic(vs []allocVerdict) bool {
	for _, v := range vs {
		if v.class != classHighOrderAtomic {
			return false
		}
	}
	return len(vs) > 0
}

func memOrderPhrase(order int) string {
	if order == 0 {
		return ""
	}
	return fmt.Sprintf(" with a block of order %d or larger", order)
}

// dumpHighMem reports whether the machine of v's report has HighMem the request could not
// use: a HighMem zone in the dump, else (the dump lists only the zones the request may use
// since __show_mem took max_zone_idx) the footer's HighMem pages or the host's own facts
// (LowTotal in /proc/meminfo, the same boot when the report is from its live kernel log);
// the last two add a note saying where HighMem was seen.
func dumpHighMem(tl *model.Timeline, v *allocVerdict) bool {
	if model.HasHighMemZone(v.zones) {
		return true
	}
	for _, z := range v.zones {
		if strings.EqualFold(z.Zone, "HighMem") {
			return false // listed, and empty
		}
	}
	switch {
	case v.af.HighMemPages != nil && *v.af.HighMemPages > 0:
		v.highMemProof = fmt.Sprintf("the dump's footer counts %d pages HighMem/MovableOnly (%s) though it lists no HighMem zone (6.x prints only the zones the mode may use)", *v.af.HighMemPages, memKB(*v.af.HighMemPages*memPage(tl)/1024))
		v.highMemSource = memEventSource(v.ev)
		return true
	case tl.Host.HighMem != nil && *tl.Host.HighMem:
		v.highMemProof = "the host has HighMem though the dump lists no HighMem zone (6.x prints only the zones the mode may use)"
		v.highMemSource = "host facts"
		return true
	}
	return false
}

// noDMA32Zone: the dump lists a HighMem zone, so the kernel is 32-bit, and no DMA32 zone.
func noDMA32Zone(zones []model.ZoneReport) bool {
	high := false
	for _, z := range zones {
		switch {
		case strings.EqualFold(z.Zone, "DMA32"):
			return false
		case strings.EqualFold(z.Zone, "HighMem"):
			high = true
		}
	}
	return high
}

// restrictedWithPlentyFree: v's mode may only use ZONE_DMA or ZONE_DMA32, its report has the
// Mem-Info summary but no zone line, and the summary's free pages are at least a quarter of
// the pages RAM its footer counts. It returns both counts.
func restrictedWithPlentyFree(v *allocVerdict) (free, ram int64, ok bool) {
	af := v.af
	if (v.cz != "DMA" && v.cz != "DMA32") || af.MemInfo == nil || len(af.Zones) > 0 || len(v.zones) > 0 || af.PagesRAM == nil || *af.PagesRAM <= 0 {
		return 0, 0, false
	}
	free, ok = af.MemInfo.Get("free")
	if !ok || free*4 < *af.PagesRAM {
		return 0, 0, false
	}
	return free, *af.PagesRAM, true
}

// classifyWithoutDump decides from the rest of the timeline when no report shows zones.
func classifyWithoutDump(tl *model.Timeline, v *allocVerdict, order0Seen bool) {
	af := v.af
	v.inferred = true
	if allWatermarksUnknown(v.checks) {
		v.notes = append(v.notes, "the dump's buddy lines are in the input but not its zone lines (free, min, lowmem_reserve), so the zones' watermarks at the failure are unknown and the cause is inferred from the rest of the input")
	} else {
		v.notes = append(v.notes, "no zone dump (free, min, buddy counts) accompanies this report in the input, so the zones' state at the failure cannot be shown and the cause is inferred from the rest of the input")
	}
	if tl.Host.HighMem != nil && *tl.Host.HighMem && memZoneRank(v.cz) < memZoneRank("HighMem") && (!modeUnprinted(v) || af.Order > 0) {
		v.class = classLowmem
		if modeUnprinted(v) {
			v.notes = append(v.notes, fmt.Sprintf("the host has HighMem and the report prints no mode; %s", unprintedModeZone))
		} else {
			v.notes = append(v.notes, "the host has HighMem and this mode may not use it: only lowmem could serve the request")
		}
		return
	}
	if free, ram, ok := restrictedWithPlentyFree(v); ok {
		// The request may use only ZONE_DMA or ZONE_DMA32 (gfp_zone(), include/linux/gfp.h)
		// and the machine had most of its memory free: what it had was not where this mode
		// may take it. The zone it may use is the one to judge, and the one that was short
		// (or empty: a platform whose RAM begins above 4 GiB has no DMA32 memory at all).
		// Fragmentation of the rest says nothing about it.
		v.class = classZoneRestricted
		v.notes = append(v.notes, fmt.Sprintf("the dump's summary shows free:%d of %d pages RAM (%d%%) free, yet the request failed: it may only use ZONE_%s and below, and the dump lists no zone line of them "+
			"(since 5.x show_mem prints only the nodes and zones the failed mode may use, mm/show_mem.c; an empty list says none of them has memory), so the restricted zone was short or empty, not memory as a whole",
			free, ram, free*100/ram, v.cz))
		return
	}
	if (v.cz == "DMA" || v.cz == "DMA32") && af.Atomic != nil && !*af.Atomic && af.Order <= pageAllocCostlyOrder {
		// A request that may reclaim, of order ≤ PAGE_ALLOC_COSTLY_ORDER, is retried and
		// backed by the OOM killer, except when its highest zone is below ZONE_NORMAL:
		// __alloc_pages_may_oom (mm/page_alloc.c) skips the killer ("The OOM killer does not
		// needlessly kill tasks for lowmem") and the request fails. Such a failure says the
		// low zone ran out, whatever the rest of memory held (corpus case 365).
		v.class = classZoneRestricted
		v.notes = append(v.notes, fmt.Sprintf("the mode may only use ZONE_%s and could reclaim: an order-%d request of that kind fails only when reclaim found nothing in that zone, since the OOM killer is not used for a zone below Normal (mm/page_alloc.c __alloc_pages_may_oom); "+
			"without a dump the other zones' state is unknown", v.cz, af.Order))
		return
	}
	if o, ok := statedOutcome(tl, "vm.min_free_kbytes"); ok {
		// The author raised the reserve and the failures stopped (issue 29): the outcome
		// decides between a reserve too small and fragmentation, which a larger reserve
		// does not defragment.
		v.inferred = false
		v.class = classReserve
		v.notes = append(v.notes, fmt.Sprintf("the text states the outcome: with vm.min_free_kbytes raised to %s the failures went away (%s), so the reserve was what fell short", strings.TrimSpace(o.Value), o.Source))
		return
	}
	if v.cz == "DMA" {
		// __GFP_DMA without a dump (fix65j; g256's kdump atomic pool, g261's ISA sound and
		// capture buffers): only ZONE_DMA may serve the request (gfp_zone(), include/linux/
		// gfp.h), the first 16 MiB on x86 (ISA's reach; 1 MiB reserved in a kdump kernel), a
		// fixed few MiB to 4 GiB on other architectures. However the rest of memory stood,
		// the zone the mode confines the request to is what fell short; a block of its order
		// in a zone that small is the caller's demand to revisit.
		v.class = classZoneRestricted
		v.notes = append(v.notes, fmt.Sprintf("the mode carries __GFP_DMA: only ZONE_DMA (the first 16 MiB on x86) may serve this order-%d request, and no dump shows that zone; whatever the other zones held, the request was confined to that one", af.Order))
		return
	}
	if af.Order == 0 {
		// Not inferred: an order-0 request fails only at the floor, whatever the dump would say.
		v.inferred = false
		v.class = classReserve
		v.notes = append(v.notes, "an order-0 request fails only when a zone's free pages are at the request's floor: fragmentation cannot cause it")
		return
	}
	if order0Seen {
		v.class = classReserve
		v.notes = append(v.notes, "order-0 requests failed in the same log: the zones ran out of pages, not only of large blocks")
		return
	}
	v.class = classFragmented
	v.notes = append(v.notes, fmt.Sprintf("every allocation failure in the input is of order 1 or more and none of order 0: the zones still had pages for single-page requests but not %d contiguous ones; "+
		"reserve exhaustion would have failed order-0 atomic requests too (the NIC's skb heads, slab refills)", 1<<af.Order))
	if k, _, ok := memKernelOf(tl, af); ok && !k.AtLeast(4, 4, 0) {
		v.notes = append(v.notes, fmt.Sprintf("on %d.%d the order-%d check also scales min: after removing the free pages of orders below %d it needs more than min/%d free, so a small vm.min_free_kbytes leaves little at order %d, and kswapd, woken with the failing order, reclaims until that check passes; "+
			"from 2.6.24 to 4.3 min_free_kbytes also sizes the MIGRATE_RESERVE pageblocks that keep free pages contiguous (commit 64c5e135bf5a: \"increasing the value of min_free_kbytes will free pages as contiguous blocks\")",
			k.Major, k.Minor, af.Order, af.Order, 1<<af.Order, af.Order))
	}
	if s := tl.LastWith(func(s *model.Sample) bool { return len(s.Buddy) > 0 }); s != nil {
		var parts []string
		for _, b := range s.Buddy {
			if r := memZoneRank(b.Zone); r < 0 || r > memZoneRank(v.cz) {
				continue
			}
			var big int64
			for o := af.Order; o < len(b.Free); o++ {
				big += b.Free[o]
			}
			parts = append(parts, fmt.Sprintf("%s: %d blocks of order ≥ %d", b.Zone, big, af.Order))
		}
		if len(parts) > 0 {
			v.notes = append(v.notes, "buddyinfo in the input (not at the failure): "+strings.Join(parts, ", "))
		}
	}
}

// measureZones fills the checks of the eligible zones (and the others) of v's dump.
func measureZones(tl *model.Timeline, v *allocVerdict) {
	if len(v.zones) == 0 {
		return
	}
	psz, _ := pageSize(tl)
	kv, _, kvOK := memKernelOf(tl, v.af)
	legacy := kvOK && !kv.AtLeast(4, 4, 0)
	atomic := v.af.Atomic != nil && *v.af.Atomic
	czRank := memZoneRank(v.cz)
	// The classzone actually present: the highest dumped zone at or below the mode's.
	var czReport *model.ZoneReport
	for i := range v.zones {
		r := memZoneRank(v.zones[i].Zone)
		if r >= 0 && r <= czRank && !v.zones[i].Unpopulated() && (czReport == nil || r > memZoneRank(czReport.Zone)) {
			czReport = &v.zones[i]
		}
	}
	classIdx := -1
	if czReport != nil {
		// lowmem_reserve[] is indexed by zone index; the classzone's own entry and those of
		// lower zones are 0 and higher populated zones' are not, so the classzone's index is
		// the last leading zero of its own array (when some higher zone is populated).
		for i, x := range czReport.LowmemReserve {
			if x > 0 {
				classIdx = i - 1
				break
			}
		}
	}
	for _, z := range v.zones {
		if z.Unpopulated() {
			continue // in no zonelist: neither eligible nor another zone (ZoneReport.Unpopulated)
		}
		r := memZoneRank(z.Zone)
		c := zoneCheck{z: z}
		c.freePages = z.FreeKB * 1024 / psz
		c.minPages = z.MinKB * 1024 / psz
		if len(z.LowmemReserve) > 0 {
			c.reserveKnown = true
			switch {
			case czReport != nil && z.Zone == czReport.Zone && z.Node == czReport.Node:
				c.reservePages = 0
			case classIdx >= 0 && classIdx < len(z.LowmemReserve):
				c.reservePages = z.LowmemReserve[classIdx]
			default:
				for _, x := range z.LowmemReserve {
					c.reservePages = max(c.reservePages, x)
				}
			}
		}
		floorKV := kv
		if !kvOK {
			floorKV = kernel.KernelVersion{}
		}
		adj := kernel.WatermarkFloor(c.minPages, v.flags["HIGH"], atomic, floorKV)
		c.floorPages = adj + c.reservePages
		if z.Fields != nil {
			// The zone line's free_cma:143136kB is kept under its unit-suffixed name.
			cma, ok := z.Fields.Get("free_cma_kb")
			if !ok {
				cma, ok = z.Fields.Get("free_cma")
			}
			if ok {
				c.cmaKnown, c.freeCMAPages = true, cma*1024/psz
			}
		}
		if !atomic && len(z.MigrateTypes) == len(z.FreeBlocks) {
			for o, typ := range z.MigrateTypes {
				if typ == "H" {
					c.highAtomicPages += z.FreeBlocks[o] << o
				}
			}
		}
		c.unusablePages, c.unusableWhy = unusableFree(v, c, z, atomic, kv, kvOK, psz)
		eff := c.freePages - c.unusablePages
		c.belowMin = c.freePages <= c.minPages+c.reservePages
		c.belowFloor = eff <= c.floorPages
		if !zoneLineRead(z) && z.FreeBlocks != nil {
			measureBuddyOnly(&c, z)
		}
		if v.af.Order > 0 && z.FreeBlocks != nil {
			c.orderKnown = true
			if legacy {
				free, m := eff, adj
				if free <= m+c.reservePages {
					c.orderFail, c.orderWhy = true, "below the order-0 floor"
				}
				for o := 0; o < v.af.Order && !c.orderFail; o++ {
					if o < len(z.FreeBlocks) {
						free -= z.FreeBlocks[o] << o
					}
					m >>= 1
					if free <= m {
						c.orderFail, c.orderShort = true, true
						c.orderWhy = fmt.Sprintf("pre-4.4 check: %d pages left in blocks of order ≥ %d, not above min/%d = %d pages", free, o+1, 1<<(o+1), m)
					}
				}
			} else {
				var big int64
				for o := v.af.Order; o < len(z.FreeBlocks); o++ {
					big += z.FreeBlocks[o]
				}
				if big == 0 {
					c.orderFail, c.orderShort = true, true
					c.orderWhy = fmt.Sprintf("no free block of order %d or larger", v.af.Order)
				}
			}
		}
		if r >= 0 && r <= czRank {
			v.checks = append(v.checks, c)
		} else {
			v.others = append(v.others, c)
		}
	}
}

// unusableFree is what __zone_watermark_ok takes off a zone's free pages for this request
// before the floor (mm/page_alloc.c; __zone_watermark_unusable_free since 5.10): the pages
// of a block of the order less one, the highatomic reserve for a request with no right to
// it (4.4+: nr_reserved_highatomic, printed on the zone line as reserved_highatomic, unless
// ALLOC_HARDER until 6.2 — an atomic request — or ALLOC_RESERVES from 6.3 — atomic or
// __GFP_HIGH), and the free CMA pages for a request without ALLOC_CMA (not movable). Without
// the printed reserve, the free pages in blocks the buddy line marks (H) stand for it.
func unusableFree(v *allocVerdict, c zoneCheck, z model.ZoneReport, atomic bool, kv kernel.KernelVersion, kvOK bool, psz int64) (int64, string) {
	pk := func(p int64) int64 { return p * psz / 1024 }
	n := int64(1)<<v.af.Order - 1
	var why []string
	if n > 0 {
		why = append(why, fmt.Sprintf("%d kB for an order-%d block", pk(n), v.af.Order))
	}
	mayReserve := atomic || kvOK && kv.AtLeast(6, 3, 0) && v.flags["HIGH"]
	if kvOK && !kv.AtLeast(4, 4, 0) {
		mayReserve = true // no highatomic reserve before 4.4
	}
	if !mayReserve {
		hi, ok := int64(0), false
		if z.Fields != nil {
			if kb, has := z.Fields.Get("reserved_highatomic_kb"); has {
				hi, ok = kb*1024/psz, true
			}
		}
		if !ok {
			hi = c.highAtomicPages
		}
		if hi > 0 {
			n += hi
			why = append(why, fmt.Sprintf("highatomic reserve %d kB", pk(hi)))
		}
	}
	if c.cmaKnown && c.freeCMAPages > 0 && !v.flags["MOVABLE"] {
		n += c.freeCMAPages
		why = append(why, fmt.Sprintf("free_cma %d kB (not movable: no CMA)", pk(c.freeCMAPages)))
	}
	return n, strings.Join(why, ", ")
}

// zoneLineRead: the dump's zone line ("Normal free:3236kB min:..."), which the reader keeps
// under free_kb, was read; a zone known only from its buddy line has at most buddy_total_kb.
func zoneLineRead(z model.ZoneReport) bool {
	if z.Fields == nil {
		return z.FreeKB != 0 || z.MinKB != 0
	}
	_, ok := z.Fields.Get("free_kb")
	return ok || z.MinKB != 0
}

// measureBuddyOnly measures a zone from its buddy line alone: free is the sum of its blocks
// (show_free_areas prints count*size per order, mm/show_mem.c), CMA and highatomic pages are
// the blocks whose only migrate letter is C or H (show_migration_types: one letter per free
// list that holds a block of that order). Watermarks are unknown, so no floor is judged.
func measureBuddyOnly(c *zoneCheck, z model.ZoneReport) {
	c.wmUnknown = true
	c.freePages, c.highAtomicPages, c.freeCMAPages = 0, 0, 0
	typed := len(z.MigrateTypes) == len(z.FreeBlocks)
	for o, n := range z.FreeBlocks {
		p := n << o
		c.freePages += p
		if !typed {
			continue
		}
		switch z.MigrateTypes[o] {
		case "C":
			c.freeCMAPages += p
		case "H":
			c.highAtomicPages += p
		}
	}
	c.cmaKnown = typed
	c.belowMin, c.belowFloor = false, false
}

func allWatermarksUnknown(cs []zoneCheck) bool {
	for _, c := range cs {
		if !c.wmUnknown {
			return false
		}
	}
	return len(cs) > 0
}

// cmaByLetters: without watermarks, an order-0 request that may not use CMA failed while at
// least three quarters of its zones' free pages were CMA (non-ALLOC_CMA requests subtract
// NR_FREE_CMA_PAGES in the watermark check, mm/page_alloc.c __zone_watermark_unusable_free).
// Order 0 only: a larger request could have failed for want of a block instead.
func cmaByLetters(v *allocVerdict) bool {
	if v.flags["MOVABLE"] || v.af.Order != 0 {
		return false
	}
	var free, cma int64
	for _, c := range v.checks {
		if !c.cmaKnown {
			return false
		}
		free += c.freePages
		cma += c.freeCMAPages
	}
	return cma > 0 && cma*4 >= free*3
}

// otherLowZoneHasRoom: a zone the mode may not use (Normal, DMA32 above a GFP_DMA request)
// was above its min: the restriction, not the host, ran out.
func otherLowZoneHasRoom(v *allocVerdict) bool {
	for _, c := range v.others {
		if r := memZoneRank(c.z.Zone); r > 0 && r <= memZoneRank("Normal") && c.freePages > c.minPages {
			return true
		}
	}
	return false
}

// cmaExplains: a non-movable request may not use MIGRATE_CMA pageblocks
// (__zone_watermark_unusable_free subtracts NR_FREE_CMA_PAGES without ALLOC_CMA), so a zone
// whose free memory is mostly CMA fails it while looking well above its watermarks.
func cmaExplains(v *allocVerdict) bool {
	if v.flags["MOVABLE"] {
		return false
	}
	mostly := false
	for _, c := range v.checks {
		if c.wmUnknown {
			continue // without its min, the zone can neither prove nor refute the cause
		}
		if !c.cmaKnown {
			return false
		}
		if c.freePages-c.unusablePages > c.floorPages {
			return false
		}
		if c.freeCMAPages*2 >= c.freePages && c.freeCMAPages > 0 {
			mostly = true
		}
	}
	return mostly
}

// allocFinding builds the finding of one cause from its reports.
func allocFinding(tl *model.Timeline, class string, vs []allocVerdict, logOnly []model.LogRecord) Finding {
	f := Finding{Severity: Critical}
	if class == classNotPhysical && len(vs) == 0 {
		f.Severity = Warning
	}
	// The representative report: the first with its own dump, else the first.
	rep := -1
	for i := range vs {
		if len(vs[i].af.Zones) > 0 {
			rep = i
			break
		}
	}
	if rep < 0 && len(vs) > 0 {
		rep = 0
	}
	if len(vs) > 0 {
		f.Evidence = append(f.Evidence, reportsEvidence(vs))
		if e, ok := suppressedAllocEvidence(tl); ok {
			f.Evidence = append(f.Evidence, e)
		}
		r := &vs[rep]
		f.Evidence = append(f.Evidence, modeEvidence(r))
		// ZFS's ARC beside the failure (h28a): memory held by a cache outside the LRU lists,
		// which shrinks only through its own eviction; the ARC's figures as the input states.
		if e, _, ok := zfsARCEvidence(tl, "memory held by ZFS's cache (ABD pages and SPL slabs) outside the page cache's LRU lists, given back only through the ARC's own eviction toward c_min; with a large ARC, capping zfs_arc_max leaves the buddy allocator more free memory to form blocks from"); ok {
			f.Evidence = append(f.Evidence, e)
		}
		if k, src, ok := memKernelOf(tl, r.af); ok {
			where := "host"
			if r.af.Kernel != "" {
				where = r.af.KernelSource
				if where == "" {
					where = memEventSource(r.ev)
				}
			}
			f.Evidence = append(f.Evidence, Evidence{What: "kernel", Value: fmt.Sprintf("%s (%d.%d)", src, k.Major, k.Minor), Source: where, Role: Background})
		}
		zones := zoneEvidence(tl, r)
		f.Evidence = append(f.Evidence, zones...)
		f.Facts.ZoneState = len(zones) > 0
		for _, v := range vs {
			f.Facts.OutsideSlab = f.Facts.OutsideSlab || pageAllocOutsideSlab(v.af.CallTrace)
		}
		if r.highMemProof != "" {
			f.Evidence = append(f.Evidence, Evidence{What: "HighMem", Value: r.highMemProof, Source: r.highMemSource})
		}
		if len(r.af.CallTrace) > 0 {
			f.Evidence = append(f.Evidence, Evidence{What: "call trace", Value: strings.Join(memFirstN(r.af.CallTrace, 8), " ← "), Source: memEventSource(r.ev)})
		}
		f.When = memVerdictTimes(vs)
	}
	if o, ok := statedOutcome(tl, "vm.min_free_kbytes"); ok && class == classReserve {
		// What decided the cause without a dump (classifyWithoutDump): the author's result.
		f.Evidence = append(f.Evidence, Evidence{What: "the author's outcome", Value: fmt.Sprintf("vm.min_free_kbytes raised to %s: the failures went away", strings.TrimSpace(o.Value)), Source: o.Source})
	}
	if len(logOnly) > 0 {
		what := "address-space failures in the log"
		if !slices.ContainsFunc(logOnly, func(r model.LogRecord) bool { return !strings.Contains(r.Message, vmallocOverRAM) }) {
			// fix45a: each is vmalloc's refusal of a request above all of RAM (kernel.MsgNotPhysical).
			what = "vmalloc requests larger than all of RAM in the log (refused before any page was asked for)"
		}
		f.Evidence = append(f.Evidence, logEvidence(what, logOnly))
	}
	var notes []string
	seen := map[string]bool{}
	for _, v := range vs {
		for _, n := range v.notes {
			if !seen[n] {
				seen[n] = true
				notes = append(notes, n)
			}
		}
	}
	explain := allocExplanations[class]
	switch class {
	case classReserve:
		f.Title = "atomic allocations failed: the zones' emergency reserve (min watermark) was exhausted"
		f.Changes = reserveChanges(tl, vs)
	case classFragmented:
		f.Title = fmt.Sprintf("order-%d allocations failed for want of contiguous memory (fragmentation)", vs[rep].af.Order)
		if alsoOfHighOrderAtomic(vs) {
			// The reports are high-order atomic ones (their caller is the fix, critical
			// there); the fragmented zone is the condition they met: told, one step lower.
			f.Severity = Warning
			notes = append(notes, fmt.Sprintf("the failed requests are atomic of order %d, whose cause is their caller (alloc-fail-high-order-atomic); an eligible zone was above its watermarks with no free block of that order, so fragmentation is the condition they met", vs[rep].af.Order))
		}
		if why := memOrderNeed(tl, vs[rep].af); why != "" {
			notes = append(notes, why)
		}
		f.Changes = append(reserveChanges(tl, vs), fragmentationChanges(tl, vs[rep].af)...)
	case classLowmem:
		f.Title = "allocations failed in lowmem on a 32-bit kernel while the memory sat in HighMem"
		f.Facts.Memory = MemoryLowmem
		f.Changes = lowmemChanges(tl, vs)
	case classZoneRestricted:
		f.Title = fmt.Sprintf("a %s-only allocation failed: its zone was short while the others had room", vs[rep].cz)
		if len(vs[rep].checks) == 0 {
			// No dump (fix65j): what the other zones held is not in the input.
			f.Title = fmt.Sprintf("a %s-only allocation failed: the one zone its mode may use fell short (no dump shows the others)", vs[rep].cz)
		}
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "vm.lowmem_reserve_ratio",
			Recommended: fmt.Sprintf("lower the %s entry (protect more of the zone from allocations that could use higher zones)", vs[rep].cz),
			Why:         "lowmem_reserve[] = higher zones' managed pages ÷ ratio (setup_per_zone_lowmem_reserve); a smaller ratio keeps more of the restricted zone for the requests that can use nothing else; risk: that memory is lost to ordinary allocations. The lasting fix is the caller: a device with a full DMA mask, or an IOMMU, does not need the zone"}}
	case classCMA:
		f.Title = "allocations failed while the free memory was mostly CMA, which they may not use"
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "cma= (kernel command line) or the device tree CMA size",
			Recommended: "shrink the CMA area to what its devices need at once",
			Why:         "pages in MIGRATE_CMA pageblocks serve only movable allocations; a large idle CMA area looks like free memory but cannot back kernel (unmovable) requests"}}
	case classNotPhysical:
		f.Title = "allocation failures that no memory tuning fixes (address space or impossible size)"
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "caller",
			Recommended: "fix the caller: smaller requests, kvmalloc fallbacks, or (32-bit) a larger vmalloc= boot parameter",
			Why:         "the request exceeded the vmalloc or per-cpu address space, the largest buddy order, or all of RAM; free pages are not the limit, so min_free_kbytes and swap change nothing"}}
	case classHighOrderAtomic:
		r := vs[rep]
		caller, module := memCallerOf(r.af.CallTrace)
		f.Title = fmt.Sprintf("order-%d atomic allocations failed (%s each)", r.af.Order, units.FormatBytes(int64(1)<<r.af.Order*memPage(tl)))
		if caller != "" {
			who := caller
			if module != "" {
				who += " [" + module + "]"
			}
			f.Evidence = append(f.Evidence, Evidence{What: "caller (first frame outside the allocator)", Value: who, Source: memEventSource(r.ev)})
			f.Title += " in " + who
		}
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "caller " + memOr(caller, "(see the call trace)"),
			Recommended: "make the caller use order-0 pages: a driver option for page-based or split receive buffers, a lower MTU, or a driver/kernel version that does",
			Why:         fmt.Sprintf("an atomic order-%d request can neither reclaim nor compact; it succeeds only while a free block that large happens to exist, which normal fragmentation does not guarantee. Raising min_free_kbytes only delays the failure", r.af.Order)}}
		if why := memOrderNeed(tl, r.af); why != "" {
			notes = append(notes, why)
		}
	}
	f.Explanation = explain
	if len(notes) > 0 {
		f.Explanation += " In this input: " + strings.Join(notes, "; ") + "."
	}
	// A cause read from the report's header and trace alone, with no zone dump to prove it,
	// is inferred: it says so, stays below critical, and names what would decide it.
	allInferred := len(vs) > 0
	for _, v := range vs {
		allInferred = allInferred && v.inferred
	}
	if allInferred && class != classNotPhysical && class != classHighOrderAtomic {
		f.Title = "inferred: " + f.Title
		if f.Severity > Warning {
			f.Severity = Warning
		}
		f.Evidence = append(f.Evidence, Evidence{What: "to decide the cause", Value: "paste the Mem-Info dump the kernel printed after the failure (the lines from \"Mem-Info:\" to \"pages RAM\"), or /proc/buddyinfo and /proc/zoneinfo from the host while it fails", Source: "not in the input"})
	}
	return f
}

var allocExplanations = map[string]string{
	classReserve: "An allocation that cannot sleep (GFP_ATOMIC: the NIC's receive refill in softirq, skb allocation in interrupt context) " +
		"may take a zone below its min watermark, down to 3/8 of min, and no further; when every zone it may use is there, it fails " +
		"and the packet is dropped (mm/page_alloc.c __zone_watermark_ok, warn_alloc). The reserve is sized by vm.min_free_kbytes: " +
		"it must hold what the receive path allocates at line rate before kswapd, woken at the low watermark, frees memory again. " +
		"A larger reserve, and on 4.6+ a larger gap between the low and min watermarks (vm.watermark_scale_factor), give kswapd that time.",
	classFragmented: "The request needed 2^order contiguous pages and no zone it may use had a free block that large, although the zones " +
		"were above their watermarks (before 4.4: the order check, which discounts the free pages of lower orders and halves min per " +
		"order, failed). An atomic request cannot compact; it fails until reclaim or kcompactd (4.6+) rebuilds large blocks. " +
		"A larger vm.min_free_kbytes keeps more free memory, and on 2.6.24-4.3 more contiguous MIGRATE_RESERVE blocks; " +
		"5.0+ boosts the watermarks after fragmenting events (vm.watermark_boost_factor), 5.9+ compacts proactively " +
		"(vm.compaction_proactiveness); the lasting fix is a caller that needs smaller blocks.",
	classLowmem: "A 32-bit kernel maps only ~896 MiB (x86; 760 MiB on ARM) permanently: the DMA and Normal zones. Kernel allocations — " +
		"socket buffers, slab, page tables — may use only those, while HighMem holds user pages and page cache. The lowmem zones were " +
		"at their reserve although the machine has far more memory, so reclaim and swap, which mostly free HighMem, cannot help " +
		"(Fermilab: \"Bad things happen when you're out of lowmem\"). The fix is a 64-bit kernel; until then socket buffers and " +
		"tcp_mem must be sized against lowmem, not RAM.",
	classZoneRestricted: "The mode asked for a specific low zone (__GFP_DMA: the first 16 MiB on x86; __GFP_DMA32: the first 4 GiB) " +
		"for a device that cannot address more, and that zone was short while the others had memory. Only that zone can serve it; " +
		"vm.lowmem_reserve_ratio protects part of it from allocations that could have gone elsewhere.",
	classCMA: "Free memory in CMA (contiguous memory allocator) pageblocks serves only movable allocations; a kernel allocation " +
		"sees a zone at its watermark although free memory looks plentiful (__zone_watermark_unusable_free subtracts " +
		"NR_FREE_CMA_PAGES without ALLOC_CMA).",
	classNotPhysical: "The failure is of address space (vmalloc area, per-cpu chunks) or of an order larger than the buddy allocator " +
		"holds; free memory is not what ran out, so reserve tuning cannot fix it.",
	classHighOrderAtomic: "An atomic request of order 4 or more (64 KiB or more with 4 KiB pages) needs a free block that large at " +
		"the moment it is made: it can neither reclaim nor compact. After some uptime large blocks are rare even with plenty of " +
		"free memory, so such failures are expected; the 4.4+ MIGRATE_HIGHATOMIC reserve holds at most about 1% of a zone. " +
		"The caller should not need it.",
}

func memFirstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(append([]string(nil), s[:n]...), "…")
}

func memOr(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func memPage(tl *model.Timeline) int64 { p, _ := pageSize(tl); return p }

// reSuppressedAlloc is warn_alloc's rate limiter summary (lib/ratelimit.c ___ratelimit,
// printed by warn_alloc's nopage_rs before its next report): "warn_alloc: 96 callbacks
// suppressed", "warn_alloc_failed: 5676 callbacks suppressed" before 4.9.
var reSuppressedAlloc = lazyre.New(`\bwarn_alloc(?:_failed)?: (\d+) callbacks suppressed`)

// suppressedAllocEvidence adds up the allocation-failure reports the rate limiter dropped:
// each happened, only its printout was skipped, so "1 failure" with "5676 callbacks
// suppressed" above it is at least 5677 failures (corpus 431).
func suppressedAllocEvidence(tl *model.Timeline) (Evidence, bool) {
	var n int64
	lines := 0
	src := ""
	for _, r := range tl.Log.All() {
		m := reSuppressedAlloc.FindStringSubmatch(r.Message)
		if m == nil {
			continue
		}
		v, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			continue
		}
		n += v
		lines++
		if src == "" {
			src = r.Where()
		}
	}
	if n == 0 {
		return Evidence{}, false
	}
	return Evidence{What: "allocation failures the rate limiter did not print (warn_alloc callbacks suppressed)",
		Value: fmt.Sprintf("%d more in %d summary line(s): the failures are at least that many more than the reports shown", n, lines), Source: memOr(src, "kernel log")}, true
}

// reportsEvidence summarises the reports of one cause: how many, by whom, at what order.
func reportsEvidence(vs []allocVerdict) Evidence {
	total := 0
	procs := map[string]int{}
	orders := map[int]bool{}
	for _, v := range vs {
		c := v.af.Reports()
		total += c
		procs[v.af.Process] += c
		orders[v.af.Order] = true
	}
	var ps []string
	for p, c := range procs {
		ps = append(ps, fmt.Sprintf("%s ×%d", memOr(p, "?"), c))
	}
	sort.Strings(ps)
	var os []string
	for o := range orders {
		os = append(os, fmt.Sprint(o))
	}
	sort.Strings(os)
	first := vs[0]
	val := fmt.Sprintf("%d (%s), order %s, mode %s", total, strings.Join(ps, ", "), strings.Join(os, "/"), memOr(first.af.Mode, "not in the input"))
	what := "page allocation failures"
	if first.oom {
		what = "OOM reports of a request that could not use HighMem (the allocator's failure path)"
	}
	return Evidence{What: what, Value: val, Source: memEventSource(first.ev)}
}

// unprintedModeZone says why a report without a mode of order 1 or more is taken as a
// lowmem request.
const unprintedModeZone = "mainline 2.4 asks HighMem for single pages only (anonymous, page-cache and vmalloc pages, alloc_page with GFP_HIGHUSER or __GFP_HIGHMEM), so a request of order 1 or more is the kernel's own and only lowmem could serve it"

// modeUnprinted: v is an allocation failure whose header printed no mode (2.4.0-2.4.8's
// "__alloc_pages: N-order allocation failed."); not a failure no header printed at all (a
// subsystem's, a driver's or a text's own words, whose GFPNote says "not printed: ...").
func modeUnprinted(v *allocVerdict) bool {
	return !v.oom && v.af.Mode == "" && !strings.HasPrefix(v.af.GFPNote, "not printed: ")
}

// modeEvidence decodes the GFP mode of the representative report.
func modeEvidence(v *allocVerdict) Evidence {
	af := v.af
	val := af.Mode
	if v.oom && val == "" {
		return Evidence{What: "GFP mode", Value: "not in the input (the OOM report's header is not quoted); it may reclaim (only such requests reach the OOM killer), and it could not use HighMem (inferred from HighMem's free pages); highest zone " + v.cz, Source: memEventSource(v.ev), Role: Background}
	}
	if modeUnprinted(v) {
		val = "not printed (2.4 before 2.4.9 printed the order alone: \"__alloc_pages: N-order allocation failed.\"); atomic: undecidable"
		if af.Order > 0 {
			val += "; highest zone Normal: " + unprintedModeZone
		} else {
			val += "; highest zone unknown (a single page may be a user or page-cache page, which 2.4 takes from HighMem too)"
		}
		return Evidence{What: "GFP mode", Value: val, Source: memEventSource(v.ev), Role: Background}
	}
	if val == "" {
		val = "not in the input" // a failure in a subsystem's or a text's own words (GFPNote)
	}
	switch {
	case len(af.GFPFlags) > 0:
		val += " = " + strings.Join(af.GFPFlags, "|")
	case len(af.GFPCandidates) > 0:
		var c []string
		for _, g := range af.GFPCandidates {
			c = append(c, g.Kernels+": "+strings.Join(g.Flags, "|"))
		}
		val += " (era unknown: " + strings.Join(c, "; ") + ")"
	}
	switch {
	case af.Atomic == nil:
		val += "; atomic: undecidable"
	case *af.Atomic:
		val += "; atomic (no direct reclaim)"
	default:
		val += "; may reclaim"
	}
	val += "; highest zone " + v.cz
	if af.GFPNote != "" {
		val += "; " + af.GFPNote
	}
	return Evidence{What: "GFP mode", Value: val, Source: memEventSource(v.ev), Role: Background}
}

// zoneEvidence cites the dump's zones against the request.
func zoneEvidence(tl *model.Timeline, v *allocVerdict) []Evidence {
	if len(v.checks) == 0 && len(v.others) == 0 {
		return nil
	}
	psz := memPage(tl)
	src := memEventSource(v.ev)
	switch {
	case v.borrowed != "" && v.oom:
		src = v.borrowed + " (the text's zone dump, quoted apart from the OOM report)"
	case v.borrowed != "":
		src = "dump of the report at " + v.borrowed + " (same order and mode; this report's own dump is not in the input)"
	}
	pk := func(p int64) int64 { return p * psz / 1024 }
	var out []Evidence
	for _, c := range v.checks {
		if c.wmUnknown {
			val := fmt.Sprintf("free %d kB (buddy lines; the zone line with the watermarks is not in the input)", pk(c.freePages))
			if c.cmaKnown {
				val += fmt.Sprintf("; CMA %d kB, highatomic %d kB by the migrate letters", pk(c.freeCMAPages), pk(c.highAtomicPages))
			}
			val += "; free blocks by order " + memBlocks(c.z.FreeBlocks)
			out = append(out, Evidence{What: fmt.Sprintf("zone %s (node %d), eligible", c.z.Zone, c.z.Node), Value: val, Source: src})
			continue
		}
		val := fmt.Sprintf("free %d kB, min %d kB", c.z.FreeKB, c.z.MinKB)
		if c.reserveKnown && c.reservePages > 0 {
			val += fmt.Sprintf(", lowmem_reserve against %s %d pages (%d kB)", v.cz, c.reservePages, pk(c.reservePages))
		}
		switch {
		case c.belowFloor && c.unusablePages > int64(1)<<v.af.Order-1 && c.freePages > c.floorPages:
			val += fmt.Sprintf(": less what this request may not count (%s), %d kB, at or below its floor %d kB (its own watermark check failed)", c.unusableWhy, pk(c.freePages-c.unusablePages), pk(c.floorPages))
		case c.belowFloor:
			val += fmt.Sprintf(": at or below this request's floor %d kB (its own watermark check failed)", pk(c.floorPages))
		case c.belowMin:
			val += fmt.Sprintf(": at or below min + reserve %d kB (into the emergency reserve; the request's floor is %d kB)", pk(c.minPages+c.reservePages), pk(c.floorPages))
		default:
			val += fmt.Sprintf(": above min + reserve %d kB", pk(c.minPages+c.reservePages))
		}
		if c.z.AllUnreclaimable != nil && *c.z.AllUnreclaimable {
			val += "; all_unreclaimable (reclaim had given up on the zone)"
		}
		if c.orderKnown {
			val += fmt.Sprintf("; free blocks by order %s", memBlocks(c.z.FreeBlocks))
			if c.orderFail {
				val += " — " + c.orderWhy
			}
		}
		if c.cmaKnown {
			val += fmt.Sprintf("; free_cma %d kB", pk(c.freeCMAPages))
		}
		out = append(out, Evidence{What: fmt.Sprintf("zone %s (node %d), eligible", c.z.Zone, c.z.Node), Value: val, Source: src})
	}
	for _, c := range v.others {
		val := fmt.Sprintf("free %d kB, min %d kB, present %d kB", c.z.FreeKB, c.z.MinKB, c.z.PresentKB)
		if c.z.PresentKB == 0 && c.z.FreeKB > 0 {
			val = fmt.Sprintf("free %d kB, min %d kB (its line is cut before present:)", c.z.FreeKB, c.z.MinKB)
		}
		if c.wmUnknown {
			val = fmt.Sprintf("free %d kB (buddy line only)", pk(c.freePages))
		}
		out = append(out, Evidence{What: fmt.Sprintf("zone %s (node %d), not usable by this mode", c.z.Zone, c.z.Node), Value: val, Source: src})
	}
	return out
}

func memBlocks(b []int64) string {
	var parts []string
	for o, n := range b {
		parts = append(parts, fmt.Sprintf("%d:%d", o, n))
	}
	return strings.Join(parts, " ")
}

func memVerdictTimes(vs []allocVerdict) *Interval {
	var iv *Interval
	for _, v := range vs {
		t := v.ev.Time
		if t.IsZero() {
			continue
		}
		if iv == nil {
			iv = &Interval{From: t, To: t}
			continue
		}
		if t.Before(iv.From) {
			iv.From = t
		}
		if t.After(iv.To) {
			iv.To = t
		}
	}
	return iv
}

// allocatorFrames are call-trace functions inside the allocators; the first frame that is
// not one of them is the caller that asked.
var allocatorFrames = []string{
	"dump_stack", "__dump_stack", "show_stack", "dump_backtrace", "unwind_backtrace", "warn_alloc",
	"__alloc_pages", "alloc_pages", "__get_free_pages", "get_zeroed_page", "__folio_alloc", "folio_alloc",
	"__kmalloc", "kmalloc", "kmem_cache_alloc", "kmalloc_large", "kmalloc_order", "kmalloc_reserve",
	"___slab_alloc", "__slab_alloc", "slab_alloc", "new_slab", "allocate_slab", "alloc_slab_page",
	"cache_grow", "cache_alloc_refill", "____cache_alloc", "__do_cache_alloc", "__cache_alloc", "fallback_alloc",
	"__alloc_skb", "__netdev_alloc_skb", "netdev_alloc_skb", "__dev_alloc_skb", "dev_alloc_skb",
	"__napi_alloc_skb", "napi_alloc_skb", "page_frag_alloc", "__page_frag_alloc", "__page_frag_cache_refill",
	"page_pool_alloc", "__page_pool_alloc", "__alloc_skb_head", "alloc_skb", "__kmalloc_node_track_caller",
	"__kmalloc_track_caller", "kmalloc_trace", "__kmalloc_cache", "kmalloc_node_trace",
	"wake_all_kswapds", "wakeup_kswapd", "get_page_from_freelist", "__alloc_pages_slowpath",
	// The DMA API's coherent allocators take pages from the buddy allocator for a driver
	// (kernel/dma, arch/x86/kernel/pci-dma.c dma_generic_alloc_coherent before 4.x).
	"dma_alloc_coherent", "dma_alloc_attrs", "dma_generic_alloc_coherent", "dma_direct_alloc",
	"__dma_direct_alloc_pages", "dma_alloc_from_contiguous", "x86_swiotlb_alloc_coherent",
}

// memCallerOf returns the first call-trace function outside the allocators, and its module
// when the trace printed one ("e1000_alloc_rx_buffers+0x1c/0x2f0 [e1000e]"). Frames marked
// "?" are words found on the stack that the unwinder could not confirm (x86
// print_context_stack's reliable flag): stale return addresses such as "? printk" in the
// middle of a trace (fix62e, corpus 5225). They are passed over, and read only when no
// confirmed frame names a caller.
func memCallerOf(trace []string) (fn, module string) {
	if fn, mod := memCallerPass(trace, true); fn != "" {
		return fn, mod
	}
	return memCallerPass(trace, false)
}

func memCallerPass(trace []string, reliableOnly bool) (fn, module string) {
	for _, raw := range trace {
		if reliableOnly && unreliableFrame(raw) {
			continue
		}
		name, mod := "", ""
		// Frames print as "func+0x1c/0x2f0 [module]", "? func+0x..", or on ARM
		// "[<c0021c7c>] (func+0x0/0x14) from [<...>] (caller+...)": the first word that is
		// not an address, a marker or a module is the function.
		for _, tok := range strings.FieldsFunc(raw, func(r rune) bool { return r == ' ' || r == '(' || r == ')' || r == '\t' }) {
			switch {
			case strings.HasPrefix(tok, "[<") || strings.HasPrefix(tok, "0x") || tok == "?" || tok == "from":
				continue
			case strings.HasPrefix(tok, "[") && strings.HasSuffix(tok, "]"):
				if name != "" && mod == "" {
					mod = strings.Trim(tok, "[]")
				}
				continue
			}
			if name == "" {
				name = tok
				if i := strings.IndexByte(name, '+'); i >= 0 {
					name = name[:i]
				}
			}
		}
		if name == "" {
			continue
		}
		if !memIsAllocatorFrame(name) {
			return name, mod
		}
	}
	return "", ""
}

// unreliableFrame: the frame is printed with the unwinder's "?" before its function
// ("[<c01a2b3c>] ? printk+0x18/0x1a", " ? kmem_cache_alloc+0x4b/0x160").
func unreliableFrame(raw string) bool {
	for _, tok := range strings.Fields(raw) {
		if strings.HasPrefix(tok, "[<") || strings.HasPrefix(tok, "<") && strings.HasSuffix(tok, ">") {
			continue // the address, <IRQ>
		}
		return tok == "?"
	}
	return false
}

// memIsAllocatorFrame matches a frame against allocatorFrames, ignoring leading underscores
// and suffixes (_noprof, _node, _current, .constprop.0).
func memIsAllocatorFrame(name string) bool {
	base := strings.TrimLeft(name, "_")
	for _, a := range allocatorFrames {
		a = strings.TrimLeft(a, "_")
		if base == a || strings.HasPrefix(base, a+"_") || strings.HasPrefix(base, a+".") {
			return true
		}
	}
	return false
}

// memOrderNeed says why a request was of its order: a NIC whose MTU needs whole-frame buffers
// of that order, a receive refill of unknown MTU, or a slab growing.
func memOrderNeed(tl *model.Timeline, af *model.AllocFailure) string {
	if af.Order == 0 {
		return ""
	}
	psz := int(memPage(tl))
	size := units.FormatBytes(int64(psz) << af.Order)
	for _, n := range tl.Host.NICs {
		if n.Virtual || n.MTU <= 0 {
			continue
		}
		if b, o := plan.RxBufferBytes(int(n.MTU), psz); o == af.Order {
			return fmt.Sprintf("order %d is %s: %s's MTU %d needs %d-byte whole-frame receive buffers (plan.RxBufferBytes), one order-%d block per frame on a driver that allocates whole frames",
				af.Order, size, n.Name, n.MTU, b, o)
		}
	}
	trace := strings.ToLower(strings.Join(af.CallTrace, " "))
	switch {
	case strings.Contains(trace, "refill") || strings.Contains(trace, "_poll") || strings.Contains(trace, "alloc_rx") || strings.Contains(trace, "rx_"):
		lo, hi := memMTURange(af.Order, psz)
		if lo > 0 {
			return fmt.Sprintf("order %d is %s, requested from the receive path (%s): a whole-frame receive buffer that large serves an MTU of %d-%d bytes (plan.RxBufferBytes); the MTU is not in the input",
				af.Order, size, strings.Join(memFirstN(af.CallTrace, 3), " ← "), lo, hi)
		}
		return fmt.Sprintf("order %d is %s, requested from the receive path", af.Order, size)
	case traceNames(af.CallTrace, slabGrowthCertain):
		return fmt.Sprintf("order %d is %s: a slab cache growing by one slab of that order", af.Order, size)
	}
	return fmt.Sprintf("order %d is %s of contiguous memory", af.Order, size)
}

// slabGrowthCertain: frames only a slab cache getting a new slab passes through (SLUB's
// new_slab/allocate_slab, SLAB's cache_grow).
var slabGrowthCertain = []string{"new_slab", "allocate_slab", "cache_grow"}

// slabGrowthFrames: those and the frames a slab's growth may show instead: SLUB's
// alloc_slab_page and slow path (___slab_alloc, slab_alloc_node), SLAB's kmem_getpages and
// cache_alloc_refill, or kmem_cache_alloc, which reaches the page allocator only through them.
// A trace cut before the certain frames (a newest-first log, corpus 3746) still shows these.
var slabGrowthFrames = append(append([]string(nil), slabGrowthCertain...),
	"alloc_slab_page", "kmem_getpages", "slab_alloc", "kmem_cache_alloc", "cache_alloc_refill")

// traceNames reports whether any frame of the trace contains one of the names.
func traceNames(trace, names []string) bool {
	for _, fr := range trace {
		for _, fn := range names {
			if strings.Contains(fr, fn) {
				return true
			}
		}
	}
	return false
}

// slabGrowthTrace reports whether a failure's call trace may be a slab cache getting a new slab.
func slabGrowthTrace(trace []string) bool { return traceNames(trace, slabGrowthFrames) }

// pageAllocOutsideSlab: the failure's trace names a caller outside the allocators and no slab
// frame, in enough frames to tell (a trace of a frame or two, or one a newest-first log cut
// to the allocator's own frames, names no caller).
func pageAllocOutsideSlab(trace []string) bool {
	if len(trace) < 4 || slabGrowthTrace(trace) {
		return false
	}
	fn, _ := memCallerOf(trace)
	return fn != ""
}

// memMTURange is the MTU range whose receive buffers are of the given order.
func memMTURange(order, psz int) (lo, hi int) {
	for mtu := 68; mtu <= 65536; mtu++ {
		if _, o := plan.RxBufferBytes(mtu, psz); o == order {
			if lo == 0 {
				lo = mtu
			}
			hi = mtu
		} else if lo > 0 {
			break
		}
	}
	return lo, hi
}

// reserveChanges: vm.min_free_kbytes from plan, and vm.watermark_scale_factor on 4.6+.
func reserveChanges(tl *model.Timeline, vs []allocVerdict) []model.Change {
	var out []model.Change
	// The host's own value first, then what the dump's watermarks prove, then a text's
	// words (prose may state the old value or the recommended one).
	cur, ok := currentSetting(tl, "vm.min_free_kbytes")
	if !ok || !cur.Host {
		if s, ok2 := minFreeFromDump(tl, vs); ok2 {
			cur, ok = s, true
		}
	}
	if ch, need := memMinFreeChange(tl, cur, ok); need {
		out = append(out, ch)
	}
	if ch, need := memWatermarkScaleChange(tl); need {
		out = append(out, ch)
	}
	return out
}

// minFreeFromDump infers the lowmem share of vm.min_free_kbytes from a dump: the kernel
// spreads min_free_kbytes over the zones below HighMem in proportion to their size
// (__setup_per_zone_wmarks), so their min watermarks sum to it (HighMem gets a small fixed
// min of its own).
func minFreeFromDump(tl *model.Timeline, vs []allocVerdict) (setting, bool) {
	for _, v := range vs {
		if len(v.zones) == 0 {
			continue
		}
		var sum, boosted int64
		var names []string
		for _, z := range v.zones {
			if r := memZoneRank(z.Zone); r >= 0 && r <= memZoneRank("Normal") {
				// Since 5.0 the printed min is min_wmark_pages(), which adds the zone's
				// watermark_boost (include/linux/mmzone.h; boosting after a fragmenting
				// fallback, commit 1c30844d2dfe); min_free_kbytes set only the unboosted part.
				b := zoneBoostKB(z)
				sum += z.MinKB - b
				boosted += b
				names = append(names, z.Zone)
			}
		}
		if sum > 0 {
			src := memEventSource(v.ev)
			if v.borrowed != "" {
				src = v.borrowed
			}
			if boosted > 0 {
				src += fmt.Sprintf(", less their watermark boost of %d kB", boosted)
			}
			return setting{Value: fmt.Sprint(sum), Host: true, Source: fmt.Sprintf("sum of the min watermarks of %s in the dump at %s", strings.Join(names, "+"), src)}, true
		}
	}
	return setting{}, false
}

// zoneBoostKB is a dump zone's "boost:" (5.0+), 0 when not printed or larger than its min.
func zoneBoostKB(z model.ZoneReport) int64 {
	if z.Fields == nil {
		return 0
	}
	b, ok := z.Fields.Get("boost_kb")
	if !ok || b < 0 || b >= z.MinKB {
		return 0
	}
	return b
}

// fragmentationChanges: the knobs that fight fragmentation, where the kernel has them.
func fragmentationChanges(tl *model.Timeline, af *model.AllocFailure) []model.Change {
	var out []model.Change
	k, _, ok := memKernelOf(tl, af)
	if ok && k.AtLeast(5, 0, 0) {
		if cur, has := currentSetting(tl, "vm.watermark_boost_factor"); has {
			if c, okc := settingInt(cur); okc && c == 0 {
				out = append(out, model.Change{Kind: model.ChangeSysctl, Key: "vm.watermark_boost_factor", Current: cur.Value, Recommended: "15000",
					Why: "0 disables watermark boosting; 15000 (the 5.0 default) lets kswapd reclaim up to 150% of the high watermark after a fragmenting fallback, so compaction finds free blocks (commit 1c30844d2dfe)"})
			}
		}
	}
	if ok && k.AtLeast(5, 9, 0) {
		if cur, has := currentSetting(tl, "vm.compaction_proactiveness"); has {
			if c, okc := settingInt(cur); okc && c < 20 {
				out = append(out, model.Change{Kind: model.ChangeSysctl, Key: "vm.compaction_proactiveness", Current: cur.Value, Recommended: "20",
					Why: "20 is the upstream default (5.9, commit facdaa917c4d): kcompactd compacts in the background until the fragmentation score is below 80; some distributions ship 0. Higher values cost CPU and latency spikes for everyone"})
			}
		}
	}
	if af.Order > 0 {
		psz := int(memPage(tl))
		for _, n := range tl.Host.NICs {
			if n.Virtual || n.MTU <= 1500 {
				continue
			}
			if _, o := plan.RxBufferBytes(int(n.MTU), psz); o == af.Order {
				out = append(out, model.Change{Kind: model.ChangeOther, Key: n.Name + " mtu", Current: fmt.Sprint(n.MTU), Recommended: "1500, or a driver that builds jumbo frames from order-0 pages",
					Why: fmt.Sprintf("MTU %d makes the driver allocate order-%d receive buffers atomically; order 0 cannot fragment", n.MTU, o)})
			}
		}
	}
	return out
}

// lowmemChanges: a 64-bit kernel; meanwhile buffers sized to lowmem; the reserve.
func lowmemChanges(tl *model.Timeline, vs []allocVerdict) []model.Change {
	low, lowSrc, haveLow := memLowmemKB(tl)
	lowText := "lowmem"
	if haveLow {
		lowText = fmt.Sprintf("lowmem (%s, %s)", memKB(low), lowSrc)
	}
	out := []model.Change{{Kind: model.ChangeOther, Key: "kernel", Current: memOr(tl.Host.Kernel, "32-bit"), Recommended: "a 64-bit kernel",
		Why: "a 64-bit kernel maps all memory, so socket buffers, slab and page tables are no longer confined to " + lowText + "; Fermilab: \"Switching to a 64 bit machine ... resolves many of the network and memory related problems\""}}
	tcp := model.Change{Kind: model.ChangeOther, Key: "net.ipv4.tcp_mem", Recommended: "`headroom plan --bandwidth B --rtt R --streams N` with the lowmem size: it budgets socket buffers against " + lowText,
		Why: "tcp_mem's boot default is computed from all memory, HighMem included (Fermilab: 1.6 GB on an 8 GB host with under 600 MB of lowmem usable), so TCP alone may exhaust lowmem; per-stream buffers follow the bandwidth-delay product, not the line rate"}
	if cur, ok := currentSetting(tl, "net.ipv4.tcp_mem"); ok {
		tcp.Current = cur.Value
	}
	out = append(out, tcp)
	return append(out, reserveChanges(tl, vs)...)
}

// rxFragAllocators are the receive path's page-fragment allocators. Each first tries a
// high-order page with __GFP_NOWARN and falls back to order 0 without it
// (net/core/skbuff.c __netdev_alloc_frag from 3.7; mm/page_alloc.c __page_frag_cache_refill,
// page_frag_alloc from 4.10, __alloc_page_frag 4.2–4.9), so a warn_alloc printed under one
// of them is the order-0 fallback failing.
var rxFragAllocators = []string{"page_frag_alloc", "__page_frag_alloc", "__page_frag_cache_refill", "__alloc_page_frag", "__netdev_alloc_frag"}

// softirqFrames say the trace ran in the receive softirq (or an interrupt), where the
// allocation is atomic.
var softirqFrames = []string{"net_rx_action", "__do_softirq", "<IRQ>", "irq_exit"}

// headerlessRxRefill reads a warn_alloc trace whose "page allocation failure" header the
// input lost (an excerpt starting at the stack): when the frames after warn_alloc pass
// through a receive fragment allocator in softirq, the failure was an atomic order-0
// refill, which fails only at the zones' floor: the reserve, inferred (corpus 416; 369).
func headerlessRxRefill(tl *model.Timeline) (Finding, bool) {
	const traceSpan = 30 // frames a trace holds below warn_alloc, generously
	for i := 0; i < tl.Log.Len(); i++ {
		if !memContainsAny(tl.Log.At(i).Message, kernel.MsgWarnAllocFrame[:3]) {
			continue
		}
		var alloc, ctx string
		for j := i + 1; j < tl.Log.Len() && j <= i+traceSpan; j++ {
			m := tl.Log.At(j).Message
			if memContainsAny(m, kernel.MsgWarnAllocFrame[:3]) {
				break // the next report's trace
			}
			if alloc == "" {
				for _, a := range rxFragAllocators {
					if strings.Contains(m, " "+a+"+") || strings.Contains(m, "("+a+"+") {
						alloc = a
					}
				}
			}
			if ctx == "" {
				for _, c := range softirqFrames {
					if strings.Contains(m, c) {
						ctx = c
					}
				}
			}
		}
		// <IRQ> may stand on warn_alloc's own line or the one before it (dump_stack).
		for j := max(0, i-2); j <= i && ctx == ""; j++ {
			if strings.Contains(tl.Log.At(j).Message, "<IRQ>") {
				ctx = "<IRQ>"
			}
		}
		if alloc == "" || ctx == "" {
			continue
		}
		src := memOr(tl.Log.At(i).Where(), "kernel log")
		f := Finding{
			Severity: Warning,
			Title:    "inferred: an atomic receive-buffer refill failed at order 0 (the report's header is not in the input)",
			Evidence: []Evidence{
				{What: "warn_alloc trace without its header", Value: strings.TrimSpace(tl.Log.At(i).Message), Source: src},
				{What: "allocator in the trace", Value: alloc + ": tries a high-order page with __GFP_NOWARN, then order 0; a printed failure is the order-0 attempt", Source: src},
				{What: "context", Value: ctx + ": the receive softirq, where the allocation is atomic (GFP_ATOMIC, no reclaim)", Source: src},
				{What: "to decide the cause", Value: "paste the report's header (\"page allocation failure: order:N, mode:...\") and the Mem-Info dump after the trace, or /proc/zoneinfo from the host while it fails", Source: "not in the input"},
			},
			Explanation: allocExplanations[classReserve] + " In this input only the call trace survived: an order-0 atomic failure in the receive path fails at the zones' floor, whatever their fragmentation.",
			Changes:     reserveChanges(tl, nil),
		}
		return f, true
	}
	return Finding{}, false
}

func memContainsAny(s string, subs []string) bool {
	for _, x := range subs {
		if strings.Contains(s, x) {
			return true
		}
	}
	return false
}

// subsysAllocRecords are the kernel log's records that state a failed allocation in a
// subsystem's own words (kernel.ParseSubsysAllocFailure).
func subsysAllocRecords(tl *model.Timeline) []model.LogRecord {
	var out []model.LogRecord
	var p kernel.SubsysAllocParser
	for _, r := range tl.Log.All() {
		if _, ok := p.Parse(r.Message); ok {
			out = append(out, r)
		}
	}
	return out
}

// poolRecords: when every subsystem failure line is a dedicated pool's (a CMA area, the atomic
// DMA coherent pool, the swiotlb bounce buffer: kernel.Pool*), the reason the family is not
// checked names the pool: its exhaustion is not the zones' free memory, so no buddy cause is
// shown or excluded, and its size is a boot parameter headroom does not judge. "" when any
// line is another failure (that one's words stand).
func poolRecords(recs []model.LogRecord) string {
	var p kernel.SubsysAllocParser
	pools := map[string]int{}
	var order []string
	for _, r := range recs {
		f, _ := p.Parse(r.Message)
		if f.Pool == "" {
			return ""
		}
		if pools[f.Pool] == 0 {
			order = append(order, f.Pool)
		}
		pools[f.Pool]++
	}
	var b strings.Builder
	for i, pool := range order {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%d× %s", pools[pool], pool)
	}
	return fmt.Sprintf("%d kernel log line(s) state that a dedicated pool ran out (%s; first: %s, %q): not the buddy allocator's free memory, so no cause of the family is shown or excluded; headroom does not judge the pools' sizes (a CMA area: cma= or the device tree, CmaTotal/CmaFree in /proc/meminfo; the atomic DMA pool: coherent_pool=; the bounce buffer: swiotlb=; Xen's frames for netback: dom0_mem= and the other domains' memory; a Xen grant table: max_grant_frames or gnttab_max_frames=)",
		len(recs), b.String(), memOr(recs[0].Where(), "kernel log"), clipMsg(recs[0].Message))
}

// clipMsg: a log message as evidence quotes it, at most 160 bytes.
func clipMsg(m string) string {
	m = strings.TrimSpace(m)
	if len(m) > 160 {
		return m[:160] + "…"
	}
	return m
}
