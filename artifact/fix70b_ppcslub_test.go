package artifact

import (
	"slices"
	"strings"
	"testing"
)

// fix70b (corpus 7206, linuxppc-dev 2024): a PowerMac G4's kswapd0 failure whose stack is
// printed in powerpc's "[sp] [ret] symbol+off/len" frames, then other CPUs' SLUB reports,
// then the failure's own Mem-Info. The frames continue the report, and the Mem-Info after
// the SLUB reports is the failure's (slab_out_of_memory prints none); the SLUB reports stay
// reports of their own.
const fix70bText = `kswapd0: page allocation failure: order:0, mode:0xcc0(GFP_KERNEL), nodemask=(null),cpuset=/,mems_allowed=0
CPU: 0 PID: 41 Comm: kswapd0 Not tainted 6.9.0-gentoo-PMacG4 #1
Hardware name: PowerMac3,6 7455 0x80010303 PowerMac
Call Trace:
[c1c65940] [c07926d4] dump_stack_lvl+0x80/0xac (unreliable)
[c1c65960] [c01b6234] warn_alloc+0x100/0x178
[c1c659c0] [c01b661c] __alloc_pages+0x370/0x8d0
[c1c65a80] [c01c4854] __read_swap_cache_async+0xc0/0x1cc
[c1c65ad0] [c01cb580] zswap_writeback_entry+0x50/0x154
SLUB: Unable to allocate memory on node -1, gfp=0x820(GFP_ATOMIC)
  cache: skbuff_small_head, object size: 480, buffer size: 544, default order: 1, min order: 0
  node 0: slabs: 15, objs: 225, free: 0
SLUB: Unable to allocate memory on node -1, gfp=0x820(GFP_ATOMIC)
  cache: kmalloc-rnd-15-2k, object size: 2048, buffer size: 6144, default order: 3, min order: 1
  kmalloc-rnd-15-2k debugging increased min order, use slab_debug=O to disable.
  node 0: slabs: 33, objs: 165, free: 0
Mem-Info:
active_anon:340071 inactive_anon:139179 isolated_anon:0
 active_file:8297 inactive_file:2506 isolated_file:0
 unevictable:4 dirty:1 writeback:18
 slab_reclaimable:1377 slab_unreclaimable:7426
 mapped:6804 shmem:112 pagetables:946
 free:1141 free_pcp:7 free_cma:0
DMA free:56kB boost:7756kB min:11208kB low:12068kB high:12928kB reserved_highatomic:0KB active_anon:635128kB inactive_anon:58260kB active_file:268kB inactive_file:3000kB unevictable:0kB writepending:324kB present:786432kB managed:746644kB mlocked:0kB bounce:0kB free_pcp:28kB local_pcp:28kB free_cma:0kB
lowmem_reserve[]: 0 0 1280 1280
DMA: 0*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 0kB
524288 pages RAM
327680 pages HighMem/MovableOnly
`

func TestPPCFramesAndSlubReportsInsideAFailure(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		zones      bool
	}{
		{"as printed", fix70bText, true},
		// The counter-case: the same SLUB reports with no dump after them leave the failure
		// without zones, and nothing is taken from past them.
		{"no dump", fix70bText[:strings.Index(fix70bText, "Mem-Info:")], false},
	} {
		tl := ParseString(tc.text, "t", Options{})
		af := one(t, tl, KindAllocFailure).(*allocArtifact)
		if !slices.Contains(af.CallTrace, "zswap_writeback_entry") || !slices.Contains(af.CallTrace, "warn_alloc") {
			t.Errorf("%s: call trace %v, want the powerpc frames", tc.name, af.CallTrace)
		}
		if got := len(af.Zones) == 1 && af.Zones[0].Zone == "DMA" && af.Zones[0].FreeKB == 56 && af.Zones[0].MinKB == 11208; got != tc.zones {
			t.Errorf("%s: zones %+v, want DMA free 56 min 11208: %v", tc.name, af.Zones, tc.zones)
		}
		if n := len(artifactsOf(tl, KindSlabFailure)); n != 2 {
			t.Errorf("%s: %d SLUB reports, want 2", tc.name, n)
		}
	}
}
