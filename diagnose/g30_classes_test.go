package diagnose

import (
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
