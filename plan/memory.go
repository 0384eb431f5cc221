package plan

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"headroom/kernel"
	"headroom/units"
)

// DefaultKswapdReaction is how long plan assumes free memory must last on its own once kswapd
// has been woken (a zone fell below its low watermark) and before reclaim returns pages. It
// is an assumption, not a measurement: kswapd is an ordinary SCHED_OTHER kthread, and on a
// loaded receiver it waits behind the softirq work that is allocating (seed 004 quotes "if
// the CPU is stuck in an interrupt handler refilling a huge network RX ring, then waking
// kswapd won't do anything") and behind runnable tasks for several scheduler periods (2.6's
// O(1) scheduler gave a nice-0 task a 100 ms timeslice; CFS's sched_latency is 6 ms × (1 +
// log2 CPUs), 24 ms at 8 CPUs) before its first reclaim batch frees anything. 100 ms covers
// one 2.6 timeslice or four CFS periods. Override with Input.KswapdReaction.
const DefaultKswapdReaction = 100 * time.Millisecond

// EthernetOverheadBytes is what each frame costs on the wire beyond its MTU-sized payload:
// preamble and start delimiter 8, MAC header 14, FCS 4, inter-frame gap 12 (IEEE 802.3).
const EthernetOverheadBytes = 38

// RxBufferBytes estimates the memory one received frame occupies until the stack frees it:
// the linear buffer MTU + 14 (Ethernet header) + NET_SKB_PAD (64) + the skb_shared_info tail
// (320 bytes on 64-bit), rounded up to a power of two because kmalloc serves power-of-two
// size classes (__alloc_skb → kmalloc_reserve, net/core/skbuff.c), and never less than half
// a page (page_pool drivers split a 4 KiB page into two 2 KiB buffers). 1500 → 2048 bytes,
// 9000 → 16384 bytes, an order-2 allocation with 4 KiB pages: the "order:2" of seed 000's
// failures is this size class. order is the buddy order of one buffer.
func RxBufferBytes(mtuBytes, pageSizeBytes int) (bytes int64, order int) {
	if mtuBytes <= 0 {
		mtuBytes = 1500
	}
	if pageSizeBytes <= 0 {
		pageSizeBytes = 4096
	}
	linear := uint64(mtuBytes) + 14 + 64 + 320
	b := uint64(1) << bits.Len64(linear-1) // next power of two
	if half := uint64(pageSizeBytes) / 2; b < half {
		b = half
	}
	pages := (b + uint64(pageSizeBytes) - 1) / uint64(pageSizeBytes)
	order = bits.Len64(pages - 1)
	return int64(b), order
}

// PacketsPerSec is the full-size frame rate of a link: rate ÷ 8 ÷ (MTU + 38).
func PacketsPerSec(bitsPerSec float64, mtuBytes int) float64 {
	if mtuBytes <= 0 {
		mtuBytes = 1500
	}
	return bitsPerSec / 8 / float64(mtuBytes+EthernetOverheadBytes)
}

// intSqrt is the kernel's int_sqrt(): floor of the square root.
func intSqrt(x int64) int64 {
	if x <= 0 {
		return 0
	}
	r := int64(math.Sqrt(float64(x)))
	for r*r > x {
		r--
	}
	for (r+1)*(r+1) <= x {
		r++
	}
	return r
}

// KernelDefaultMinFreeKBytes is the vm.min_free_kbytes a current kernel picks at boot for the
// given lowmem (kB): 4·√lowmem, clamped to [128, 262144] (calculate_min_free_kbytes(),
// mm/page_alloc.c, upper bound since 5.7). Kernels of other eras clamp differently: see
// KernelDefaultMinFreeKBytesForVersion. The kernel uses nr_free_buffer_pages() at boot,
// slightly less than LowTotal/MemTotal, so the live value is a little lower. With
// transparent hugepages, khugepaged raises it further (set_recommended_min_free_kbytes()).
func KernelDefaultMinFreeKBytes(lowmemKB int64) int64 {
	return clampInt64(intSqrt(lowmemKB*16), 128, 262144)
}

