package artifact

import "headroom/kernel"

// nodeLinePageKB is the page size of a show_mem dump that prints no buddy line and no
// lowmem_reserve[] pair that gives one (a dump cut after its first zone line, corpus 4360:
// an OpenWrt logread Mem-Info ending mid Normal line), from the dump's own two prints of the
// same counters: 4.8+ show_free_areas (mm/page_alloc.c, later mm/show_mem.c) prints the
// global "active_anon:636 inactive_anon:18 ..." line in pages (global_node_page_state) and
// then each node's "Node 0 active_anon:2544kB ..." line in kB (K(node_page_state(pgdat,
// ...)), pages << (PAGE_SHIFT-10)), a moment later. The nodes' kB summed over every node
// printed, divided by the global pages, is the page size when at least three counters give
// the same power of two of 4 kB or more and they are more than two thirds of the counters
// printed both ways and non-zero: a counter may move between the two lines (corpus 4360's
// active_file, 8 pages then 44 kB), but a node left out of the paste, or lines of two dumps,
// leave no such majority, and then there is no size (0), never a guess.
func nodeLinePageKB(memInfo *kernel.Counters, nodes []NodeCounters) int64 {
	if memInfo == nil || len(nodes) == 0 {
		return 0
	}
	votes := map[int64]int{}
	pairs := 0
	for _, key := range nodePageKeys {
		pages, ok := memInfo.Get(key)
		if !ok {
			continue
		}
		var kb int64
		for _, n := range nodes {
			v, ok := n.Fields.Get(key + "_kb")
			if !ok {
				kb = -1
				break
			}
			kb += v
		}
		if kb < 0 || (pages == 0 && kb == 0) {
			continue
		}
		pairs++
		if pages > 0 && kb%pages == 0 {
			if p := kb / pages; p >= 4 && p&(p-1) == 0 {
				votes[p]++
			}
		}
	}
	for p, n := range votes {
		if n >= 3 && 3*n > 2*pairs {
			return p
		}
	}
	return 0
}

// nodePageKeys are the counters show_free_areas prints on both its global line (pages) and
// its per-node lines (kB) under the same name.
var nodePageKeys = []string{"active_anon", "inactive_anon", "active_file", "inactive_file",
	"unevictable", "mapped", "dirty", "writeback", "shmem"}
