package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// memory-fragmented: free memory is plentiful but the block size the NICs' receive buffers
// need is scarce (buddyinfo: free blocks per order per zone, mm/vmstat.c frag_show). A driver
// that allocates whole-frame buffers at order > 0 (jumbo MTU) fails its atomic refill when no
// block of that order is free, however much order-0 memory there is; no failure has to have
// happened yet for the risk to show.
func init() {
	Register(Rule{
		ID:     "memory-fragmented",
		Title:  "free memory plentiful but the block size the NICs need is scarce",
		Family: FamilyMemory,
		Check:  checkMemoryFragmented,
	})
	Register(Rule{
		ID:     "compaction-failing",
		Title:  "direct compaction stalls allocations and mostly fails",
		Family: FamilyMemory,
		Check:  checkCompactionFailing,
	})
}

// memDefaultRing is the RX ring of e1000, e1000e and igb by default (256 descriptors);
// used as "one refill" when the driver's ring size is not in the input.
const memDefaultRing = 256

// memZoneFree is one zone's buddy counts at one sample.
type memZoneFree struct {
	node int
	zone string
	free []int64
}

// buddySources returns, per sample index, the zones' free blocks: buddyinfo, else the sums of
// pagetypeinfo's per-migratetype rows.
func memBuddyAt(s *model.Sample) []memZoneFree {
	var out []memZoneFree
	if len(s.Buddy) > 0 {
		for _, b := range s.Buddy {
			out = append(out, memZoneFree{b.Node, b.Zone, b.Free})
		}
		return out
	}
	if s.PageTypes == nil {
		return nil
	}
	idx := map[string]int{}
	for _, r := range s.PageTypes.Free {
		key := fmt.Sprintf("%d/%s", r.Node, r.Zone)
		i, ok := idx[key]
		if !ok {
			i = len(out)
			idx[key] = i
			out = append(out, memZoneFree{node: r.Node, zone: r.Zone})
		}
		for o, n := range r.Free {
			for len(out[i].free) <= o {
				out[i].free = append(out[i].free, 0)
			}
			out[i].free[o] += n
		}
	}
	return out
}

func memBuddySource(s *model.Sample) string {
	if len(s.Buddy) > 0 {
		return sampleSource(s, "/proc/buddyinfo")
	}
	return sampleSource(s, "/proc/pagetypeinfo")
}

// memNeededOrder is the buffer order the host's receive path needs, and why.
func memNeededOrder(tl *model.Timeline) (order int, why string, ringBuffers int64) {
	psz := int(memPage(tl))
	order = -1
	var parts []string
	for _, n := range tl.Host.NICs {
		if n.Name == "lo" || n.Virtual || n.MTU <= 0 {
			continue // virtual devices (veth, ifb, bridges) receive no frames from a ring
		}
		b, o := plan.RxBufferBytes(int(n.MTU), psz)
		ring := int64(memDefaultRing)
		for _, st := range tl.AllNICStats() {
			if st.Name == n.Name && st.Ring != nil && st.Ring.Rx > 0 {
				ring = int64(st.Ring.Rx)
			}
		}
		if o > order {
			order, ringBuffers, parts = o, 0, nil
		}
		if o == order {
			ringBuffers += ring
			parts = append(parts, fmt.Sprintf("%s MTU %d → %d-byte buffers", n.Name, n.MTU, b))
		}
	}
	if order >= 0 {
		return order, strings.Join(parts, ", ") + " (plan.RxBufferBytes)", ringBuffers
	}
	for _, e := range tl.Events {
		if af := e.AllocFailure; af != nil && af.Order > order && af.Order <= maxBuddyOrder {
			order = af.Order
			why = fmt.Sprintf("%s %d in the input (%s)", memFailureNeedWhy, af.Order, memEventSource(&e))
		}
	}
	if order >= 0 {
		return order, why, memDefaultRing
	}
	if o, why, ok := memStatedNeedOrder(tl, int64(psz)); ok { // fix55c
		return o, why, memDefaultRing
	}
	// PAGE_ALLOC_COSTLY_ORDER: the largest order the allocator still retries for; TCP's
	// page_frag refill (SKB_FRAG_PAGE_ORDER) and most slab caches stay at or below it.
	return 3, memDefaultNeedWhy, memDefaultRing
}

