package artifact

import "strings"

// DNS servers' own lines about their UDP sends and their own counters (pre-round 27,
// h27a).
//
// A UDP answer refused with ENOBUFS. Unbound (util/netevent.c comm_point_send_udp_msg and
// comm_point_send_udp_msg_if) retries a send that fails with EAGAIN or ENOBUFS for about a
// second and then logs verbose(VERB_OPS, "sendto failed: %s") ("send failed: %s" on a
// connected socket, "sendmsg failed: %s" with interface-automatic), then "remote address
// is ..."; older releases logged it with log_err ("error: "). NSD (server.c handle_udp)
// logs "sendmmsg [0]=%s count=%d failed: %s", older releases "sendto failed: %s". Every one
// of these calls is on a UDP socket, and udp_sendmsg counts each -ENOBUFS it returns in Udp
// SndbufErrors (net/ipv4/udp.c), so the line is that counter's increment as the server saw
// it: the send side of udp-rcvbuf-errors (noteUDPSendENOBUFS, rcvbufcapped.go), as rsyslog's
// and the tunnel daemons' lines are.
//
// dnsmasq (src/forward.c send_from, its UDP answers; Pi-hole's FTL embeds it and logs under
// "dnsmasq[pid]" in pihole.log, or under its own tag) logs my_syslog(LOG_ERR, "failed to send
// packet: %s") after retry_send gave up: ENOBUFS is not retried. send_from also sends
// router advertisements (radv.c, ICMPv6) with enable-ra; those count in Icmp6OutErrors,
// and a DNS server's answers are by far its most sends, so the line is read as the UDP one.
//
// Another errno (ENETUNREACH, EPERM) is no buffer's; a sentence that quotes the message
// ("is 'sendto failed: No buffer space available' bad?") fails errnoTextEnds; another
// program's "sendto failed" (no unbound/nsd tag or prefix) is left to the errno readers.
// Gated: one strings.Index for the errno's text before any other test.

// dnsUDPSendENOBUFS: t is Unbound's, NSD's or dnsmasq's UDP send failing with ENOBUFS.
func dnsUDPSendENOBUFS(tag, t string) bool {
	k := strings.Index(t, vpnENOBUFSText)
	if k < 1 || len(t) > maxErrnoLineBytes {
		return false
	}
	if c := t[k-1]; c != 'N' && c != 'n' {
		return false
	}
	k--
	if !errnoTextEnds(t, k) {
		return false
	}
	before := t[:k]
	unbound := tag == "unbound" || strings.Contains(before, "unbound[")
	nsd := tag == "nsd" || strings.Contains(before, "nsd[")
	dnsmasq := strings.HasPrefix(tag, "dnsmasq") || tag == "pihole-FTL" || strings.Contains(before, "dnsmasq[")
	switch {
	case dnsmasq:
		return strings.HasSuffix(before, "failed to send packet: ")
	case strings.HasSuffix(before, "pkt4 send failed: sendmsg() returned  with an error: "), strings.HasSuffix(before, "pkt4 send failed: sendmsg() returned with an error: "):
		return true // Kea's PktFilterInet (dhcp-socket-type udp): a UDP socket
	case strings.HasSuffix(before, "send_packet6: ") && isDHCPTag(tag):
		return true // ISC DHCP's send_packet6 (common/socket.c): its UDP socket
	case !unbound && !nsd:
		return false
	case strings.HasSuffix(before, "sendto failed: "), strings.HasSuffix(before, "sendmsg failed: "):
		return true
	case unbound && strings.HasSuffix(before, " send failed: "):
		return true
	}
	j := strings.LastIndex(before, "sendmmsg [0]=")
	return nsd && j >= 0 && strings.HasSuffix(before, " failed: ") && strings.Contains(before[j:], " count=")
}

// ISC DHCP (dhcpd, dhclient, dhcrelay) common/lpf.c send_packet: on Linux the
// distributions build it with LPF, so a DHCPv4 packet is written to an AF_PACKET socket with
// its own UDP and IP headers, and "send_packet: %m" with ENOBUFS is the packet socket's
// transmit refused (packet_snd: the device's queue or qdisc dropped it, or its send buffer
// was full): no UDP socket, so no Udp counter grows. Named with what it proves; dhcpd's
// next line, "dhcp.c:N: Failed to send N byte long packet over IF interface.", is the same
// failure.
const dhcpSendPacketWhy = "ISC DHCP (dhcpd/dhclient, common/lpf.c send_packet): on Linux (the LPF build) a DHCPv4 packet is written to an AF_PACKET socket, so ENOBUFS is that packet socket's transmit refused: the interface's qdisc or device queue dropped it, or the packet socket's send buffer was full; no UDP socket is involved, so no Udp counter (SndbufErrors) grows; `tc -s qdisc` drops and `ip -s link` TX dropped tell which; headroom has no reader for this log"

