package artifact

import (
	"strings"
)

// Packet generators', scanners' and high-rate senders' own counters and send errors
// (pre-round 28, h28b). Each prints its progress and summary in its own format; the figures
// are the tool's, not a kernel counter, and none is a memory reading:
//
//   - zmap (src/monitor.c): " 0:12 12%; send: N R Mp/s (R Kp/s avg); recv: N R p/s (R p/s
//     avg); drops: R p/s (R p/s avg); hitrate: P%". Its drops are libpcap's ps_drop plus
//     ps_ifdrop on its receive capture: responses lost to the capture ring or the interface,
//     not sends refused.
//   - masscan (src/main-status.c): "rate:%6.2f-kpps, %5.2f%% done,%4u:%02u:%02u remaining,
//     found=%llu", the rate it achieved and what it found.
//   - nmap (scan_engine.cc): "Increasing send delay for %s from %d to %d due to %d out of %d
//     dropped probes since last increase." (or "due to max_successful_tryno increase to %d"):
//     probes that got no answer, nmap's own congestion control slowing down, no host counter.
//   - hping3 (statistics.c): "--- %s hping statistic ---" and "%d packets transmitted, %d
//     packets received, %d%% packet loss" (ping's is "N packets transmitted, N received, P%
//     packet loss"): loss to one peer, the path's or the peer's.
//   - pktgen (net/core/pktgen.c pktgen_if_show): "Result: OK: %llu(c%llu+d%llu) usec, %llu
//     (%dbyte,%dfrags)" then "%llupps %lluMb/sec (%llubps) errors: %llu": the kernel module's
//     own run; errors counts transmits the driver or queue refused.
//   - tcpreplay (src/common/sendpacket.c sendpacket_getstat, src/timestamp): "Actual: N
//     packets (N bytes) sent in S seconds", "Rated: ...", "Flows: ...", "Statistics for
//     network device: IF", then "Attempted/Successful/Failed/Truncated packets:" and "Retried
//     packets (ENOBUFS):" / "(EAGAIN):": its PF_PACKET (or pcap, netmap) sends.
//   - dnsperf/resperf (src/dnsperf.c print_statistics): "Queries sent:", "Queries
//     completed:", "Queries lost: N (P%)", "Response codes:", "Run time (s):", "Queries per
//     second:", latencies; resperf's "Maximum throughput:", "Lost at that point:". A lost
//     query is one that got no answer before the timeout: the server's, the path's or this
//     client's receive side; no single counter.
//
// A send refused with ENOBUFS on these tools' sockets (zmap's "send_packet failed for A. No
// buffer space available", nmap's "sendto in send_ip_packet_sd: sendto(...) => No buffer
// space available" and "eth_send ... (errno=105: ...)", masscan's "transmit: ..." / its
// rawsock send error, tcpreplay's nonzero "Retried packets (ENOBUFS)") is a raw IP or
// AF_PACKET socket's, not UDP's: packet_snd() and raw_send_hdrinc() turn a qdisc's or a
// driver queue's NET_XMIT_DROP into -ENOBUFS (net_xmit_errno) — the device's transmit queue
// (txqueuelen, the qdisc's limit, or the TX ring with PACKET_QDISC_BYPASS) was full because
// the tool offered more than the link sends. udp_sendmsg's SndbufErrors never counts it
// (docs/rules/udp-rcvbuf-errors.md is for UDP sockets only); the kernel's count is the
// qdisc's "dropped" (`tc -s qdisc show dev IF`), the interface's TX dropped (`ip -s link`)
// and, for raw IP, Ip OutDiscards. headroom has no rule for a transmit queue's drops, so the
// line is named with what it proves and where the count is, and no rule fires on it.
//
// SIPp is the exception: its UDP transport sends on a UDP socket, so its error log's (and
// its screen's "Last Error:") "Unable to send UDP message, errno = 105 (No buffer space
// available)" (src/socket.cpp via logger.cpp _screen_error ", errno = %d (%s)") is
// udp_sendmsg's -ENOBUFS, counted in Udp SndbufErrors: read as that counter's increment
// (noteUDPSendENOBUFS), the send side of udp-rcvbuf-errors. errno 105 is Linux's ENOBUFS; its
// screen's "%lu/%lu/%lu UDP errors (send/recv/cong)" counts every send error, named.
//
// Gated: every form is tested by a fixed substring of its format before any other test; a
// sentence quoting the words without the format's punctuation is not read, and a guide's
// example (exampleLog) stays prose.