// memFailureNeedWhy opens the reason of an order read from the input's allocation failures.
const memFailureNeedWhy = "allocation failures of order"

// memDefaultNeedWhy: the order needed when neither a NIC's MTU nor an allocation failure
// says it.
const memDefaultNeedWhy = "no NIC MTU in the input: order 3 (PAGE_ALLOC_COSTLY_ORDER, the largest order the kernel itself relies on for skb page frags and slabs)"

// A zone holding memScatteredMinFree (512 MiB: a thousand times the block) or more free with less than 1/memScatteredShare of it in
// blocks of memScatteredBlock or more has its free memory scattered: the buddy allocator
// merges every pair of free buddies as they are freed (mm/page_alloc.c __free_one_page), so
// gigabytes free with (next to) no block of 512 KiB means free pages lie one to a few per
// pageblock between pages in use. Any request above order 6 (4 KiB pages) then waits on
// compaction: THP and pageblock-sized requests, a driver's high-order page pool, kmalloc
// above 256 KiB. Judged when the order the NICs need is not known (corpus 899: Normal 3 GiB
// free, largest block order 6; g292's 6869: Normal ~1 GiB free on each node, one order-7
// block on each, 0.05% of it).
const (
	memScatteredMinFree = 512 << 20
	memScatteredBlock   = 512 << 10
	memScatteredShare   = 100
)

// memScatteredZone returns the first receive-capable zone of zs (not x86's ISA DMA) that
// holds at least memScatteredMinFree with under 1/memScatteredShare of it in free blocks of
// memScatteredBlock or more.
func memScatteredZone(tl *model.Timeline, zs []memZoneFree, psz int64) (memZoneFree, int64, bool) {
	for _, z := range zs {
		if r := memZoneRank(z.zone); r < 0 || r > memZoneRank("Normal") || memISADMA(tl, zs, z, psz) {
			continue
		}
		var fr, big int64
		for o, n := range z.free {
			fr += n << o
			if psz<<o >= memScatteredBlock {
				big += n << o
			}
		}
		if top := memTopOrder(z); top >= 0 && fr*psz >= memScatteredMinFree && big*memScatteredShare < fr {
			return z, big * psz, true
		}
	}
	return memZoneFree{}, 0, false
}

