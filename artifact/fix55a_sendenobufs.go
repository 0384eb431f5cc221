package artifact

import "strings"

// fix55a: a program's send refused with ENOBUFS, its message quoted without any figure (a
// time, a pid, a socket's number) that errnoLogLine's record test needs: "`WARN: GRE packet
// send failed: No buffer space available`" (a tunnel daemon's raw socket, quoted in an
// issue), "sendto: No buffer space available", "sendmsg: no buffer space available" (Go's
// lower case). strerror(ENOBUFS) after ": " at the end of the message (a closing quote or
// code mark may follow), with a send named in the words before it: the kernel refused the
// packet on its way out: NET_XMIT_DROP from a full qdisc or device queue turned into
// -ENOBUFS (net_xmit_errno, include/linux/netdevice.h; raw and packet sockets return it from
// dev_queue_xmit), or no skb under the socket's send buffer (sock_alloc_send_pskb). The line
// is read and named with what would tell which; nothing is diagnosed from it (no count, and
// no receive buffer or memory figure). Not this: a receive or read ("recvmsg: ..."), a
// netlink socket's (unreadnetlink.go: events lost on receive), a socket buffer being sized
// ("Failed to adjust socket send buffer size.: No buffer space available", setsockopt), a
// question, a condition, and a sentence that goes on after the error's text.

const sendENOBUFSWhy = "a program's send refused with ENOBUFS (No buffer space available), quoted without a count: the packet was dropped on its way out at a full qdisc or device queue (NET_XMIT_DROP turned into -ENOBUFS by net_xmit_errno), or the socket's send buffer had no room for it (sock_alloc_send_pskb); a send-side backpressure symptom, not a receive-buffer drop and not by itself a memory shortage; what would tell which is not in the text: `tc -s qdisc show dev DEV` (dropped, backlog), `ip -s link show DEV` (TX dropped) and, for UDP, nstat's UdpSndbufErrors; headroom has no reader for this line"

// sendENOBUFSQuoted says why t quotes a program's send refused with ENOBUFS (above).
func sendENOBUFSQuoted(t string) (string, bool) {
	if len(t) > maxErrnoLineBytes {
		return "", false
	}
	k := strings.Index(t, vpnENOBUFSText)
	if k < 3 || t[k-1] != 'N' && t[k-1] != 'n' || t[k-3:k-1] != ": " {
		return "", false
	}
	after := strings.TrimRight(t[k+len(vpnENOBUFSText):], " \t\r.")
	after = strings.TrimLeft(after, "`'\"”’)]*")
	if strings.TrimSpace(after) != "" {
		return "", false // a sentence goes on ("... available on my router?")
	}
	before := strings.ToLower(t[:k-3])
	if strings.Contains(before, "netlink") || conditionLead(before) || reHypothetical.MatchString(before) || strings.ContainsAny(before, "?？") {
		return "", false
	}
	if strings.Contains(before, "buffer size") || strings.Contains(before, "setsockopt") || strings.Contains(before, "sndbuf") || strings.Contains(before, "rcvbuf") {
		return "", false // sizing a socket's buffer (macOS's setsockopt refused past kern.ipc.maxsockbuf), no send
	}
	for _, b := range []string{"send buffer", "send_buffer", "send-buffer"} {
		before = strings.ReplaceAll(before, b, "")
	}
	send, recv := -1, -1
	for _, v := range []string{"send", "write", "writing", "xmit", "transmit"} {
		send = max(send, strings.LastIndex(before, v))
	}
	for _, v := range []string{"recv", "read", "receiv"} {
		recv = max(recv, strings.LastIndex(before, v))
	}
	if send < 0 || send < recv {
		return "", false
	}
	return sendENOBUFSWhy, true
}