const (
	zmapStatusWhy     = "zmap's status line (src/monitor.c: elapsed, percent done; send: probes sent, rate (avg); recv: responses, rate; drops: libpcap's ps_drop + ps_ifdrop on its receive capture, the capture ring's or interface's lost responses, not refused sends; hitrate): the scanner's own counters, healthy when drops are 0 p/s; a send refused shows as zmap's own \"send_packet failed\" log line; headroom has no rule for the scanner's figures"
	masscanStatusWhy  = "masscan's status line (src/main-status.c: the rate it achieved in kpps, percent done, time remaining, found= responses): the scanner's own figures, no drop or error count; headroom has no rule for them"
	nmapDelayWhy      = "nmap's send delay raised (scan_engine.cc: probes that got no answer since the last increase, or its retry count rising): nmap's own congestion control slowing down for one target (the target's or a firewall's rate limit, a lossy path), not a drop this host's kernel counted; headroom has no rule for it"
	nmapOffendingWhy  = "nmap's description of the packet whose send failed (tcpip.cc: \"Offending packet:\" after a sendto or eth_send error): the probe, not a count; the error line above it tells why the send failed"
	hpingStatsWhy     = "a ping tool's closing statistics (hping3 statistics.c \"N packets transmitted, N packets received, P% packet loss\", ping's \"N received\"): loss of probes to one peer (the path's or the peer's), healthy at 0%; no counter of this host; headroom has no rule for it"
	pktgenResultWhy   = "the kernel's pktgen result (net/core/pktgen.c pktgen_if_show: run time in usec, packets and size sent, pps, Mb/sec, errors: transmits the driver or queue refused, healthy at 0): the generator's own run, not a host counter; headroom has no rule for it"
	tcpreplayWhy      = "tcpreplay's summary (src/common/sendpacket.c: Actual packets and bytes sent, Rated, Flows; for the device: Attempted, Successful, Failed (sends refused for good), Truncated, Retried (ENOBUFS: the AF_PACKET send found the qdisc or TX queue full and was retried; EAGAIN: the socket would block)): the tool's own counters, healthy when Failed and Retried are 0; headroom has no rule for them"
	dnsperfWhy        = "dnsperf's or resperf's statistics (src/dnsperf.c: Queries sent, completed, lost: queries with no answer before the timeout, the server's, the path's or this client's receive side, no single counter; response codes, run time, QPS, latency): the benchmark's own figures, healthy when none are lost; the Udp counters (`nstat -az Udp*`) on both ends tell whether a socket buffer dropped them; headroom has no rule for the summary alone"
	sippErrorsWhy     = "SIPp's screen line of open sockets and transport errors (src/screen.cpp: send/recv/cong errors since the start, every failed send or receive and the times the socket was congested (EAGAIN)): the tool's own counts, healthy at 0/0/0; a send refused with ENOBUFS is in its error log (-trace_err) as \"Unable to send UDP message, errno = 105\"; headroom has no rule for the counts alone"
	rawSendENOBUFSWhy = "a packet tool's send refused with ENOBUFS on a raw IP or AF_PACKET socket (zmap's send_packet, nmap's send_ip_packet_sd/eth_send, masscan's transmit, tcpreplay's Retried packets (ENOBUFS), pktgen's errors): packet_snd()/raw_send_hdrinc() return it when the qdisc or the device's TX queue dropped the packet (NET_XMIT_DROP via net_xmit_errno; txqueuelen, the qdisc's limit, the TX ring) because the tool offered more than the link sends; not a UDP socket's, so not Udp SndbufErrors, and not a shortage of RAM; the kernel counts it at the qdisc's dropped (`tc -s qdisc show dev IF`), TX dropped (`ip -s link`) and, for raw IP, Ip OutDiscards; lower the tool's rate (zmap -r/-B, masscan --rate, tcpreplay -M/--pps) or raise txqueuelen; headroom has no rule for a transmit queue's drops"
)

// pktSenderWhy classifies one line of these tools' output; ok false for any other line.
func pktSenderWhy(t string) (why string, ok bool) {
	c := strings.TrimSpace(strings.TrimLeft(t, "\r"))
	if c == "" {
		return "", false
	}
	if w, ok := pktSenderENOBUFS(c); ok {
		return w, true
	}
	if !hasDigit(c) {
		return "", false
	}
	switch {
	case strings.Contains(c, " errors (send/recv/cong)") && strings.Contains(c, " open sockets"):
		return sippErrorsWhy, true
	case strings.Contains(c, "; send: ") && strings.Contains(c, "; recv: ") && strings.Contains(c, " p/s"):
		return zmapStatusWhy, true
	case strings.HasPrefix(c, "rate:") || strings.HasPrefix(c, "rate ="):
		if strings.Contains(c, "-kpps,") && strings.Contains(c, "% done") {
			return masscanStatusWhy, true
		}
	case strings.HasPrefix(c, "Offending packet: ") && (strings.Contains(c, " > ") || strings.Contains(c, " ttl=")):
		return nmapOffendingWhy, true
	case strings.HasPrefix(c, "Increasing send delay for ") && strings.Contains(c, " from ") && strings.Contains(c, " due to "):
		return nmapDelayWhy, true
	case strings.Contains(c, " hping statistic ---"), strings.Contains(c, "packets transmitted, ") && strings.Contains(c, " received, ") && strings.Contains(c, "% packet loss"):
		return hpingStatsWhy, true
	case strings.HasPrefix(c, "Result: OK: ") && strings.Contains(c, "usec"),
		strings.Contains(c, "pps ") && strings.Contains(c, "Mb/sec (") && strings.Contains(c, "bps) errors: "):
		return pktgenResultWhy, true
	case strings.HasPrefix(c, "Actual: ") && strings.Contains(c, " packets (") && strings.Contains(c, " sent in "),
		strings.HasPrefix(c, "Rated: ") && strings.Contains(c, "Bps, ") && strings.Contains(c, "pps"),
		strings.HasPrefix(c, "Flows: ") && strings.Contains(c, " flows, ") && strings.Contains(c, " fps"),
		strings.HasPrefix(c, "Statistics for network device: "),
		tcpreplayCounter(c) != "":
		return tcpreplayWhy, true
	case strings.HasPrefix(c, "Queries "), strings.HasPrefix(c, "Response codes:"), strings.HasPrefix(c, "Run time (s):"),
		strings.HasPrefix(c, "Average packet size:"), strings.HasPrefix(c, "Average Latency (s):"), strings.HasPrefix(c, "Latency StdDev (s):"),
		strings.HasPrefix(c, "Maximum throughput:"), strings.HasPrefix(c, "Lost at that point:"):
		if dnsperfRow(c) {
			return dnsperfWhy, true
		}
	}
	return "", false
}