func checkMemoryFragmented(tl *model.Timeline) Result {
	// Only samples that show a zone backing kernel receive buffers (DMA, DMA32, Normal) are
	// judged: a buddyinfo showing HighMem or Movable alone would read as "no blocks of the
	// order needed" when the zones that matter were simply not in the input.
	var idxs []int
	var other []string
	psz0 := memPage(tl)
	for i := range tl.Samples {
		zs := memBuddyAt(&tl.Samples[i])
		low := false
		for _, z := range zs {
			switch r := memZoneRank(z.zone); {
			case r == 0 && memISASized(tl, z, psz0):
				// x86's 16 MiB ISA zone alone says nothing of the zones receive
				// buffers come from (memISADMA); with them it is set aside below.
				other = append(other, "DMA (at most 16 MiB: x86's ISA zone)")
			case r >= 0 && r <= memZoneRank("Normal"):
				low = true
			default:
				other = append(other, z.zone)
			}
		}
		if low {
			idxs = append(idxs, i)
		}
	}
	if f, ok := oomFragmented(tl); ok { // mem_fragmentation_oom.go
		return Fired(f)
	}
	if len(idxs) == 0 {
		if len(other) > 0 {
			slices.Sort(other)
			return NotChecked("the buddyinfo/pagetypeinfo in the input shows only %s: not the zones that back receive buffers (DMA32, Normal, or a DMA zone beyond x86's 16 MiB)", strings.Join(slices.Compact(other), ", "))
		}
		return NotChecked("no /proc/buddyinfo or /proc/pagetypeinfo in the input")
	}
	// A count just below 2^32 (or negative) is a small negative printed unsigned
	// (kernel.WrappedNegative): nr_free went below zero, the buddy accounting is broken and
	// no count of that reading is a measurement of free blocks.
	for _, i := range idxs {
		for _, z := range memBuddyAt(&tl.Samples[i]) {
			for o, n := range z.free {
				if kernel.WrappedNegative(n) {
					return NotChecked("the counts are wrapped: node %d %s order %d shows %d free blocks, a negative count printed unsigned (nr_free went below zero: a buddy accounting bug), so %s is no reading of free blocks", z.node, z.zone, o, n, memBuddySource(&tl.Samples[i]))
				}
			}
		}
	}
	need, needWhy, ringBuffers := memNeededOrder(tl)
	psz := memPage(tl)

	// Order-0 series: a zone's order-0 list reaching zero is the allocator splitting larger
	// blocks (expand(), mm/page_alloc.c), not a shortage; say so when a series shows it.
	var notes []string
	if series := memOrder0Series(tl, idxs); series != "" {
		notes = append(notes, series)
	}
	if need == 0 {
		last := &tl.Samples[idxs[len(idxs)-1]]
		msg := fmt.Sprintf("order 0 is all the receive path needs (%s), and fragmentation cannot starve it: a single-page request splits any larger free block. %s.", needWhy, memLargestBlocks(memBuddyAt(last), psz))
		if len(notes) > 0 {
			msg += " " + strings.Join(notes, " ")
		}
		return Healthy("%s", msg)
	}

	// The worst sample: fewest buffers of the needed order obtainable.
	worst, worstIdx := int64(-1), -1
	var worstFree int64
	var worstZones []string
	var isaNote string
	for _, i := range idxs {
		var avail, free int64
		var zs []string
		all := memBuddyAt(&tl.Samples[i])
		for _, z := range all {
			if r := memZoneRank(z.zone); r < 0 || r > memZoneRank("Normal") {
				continue // HighMem/Movable never back kernel receive buffers
			}
			if memISADMA(tl, all, z, psz) {
				isaNote = fmt.Sprintf("DMA's free blocks not counted (%s: largest order %d): on x86 it is the 16 MiB ISA zone, the last fallback of requests that may use DMA32 or Normal, kept from them by lowmem_reserve (mm/page_alloc.c lowmem_reserve_ratio)", memLargestFree(z, psz), memTopOrder(z))
				continue
			}
			var a, fr int64
			for o, n := range z.free {
				fr += n << o
				if o >= need {
					a += n << (o - need)
				}
			}
			avail += a
			free += fr
			zs = append(zs, fmt.Sprintf("%s: %s free, %d blocks of order ≥ %d", z.zone, units.FormatBytes(fr*psz), a, need))
		}
		if worst < 0 || avail < worst {
			worst, worstIdx, worstFree, worstZones = avail, i, free, zs
		}
	}
	src := memBuddySource(&tl.Samples[worstIdx])
	plentiful, plentyWhy := memFreePlentiful(tl, worstIdx, worstFree)
	ev := []Evidence{
		{What: "order needed", Value: fmt.Sprintf("%d (%s)", need, needWhy), Source: "host NICs / input"},
		{What: fmt.Sprintf("order-%d buffers obtainable (worst sample)", need), Value: fmt.Sprintf("%d; %s", worst, strings.Join(worstZones, "; ")), Source: src},
		{What: "free memory in DMA/DMA32/Normal", Value: fmt.Sprintf("%s (%s)", units.FormatBytes(worstFree*psz), plentyWhy), Source: src},
	}
	if isaNote != "" {
		ev = append(ev, Evidence{What: "zone DMA", Value: isaNote, Source: src, Role: Background})
	}
	if !plentiful {
		return Healthy("order-%d buffers obtainable: %d; free memory itself is near the watermarks (%s): a shortage, not fragmentation (see alloc-fail-reserve, min-free-too-low)", need, worst, plentyWhy)
	}
	if worst >= ringBuffers {
		if z, big, ok := memScatteredZone(tl, memBuddyAt(&tl.Samples[worstIdx]), psz); ok && needWhy == memDefaultNeedWhy {
			top := memTopOrder(z)
			title := fmt.Sprintf("node %d %s holds %s but no block larger than order %d (%s): free memory is scattered", z.node, z.zone, memLargestFree(z, psz), top, units.FormatBytes(psz<<top))
			if psz<<top > memScatteredBlock {
				title = fmt.Sprintf("node %d %s holds %s but only %s of it in blocks of %s or more: free memory is scattered", z.node, z.zone, memLargestFree(z, psz), units.FormatBytes(big), units.FormatBytes(memScatteredBlock))
			}
			return Fired(Finding{Severity: Warning,
				Title:    title,
				Evidence: append([]Evidence{{What: fmt.Sprintf("node %d %s free blocks by order", z.node, z.zone), Value: memOrderCounts(z), Source: src}}, ev...),
				Explanation: "The buddy allocator merges two free buddies into the next order as soon as both are free, so a zone " +
					"with gigabytes free and no block of 512 KiB holds its free pages one to a few per pageblock between pages in use. " +
					"Requests of order 3 and below are still served; anything larger (transparent huge pages, a driver's high-order " +
					"page pool, jumbo receive buffers, kmalloc above 256 KiB) must wait for compaction, and an atomic one fails. " +
					"The input does not say which order the NICs need (their MTU), so whether the receive path is hit is not decided.",
				Changes: fragmentationChanges(tl, &model.AllocFailure{Order: top + 1}),
			})
		}
		return Healthy("%d order-%d buffers obtainable at the worst sample, at least one RX ring refill (%d)%s", worst, need, ringBuffers, memNoteSuffix(isaNote))
	}
	sev := Warning
	if worst == 0 {
		sev = Critical
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("free memory is plentiful but order-%d blocks are scarce (%d available, a ring refill takes %d)", need, worst, ringBuffers),
		Evidence: ev,
		Explanation: fmt.Sprintf("The receive path needs order-%d blocks (%s each) and allocates them atomically: it cannot reclaim or "+
			"compact, so it fails as soon as no free block of that order exists, while order-0 memory is plentiful. Reclaim frees "+
			"pages without regard to where they are; compaction (kcompactd, 4.6+; proactive since 5.9) and the watermark boost "+
			"after fragmenting events (5.0+) rebuild large blocks. The lasting fix is receive buffers of order 0 (MTU 1500, or a "+
			"driver that builds jumbo frames from pages).", need, units.FormatBytes(psz<<need)),
	}
	if len(notes) > 0 {
		f.Explanation += " " + strings.Join(notes, " ")
	}
	// fix22d: no NIC's MTU, the order judged is the one the input's allocation failures
	// asked for: these buddy lists are those failures' state (edges.go).
	f.Facts.OrderOfFailure = strings.HasPrefix(needWhy, memFailureNeedWhy)
	f.Changes = fragmentationChanges(tl, &model.AllocFailure{Order: need})
	if strings.HasPrefix(needWhy, memStatedNeedWhy) {
		memStatedNeedFinding(&f, need, worst, psz) // fix55c: the text's driver, not the receive path
	}
	if len(f.Changes) == 0 {
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "receive buffer order", Recommended: "order-0 receive buffers: MTU 1500 or a page-based RX driver mode",
			Why: "no kernel knob guarantees high-order free blocks; only not needing them does"}}
	}
	return Fired(f)
}

