package main

// fix22a (round 17, g84): losses of its cases under a form that are limits of the form.
func init() {
	// 1961's and 1962's lowmem is told by /proc/meminfo's HighTotal and LowTotal; joined onto
	// one line with the whole mail, the meminfo's names and values are no longer paired (the
	// r17 binary read none of that line either), so the bare 2.4 failures are read without
	// the host's HighMem and classed as fragmentation. (1961 is checked under
	// HEADROOM_FORMS_ALL=1 only.)
	formsKnownLimits["flattened 1961-lkml-2001-kolev-2.4.5-dual-p3-1.2g-syn-flooding-port80-1-order-allocation-failed-x3201-per-min-lowfree-3192kb"] = limitFlattenedBlock
	formsKnownLimits["flattened 1962-lkml-2001-blanchard-2.4.8pre-ppc32-512m-lowmem-2.5g-highmem-1-order-failed-lowfree-2188kb-do-page-launder-profile"] = limitFlattenedBlock
}