// KernelDefaultMinFreeKBytesForVersion is KernelDefaultMinFreeKBytes for a given kernel:
//   - 2.6.0 to 2.6.9: √lowmem, clamped [128, 16384] (init_per_zone_pages_min, Oct 2003);
//   - 2.6.10 to 5.6: 4·√lowmem, clamped [128, 65536] (Nick Piggin's "mm: restore atomic
//     buffer", Nov 2004, which also set low = 5/4 min and high = 6/4 min; seed 004's 2.6.13
//     zone dump shows exactly those watermarks);
//   - 5.7 on: 4·√lowmem, clamped [128, 262144] ("mm/page_alloc: increase default
//     min_free_kbytes bound", Feb 2020).
//
// An unknown version gets the current rule.
func KernelDefaultMinFreeKBytesForVersion(lowmemKB int64, kv kernel.KernelVersion) int64 {
	switch {
	case !kv.Known || kv.AtLeast(5, 7, 0):
		return KernelDefaultMinFreeKBytes(lowmemKB)
	case kv.AtLeast(2, 6, 10):
		return clampInt64(intSqrt(lowmemKB*16), 128, 65536)
	default:
		return clampInt64(intSqrt(lowmemKB), 128, 16384)
	}
}

// rxBurst is the memory the receive path takes from the page allocator while kswapd catches
// up, and its parts for the explanation.
type rxBurst struct {
	lineBitsPerSec float64
	pps            float64
	bufferBytes    int64
	order          int
	reaction       time.Duration
	burstBytes     int64 // line rate × reaction, in buffers
	ringBytes      int64 // refilling every known RX ring once
	ringsKnown     bool
}

func computeRxBurst(in Input) rxBurst {
	var r rxBurst
	r.lineBitsPerSec = lineRateBitsPerSec(in)
	r.bufferBytes, r.order = RxBufferBytes(in.MTUBytes, in.PageSizeBytes)
	r.pps = PacketsPerSec(r.lineBitsPerSec, in.MTUBytes)
	r.reaction = in.KswapdReaction
	if r.reaction <= 0 {
		r.reaction = DefaultKswapdReaction
	}
	r.burstBytes = int64(math.Ceil(r.pps * r.reaction.Seconds() * float64(r.bufferBytes)))
	for _, n := range in.NICs {
		ring := plannedRing(n)
		if ring > 0 {
			r.ringsKnown = true
			r.ringBytes += ring * r.bufferBytes
		}
	}
	return r
}

// lineRateBitsPerSec is the rate at which frames can arrive: the NICs' summed link speed
// (bonded links receive on all members) or the planned bandwidth, whichever is larger.
func lineRateBitsPerSec(in Input) float64 {
	var sum float64
	for _, n := range in.NICs {
		if n.SpeedMbps > 0 {
			sum += float64(n.SpeedMbps) * 1e6
		}
	}
	return math.Max(sum, in.BandwidthBitsPerSec)
}

// plannedRing is the RX ring size a NIC will have once the plan is applied.
func plannedRing(n NIC) int64 {
	if n.DropsSeen && n.RxRingMax > n.RxRing {
		return n.RxRingMax
	}
	return n.RxRing
}