// memFreePlentiful judges whether the eligible zones' free memory was well above their
// watermarks: above the sum of the high watermarks (zoneinfo, same sample) or, without
// zoneinfo, above twice vm.min_free_kbytes.
func memFreePlentiful(tl *model.Timeline, i int, freePages int64) (bool, string) {
	psz := memPage(tl)
	s := &tl.Samples[i]
	var high int64
	have := false
	for _, z := range s.ZoneWatermarks() {
		if r := memZoneRank(z.Zone); r < 0 || r > memZoneRank("Normal") {
			continue
		}
		if z.HasHigh {
			high += z.High
			have = true
		}
	}
	if have {
		return freePages > 2*high, fmt.Sprintf("high watermarks sum to %s; plentiful above twice that", units.FormatBytes(high*psz))
	}
	if cur, ok := currentSetting(tl, "vm.min_free_kbytes"); ok {
		if c, ok := settingInt(cur); ok && c > 0 {
			return freePages*psz/1024 > 4*c, fmt.Sprintf("vm.min_free_kbytes %d kB; plentiful above 4× that (the high watermark is about 1.5× min without zoneinfo to read)", c)
		}
	}
	return true, "no watermarks in the input: free memory is judged by the blocks alone"
}

// memISADMA: zone z is x86's ISA DMA zone (the first 16 MiB) in a sample that also shows
// DMA32 or Normal. Receive buffers and every request that may use a higher zone fall back to
// it last and only above its lowmem_reserve for their zone, which with the default ratio of
// 256 is the higher zones' pages / 256: 16 MiB from 4 GiB up, so its blocks are none of
// theirs (issue 29: a 16 MiB DMA zone with order-10 blocks beside a Normal zone with none
// is no sign of contiguous memory). On other architectures ZONE_DMA
// can be the main zone (arm64: the first 1 or 4 GiB), so it is kept there.
func memISADMA(tl *model.Timeline, all []memZoneFree, z memZoneFree, psz int64) bool {
	if !memISASized(tl, z, psz) {
		return false
	}
	for _, o := range all {
		if o.node == z.node && memZoneRank(o.zone) > 0 && memZoneRank(o.zone) <= memZoneRank("Normal") {
			return true
		}
	}
	return false
}

