package plan

import (
	"fmt"
	"math"
	"math/bits"
	"time"

	"headroom/kernel"
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
	b := computeRxBurst(in)
	needBytes := (b.burstBytes + b.ringBytes) * 8 / 7
	needKB := ceilDiv(needBytes, 1024)

	basisBytes, basisName := budgetBasis(in)
	basisKB := basisBytes / 1024
	kver, _ := kernel.ParseKernelVersion(in.KernelVersion)
	defKB := KernelDefaultMinFreeKBytesForVersion(basisKB, kver)
	capKB, capWhy := minFreeCapKB(basisKB, kver)

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
		rings = "rings " + FormatBytes(b.ringBytes)
	}
	why = fmt.Sprintf("(%s × %v kswapd reaction = %.0f frames × %d B buffers = %s; + %s) × 8/7 = %d kB%s",
		FormatBitsPerSec(b.lineBitsPerSec), b.reaction, b.pps*b.reaction.Seconds(), b.bufferBytes,
		FormatBytes(b.burstBytes), rings, needKB, bound)
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
	kver, _ := kernel.ParseKernelVersion(in.KernelVersion)
	if kver.Known && !kver.AtLeast(4, 6, 0) {
		return 0, "vm.watermark_scale_factor exists from 4.6", false
	}
	b := computeRxBurst(in)
	basisBytes, basisName := budgetBasis(in)
	if basisBytes <= 0 {
		return 0, "memory unknown", false
	}
	basisKB := basisBytes / 1024
	minKB, _ := MinFreeKBytes(in)
	gapKB := ceilDiv(b.burstBytes+b.ringBytes, 1024)
	leftKB := (basisKB/ReserveShareDenominator - minKB) / 2
	bound := ""
	if gapKB > leftKB {
		gapKB = max(leftKB, 0)
		bound = fmt.Sprintf("; capped: min_free_kbytes %d kB + 2 × gap must stay within 1/%d of %s (%d kB), which leaves a gap of %d kB",
			minKB, ReserveShareDenominator, basisName, basisKB/ReserveShareDenominator, gapKB)
	}
	// Rounded up when the whole burst fits (the gap must hold it), down when the budget
	// caps it (the reserve must stay within it).
	factor, op := ceilDiv(gapKB*10000, max(basisKB, 1)), "⌈%d kB × 10000 ÷ %s %s⌉"
	if bound != "" {
		factor, op = gapKB*10000/max(basisKB, 1), "⌊%d kB × 10000 ÷ %s %s⌋"
	}
	factor = clampInt64(factor, 1, 1000)
	why = fmt.Sprintf("low−min gap ≥ one burst %s: "+op+" = %d (default 10)%s",
		FormatBytes(b.burstBytes+b.ringBytes), gapKB, FormatBytes(basisBytes), basisName, factor, bound)
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
func minFreeCapKB(basisKB int64, kver kernel.KernelVersion) (int64, string) {
	budget := basisKB / ReserveShareDenominator
	if !kver.Known || kver.AtLeast(4, 6, 0) {
		return budget / 2, fmt.Sprintf("half of the reserve budget 1/%d of the memory, %d kB: the other half is the watermark gaps", ReserveShareDenominator, budget)
	}
	return budget * 2 / 3, fmt.Sprintf("2/3 of the reserve budget 1/%d of the memory, %d kB: the watermarks add min/4 twice", ReserveShareDenominator, budget)
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
