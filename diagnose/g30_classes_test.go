package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// A slabtop table without the memory size: the slab allocator's own caches (kmem_cache,
// kmem_cache_node: one object per cache created, no shrinker) count toward the
// unreclaimable slab beside kmalloc; dentries and inodes (reclaimable) do not.
func TestSlabTableAllocatorCachesUnreclaimable(t *testing.T) {
	table := func(rows ...model.SlabCache) *model.Timeline {
		tl := timeline(1)
		tl.SlabTables = []model.SlabTable{{Tool: "slabtop", Source: "paste", Caches: rows}}
		return tl
	}
	c := func(name string, kb int64) model.SlabCache { return model.SlabCache{Name: name, SizeKB: kb, Objs: kb} }
	// 800 MiB kmem_cache + 300 MiB kmem_cache_node + 200 MiB kmalloc: 1.3 GiB unreclaimable,
	// kmalloc alone below the 1 GiB floor.
	f := mustFire(t, run(t, "slab-unreclaimable-growth", table(
		c("kmem_cache", 800<<10), c("kmalloc-64", 200<<10), c("kmem_cache_node", 300<<10),
		c("dentry", 20<<10), c("ext4_inode_cache", 20<<10))), Info)
	if !evidenceHas(f, "slab-allocator", "kmem_cache") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// Counter-case: the same sizes in reclaimable caches (dentry, inode) are not unreclaimable.
	mustNotCheck(t, run(t, "slab-unreclaimable-growth", table(
		c("dentry", 800<<10), c("kmalloc-64", 200<<10), c("ext4_inode_cache", 300<<10),
		c("radix_tree_node", 20<<10), c("buffer_head", 20<<10))), "memory size is unknown")
	// Counter-case: small allocator caches (a healthy host: a few hundred caches) stay below.
	mustNotCheck(t, run(t, "slab-unreclaimable-growth", table(
		c("kmem_cache", 400), c("kmalloc-64", 200<<10), c("kmem_cache_node", 300),
		c("dentry", 20<<10), c("task_struct", 20<<10))), "memory size is unknown")
	for name, want := range map[string]bool{"kmem_cache": true, "kmem_cache_node": true, "KMEM_CACHE": true,
		"kmem_cache_alloc": false, "dentry": false, "kmalloc-64": false} {
		if got := kernel.SlabAllocatorCache(name); got != want {
			t.Errorf("SlabAllocatorCache(%q) = %v, want %v", name, got, want)
		}
	}
}

// A buddyinfo with gigabytes free in Normal and no block above order 6, the NICs' needs
// unknown (corpus 899): the free memory is scattered (the buddy allocator merges free
// buddies, so no 512 KiB block among 3 GiB free is fragmentation), a warning though order 3
// is still served. Counter-cases: the same zone with a share of order-7+ blocks left; little free
// memory; a known MTU 1500 (order 0 is all the receive path needs).
func TestBuddyScatteredFreeMemory(t *testing.T) {
	tl := func(z kernel.BuddyZone, mtu int64) *model.Timeline {
		tl := memTextTimeline()
		if mtu > 0 {
			tl.Host.NICs = []kernel.NIC{{Name: "eth0", MTU: mtu, SpeedMbps: -1}}
		}
		tl.Samples = []model.Sample{{Source: "lines 1-3", Buddy: []kernel.BuddyZone{buddy("DMA", 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 3), z}}}
		return tl
	}
	scattered := buddy("Normal", 143135, 6057, 150803, 4005, 330, 62, 1, 0, 0, 0, 0)
	f := mustFire(t, run(t, "memory-fragmented", tl(scattered, 0)), Warning)
	if !strings.Contains(f.Title, "no block larger than order 6") || !evidenceHas(f, "Normal free blocks by order", "6:1 7:0") {
		t.Errorf("finding: %s %+v", f.Title, f.Evidence)
	}
	// fix68e: a share of the free memory in blocks of 512 KiB or more (400 order-7 blocks,
	// 200 MiB of 3 GiB) is no scatter; two such blocks (1 MiB of 3 GiB) no longer pass.
	mustBeHealthy(t, run(t, "memory-fragmented", tl(buddy("Normal", 143135, 6057, 150803, 4005, 330, 62, 1, 400, 0, 0, 0), 0)))
	mustFire(t, run(t, "memory-fragmented", tl(buddy("Normal", 143135, 6057, 150803, 4005, 330, 62, 1, 2, 0, 0, 0), 0)), Warning)
	mustBeHealthy(t, run(t, "memory-fragmented", tl(buddy("Normal", 14313, 6057, 15080, 4005, 330, 62, 1, 0, 0, 0, 0), 0)))
	mustBeHealthy(t, run(t, "memory-fragmented", tl(scattered, 1500)))
}