// memISASized: zone z is a DMA zone holding at most 16 MiB free on x86 (or an unknown
// architecture, x86 being the common case), the size of the ISA zone.
func memISASized(tl *model.Timeline, z memZoneFree, psz int64) bool {
	if !strings.EqualFold(z.zone, "DMA") {
		return false
	}
	if f := kernel.ArchFamily(tl.Host.Arch); f != "" && f != "x86" {
		return false
	}
	var fr int64
	for o, n := range z.free {
		fr += n << o
	}
	return fr*psz <= 16<<20
}

// memOrderCounts: a zone's free blocks by order, "0:143135 1:6057 …".
func memOrderCounts(z memZoneFree) string {
	parts := make([]string, len(z.free))
	for o, n := range z.free {
		parts[o] = fmt.Sprintf("%d:%d", o, n)
	}
	return strings.Join(parts, " ")
}

func memNoteSuffix(note string) string {
	if note == "" {
		return ""
	}
	return "; " + note
}

func memTopOrder(z memZoneFree) int {
	top := -1
	for o, n := range z.free {
		if n > 0 {
			top = o
		}
	}
	return top
}

func memLargestFree(z memZoneFree, psz int64) string {
	var fr int64
	for o, n := range z.free {
		fr += n << o
	}
	return units.FormatBytes(fr*psz) + " free"
}

func memLargestBlocks(zs []memZoneFree, psz int64) string {
	var parts []string
	for _, z := range zs {
		top := -1
		for o, n := range z.free {
			if n > 0 {
				top = o
			}
		}
		if top >= 0 {
			parts = append(parts, fmt.Sprintf("%s: largest free block order %d (%s)", z.zone, top, units.FormatBytes(psz<<top)))
		}
	}
	return strings.Join(parts, ", ")
}