func isDHCPTag(tag string) bool {
	return tag == "dhcpd" || tag == "dhclient" || tag == "dhcrelay" || strings.HasPrefix(tag, "kea-dhcp")
}

// dhcpSendPacketLine: ISC DHCP's send_packet (IPv4) with ENOBUFS, or dhcpd's next line.
func dhcpSendPacketLine(tag, t string) bool {
	if !isDHCPTag(tag) {
		return false
	}
	if k := strings.Index(t, "send_packet: No buffer space available"); k >= 0 {
		return k == 0 || t[k-1] == ' '
	}
	k := strings.Index(t, ": Failed to send ")
	return k > 0 && strings.Contains(t[k:], " byte long packet over ")
}

// dnsServerSendLine reads Unbound's, NSD's and dnsmasq's UDP send refused with ENOBUFS.
func (d *doc) dnsServerSendLine(i int, t string) bool {
	if dhcpSendPacketLine(d.ls[i].Tag, t) && !d.exampleLog(i) {
		d.unparsedUnread(i, dhcpSendPacketWhy)
		return true
	}
	if !dnsUDPSendENOBUFS(d.ls[i].Tag, t) || d.exampleLog(i) {
		return false
	}
	d.noteUDPSendENOBUFS(i)
	return true
}

// isDNSServerTag: the syslog tags whose lines dnsServerSendLine reads (readsTag); dnsmasq's
// lines that start "failed to " are handed already (dnsmasqAllocHanded).
func isDNSServerTag(tag string) bool {
	return tag == "unbound" || tag == "nsd" || tag == "pihole-FTL" || isDHCPTag(tag)
}

// Unbound's statistics (unbound-control stats / stats_noreset, daemon/remote.c
// print_stats and print_mem: "%s.num.queries=%lu", "mem.cache.rrset=%u", "total.requestlist.
// exceeded=%lu", one "name=value" a line, name "thread0", "total", "time", "mem", "num",
// "histogram", "unwanted", "msg", "rrset", "infra", "key"): Unbound's own counters. Its
// request list's "exceeded" counts queries Unbound dropped because num-queries-per-thread
// was full and "overwritten" those it replaced, its "mem.cache.*" the caches it sizes with
// msg-cache-size/rrset-cache-size: none is a kernel counter (none is Udp RcvbufErrors,
// which unbound-control does not print), so the block is named as unread with what it
// holds, not read as the host's state, and a paste of it no longer exits 3.
// Gated: a format entry by the first byte, then a prefix test and a byte scan, no regexp.

var unboundStatPrefixes = [...]string{"thread", "total.", "time.", "mem.", "num.", "histogram.", "unwanted.", "msg.", "rrset.", "infra.", "key.", "dnscrypt", "tcpusage", "rpz."}

// unboundStatLine: ft is one "name=value" of unbound-control stats (its whole line).
func unboundStatLine(ft, t string) bool {
	e := strings.IndexByte(ft, '=')
	if e < 3 || len(strings.TrimSpace(t)) != len(ft) {
		return false
	}
	name, v := ft[:e], ft[e+1:]
	ok := false
	for _, p := range unboundStatPrefixes {
		if strings.HasPrefix(name, p) {
			ok = true
			break
		}
	}
	if !ok || v == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		if c := name[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= '0' && c <= '9' || c == '.') {
			return false
		}
	}
	return true
}

// unboundStatOwn: a name only Unbound prints (the block is Unbound's, not another
// program's "mem.x=1").
func unboundStatOwn(ft string) bool {
	return strings.Contains(ft, ".num.queries=") || strings.HasPrefix(ft, "num.queries=") || strings.Contains(ft, ".requestlist.") ||
		strings.HasPrefix(ft, "mem.cache.") || strings.Contains(ft, ".num.cachehits=")
}

const unboundStatsWhy = "unbound-control stats: Unbound's own counters (queries, cache hits, its request list: requestlist.exceeded counts queries Unbound dropped because num-queries-per-thread was full, requestlist.overwritten those it replaced; mem.* its caches within msg-cache-size/rrset-cache-size), not the kernel's: no Udp RcvbufErrors among them (`nstat -az UdpRcvbufErrors` tells whether the kernel dropped datagrams at Unbound's socket); headroom has no rule for a resolver's own counters"

