package kernel

import "math"

// DefaultLowmemReserveRatio is vm.lowmem_reserve_ratio's default for a zone that has one
// (mm/page_alloc.c sysctl_lowmem_reserve_ratio: 256 for ZONE_DMA and ZONE_DMA32, 32 for
// ZONE_NORMAL, which only has an upper zone to protect itself from on 32-bit kernels with
// HighMem), and 0 for any other zone name.
func DefaultLowmemReserveRatio(zone string) int64 {
	switch zone {
	case "DMA", "DMA32":
		return 256
	case "Normal":
		return 32
	}
	return 0
}

// PageKBFromLowmemReserve infers the page size in kB from a zone's lowmem_reserve[] as a
// show_mem dump prints it (pages) and the size in kB of the populated zone right above it
// (managed, or present on kernels before 3.8 that print no managed). The kernel sets
// lower->lowmem_reserve[j] to the pages of the zones above lower up to j divided by
// lower's ratio (mm/page_alloc.c setup_per_zone_lowmem_reserve, the same sum in every era:
// present_pages before 3.8, managed_pages since), so the smallest non-zero entry is the
// next populated zone's pages over the ratio: the zone's kB over (page size × ratio). A
// dump without buddy lines prints everything else in kB, and this is its page size. Only
// the default ratio is tried: a tuned vm.lowmem_reserve_ratio matches no page size (within
// 1%, beyond the integer division) and nothing is returned.
func PageKBFromLowmemReserve(lower string, reserve []int64, upperKB int64) (int64, bool) {
	ratio := DefaultLowmemReserveRatio(lower)
	var r int64
	for _, v := range reserve {
		if v > 0 && (r == 0 || v < r) {
			r = v
		}
	}
	if ratio == 0 || r < 16 || upperKB <= 0 {
		// A reserve under 16 pages is too coarse to tell the page sizes apart.
		return 0, false
	}
	for _, p := range []int64{4, 8, 16, 64} {
		want := float64(upperKB) / float64(p*ratio)
		if math.Abs(want-float64(r)) <= 1+0.01*want {
			return p, true
		}
	}
	return 0, false
}