// memOrder0Series describes zones whose order-0 count fell to zero in a buddyinfo series while
// larger blocks stayed free.
func memOrder0Series(tl *model.Timeline, idxs []int) string {
	if len(idxs) < 2 {
		return ""
	}
	type key struct {
		node int
		zone string
	}
	series := map[key][]int64{}
	lastHigh := map[key][]int64{}
	var keys []key
	for _, i := range idxs {
		for _, z := range memBuddyAt(&tl.Samples[i]) {
			if len(z.free) == 0 {
				continue
			}
			k := key{z.node, z.zone}
			if _, ok := series[k]; !ok {
				keys = append(keys, k)
			}
			series[k] = append(series[k], z.free[0])
			lastHigh[k] = z.free
		}
	}
	sort.Slice(keys, func(a, b int) bool { return keys[a].zone < keys[b].zone })
	var out []string
	for _, k := range keys {
		s := series[k]
		if len(s) < 2 || s[len(s)-1] != 0 || s[0] == 0 {
			continue
		}
		var higher []string
		for o := 1; o < len(lastHigh[k]) && len(higher) < 3; o++ {
			if n := lastHigh[k][o]; n > 0 {
				higher = append(higher, fmt.Sprintf("%d of order %d", n, o))
			}
		}
		var vals []string
		for _, v := range s {
			vals = append(vals, fmt.Sprint(v))
		}
		out = append(out, fmt.Sprintf("%s's order-0 count went %s while %s stayed free: single pages are served by splitting those, so an empty order-0 list is not a shortage (the buddy allocator's expand(), mm/page_alloc.c).",
			k.zone, strings.Join(vals, "→"), strings.Join(higher, ", ")))
	}
	return strings.Join(out, " ")
}

// compaction-failing: direct compaction (mm/compaction.c try_to_compact_pages, 2.6.35+)
// stalls the allocating task (compact_stall) and mostly fails (compact_fail) to produce a
// block of the order asked. High-order allocations that may sleep then fall back to reclaim
// or fail; atomic ones never compact and just fail.
//
// Thresholds: while sampled, stalls rising with ≥ 50% failing warns, ≥ 10 stalls/s with ≥ 80%
// failing is critical. Since boot only: hotsos's rule (compact_success > 10000 and
// compact_fail > 10% of compact_success) gives info.
const (
	compactFailShareWarn = 0.5
	compactFailShareCrit = 0.8
	compactStallCritRate = 10.0
	hotsosCompactSuccess = 10000
	hotsosCompactFailPct = 10
	// compactSinceBootStalls: since boot, at least this many compaction stalls with half or
	// more failed is info (a hundred make a share that means something, ±10%; g292's 6875:
	// 236 of 327 failed, the free scanner finding nothing).
	compactSinceBootStalls = 100
)

func checkCompactionFailing(tl *model.Timeline) Result {
	get := func(name string) func(*model.Sample) (int64, bool) {
		return func(s *model.Sample) (int64, bool) { return s.VM(name) }
	}
	stall := counterGrowth(tl, "/proc/vmstat", get("compact_stall"))
	fail := counterGrowth(tl, "/proc/vmstat", get("compact_fail"))
	succ := counterGrowth(tl, "/proc/vmstat", get("compact_success"))
	if !stall.hasLast || !fail.hasLast {
		if r, ok := compactionRunRates(tl); ok {
			return r
		}
		return NotChecked("no compact_stall/compact_fail in /proc/vmstat (no vmstat in the input, or a kernel without CONFIG_COMPACTION, before 2.6.35)")
	}
	ev := []Evidence{
		{What: "compact_stall", Value: stall.describe(), Source: stall.source},
		{What: "compact_fail", Value: fail.describe(), Source: fail.source},
	}
	if succ.hasLast {
		ev = append(ev, Evidence{What: "compact_success", Value: succ.describe(), Source: succ.source})
	}
	var sev Severity
	fired := false
	if stall.rising() && fail.hasDelta {
		share := float64(fail.delta) / float64(stall.delta)
		rate := 0.0
		if stall.seconds > 0 {
			rate = float64(stall.delta) / stall.seconds
		}
		ev = append(ev, Evidence{What: "share of compaction stalls that failed while sampled", Value: fmt.Sprintf("%.0f%% (%d of %d, %.1f stalls/s)", 100*share, fail.delta, stall.delta, rate), Source: stall.source})
		switch {
		case share >= compactFailShareCrit && rate >= compactStallCritRate:
			sev, fired = Critical, true
		case share >= compactFailShareWarn:
			sev, fired = Warning, true
		}
	} else if succ.hasLast && succ.last > hotsosCompactSuccess && fail.last*100 > int64(hotsosCompactFailPct)*succ.last {
		sev, fired = Info, true
		ev = append(ev, Evidence{What: "compact_fail per compact_success since boot", Value: fmt.Sprintf("%.0f%% (hotsos warns above %d%% with over %d successes)", 100*float64(fail.last)/float64(succ.last), hotsosCompactFailPct, hotsosCompactSuccess), Source: fail.source})
	} else if !stall.hasDelta && stall.last >= compactSinceBootStalls && float64(fail.last) >= compactFailShareWarn*float64(stall.last) {
		// Since boot, with no window: most of the compaction stalls failed (a host whose
		// successes stay under hotsos's floor because most attempts fail).
		sev, fired = Info, true
		ev = append(ev, Evidence{What: "share of compaction stalls that failed since boot", Value: fmt.Sprintf("%.1f%% (%d of %d)", 100*float64(fail.last)/float64(stall.last), fail.last, stall.last), Source: fail.source})
	}
	if !fired {
		if stall.rising() {
			if !fail.hasDelta {
				// compact_fail was not read at both ends of the window: the share of the
				// window's stalls that failed is unknown.
				return NotChecked("compaction stalled %d times while sampled, but compact_fail was not read at both ends of the window: how many of them failed is unknown", stall.delta)
			}
			return Healthy("compaction stalled %d times while sampled and mostly succeeded", stall.delta)
		}
		return Healthy("compact_stall %s, compact_fail %d since boot", stall.describe(), fail.last)
	}
	return compactionFinding(tl, sev, ev)
}

