package kernel

// MemInfoSUnreclaimKB is the unreclaimable slab of a /proc/meminfo dump in kB: its
// SUnreclaim line, else Slab minus SReclaimable. Since 2.6.19 meminfo_proc_show
// (fs/proc/meminfo.c) prints "Slab:" as the sum of the two counters it prints next
// (sreclaimable + sunreclaim, NR_SLAB_RECLAIMABLE_B and NR_SLAB_UNRECLAIMABLE_B), so a paste
// that kept Slab and SReclaimable (a grep, an excerpt cut before SUnreclaim) still tells it.
// derived reports the subtraction; ok is false without SUnreclaim and without both others,
// and for a pair that cannot be one dump's (SReclaimable above Slab). A kernel before 2.6.19
// prints Slab alone: no split, not known.
func MemInfoSUnreclaimKB(c Counters) (kb int64, derived, ok bool) {
	if v, ok := c.Get("SUnreclaim"); ok {
		return v, false, true
	}
	slab, ok1 := c.Get("Slab")
	rec, ok2 := c.Get("SReclaimable")
	if !ok1 || !ok2 || rec > slab {
		return 0, false, false
	}
	return slab - rec, true, true
}
