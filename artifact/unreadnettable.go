package artifact

import (
	"strings"

	"headroom/model"
)

// The kernel's network-table messages that no rule judges, quoted without their log prefix
// (a ticket's "neighbour: arp_cache: neighbor table overflow!", "IPVS: rr: TCP
// 10.96.0.10:53 - no destination available"), pre-round 13 (h13a). With a dmesg stamp or a
// syslog prefix they are kernel log records; bare, in prose, the text held nothing headroom
// read (exit 3). Each is named with what it proves. Sources: net/core/neighbour.c
// neigh_alloc (net_info_ratelimited "%s: neighbor table overflow!" under pr_fmt
// "neighbour: ", tbl->id arp_cache or ndisc_cache; "Neighbour table overflow." before 4.x):
// the table passed gc_thresh3 (or gc_thresh2 for 5 s) and forced GC freed nothing, so the
// new entry, and the packet waiting on it, was refused; net/netfilter/ipvs/ip_vs_sched.c
// ip_vs_scheduler_err ("%s: %s %s:%d - no destination available" under "IPVS: "): the
// virtual service had no real server with weight > 0 for the scheduler, so the packet was
// dropped (ip_vs_leave) or passed to the local stack.
//
// Stamped, such a line is a kernel log record (the log rules see it) and is also listed with
// what it means (kernelNetTableNamed), since no rule judges it: a log of only such lines is
// not "no problem found" with nothing said. A run of them is one entry; at most
// maxNetTableEntries entries a text.
//
// Gated: kernelNetTableLine asks two or three strings.Index of a line (prose, or a kernel
// record after it is logged).

const neighOverflowWhy = "the kernel's neighbour table overflowed (net/core/neighbour.c neigh_alloc: \"arp_cache: neighbor table overflow!\", ndisc_cache for IPv6): more entries than net.ipv4.neigh.default.gc_thresh3 (or gc_thresh2 for 5 s) and forced garbage collection freed none, so a new neighbour entry was refused and packets to that next hop were dropped; a table limit, not memory; `ip -s neigh | wc -l` against the gc_thresh sysctls tells the share; headroom has no rule for it"

const ipvsNoDestWhy = "IPVS found no real server for a virtual service (net/netfilter/ipvs/ip_vs_sched.c ip_vs_scheduler_err: \"IPVS: rr: TCP VIP:PORT - no destination available\"): every destination removed or weight 0 (keepalived's health checks, kube-proxy's endpoints), so the packet was dropped; a load balancer's configuration or backends, not memory or a buffer; `ipvsadm -L -n` lists the destinations; headroom has no rule for it"

// net/netfilter/nf_conntrack_expect.c nf_ct_expect_related (net_warn_ratelimited
// "nf_conntrack: expectation table full"): a helper's (FTP, SIP, TFTP, H.323) expectation
// refused past nf_conntrack_expect_max.
const ctExpectFullWhy = "conntrack's expectation table is full (net/netfilter/nf_conntrack_expect.c: \"nf_conntrack: expectation table full\"): a helper's (FTP, SIP, TFTP, H.323) expected related connection was refused past net.netfilter.nf_conntrack_expect_max, so that data or media connection is not tracked and may be dropped; a table limit, not the main conntrack table (nf_conntrack_max) and not memory; headroom has no rule for it"

// net/ipv6/route.c (dst_alloc before 6.3, ip6_dst_alloc after): "Route cache is full:
// consider increasing sysctl net.ipv[4|6].route.max_size." (net.ipv6.route.max_size since
// 4.x's text): the dst entries passed gc_thresh and garbage collection could not bring them
// under route.max_size, so the route (and the packet) was refused.
const routeCacheFullWhy = "the IPv6 route cache (dst entries) passed net.ipv6.route.max_size and garbage collection could not free enough (net/ipv6/route.c: \"Route cache is full: consider increasing sysctl net.ipv6.route.max_size.\"): the route, and the packet waiting on it, was refused (ENOBUFS to a sender); a table limit, not memory; headroom has no rule for it"

// net/netfilter/ipvs (ip_vs_conn.c ip_vs_conn_new, ip_vs_xmit.c): IP_VS_ERR_RL("%s(): no
// memory") after kmem_cache_alloc(GFP_ATOMIC) or skb_realloc_headroom returned NULL.
const ipvsNoMemoryWhy = "IPVS could not allocate (net/netfilter/ipvs ip_vs_conn.c ip_vs_conn_new, ip_vs_xmit.c: \"IPVS: FUNCTION(): no memory\"): an atomic allocation (the ip_vs_conn slab object, or a bigger skb head for tunnelling) failed in softirq, so the connection or packet was dropped; kernel memory short for atomic allocations (min_free_kbytes, fragmentation), not an IPVS table limit; a page allocation failure report beside it would be read by the allocation rules; no rule reads this line"

