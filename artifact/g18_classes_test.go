package artifact

import (
	"testing"
)

// The classes the held-out batch g18 found (corpus 653-672), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// 6.x's SLUB failure names the CPU that tried and its node before the node asked for
// (mm/slub.c slab_out_of_memory: "on CPU %u (of node %d) on node %d"); its lines may sit
// among another report's call trace (corpus 655). Before: no slab failure read.
func TestSlabFailureCPUWording(t *testing.T) {
	text := `[ 5021.100001] SLUB: Unable to allocate memory on CPU 3 (of node 1) on node -1, gfp=0xa20(GFP_ATOMIC)
[ 5021.100002]  __alloc_pages+0x2b1/0x330
[ 5021.100003]   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 1, min order: 0
[ 5021.100004]  allocate_slab+0x8c/0x4a0
[ 5021.100005]   node 1: slabs: 912, objs: 29184, free: 0
`
	s, err := ParseSlabFailure(text, "6.8.0")
	if err != nil {
		t.Fatalf("ParseSlabFailure: %v", err)
	}
	if s.Node != -1 || s.Mode != "0xa20(GFP_ATOMIC)" || s.Cache != "skbuff_head_cache" || s.ObjectSize != 232 || s.DefaultOrder != 1 {
		t.Errorf("read %+v, want node -1, mode 0xa20(GFP_ATOMIC), cache skbuff_head_cache (232, order 1)", *s)
	}
	// The older wordings still read.
	for _, h := range []string{
		"SLUB: Unable to allocate memory on node -1 (gfp=0x20)",
		"SLUB: Unable to allocate memory on node 0, gfp=0x820(GFP_ATOMIC)",
	} {
		if _, err := ParseSlabFailure(h+"\n", ""); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
}
