package diagnose

import (
	"strings"
	"testing"
)

// fix56c (round 51, g221): the page allocator's failure with its own zones leads a SLUB
// failure it caused (fix56c_slabroot.go); a series of buddy lines read as buddyinfo tells
// fragmentation (artifact/fix56c_buddyseries.go).

const fix56cHeader = `[399719.313562] aoe_tx: page allocation failure. order:1, mode:0x4020
[399719.313599] Pid: 3246, comm: aoe_tx Not tainted 2.6.38-rc6-hw+ #2
[399719.313628] Call Trace:
[399719.313661]  [<ffffffff810d10af>] ? __alloc_pages_nodemask+0x57f/0x810
[399719.313695]  [<ffffffff811062ad>] ? new_slab+0x20d/0x220
[399719.313723]  [<ffffffff8110653b>] ? __slab_alloc+0x27b/0x2c0
[399719.313783]  [<ffffffff81106b0b>] ? __kmalloc+0x16b/0x1a0
[399719.313811]  [<ffffffff815cbcd9>] ? pskb_expand_head+0xa9/0x2b0
`

const fix56cMemInfo = `[399719.314213] Mem-Info:
[399719.314621] active_anon:11748 inactive_anon:8062 isolated_anon:0
[399719.314622]  active_file:1382798 inactive_file:1682148 isolated_file:0
[399719.314623]  unevictable:0 dirty:298209 writeback:1326 unstable:0
[399719.314624]  free:38054 slab_reclaimable:943251 slab_unreclaimable:31133
[399719.314626]  mapped:1752 shmem:716 pagetables:1480 bounce:0
[399719.314959] DMA32 free:119836kB min:3016kB low:3768kB high:4524kB active_anon:1512kB inactive_anon:1456kB active_file:50784kB inactive_file:542556kB unevictable:0kB present:3067424kB
[399719.315119] lowmem_reserve[]: 0 0 13130 13130
[399719.315160] Normal free:16504kB min:13224kB low:16528kB high:19836kB active_anon:45480kB inactive_anon:30792kB active_file:5480408kB inactive_file:6186036kB unevictable:0kB present:13445120kB
[399719.315323] lowmem_reserve[]: 0 0 0 0
[399719.315432] DMA32: 29825*4kB 0*8kB 28*16kB 5*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 119908kB
[399719.315720] Normal: 3755*4kB 1*8kB 0*16kB 10*32kB 8*64kB 4*128kB 1*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 16628kB
[399719.315869] Free swap  = 15630756kB
[399719.315892] Total swap = 15631208kB
[399719.316005] 4194288 pages RAM
`

const fix56cSlub = `[399719.316005] SLUB: Unable to allocate memory on node -1 (gfp=0x20)
[399719.316005]   cache: kmalloc-8192, object size: 8192, buffer size: 8192, default order: 3, min order: 1
[399719.316005]   node 0: slabs: 11, objs: 44, free: 0
`

func TestFix56cPageFailureWithZonesLeadsSlabFailure(t *testing.T) {
	d, root := rootOf(t, fix56cHeader+fix56cMemInfo+fix56cSlub)
	if findingOf(d, "slab-alloc-failure") == nil {
		t.Fatalf("no slab-alloc-failure: %v", d.Findings)
	}
	if !strings.HasPrefix(root, "alloc-fail-") {
		t.Errorf("root %q, want the page allocator's failure", root)
	}
}

// Counter-cases: without the failure's zones the cache's growth stays the root, and a SLUB
// failure alone is slab-alloc-failure.
func TestFix56cSlabFailureStaysRootWithoutZones(t *testing.T) {
	for _, text := range []string{fix56cHeader + fix56cSlub, fix56cSlub} {
		if _, root := rootOf(t, text); root != "slab-alloc-failure" {
			t.Errorf("%q...: root %q, want slab-alloc-failure", text[:60], root)
		}
	}
}

const fix56cFailure = `[ 8513.740326] swapper/3: page allocation failure: order:2, mode:0xc020
[ 8513.740330] CPU: 3 PID: 0 Comm: swapper/3 Not tainted 4.3.0 #1
`

func TestFix56cBuddySeriesTellsFragmentation(t *testing.T) {
	series := `[ 1166.110205] Node 0 Normal: 4801*4kB (UE) 1461*8kB (UMEC) 290*16kB (UMEC) 715*32kB (UM) 67*64kB (UME) 7*128kB (UMEC) 3*256kB (MEC) 6*512kB (UMEC) 3*1024kB (MEC) 10*2048kB (UME) 219*4096kB (M) = 988012kB
[ 1320.848763] MemAlloc: khugepaged(32) gfp=0xcf52ca order=9 delay=4574
[30085.744771] Node 0 Normal: 212267*4kB (UME) 10914*8kB (UE) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 936380kB
`
	d, _ := rootOf(t, series+"\n"+fix56cFailure)
	if f := findingOf(d, "memory-fragmented"); f == nil {
		t.Errorf("memory-fragmented not reported: %v", d.Findings)
	}
	// Counter-case: the same series with order-2 blocks to spare at every sample.
	healthy := `[ 1166.110205] Node 0 Normal: 4801*4kB (UE) 1461*8kB (UMEC) 290*16kB (UMEC) 715*32kB (UM) 67*64kB (UME) 7*128kB (UMEC) 3*256kB (MEC) 6*512kB (UMEC) 3*1024kB (MEC) 10*2048kB (UME) 219*4096kB (M) = 988012kB
[ 1178.250751] Node 0 Normal: 4917*4kB (UME) 2622*8kB (UMEC) 530*16kB (UMC) 713*32kB (UME) 68*64kB (UM) 8*128kB (UMC) 5*256kB (MEC) 5*512kB (UMC) 8*1024kB (MEC) 4*2048kB (UME) 207*4096kB (M) = 945412kB
`
	d, _ = rootOf(t, healthy+"\n"+fix56cFailure)
	if f := findingOf(d, "memory-fragmented"); f != nil {
		t.Errorf("memory-fragmented on plentiful order-2 blocks: %s", f.Title)
	}
}