// MinFreeKBytes is the vm.min_free_kbytes plan recommends: enough free memory for atomic
// receive allocations at line rate while kswapd catches up, plus one refill of every RX ring.
//
// The kernel wakes kswapd when a zone falls below its low watermark, ¼ above min (before
// 4.6, and at least that since). GFP_ATOMIC allocations (the NIC refill in softirq) may then
// dig below min down to min − min/2 − min/8 = 3/8 min (__zone_watermark_ok(), mm/page_alloc.c:
// ALLOC_HIGH takes half, ALLOC_HARDER a further quarter of the rest). Seed 004's failing zone
// sat exactly there: Normal free 12248 kB against min 32768 kB, and 3/8 × 32768 = 12288 kB.
// So the memory atomic allocations can use after kswapd wakes is low − 3/8 min = 7/8 min:
//
//	burst     = line rate ÷ 8 ÷ (MTU + 38) × reaction × RX buffer bytes
//	rings     = Σ RX ring entries × RX buffer bytes
//	min_free  = (burst + rings) × 8/7, at least the kernel default, at most 1/20 of lowmem
//	            (of MemTotal without HighMem)
//
// The reaction time is DefaultKswapdReaction unless Input.KswapdReaction is set; RX
// allocation is assumed to be the allocator that drains the zone meanwhile.
func MinFreeKBytes(in Input) (kb int64, why string) {
	in = resolvedMemory(in)
	return minFreeKBytesWithin(in, shareReserveBudget(in))
}

// reserveBudget is the most free memory plan lets the kernel keep (ReserveKB, the high
// watermark) and where that bound comes from.
type reserveBudget struct {
	kb  int64
	why string // "1/20 of MemTotal 331392 kB", or the fit beside the unreclaimable memory
}

// shareReserveBudget is the reserve budget when plan does not know what the host's memory
// holds: 1/ReserveShareDenominator of the basis.
func shareReserveBudget(in Input) reserveBudget {
	basisBytes, basisName := budgetBasis(in)
	basisKB := basisBytes / 1024
	return reserveBudget{kb: basisKB / ReserveShareDenominator, why: fmt.Sprintf("1/%d of %s %d kB", ReserveShareDenominator, basisName, basisKB)}
}

// unboundedReserve is a budget that bounds nothing: what the link asks for.
var unboundedReserve = reserveBudget{kb: math.MaxInt64 / 4, why: "unbounded"}

// minFreeKBytesWithin is MinFreeKBytes within the reserve budget rb.
func minFreeKBytesWithin(in Input, rb reserveBudget) (kb int64, why string) {
	b := computeRxBurst(in)
	needBytes := kernel.MinForAtomic(b.burstBytes + b.ringBytes)
	needKB := ceilDiv(needBytes, 1024)

	basisBytes, basisName := budgetBasis(in)
	basisKB := basisBytes / 1024
	kver, _ := kernel.ParseKernelVersion(in.KernelVersion)
	defKB := KernelDefaultMinFreeKBytesForVersion(basisKB, kver)
	capKB, capWhy := minFreeCapKB(rb, kver, in.MemoryBytes/1024)

	kb = needKB
	bound := ""
	if capKB > 0 && kb > capKB {
		kb, bound = capKB, fmt.Sprintf(", capped at %d kB (%s)", capKB, capWhy)
	}
	if kb < defKB {
		kb, bound = defKB, ", raised to the kernel default"
	}
	rings := "rings unknown"
	if b.ringsKnown {
		rings = "rings " + units.FormatBytes(b.ringBytes)
	}
	why = fmt.Sprintf("(%s × %v kswapd reaction = %.0f frames × %d B buffers = %s; + %s) × 8/7 = %d kB%s",
		units.FormatBitsPerSec(b.lineBitsPerSec), b.reaction, b.pps*b.reaction.Seconds(), b.bufferBytes,
		units.FormatBytes(b.burstBytes), rings, needKB, bound)
	if basisKB > 0 {
		// The kernel's default is a function of the memory: with the memory unknown it is
		// unknown, and the floor above is only the function's minimum.
		why += fmt.Sprintf("; kernel default 4·√%s = %d kB", basisName, defKB)
	} else {
		why += "; kernel default 4·√memory: the memory is not in the input"
	}
	return kb, why
}