// tryUnboundStats names a block of unbound-control stats lines as unread.
func (d *doc) tryUnboundStats(i int) int {
	k, own := i, false
	for ; k < len(d.ls) && !d.ls[k].Kernel; k++ {
		ft := strings.TrimSpace(d.ls[k].Text)
		if !unboundStatLine(ft, ft) {
			break
		}
		own = own || unboundStatOwn(ft)
	}
	if k-i < 2 || !own {
		return 0
	}
	d.unparsed(i, k-1, unboundStatsWhy)
	return k - i
}

// CoreDNS's Prometheus exposition (its prometheus plugin's /metrics: coredns_dns_requests_total,
// coredns_forward_max_concurrent_rejects_total, coredns_cache_entries, and the Go client's
// process_open_fds, go_memstats_*): the server's own counters, not the kernel's (none is a
// node_ series, which tryNodeExporter reads first). The block is named as unread with what
// it holds, so a paste of it is no evidence-free text (exit 3) and nothing of it is taken
// for the host's state.
// Gated: a format entry by the first field's prefix, then the exposition's regexp per line.

const corednsMetricsWhy = "CoreDNS's Prometheus metrics (its prometheus plugin: coredns_dns_requests_total, coredns_forward_* (max_concurrent_rejects: queries refused at the forward plugin's own max_concurrent), coredns_cache_*, and the Go client's process_open_fds, process_max_fds, go_memstats_*): the server's own counters and its process's, not the kernel's: no Udp RcvbufErrors or memory counter of the host among them (node_exporter's node_netstat_Udp_RcvbufErrors would be); headroom has no rule for a DNS server's own metrics"

// isCorednsMetricLine: a coredns_ series or its "# HELP"/"# TYPE".
func isCorednsMetricLine(ft, t string) bool {
	return strings.HasPrefix(ft, "coredns_") || (ft == "#" || ft == "HELP" || ft == "TYPE") && strings.Contains(t, " coredns_")
}

// tryCorednsMetrics names a run of exposition lines holding a coredns_ sample.
func (d *doc) tryCorednsMetrics(i int) int {
	k, own := i, false
	for ; k < len(d.ls) && isNodeExpositionLine(d.ls[k].Text); k++ {
		t := strings.TrimSpace(d.ls[k].Text)
		if isNodeExporterLine(firstField(t), t) {
			break // node_exporter's series: the host's, read by tryNodeExporter
		}
		own = own || strings.HasPrefix(t, "coredns_")
	}
	if !own {
		return 0
	}
	d.unparsed(i, k-1, corednsMetricsWhy)
	return k - i
}

// dnsdist's showServers() (dnsdist-lua-inspection.cc): a header "#   Name   Address   State
// Qps   Qlim Ord Wt   Queries   Drops Drate   Lat Outstanding Pools", a row per backend and
// an "All" total. Its Drops are dnsdist's own count of queries a backend left unanswered
// past its timeout (Drate their rate), not datagrams the kernel dropped: named as unread.
// Gated: the header's first field "#" and three of its column names.

const dnsdistServersWhy = "dnsdist's showServers(): its backends' own counters (Queries, Drops: queries a backend left unanswered past dnsdist's timeout, Drate their rate per second, Lat, Outstanding): dnsdist's accounting of its downstream servers, not datagrams the kernel dropped (Udp RcvbufErrors, which dnsdist's dumpStats() reports as udp-recvbuf-errors, would be); headroom has no rule for a proxy's backend counters"

func isDnsdistServersHeader(ft, t string) bool {
	return ft == "#" && strings.Contains(t, " Qlim ") && strings.Contains(t, " Drops ") && strings.Contains(t, " Drate ")
}

// tryDnsdistServers names the table: its header and the rows below it up to a blank line.
func (d *doc) tryDnsdistServers(i int) int {
	k := i + 1
	for k < len(d.ls) && !d.ls[k].Kernel && !isBlank(d.ls[k].Text) {
		fs := fields(d.ls[k].Text)
		if len(fs) < 3 || fs[0] != "All" && leadingDigits(fs[0]) != fs[0] {
			break
		}
		k++
	}
	d.unparsed(i, k-1, dnsdistServersWhy)
	return k - i
}
