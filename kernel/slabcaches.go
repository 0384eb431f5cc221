package kernel

import "strings"

// SlabReclaimable reports whether a slab cache is one the kernel counts as reclaimable
// (SReclaimable in /proc/meminfo): created with SLAB_RECLAIM_ACCOUNT, whose objects a
// shrinker frees under memory pressure. Every other cache is unreclaimable (SUnreclaim), the
// default of kmem_cache_create: a module's cache (nDPI's ndpi_ctinfo, a driver's per-flow
// state) is freed only by the code that allocated it.
//
// The reclaimable caches of mainline: dentry (fs/dcache.c), inode_cache (fs/inode.c) and
// every filesystem's inode cache (ext4_inode_cache, xfs_inode, nfs_inode_cache,
// proc_inode_cache, sock_inode_cache, shmem_inode_cache, ...: named "*inode*"), buffer_head
// (fs/buffer.c), radix_tree_node (lib/radix-tree.c), mbcache (fs/mbcache.c),
// ext4_extent_status (fs/ext4/extents_status.c), jbd2's journal_head and revoke caches
// (SLAB_TEMPORARY, the same flag), xfs_ili, dquot (fs/quota/dquot.c), and kmalloc's
// reclaimable copies kmalloc-rcl-N (4.20+, __GFP_RECLAIMABLE).
func SlabReclaimable(name string) bool {
	n := strings.ToLower(name)
	if i := strings.IndexByte(n, '('); i > 0 { // a memcg copy, "dentry(1234:pod)"
		n = n[:i]
	}
	switch n {
	case "dentry", "buffer_head", "radix_tree_node", "mbcache", "ext4_extent_status", "xfs_ili", "dquot",
		"jbd2_journal_head", "jbd2_revoke_record_s", "jbd2_revoke_table_s":
		return true
	}
	return strings.Contains(n, "inode") || strings.HasPrefix(n, "kmalloc-rcl-")
}

// SlabAllocatorCache reports whether a cache is one of the slab allocator's own bookkeeping
// caches: kmem_cache (one object per cache created, mm/slab_common.c create_cache) and SLUB's
// kmem_cache_node (one per cache per node, mm/slub.c init_kmem_cache_nodes), SLAB's
// "kmem_cache" and "kmalloc_node" equivalents alike. They are created in
// kmem_cache_init (mm/slub.c, create_boot_cache) without SLAB_RECLAIM_ACCOUNT and have no
// shrinker: their objects go only when the cache they describe is destroyed, so millions of
// them are caches created and never destroyed (per-memcg caches of deleted cgroups, 4.x).
func SlabAllocatorCache(name string) bool {
	n := strings.ToLower(name)
	return n == "kmem_cache" || n == "kmem_cache_node"
}
