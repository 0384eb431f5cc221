package artifact

import "strings"

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
// Gated: two strings.Index on a prose line.

const neighOverflowWhy = "the kernel's neighbour table overflowed (net/core/neighbour.c neigh_alloc: \"arp_cache: neighbor table overflow!\", ndisc_cache for IPv6): more entries than net.ipv4.neigh.default.gc_thresh3 (or gc_thresh2 for 5 s) and forced garbage collection freed none, so a new neighbour entry was refused and packets to that next hop were dropped; a table limit, not memory; `ip -s neigh | wc -l` against the gc_thresh sysctls tells the share; headroom has no rule for it"

const ipvsNoDestWhy = "IPVS found no real server for a virtual service (net/netfilter/ipvs/ip_vs_sched.c ip_vs_scheduler_err: \"IPVS: rr: TCP VIP:PORT - no destination available\"): every destination removed or weight 0 (keepalived's health checks, kube-proxy's endpoints), so the packet was dropped; a load balancer's configuration or backends, not memory or a buffer; `ipvsadm -L -n` lists the destinations; headroom has no rule for it"

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
	if k := strings.Index(t, " - no destination available"); k > 0 {
		if j := strings.Index(t[:k], "IPVS: "); j >= 0 && strings.Count(t[j:k], ":") >= 2 {
			return ipvsNoDestWhy, true
		}
	}
	return "", false
}
