package diagnose

import "headroom/model"

// alloc-fail-skb-drops: packets the kernel dropped because a memory allocation failed, by the
// kernel's own reason (doctor --trace, 5.17+): NOMEM (an skb or its data could not be
// allocated: a driver's RX refill, a clone, a copy, include/net/dropreason-core.h) and
// PFMEMALLOC (a packet allocated from the emergency reserves reached a socket that may not
// use them, sk_filter_trim_cap → SKB_DROP_REASON_PFMEMALLOC, net/core/filter.c). The kernel
// log's "page allocation failure" reports are rate-limited and __GFP_NOWARN silences most
// of the network's (napi_alloc_skb, page_pool), so these counts are the allocation-failure
// family's evidence on a live host when the log says nothing.
func init() {
	Register(Rule{
		ID:     "alloc-fail-skb-drops",
		Title:  "packets dropped because an allocation failed (the kernel's reasons NOMEM, PFMEMALLOC)",
		Family: FamilyMemory,
		Check: withTraceDrops(func(*model.Timeline) Result {
			return NotChecked("needs a traced window (doctor --trace, as root, Linux 5.17+): the kernel's drop reasons NOMEM and PFMEMALLOC")
		}, traceDrops{
			reasons: []string{"NOMEM", "PFMEMALLOC"}, what: "an allocation failed, or used the emergency reserves",
			sev:   Warning,
			title: "packets dropped because memory could not be allocated (the kernel's reasons NOMEM, PFMEMALLOC)",
			explanation: "The kernel could not allocate an skb or its data for these packets (NOMEM: an atomic allocation in " +
				"a driver's RX refill, a clone or a copy failed), or a packet allocated from the emergency reserves " +
				"(PFMEMALLOC) reached a socket that may not use them: the zones were at their min watermark. Most of " +
				"these allocations pass __GFP_NOWARN, so the kernel log often says nothing: the free-memory reserve " +
				"(vm.min_free_kbytes, watermark_scale_factor) and what holds the memory are what to look at.",
		}),
	})
}