// WatermarkScaleFactor is the vm.watermark_scale_factor (4.6+, commit 795ae7a0de6b "mm: scale
// kswapd watermarks in proportion to memory") that puts one receive burst between the low and
// min watermarks, so kswapd starts a whole burst before atomic allocations reach the min
// reserve, as far as the reserve budget allows. The kernel sets, per zone,
// gap = max(min/4, managed × factor / 10000), low = min + gap, high = low + gap
// (__setup_per_zone_wmarks(), mm/page_alloc.c), and kswapd reclaims until high: the reserve
// the host keeps free is min + 2 × gap. Plan asks for factor = ⌈gap × 10000 ÷ memory⌉ with the
// gap the burst, at most what the reserve budget (ReserveShareDenominator) leaves after
// MinFreeKBytes, within the 1..1000 range every 4.6+ kernel accepts. ok is false for kernels
// without the sysctl.
func WatermarkScaleFactor(in Input) (factor int64, why string, ok bool) {
	in = resolvedMemory(in)
	rb := shareReserveBudget(in)
	minKB, _ := minFreeKBytesWithin(in, rb)
	return watermarkScaleFactorWithin(in, rb, minKB)
}

// watermarkScaleFactorWithin is WatermarkScaleFactor within the reserve budget rb beside a
// min_free_kbytes of minKB.
func watermarkScaleFactorWithin(in Input, rb reserveBudget, minKB int64) (factor int64, why string, ok bool) {
	kver, _ := kernel.ParseKernelVersion(in.KernelVersion)
	if ok, _ := kernel.SysctlExists("vm.watermark_scale_factor", kver, kver.Known); !ok {
		return 0, "vm.watermark_scale_factor exists from 4.6", false
	}
	b := computeRxBurst(in)
	basisBytes, basisName := budgetBasis(in)
	if basisBytes <= 0 {
		return 0, "memory unknown", false
	}
	basisKB := basisBytes / 1024
	gapKB := ceilDiv(b.burstBytes+b.ringBytes, 1024)
	leftKB := (rb.kb - minKB) / 2
	bound := ""
	if gapKB > leftKB {
		gapKB = max(leftKB, 0)
		bound = fmt.Sprintf("; capped: min_free_kbytes %d kB + 2 × gap must stay within the reserve budget %d kB (%s), which leaves a gap of %d kB",
			minKB, rb.kb, rb.why, gapKB)
	}
	// Rounded up when the whole burst fits (the gap must hold it), down when the budget
	// caps it (the reserve must stay within it).
	factor, op := ceilDiv(gapKB*10000, max(basisKB, 1)), "⌈%d kB × 10000 ÷ %s %s⌉"
	if bound != "" {
		factor, op = gapKB*10000/max(basisKB, 1), "⌊%d kB × 10000 ÷ %s %s⌋"
	}
	factor = clampInt64(factor, 1, 1000)
	why = fmt.Sprintf("low−min gap ≥ one burst %s: "+op+" = %d (default 10)%s",
		units.FormatBytes(b.burstBytes+b.ringBytes), gapKB, units.FormatBytes(basisBytes), basisName, factor, bound)
	return factor, why, true
}

// ReserveShareDenominator bounds the free-memory reserve plan asks the kernel to keep: the
// high watermark, min_free_kbytes + 2 × the watermark gap, at most 1/20 (5 %) of the memory
// it is taken from (lowmem on a HighMem kernel, where min_free_kbytes is spread over the
// lowmem zones only, __setup_per_zone_wmarks(), mm/page_alloc.c). kswapd reclaims until every
// zone is above high, so every kB of it is taken from the page cache and applications; beyond
// 5 % it wakes kswapd (and swap) ever earlier (seed 004: "it causes swap to run earlier"),
// and on 32-bit it takes lowmem from the very socket buffers it protects. tune's bound on
// min_free_kbytes (MinFreeMaxPercentOfRAM of MemTotal, bounds.go) is the same share.
const ReserveShareDenominator = 100 / MinFreeMaxPercentOfRAM