// tcpreplayCounter: the counter's label when c is one of tcpreplay's per-device rows
// ("Failed packets:            0").
func tcpreplayCounter(c string) string {
	for _, p := range [...]string{"Attempted packets:", "Successful packets:", "Failed packets:", "Truncated packets:", "Retried packets (ENOBUFS):", "Retried packets (EAGAIN):"} {
		if rest, ok := strings.CutPrefix(c, p); ok {
			if v := strings.TrimSpace(rest); v != "" && leadingDigits(v) == v {
				return p
			}
		}
	}
	return ""
}

// dnsperfRow: c is a row of dnsperf's statistics, "Label:" then spaces and figures.
func dnsperfRow(c string) bool {
	k := strings.Index(c, ":")
	if k < 0 || k > 32 {
		return false
	}
	switch c[:k] {
	case "Queries sent", "Queries completed", "Queries lost", "Queries interrupted", "Queries per second", "Response codes",
		"Run time (s)", "Average packet size", "Average Latency (s)", "Latency StdDev (s)", "Maximum throughput", "Lost at that point":
		return strings.HasPrefix(c[k+1:], " ") && hasDigit(c[k+1:])
	}
	return false
}

// pktSenderENOBUFS: c is one of these tools' own sends refused with ENOBUFS (a nonzero
// tcpreplay retry count included).
func pktSenderENOBUFS(c string) (string, bool) {
	if rest, ok := strings.CutPrefix(c, "Retried packets (ENOBUFS):"); ok {
		if v := strings.TrimSpace(rest); v != "" && leadingDigits(v) == v && strings.Trim(v, "0") != "" {
			return rawSendENOBUFSWhy, true
		}
		return "", false
	}
	k := strings.Index(c, vpnENOBUFSText)
	if k < 1 || (c[k-1] != 'N' && c[k-1] != 'n') || len(c) > maxErrnoLineBytes {
		return "", false
	}
	before := c[:k-1]
	switch {
	case strings.Contains(before, "send_packet failed for ") && strings.HasSuffix(before, ". "):
		return rawSendENOBUFSWhy, true // zmap's src/send.c log_debug
	case strings.Contains(before, "sendto in send_ip_packet_sd: sendto(") && strings.HasSuffix(before, "=> "):
		return rawSendENOBUFSWhy, true // nmap's tcpip.cc
	case strings.Contains(before, "eth_send of ") && strings.HasSuffix(before, "(errno=105: "):
		return rawSendENOBUFSWhy, true // nmap's send_frame via libdnet
	case strings.HasPrefix(before, "transmit: ") || strings.Contains(before, "rawsock") || strings.Contains(before, "pcap_sendpacket"):
		return rawSendENOBUFSWhy, strings.HasSuffix(before, ": ")
	}
	return "", false
}

// sippUDPSendENOBUFS: t is SIPp's UDP send refused with Linux's ENOBUFS (errno 105).
func sippUDPSendENOBUFS(t string) bool {
	return strings.Contains(t, "Unable to send UDP message, errno = 105")
}

// pktSenderLine names a packet tool's own line (above), and reads SIPp's UDP send refused with
// ENOBUFS as Udp SndbufErrors; a guide's example stays prose.
func (d *doc) pktSenderLine(i int, t string) bool {
	if sippUDPSendENOBUFS(t) {
		if d.exampleLog(i) {
			return false
		}
		d.noteUDPSendENOBUFS(i)
		return true
	}
	why, ok := pktSenderWhy(t)
	if !ok || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, why)
	return true
}
