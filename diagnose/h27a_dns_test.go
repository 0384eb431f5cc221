package diagnose

import (
	"strings"
	"testing"
)

// h27a: DNS and DHCP servers' own lines (artifact/dnsserver.go, unreadappbuf.go). A UDP
// answer refused with ENOBUFS (Unbound's "sendto failed", NSD's "sendmmsg ... failed",
// dnsmasq's and Pi-hole FTL's "failed to send packet") is Udp SndbufErrors' increment: the
// send side of udp-rcvbuf-errors, in the forms users paste it.
func TestH27aDNSServerUDPSendENOBUFS(t *testing.T) {
	const unbound = "Nov 30 10:12:01 dns1 unbound[1234]: [1234:0] error: sendto failed: No buffer space available\nNov 30 10:12:01 dns1 unbound[1234]: [1234:0] error: remote address is 192.0.2.10 port 53\n"
	for _, text := range []string{
		unbound,
		"Nov 30 10:12:01 dns1 unbound[1234]: [1234:1] info: sendmsg failed: No buffer space available\n",
		"[1764497521] unbound[1234:0] info: sendto failed: No buffer space available\n", // its own logfile
		"unbound-1  | [1764497521] unbound[1:0] info: sendto failed: No buffer space available\n",
		"> " + unbound,
		"```\n" + unbound + "```\n",
		"Nov 30 10:12:01 dns1 unbound[1234]: [1234:0] info: send failed: No buffer space available\n",
		"Nov 30 10:12:01 auth1 nsd[2201]: sendmmsg [0]=198.51.100.7 count=64 failed: No buffer space available\n",
		"Nov 30 10:12:02 auth1 nsd[2201]: sendto failed: No buffer space available\n",
		"Nov 30 10:12:01 dnsmasq[1234]: failed to send packet: No buffer space available\n", // pihole.log, no host
		"Nov 30 10:12:01 rt1 dnsmasq[1234]: failed to send packet: No buffer space available\n",
		"Nov 30 10:12:01 pi pihole-FTL[812]: failed to send packet: No buffer space available\n",
		"Nov 30 10:12:01 gw dhcpd[1234]: send_packet6: No buffer space available\n",
		"Nov 30 10:12:01 gw kea-dhcp4[1234]: ERROR [kea-dhcp4.packets/1234.140] DHCP4_PACKET_SEND_FAIL [hwtype=1 00:11:22:33:44:55], cid=[no info], tid=0x1234: failed to send DHCPv4 packet: pkt4 send failed: sendmsg() returned  with an error: No buffer space available\n",
	} {
		wantUDPSendSide(t, text, "oom-kill")
	}
	// Counter-cases: another errno, the words in a question, another program's same words,
	// a receive's error, a quoted example in prose.
	for _, text := range []string{
		"Nov 30 10:12:01 dns1 unbound[1234]: [1234:0] error: sendto failed: Network is unreachable\n",
		"Why does unbound log sendto failed: No buffer space available?\n",
		"Nov 30 10:12:01 rad1 radiusd[1234]: sendto failed: No buffer space available\n",
		"Nov 30 10:12:01 rt1 hostapd[1234]: failed to send packet: No buffer space available\n",
		"Nov 30 10:12:01 rt1 dnsmasq[1234]: failed to send packet: Network is unreachable\n",
		"Nov 30 10:12:01 dns1 unbound[1234]: [1234:0] error: recvfrom 12 failed: No buffer space available\n",
		"Nov 30 10:12:01 auth1 nsd[2201]: sendmmsg failed: No buffer space available\n", // not NSD's form
		"Nov 30 10:12:01 gw dhcpd[1234]: send_packet: No buffer space available\n",      // an AF_PACKET socket (LPF): no UDP counter
		"Nov 30 10:12:01 gw dhcpd[1234]: send_packet6: Network is unreachable\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "udp-rcvbuf-errors") != nil {
			t.Errorf("%q: udp-rcvbuf-errors fired", text)
		}
	}
}