// compactionRunRates judges compaction from rates alone: a sample that carries compact_stall
// and compact_fail per second but not the counters (a test report's growth over its run,
// model.GrowthRates), with the thresholds of the counters' window.
func compactionRunRates(tl *model.Timeline) (Result, bool) {
	for i := len(tl.Samples) - 1; i >= 0; i-- {
		s := &tl.Samples[i]
		stall, ok1 := s.Rates.Get(model.RateCompactStallPerSec)
		fail, ok2 := s.Rates.Get(model.RateCompactFailPerSec)
		if !ok1 || !ok2 || s.VMStat != nil {
			continue
		}
		src := sampleSource(s, "/proc/vmstat")
		if stall <= 0 {
			return Healthy("no compaction stalls (compact_stall 0/s in %s)", src), true
		}
		share := fail / stall
		ev := []Evidence{{What: "compaction stalls and failures", Value: fmt.Sprintf("compact_stall %.1f/s, compact_fail %.1f/s: %.0f%% of the stalls failed", stall, fail, 100*share), Source: src}}
		switch {
		case share >= compactFailShareCrit && stall >= compactStallCritRate:
			return compactionFinding(tl, Critical, ev), true
		case share >= compactFailShareWarn:
			return compactionFinding(tl, Warning, ev), true
		}
		return Healthy("compaction stalled %.1f times a second and mostly succeeded (%s)", stall, src), true
	}
	return Result{}, false
}

func compactionFinding(tl *model.Timeline, sev Severity, ev []Evidence) Result {
	f := Finding{
		Severity: sev,
		Title:    "direct compaction stalls allocations and mostly fails",
		Evidence: ev,
		Explanation: "A high-order allocation that may sleep found no free block and compacted memory itself (a compact_stall), " +
			"moving movable pages to assemble one; when compaction fails (compact_fail) the task has stalled for nothing and " +
			"falls back to reclaim or fails. Unmovable allocations (slab, socket buffers, pinned pages) scattered across " +
			"pageblocks defeat compaction. Atomic allocations — the NIC's receive refill — never compact, so the same " +
			"fragmentation makes them fail outright: see memory-fragmented and alloc-fail-fragmented.",
	}
	need, _, _ := memNeededOrder(tl)
	f.Changes = fragmentationChanges(tl, &model.AllocFailure{Order: need})
	if len(f.Changes) == 0 {
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "high-order allocators",
			Recommended: "find who asks (perf record -e compaction:mm_compaction_begin, or tracepoint kmem:mm_page_alloc with order > 0) and reduce their order",
			Why:         "compaction cannot succeed while unmovable pages are spread through memory; fewer high-order requests is the fix that lasts"}}
	}
	return Fired(f)
}
