package kernel

import "testing"

func TestSlabReclaimable(t *testing.T) {
	for name, want := range map[string]bool{
		"dentry": true, "ext4_inode_cache": true, "xfs_inode": true, "sock_inode_cache": true, "buffer_head": true,
		"radix_tree_node": true, "kmalloc-rcl-64": true, "dentry(1793:pod1)": true,
		"ndpi_ctinfo": false, "kmalloc-2048": false, "nf_conntrack": false, "skbuff_head_cache": false, "TCP": false,
	} {
		if got := SlabReclaimable(name); got != want {
			t.Errorf("%s: %v, want %v", name, got, want)
		}
	}
}