// ReserveKB is the free memory the kernel keeps with min_free_kbytes minKB and
// watermark_scale_factor factor on basisKB of memory: the high watermark summed over the
// zones, min + 2 × max(min/4, basis × factor / 10000) (__setup_per_zone_wmarks(); before 4.6
// the gap was min/4 alone: pass factor 0).
func ReserveKB(minKB, factor, basisKB int64) int64 {
	return minKB + 2*max(minKB/4, basisKB*factor/10000)
}

// minFreeCapKB is the most min_free_kbytes plan asks for: with the gap at min/4 the reserve
// is 1.5 × min, so 2/3 of the budget; on kernels with watermark_scale_factor (4.6+) half of
// the budget, which leaves the other half for a gap of up to a quarter of it, the head start
// kswapd gets before atomic allocations reach min.
// It never exceeds tune's bound, MinFreeMaxPercentOfRAM of MemTotal (memTotalKB).
func minFreeCapKB(rb reserveBudget, kver kernel.KernelVersion, memTotalKB int64) (int64, string) {
	kb, why := rb.kb*2/3, fmt.Sprintf("2/3 of the reserve budget %d kB (%s): the watermarks add min/4 twice", rb.kb, rb.why)
	if !kver.Known || kver.AtLeast(4, 6, 0) {
		kb, why = rb.kb/2, fmt.Sprintf("half of the reserve budget %d kB (%s): the other half is the watermark gaps", rb.kb, rb.why)
	}
	if bound := memTotalKB * MinFreeMaxPercentOfRAM / 100; memTotalKB > 0 && kb > bound {
		kb, why = bound, fmt.Sprintf("tune's bound, %d %% of MemTotal %d kB", MinFreeMaxPercentOfRAM, memTotalKB)
	}
	return kb, why
}

// resolvedMemory applies defaults and, for a 32-bit kernel, the lowmem split, so that the
// memory helpers can be called on a raw Input (as rules do).
func resolvedMemory(in Input) Input {
	in = withDefaults(in)
	if wb, err := wordBits(in.Arch); err == nil {
		_, _ = resolveLowmem(&in, wb) // unknown lowmem limit: fall back to MemTotal
	}
	return in
}

