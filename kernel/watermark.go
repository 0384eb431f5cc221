package kernel

// WatermarkFloor is how far a request may take a zone's free pages: min lowered as
// __zone_watermark_ok (mm/page_alloc.c) lowers it for the request's allocation flags.
// __GFP_HIGH (ALLOC_HIGH, ALLOC_MIN_RESERVE since 6.3; part of GFP_ATOMIC in every era) takes
// off half; a request that cannot direct-reclaim takes off a further quarter of the rest
// (ALLOC_HARDER until 6.2; 6.3 renamed it ALLOC_NON_BLOCK and grants it only together
// with __GFP_HIGH, the series of commit eb2e2b425c69 that GFPMayUseHighAtomic cites). So
// GFP_ATOMIC may take a zone down to 3/8 of min in every era. An unknown release (v.Known
// false) is read as one before 6.3, where atomic alone is enough.
//
// This is the one home of that floor (issue 31): diagnose judges an allocation failure's
// zones against it, and plan sizes min_free_kbytes from what it leaves (AtomicUsable).
func WatermarkFloor(min int64, high, atomic bool, v KernelVersion) int64 {
	floor := min
	if high {
		floor -= floor / 2
	}
	if atomic && (high || !v.Known || !v.AtLeast(6, 3, 0)) {
		floor -= floor / 4
	}
	return floor
}

// atomicUsableEighths is AtomicUsable's share of min in eighths: the low watermark is at
// least min + min/4 (__setup_per_zone_wmarks: the gap is max(min/4, managed ×
// watermark_scale_factor / 10000) since 4.6, min/4 before), kswapd wakes below it, and
// GFP_ATOMIC may go on down to WatermarkFloor = 3/8 min: 5/4 − 3/8 = 7/8. The kernel test
// holds the two to each other.
const atomicUsableEighths = 7

// AtomicUsable is what GFP_ATOMIC allocations (the NIC receive refill in softirq) can take
// from a zone whose min watermark is min, between kswapd's wake-up and their floor: 7/8 of
// min, whatever the unit (pages, kB, bytes).
func AtomicUsable(min int64) int64 { return min * atomicUsableEighths / 8 }

// MinForAtomic is the min watermark that leaves need to GFP_ATOMIC after kswapd wakes, the
// inverse of AtomicUsable: need × 8/7.
func MinForAtomic(need int64) int64 { return need * 8 / atomicUsableEighths }