// h27a: the servers' own counters and limits, named as the program's (no rule applies), so
// a paste of them alone is no evidence-free text (exit 3), and no finding fires.
func TestH27aDNSServerOwnLinesNamed(t *testing.T) {
	const dnsdistTable = "> showServers()\n#   Name                 Address                       State     Qps    Qlim Ord Wt    Queries   Drops Drate   Lat Outstanding Pools\n0   ns1                  192.0.2.53:53                    up   812.3       0   1  1   92837123   48211  12.1   3.2          65 \nAll                                                          812.3                   92837123   48211\n"
	const stats = "$ sudo unbound-control stats_noreset\nthread0.num.queries=1203456\nthread0.num.cachehits=1001234\nthread0.requestlist.exceeded=5521\ntotal.num.queries=1203456\ntotal.requestlist.exceeded=5521\nmem.cache.rrset=268435456\nmem.cache.message=134217728\n"
	for text, want := range map[string]string{
		stats:          "Unbound's own counters",
		corednsMetrics: "CoreDNS's Prometheus metrics",
		dnsdistTable:   "dnsdist's showServers()", // its Drops are no kernel drop
		"Nov 30 10:12:01 ns1 named[812]: socket: file descriptor exceeds limit (4096/4096)\n":                                                                                             "socket manager's limit",
		"Nov 30 10:12:03 ns1 named[812]: recursive-clients soft limit exceeded (901/900/1000), aborting oldest query\n":                                                                   "recursive-clients quota",
		"Nov 30 10:12:04 ns1 named[812]: client @0x7f3c1c0a8f68 198.51.100.7#41234 (www.example.com): no more recursive clients (1000/900/1000): quota reached\n":                         "recursive-clients quota",
		"Nov 30 10:12:01 gw dhcpd[1234]: send_packet: No buffer space available\nNov 30 10:12:01 gw dhcpd[1234]: dhcp.c:4012: Failed to send 300 byte long packet over eth1 interface.\n": "AF_PACKET socket",
		"Nov 30 10:12:01 dns1 unbound[1234]: [1234:0] info: send udp blocked for long, dropping packet.\n":                                                                                "whole retry time",
		"2026-11-30 10:12:01.437 UTC [53/T58] WARNING: Long-term load (15min avg) larger than number of processors: 9.9 > 4\n":                                                            "15-minute load average",
		"[2026-11-30 10:12:01.124 812M] WARNING: RAM shortage (/dev/shm) ahead: 92% is used (/dev/shm: 60.4MB used, 65.5MB total, FTL uses 59.8MB)\n":                                     "shared memory",
		"Nov 30 10:12:01 pi pihole-FTL[812]: WARNING: Disk shortage (/etc/pihole/pihole-FTL.db) ahead: 93% is used (/etc/pihole/pihole-FTL.db: 27.7GB used, 29.8GB total)\n":              "disk space",
	} {
		if s := unreadWhys(t, text); !strings.Contains(s, want) {
			t.Errorf("%q: unread %q lacks %q", text, s, want)
		}
		d, _ := rootOf(t, text)
		for _, f := range d.Findings {
			t.Errorf("%q: %s fired", text, f.ID)
		}
	}
	// Not the programs': a sysctl's "key=value" lines, one lone stats line, a sentence naming a
	// series, a "#" comment naming a column.
	for text, other := range map[string]string{
		"net.core.rmem_max=8388608\nnet.core.wmem_max=8388608\n":          "Unbound",
		"total.num.queries=12\n":                                          "Unbound",
		"I checked coredns_dns_requests_total and it was 12 per second\n": "CoreDNS",
		"# the Drops column counts timeouts\n":                            "dnsdist",
	} {
		if s := unreadWhys(t, text); strings.Contains(s, other) {
			t.Errorf("%q: named as %s's: %q", text, other, s)
		}
	}
}

const corednsMetrics = "# HELP coredns_dns_requests_total Counter of DNS requests made per zone, protocol and family.\n# TYPE coredns_dns_requests_total counter\ncoredns_dns_requests_total{family=\"1\",proto=\"udp\",server=\"dns://:53\",type=\"A\",view=\"\",zone=\".\"} 1.234567e+06\ncoredns_forward_max_concurrent_rejects_total 4521\nprocess_open_fds 18\n"

// h27a: node_exporter's series after CoreDNS's own metrics stay the host's and reach the rule.
func TestH27aCorednsMetricsThenNode(t *testing.T) {
	d, _ := rootOf(t, corednsMetrics+"node_netstat_Udp_RcvbufErrors 4821\nnode_netstat_Udp_InDatagrams 1000000\n")
	if f := findingOf(d, "udp-rcvbuf-errors"); f == nil || !strings.Contains(evidenceText(f), "4821") {
		t.Errorf("node_exporter's Udp RcvbufErrors after CoreDNS's metrics not read: %+v", f)
	}
}