// net/ipv4/tcp_minisocks.c tcp_time_wait (2.4-3.x; 4.x counts TCPTimeWaitOverflow only):
// "TCP: time wait bucket table overflow" when tw_count had reached tcp_max_tw_buckets (or
// the timewait sock's allocation failed): the closing socket skipped TIME_WAIT.
const twOverflowWhy = "TCP's TIME_WAIT table was full (net/ipv4/tcp_minisocks.c tcp_time_wait: \"TCP: time wait bucket table overflow\", TcpExt TCPTimeWaitOverflow): TIME_WAIT sockets had reached net.ipv4.tcp_max_tw_buckets (or a timewait sock could not be allocated), so a closing connection was closed at once without TIME_WAIT; a limit against TIME_WAIT floods that loses no data in flight, not a buffer or throughput limit; headroom has no rule for it"

// kernelNetTableLine says why prose line t is one of these kernel messages.
func kernelNetTableLine(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	if k := strings.Index(t, "neighbor table overflow!"); k > 0 && strings.HasSuffix(strings.TrimRight(t[:k], " "), ":") && strings.Contains(t[:k], "_cache") {
		return neighOverflowWhy, true
	}
	if strings.Contains(t, "Neighbour table overflow.") {
		return neighOverflowWhy, true
	}
	if strings.Contains(t, "TCP: time wait bucket table overflow") {
		return twOverflowWhy, true
	}
	if dstCacheOverflow(t) {
		return dstOverflowWhy, true // IPv4's route cache before 3.6 (unreadwebapp.go)
	}
	if strings.Contains(t, "nf_conntrack: expectation table full") {
		return ctExpectFullWhy, true
	}
	if strings.Contains(t, "Route cache is full: consider increasing sysctl net.ipv") {
		return routeCacheFullWhy, true
	}
	if k := strings.Index(t, "(): no memory"); k > 0 {
		if j := strings.Index(t[:k], "IPVS: "); j >= 0 && !strings.ContainsAny(t[j+len("IPVS: "):k], " :") {
			return ipvsNoMemoryWhy, true
		}
	}
	if k := strings.Index(t, " - no destination available"); k > 0 {
		if j := strings.Index(t[:k], "IPVS: "); j >= 0 && strings.Count(t[j:k], ":") >= 2 {
			return ipvsNoDestWhy, true
		}
	}
	return "", false
}

// maxNetTableEntries bounds the entries kernelNetTableNamed adds (a flood repeats the line
// between other records).
const maxNetTableEntries = 8

// netTableTail: the cheap gate of a kernel record (its last bytes): "!" (neighbour
// overflow), "overflow." (before 4.x), "available" (IPVS), "table full" (expectations),
// "max_size" (route cache), "no memory" (IPVS).
func netTableTail(t string) bool {
	n := len(t)
	if n < len("dst cache overflow") {
		return false // the shortest of the messages
	}
	switch t[n-1] {
	case '!':
		return true
	case '.':
		return strings.HasSuffix(t, "overflow.") || strings.HasSuffix(t, "max_size.")
	case 'e':
		return strings.HasSuffix(t, "available") || strings.HasSuffix(t, "max_size")
	case 'l':
		return strings.HasSuffix(t, "table full")
	case 'w':
		return strings.HasSuffix(t, "dst cache overflow") || strings.HasSuffix(t, "bucket table overflow")
	case 'y':
		return strings.HasSuffix(t, "no memory")
	}
	return false
}

// kernelNetTableNamed lists kernel record no (text t) with what it means when it is one of
// these messages. The record stays in the log; the line account counts it as listed.
func (d *doc) kernelNetTableNamed(no int, t string) {
	why, ok := kernelNetTableLine(t)
	if !ok {
		return
	}
	d.namedKernelRun(no, why)
}

// kernelNetTableRelog asks again for a record whose text a wrapped piece changed after it was
// logged (relog): a name given to the piece-less text goes, and the whole text is asked, as
// the whole-text loop, which joins the piece first, asks it once.
func (d *doc) kernelNetTableRelog(no int, t string) {
	for k := len(d.tl.Unparsed) - 1; k >= 0; k-- {
		u := &d.tl.Unparsed[k]
		if u.LastLine != no || !netTableWhy(u.Why) {
			continue
		}
		if u.FirstLine == no {
			d.tl.Unparsed = append(d.tl.Unparsed[:k], d.tl.Unparsed[k+1:]...)
		} else {
			u.LastLine = no - 1
		}
		break
	}
	if netTableTail(t) {
		d.kernelNetTableNamed(no, t)
	}
}

// netTableWhy: why is one of kernelNetTableLine's accounts.
func netTableWhy(why string) bool {
	switch why {
	case neighOverflowWhy, twOverflowWhy, dstOverflowWhy, ctExpectFullWhy, routeCacheFullWhy, ipvsNoMemoryWhy, ipvsNoDestWhy:
		return true
	}
	return false
}

// namedKernelRun lists kernel record no with why: a record right after the last one of the
// same why extends its entry; at most maxNetTableEntries entries a why.
func (d *doc) namedKernelRun(no int, why string) {
	n := 0
	for k := len(d.tl.Unparsed) - 1; k >= 0; k-- {
		u := &d.tl.Unparsed[k]
		if u.Why != why {
			continue
		}
		if n == 0 && u.LastLine == no-1 {
			u.LastLine = no
			return
		}
		n++
	}
	if n < maxNetTableEntries {
		d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: no, LastLine: no, Why: why})
	}
}
