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
