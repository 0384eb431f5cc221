package diagnose

import (
	"fmt"
	"testing"
)

// g286's 6502 and g262's 5948: the watermark check takes off free what the request may not
// count (__zone_watermark_unusable_free): a block of its order less one page, the free CMA
// pages for a request that is not movable, and the highatomic reserve for one with no right
// to it (reclaiming, no __GFP_HIGH). A zone above min on its face fails the request so.
func TestFix68dUnusableFreeInTheWatermarkCheck(t *testing.T) {
	dump := func(mode string, order int, freeKB, minKB, highAtomicKB, cmaKB int64) string {
		return fmt.Sprintf("[  141.863780] kworker/u8:4: page allocation failure: order:%d, mode:%s, nodemask=(null),cpuset=/,mems_allowed=0\n", order, mode) +
			"[  141.863810] CPU: 3 PID: 1444 Comm: kworker/u8:4 Not tainted 6.1.0-18-amd64 #1 Debian 6.1.76-1\n" +
			"[  141.864089] Mem-Info:\n" +
			fmt.Sprintf("[  141.864127] Node 0 Normal free:%dkB boost:0kB min:%dkB low:%dkB high:%dkB reserved_highatomic:%dKB active_anon:420kB inactive_anon:37496kB present:8388608kB managed:8000000kB free_cma:%dkB\n",
				freeKB, minKB, minKB*5/4, minKB*3/2, highAtomicKB, cmaKB) +
			"[  141.864129] lowmem_reserve[]: 0 0 0 0\n" +
			"[  141.864135] Node 0 Normal: 1483*4kB (UMEH) 586*8kB (UMEH) 373*16kB (UMEH) 167*32kB (UMEH) 19*64kB (UMH) 1*128kB (H) 3*256kB (H) 2*512kB (C) 0*1024kB 0*2048kB 8*4096kB (C) = 40648kB\n"
	}
	const nofs = "0x40c40(GFP_NOFS|__GFP_COMP)"
	// CMA: 40456 - 33316 - 252 = 6888 kB, at or below min 6904 kB.
	d, _ := rootOf(t, dump(nofs, 6, 40456, 6904, 0, 33316))
	if f := findingOf(d, "alloc-fail-cma"); f == nil || !evidenceHas(*f, "zone Normal", "free_cma 33316 kB (not movable: no CMA)), 6888 kB, at or below its floor 6904 kB") {
		t.Errorf("CMA share: %+v", f)
	}
	// A movable request may use CMA: the zone passes, no CMA finding.
	d, _ = rootOf(t, dump("0x100cca(GFP_HIGHUSER_MOVABLE)", 6, 40456, 6904, 0, 33316))
	if f := findingOf(d, "alloc-fail-cma"); f != nil {
		t.Errorf("movable request: %+v", f)
	}
	// The highatomic reserve: 97660 - 30720 - 124 = 66816 kB, below min 95256 kB.
	d, _ = rootOf(t, dump(nofs, 5, 97660, 95256, 30720, 0))
	if f := findingOf(d, "alloc-fail-reserve"); f == nil || !evidenceHas(*f, "zone Normal", "highatomic reserve 30720 kB), 66816 kB, at or below its floor 95256 kB") {
		t.Errorf("highatomic reserve: %+v", f)
	}
	// An atomic request has a right to the reserve (ALLOC_NON_BLOCK on 6.1; ALLOC_HARDER
	// before 6.3): it is not taken off, and the zone is above the request's floor.
	d, _ = rootOf(t, dump("0x820(GFP_ATOMIC)", 5, 97660, 95256, 30720, 0))
	if f := findingOf(d, "alloc-fail-reserve"); f != nil && evidenceHas(*f, "zone Normal", "highatomic reserve") {
		t.Errorf("atomic request counted without the reserve: %+v", f)
	}
	// Without a reserve, the same zone is above the floor: no reserve finding by the floor.
	d, _ = rootOf(t, dump(nofs, 5, 97660, 95256, 0, 0))
	if f := findingOf(d, "alloc-fail-reserve"); f != nil {
		t.Errorf("no reserve: %+v", f)
	}
}
