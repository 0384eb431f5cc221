package diagnose

import (
	"strconv"
	"strings"
	"testing"
)

// fix62c: /proc/slabinfo rows without the memory size whose unreclaimable caches hold 16 GiB
// or more are a warning, as SUnreclaim of that size is; reclaimable caches (dentries, inodes)
// of any size are not.
func TestFix62cSlabTableBulk(t *testing.T) {
	row := func(name string, objs, size, perSlab, pages, slabs int) string {
		return strings.Join([]string{name, strconv.Itoa(objs), strconv.Itoa(objs), strconv.Itoa(size), strconv.Itoa(perSlab), strconv.Itoa(pages),
			": tunables 54 27 8 : slabdata", strconv.Itoa(slabs), strconv.Itoa(slabs), "0"}, " ") + "\n"
	}
	// 19.8 million objects of 872 bytes are 16.1 GiB, 13 million of 296 bytes 3.6 GiB.
	big := row("foo_node_cache", 19800000, 872, 9, 2, 2200000) +
		row("bar_buf_t", 13000000, 296, 13, 1, 1000000) +
		row("kmalloc-64", 1000, 64, 64, 1, 16) +
		row("dentry", 5000, 192, 21, 1, 239)
	f := mustFire(t, fired(t, "slab-unreclaimable-growth", big), Warning)
	if !evidenceHas(f, "not created reclaimable", "foo_node_cache 16.1 GiB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// Counter-case: 20 GiB of dentries and inodes is cache the kernel shrinks itself.
	reclaimable := row("dentry", 100000000, 192, 21, 1, 4761905) +
		row("ext4_inode_cache", 5000000, 1080, 15, 4, 333334) +
		row("kmalloc-64", 1000, 64, 64, 1, 16)
	res := fired(t, "slab-unreclaimable-growth", reclaimable)
	for _, f := range res.Findings {
		if f.Severity >= Warning {
			t.Errorf("reclaimable caches judged unreclaimable: %+v", f)
		}
	}
}
