package diagnose

// fix56c: a page allocation failure printed while SLUB grows a slab (new_slab/allocate_slab
// in its trace, "SLUB: Unable to allocate memory on node" after it, mm/slub.c
// slab_out_of_memory) is one event seen twice. When the failure's own Mem-Info shows the
// zones (Facts.ZoneState), that dump decides why the page could not be had (the reserve
// under min, or no block of the order): the page allocator's failure is the root and the
// cache that could not grow is its consequence. Without the zones the cache's growth stays
// the request told first (edges.go): nothing but the order says why the page was refused.

func init() {
	for _, id := range allocFailIDs {
		Explains(Edge{Cause: id, Effect: "slab-alloc-failure", Holds: failureHasZones,
			Link: "the page allocator could not give the cache its new slab: the zones at the failure say why"})
	}
}

// failureHasZones holds when the allocation failure read its own zones' state.
func failureHasZones(cause, effect *Finding) (string, bool) {
	if cause.Facts.ZoneState {
		return "the failure's Mem-Info shows the zones", true
	}
	return "", false
}

// slabGrowthUndecided holds the edge from the slab cache to the page allocation failure only
// when the failure has no zone state of its own (failureHasZones is the other way round).
//
// Nor when a failure's trace is no slab growth (fix62d, corpus 5145: r8169's receive refill
// failed for a page fragment, and netconsole's skb then could not get a new slab): the cache
// explains only its own failures, and the page allocator's refusal stays the story's root.
func slabGrowthUndecided(cause, effect *Finding) (string, bool) {
	if effect.Facts.ZoneState || effect.Facts.OutsideSlab {
		return "", false
	}
	return "", true
}
