package main

// fix22b: losses of its own cases under a form that are limits of the form.
func init() {
	// 1963 flattened onto one line: the dump's buddy lines are read again, its zone lines
	// (free, min, lowmem_reserve) are not, so no zone is known to be above its watermarks and
	// alloc-fail-fragmented (a zone above min with no block of the order) cannot be shown;
	// alloc-fail-high-order-atomic, read from the header, stays.
	formsKnownLimits["flattened 1963-linux-mm-2009-lewandowski-2.6.31-i686-256mb-e100-ifconfig-order5-0x8020-dma-coherent-normal-free-3028-above-high-no-128k-blocks"] = limitFlattenedBlock
	// 1967 flattened: the slabinfo row and the counts after the shell line are told apart
	// from it only by their line breaks; on one line neither the row nor the bare numbers
	// pair with their commands.
	formsKnownLimits["flattened 1967-lkml-2005-kowalczyk-2.6.10-router-dst-cache-overflow-ip-dst-cache-153870-vs-2159-routes-rtstat-size-152k"] = limitFlattenedBlock
}