func clampInt64(v, lo, hi int64) int64 {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func ceilDiv(a, b int64) int64 {
	if b <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

// DefaultDirtyRatio is vm.dirty_ratio's default (mm/page-writeback.c), the share of the
// dirtyable memory a writer may dirty before it is throttled.
const DefaultDirtyRatio = 20

// UnreclaimableKB is the memory reclaim cannot free on the host whose /proc/meminfo is mi (kB,
// as the file reads), from the zones the reserve is kept in: without swap (or beyond the free
// swap) the swap-backed pages, AnonPages + Shmem (tmpfs, and the initramfs' rootfs), which
// reclaim does not even scan when it cannot swap (can_reclaim_anon_pages(), mm/vmscan.c);
// Unevictable (ramfs, mlock: never on a reclaimable LRU; Mlocked is subtracted once, since
// mlocked anonymous pages are counted in AnonPages too); the unreclaimable slab (SUnreclaim),
// kernel stacks and page tables. TCP's buffers are in none of these (skb pages are counted
// nowhere in meminfo): tcp_mem's max is added by the caller. On a HighMem kernel (lowmem
// basis) only the kernel's own objects count: user pages may live in HighMem. ok is false
// without MemTotal and AnonPages (unknown is not zero).
func UnreclaimableKB(mi map[string]int64, lowmemBasis bool) (kb int64, why string, ok bool) {
	get := func(k string) int64 { return max(mi[k], 0) }
	if _, have := mi["MemTotal"]; !have {
		return 0, "", false
	}
	if _, have := mi["AnonPages"]; !have {
		return 0, "", false
	}
	kernelKB := get("SUnreclaim") + get("KernelStack") + get("PageTables")
	if lowmemBasis {
		return kernelKB, fmt.Sprintf("SUnreclaim %d + KernelStack %d + PageTables %d kB (lowmem: user pages may be in HighMem)",
			get("SUnreclaim"), get("KernelStack"), get("PageTables")), true
	}
	swapBacked := get("AnonPages") + get("Shmem")
	pinnedSwap := max(swapBacked-get("SwapFree"), 0)
	unevictable := max(get("Unevictable")-get("Mlocked"), 0)
	kb = pinnedSwap + unevictable + kernelKB
	why = fmt.Sprintf("AnonPages %d + Shmem %d kB with %d kB of free swap: %d kB; Unevictable − Mlocked %d kB; SUnreclaim %d + KernelStack %d + PageTables %d kB",
		get("AnonPages"), get("Shmem"), get("SwapFree"), pinnedSwap, unevictable, get("SUnreclaim"), get("KernelStack"), get("PageTables"))
	return kb, why, true
}

// dirtyShare is how much of the reclaimable memory the kernel lets writers keep dirty, which
// reclaim cannot free until the disk has written it: vm.dirty_bytes when set, else
// vm.dirty_ratio (default 20 %) of the dirtyable memory (global_dirtyable_memory(),
// mm/page-writeback.c: free + file pages − totalreserve_pages, the high watermarks).
type dirtyShare struct {
	ratio int64 // percent, when bytesKB is 0
	kb    int64 // vm.dirty_bytes in kB, 0 = the ratio applies
}

func dirtyShareOf(cur currentMap) dirtyShare {
	if b, ok := cur.int("vm.dirty_bytes"); ok && b > 0 {
		return dirtyShare{kb: ceilDiv(b, 1024)}
	}
	if r, ok := cur.int("vm.dirty_ratio"); ok && r > 0 && r <= 100 {
		return dirtyShare{ratio: r}
	}
	return dirtyShare{ratio: DefaultDirtyRatio}
}

func (d dirtyShare) String() string {
	if d.kb > 0 {
		return fmt.Sprintf("vm.dirty_bytes %d kB", d.kb)
	}
	return fmt.Sprintf("vm.dirty_ratio %d %%", d.ratio)
}

// ReserveFitKB is the largest reserve (the high watermark, ReserveKB) a host can keep free
// when reclaimKB is what reclaim can free at all (the basis less UnreclaimableKB and TCP's cap
// tcp_mem max). kswapd keeps the reserve free by reclaiming the page cache, so the page
// cache that is left must itself hold at least the reserve in clean pages, beside the dirty
// pages writers may keep (dirtyShare, which waits for the disk): reserve + dirty + reserve ≤
// reclaimable. With a ratio the dirty part is ratio × (reclaimable − reserve), the dirtyable
// memory less totalreserve_pages, so reserve ≤ (1 − ratio) × reclaimable ÷ (2 − ratio).
// Beyond it kswapd cannot reach its high watermark from clean cache: it and every
// allocator's direct reclaim scan a cache of dirty pages and what the programs run from, and
// the allocation that finds nothing to free invokes the OOM killer (the lab's
// atomic-rx-refill guest, MemTotal 337360 kB: a 53504 kB reserve beside 242540 kB that
// reclaim could not free and TCP's 28344 kB cap killed its 200 MiB service, docs/plan.md).
func ReserveFitKB(reclaimKB int64, d dirtyShare) int64 {
	if reclaimKB <= 0 {
		return 0
	}
	if d.kb > 0 {
		return max((reclaimKB-d.kb)/2, 0)
	}
	return reclaimKB * (100 - d.ratio) / (200 - d.ratio)
}

// reclaimNeededKB inverts ReserveFitKB: the reclaimable memory a reserve of reserveKB needs.
func reclaimNeededKB(reserveKB int64, d dirtyShare) int64 {
	if d.kb > 0 {
		return 2*reserveKB + d.kb
	}
	return ceilDiv(reserveKB*(200-d.ratio), 100-d.ratio)
}

// reserveFit is what plan knows of a host's memory for its reserve (the input's meminfo):
// what reclaim cannot free, TCP's cap beside the reserve, and the largest reserve that fits.
type reserveFit struct {
	known         bool
	unreclaimKB   int64
	unreclaimWhy  string
	dirty         dirtyShare
	wantKB        int64 // the reserve the link asks for: min_free_kbytes + 2 × the burst gap
	coverKB       int64 // what atomic allocations need after kswapd wakes: burst + rings
	tcpRefPages   int64 // TCP's cap as plan would otherwise keep it
	tcpFloorPages int64 // the least TCP's cap goes to: 5/4 × what the streams hold
	tcpCapPages   int64 // TCP's cap beside the reserve (≤ tcpRefPages)
	reclaimKB     int64 // basis − unreclaimable − TCP's cap: what reclaim can free
	fitKB         int64 // ReserveFitKB(reclaimKB)
	minReserveKB  int64 // the least reserve that covers coverKB (gap at min/4: 12/7 × cover)
	defaultKB     int64 // the kernel's own reserve: default min_free_kbytes, gap min/4
}

// fitReserve weighs the reserve the link asks for against the host's memory (in.MemInfoKB):
// reclaim can free the basis less UnreclaimableKB and TCP's cap; the reserve must fit in it
// (ReserveFitKB). TCP's cap is memory plan can take back: it is lowered, from tcpRefPages
// (what plan would keep) down to at most tcpFloorPages (5/4 × what the streams hold filling
// the link, so they never meet pressure), as far as the wanted reserve needs. known is false
// when the meminfo lacks what the fit needs: the reserve then keeps the 1/20 share.
func fitReserve(in Input, cur currentMap, page, tcpRefPages, tcpFloorPages int64) reserveFit {
	basisBytes, basisName := budgetBasis(in)
	basisKB := basisBytes / 1024
	u, uwhy, ok := UnreclaimableKB(in.MemInfoKB, basisName == "lowmem")
	if !ok || basisKB <= 0 {
		return reserveFit{}
	}
	kver, _ := kernel.ParseKernelVersion(in.KernelVersion)
	f := reserveFit{known: true, unreclaimKB: u, unreclaimWhy: uwhy, dirty: dirtyShareOf(cur)}
	wantMin, _ := minFreeKBytesWithin(in, unboundedReserve)
	b := computeRxBurst(in)
	f.coverKB = ceilDiv(b.burstBytes+b.ringBytes, 1024)
	gap := wantMin / 4
	if !kver.Known || kver.AtLeast(4, 6, 0) {
		gap = max(gap, f.coverKB)
	}
	f.wantKB = wantMin + 2*gap
	f.minReserveKB = ceilDiv(f.coverKB*12, 7)
	def := KernelDefaultMinFreeKBytesForVersion(basisKB, kver)
	f.defaultKB = ReserveKB(def, 0, basisKB)
	f.tcpRefPages, f.tcpFloorPages = tcpRefPages, min(tcpFloorPages, tcpRefPages)
	room := basisKB - u
	tcpFitPages := (room - reclaimNeededKB(f.wantKB, f.dirty)) * 1024 / max(page, 1)
	f.tcpCapPages = clampInt64(tcpFitPages, f.tcpFloorPages, f.tcpRefPages)
	f.reclaimKB = room - f.tcpCapPages*page/1024
	f.fitKB = ReserveFitKB(f.reclaimKB, f.dirty)
	return f
}

// budget is the reserve budget the fit gives.
func (f reserveFit) budget(basisName string, basisKB, page int64) reserveBudget {
	return reserveBudget{kb: f.fitKB, why: fmt.Sprintf("what fits on %s %d kB beside %d kB reclaim cannot free and TCP's cap %d pages (%d kB), with %s of the rest dirty: reserve ≤ the clean cache left",
		basisName, basisKB, f.unreclaimKB, f.tcpCapPages, f.tcpCapPages*page/1024, f.dirty)}
}
