package diagnose

import "headroom/model"

// alloc-fail-skb-drops: packets the kernel dropped because a memory allocation failed, by the
// kernel's own reason (doctor --trace, 5.17+): NOMEM (an allocation for a packet already
// received failed where it was needed; in 6.1.192 ping_rcv's GFP_ATOMIC skb_clone,
// net/ipv4/ping.c, icmp_redirect's pull, net/ipv4/icmp.c, pskb_may_pull_reason's
// __pskb_pull_tail, include/linux/skbuff.h, from br_dev_xmit and the IP tunnels, and
// tun_net_xmit's pskb_trim) and PFMEMALLOC (6.17+, commit a6f190630d07: a packet allocated
// from the emergency reserves reached a socket that may not use them, sk_filter_trim_cap,
// net/core/filter.c; before 6.17 the same drop is counted as TcpExt PFMemallocDrop and freed
// as SOCKET_FILTER). A driver's failed RX refill frees no packet (virtio_net's try_fill_recv
// just leaves the ring short), so it raises neither. The kernel log's "page allocation
// failure" reports are rate-limited and __GFP_NOWARN silences most of the network's
// (napi_alloc_skb, page_pool), so these counts are the allocation-failure family's evidence
// on a live host when the log says nothing.
func init() {
	Register(Rule{
		ID:     "alloc-fail-skb-drops",
		Title:  "packets dropped because an allocation failed (the kernel's reasons NOMEM, PFMEMALLOC)",
		Family: FamilyMemory,
		Check: withTraceDrops(checkPFMemallocDrop, traceDrops{
			reasons: []string{"NOMEM", "PFMEMALLOC"}, what: "an allocation failed, or used the emergency reserves",
			sev:   Warning,
			title: "packets dropped because memory could not be allocated (the kernel's reasons NOMEM, PFMEMALLOC)",
			explanation: "The kernel could not allocate what these packets needed on their way (NOMEM: an atomic clone, " +
				"copy or header pull failed), or a packet allocated from the emergency reserves " +
				"(PFMEMALLOC) reached a socket that may not use them: the zones were at their min watermark. Most of " +
				"these allocations pass __GFP_NOWARN, so the kernel log often says nothing: the free-memory reserve " +
				"(vm.min_free_kbytes, watermark_scale_factor) and what holds the memory are what to look at.",
		}),
	})
}

// checkPFMemallocDrop reads what every kernel since 3.6 counts without a trace: TcpExt
// PFMemallocDrop, a packet built from the emergency reserves (the zones at their min
// watermark, __GFP_MEMALLOC) that reached a TCP socket not allowed to use them
// (sk_filter_trim_cap, net/core/filter.c, NET_INC_STATS(LINUX_MIB_PFMEMALLOCDROP)). NOMEM
// has no counter: it needs the traced window.
func checkPFMemallocDrop(tl *model.Timeline) Result {
	g := netGrowth(tl, "/proc/net/netstat", "TcpExt", "PFMemallocDrop")
	if !g.hasLast {
		return NotChecked("needs a traced window (doctor --trace, as root, Linux 5.17+) for the kernel's drop reasons NOMEM and PFMEMALLOC, or TcpExt PFMemallocDrop in /proc/net/netstat")
	}
	if g.last == 0 {
		return Healthy("TcpExt PFMemallocDrop is 0; not checked: NOMEM (needs a traced window, doctor --trace)")
	}
	sev := Info // since boot only: it happened, not while sampled
	if g.rising() {
		sev = Warning
	}
	return Fired(Finding{
		Severity: sev,
		Title:    "packets built from the emergency reserves were dropped at TCP sockets (TcpExt PFMemallocDrop)",
		Evidence: []Evidence{{What: "TcpExt PFMemallocDrop", Value: g.describe(), Source: g.source}},
		Explanation: "When a zone is at its min watermark, a driver's receive allocation may take pages from the " +
			"emergency reserves (__GFP_MEMALLOC, skb->pfmemalloc); such a packet may reach only a socket that is itself " +
			"reclaiming memory (SOCK_MEMALLOC, swap over the network), and every other socket drops it " +
			"(sk_filter_trim_cap, net/core/filter.c). Each drop is a packet the NIC received while free memory was " +
			"below the reserve: the free-memory reserve (vm.min_free_kbytes, watermark_scale_factor) and what holds " +
			"the memory are what to look at.",
	})
}
