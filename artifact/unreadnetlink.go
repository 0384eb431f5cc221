package artifact

import "strings"

// A program's read of its own netlink socket failing with ENOBUFS (fix19c): a routing
// daemon's, or any program's, "recvmsg" on a netlink socket returned "No buffer space
// available". The kernel sets ENOBUFS on a netlink socket when a notification (a route, link
// or neighbour change) would not fit its receive buffer (net/netlink/af_netlink.c
// netlink_overrun): the notification was dropped and the program must resync. Real forms:
// babeld kernel_netlink.c netlink_read: perror("netlink_read: recvmsg()") ->
// "netlink_read: recvmsg(): No buffer space available"; zebra's "netlink-listen recvmsg
// overrun: ..." is netlinkOverrun's (unreadwebapp.go). The buffer is the socket's SO_RCVBUF,
// capped at net.core.rmem_max: a burst of route changes outruns it. Not the host's memory,
// not a NIC's drops, not a send refused for buffer space (errnoLogLine's reading).
//
// The words must sit together as the program prints them: "netlink" at most
// netlinkNearBytes before "recvmsg", ENOBUFS at most netlinkGapBytes after it. A sentence
// that only names them ("does netlink use recvmsg? I saw no buffer space available") is
// prose. Gate: one strings.Index for "No buffer space available" or "ENOBUFS".

const (
	netlinkNearBytes = 32 // "netlink_read: " / "Netlink socket: " / "netlink-cmd (NS 0) "
	netlinkGapBytes  = 12 // "(): " / ": " / "() failed: " / " error: "
)

const netlinkENOBUFSWhy = "a program's netlink socket overran: its recvmsg on a netlink socket returned ENOBUFS (\"No buffer space available\"; babeld's \"netlink_read: recvmsg(): No buffer space available\", ip monitor's \"netlink receive error No buffer space available (105)\", conntrack -E, ulogd's \"We are losing events\"): the kernel could not queue a route, link or neighbour notification into that socket's receive buffer and dropped it (net/netlink/af_netlink.c netlink_overrun); the daemon resyncs or retries. The buffer is the socket's SO_RCVBUF, capped at net.core.rmem_max; a burst of changes outruns it. Not the host's memory, not a NIC's drops and not a send refused for buffer space; one such line after a boot or a full-table load is no memory shortage"

// netlinkRecvENOBUFS says why t is a program's netlink recvmsg failing with ENOBUFS, in the
// recvmsg form or a listener's own (netlinkListenerENOBUFS).
func netlinkRecvENOBUFS(t string) (string, bool) {
	if why, ok := netlinkRecvmsgENOBUFS(t); ok {
		return why, true
	}
	if netlinkListenerENOBUFS(t) {
		return netlinkENOBUFSWhy, true
	}
	return "", false
}

func netlinkRecvmsgENOBUFS(t string) (string, bool) {
	e := strings.Index(t, "No buffer space available")
	if e < 0 {
		if e = strings.Index(t, "ENOBUFS"); e < 0 {
			return "", false
		}
	}
	if len(t) > maxErrnoLineBytes && !jsonLogRecord(t) {
		return "", false
	}
	head := t[:e]
	r := strings.LastIndex(head, "recvmsg")
	if r < 0 || len(head)-(r+len("recvmsg")) > netlinkGapBytes {
		return "", false
	}
	gap := head[r+len("recvmsg"):]
	if strings.ContainsAny(gap, "?.") && !strings.Contains(gap, "()") {
		return "", false // "recvmsg. No buffer space available", a sentence's break
	}
	near := head[:r]
	if len(near) > netlinkNearBytes {
		near = near[len(near)-netlinkNearBytes:]
	}
	if !strings.Contains(near, "etlink") && !strings.Contains(near, "NETLINK") {
		return "", false
	}
	return netlinkENOBUFSWhy, true
}

// isRoutingDaemonTag: the syslog tags of routing daemons that h14a's list (isWebAppTag)
// lacked: FRR's and Quagga's other protocol daemons, babeld (standalone and FRR's), OLSR's,
// BIRD 2's. Their lines go to serverLogWhy, where a netlink overrun is named before the errno
// reading.
func isRoutingDaemonTag(tag string) bool {
	switch tag {
	case "babeld", "ripd", "ripngd", "isisd", "ldpd", "pimd", "pim6d", "eigrpd", "nhrpd",
		"bfdd", "staticd", "fabricd", "vrrpd", "pathd", "olsrd", "olsrd2", "bird2":
		return true
	}
	return false
}

// A netlink socket's receive buffer overrun (h31c): a program that listens to the kernel's
// netlink events reports that it lost some. iproute2's `ip monitor` (lib/libnetlink.c
// rtnl_listen: "netlink receive error %s (%d)", strerror(ENOBUFS) and 105), conntrack-tools'
// `conntrack -E` ("conntrack vX (conntrack-tools): Operation failed: No buffer space
// available": conntrack speaks to the kernel only over ctnetlink), ulogd's NFCT and NFLOG
// inputs ("We are losing events ... netlink_socket_buffer_size"), libnl's and pyroute2's
// "Netlink ... receive buffer overrun" (NLMSG_OVERRUN), a Go agent's "netlink receive:
// no buffer space available". The kernel's side: netlink_overrun (net/netlink/af_netlink.c)
// sets ENOBUFS on the socket when a message finds its receive queue past sk_rcvbuf, and the
// next recvmsg returns it: events (routes, links, conntrack entries, logged packets) were
// lost, no packet of the host's traffic. The listener's own buffer (its SO_RCVBUF, capped by
// net.core.rmem_max unless set with SO_RCVBUFFORCE; conntrack -E --buffer-size, ulogd's
// netlink_socket_buffer_size) is the remedy; no rule of headroom judges it, so the line is
// named, not diagnosed (netlinkENOBUFSWhy). Asked before errnoReasons: their ENOBUFS reason is
// a send's.
//
// Not read: a sentence about the error (a question, a condition, the errno's text inside
// prose that goes on), and a line without the program's record shape.

// netlinkListenerENOBUFS: t is a netlink listener's record of a receive buffer overrun.
func netlinkListenerENOBUFS(t string) bool {
	if !strings.Contains(t, "etlink") && !strings.Contains(t, "ETLINK") && !strings.Contains(t, "(conntrack-tools)") {
		return false
	}
	s := strings.TrimRight(t, " \t\"'`}")
	if strings.HasSuffix(s, "?") {
		return false // a question about it
	}
	for _, w := range []string{"o buffer space available", "ENOBUFS", "buffer overrun", "losing events"} {
		k := strings.Index(t, w)
		if k < 0 {
			continue
		}
		if conditionLead(t[:k]) {
			return false // "if netlink returns ENOBUFS ...": a condition, advice
		}
		if w != "buffer overrun" && w != "losing events" && !netlinkReadContext(t[:k]) {
			continue // a send's, or a request's answer ("RTNETLINK answers: ..."): no overrun
		}
		switch w {
		case "o buffer space available":
			// strerror's text as printed: after ": ", " error " (rtnl_listen) or "= "
			// (libnl's "errno = ..."), then the record's end or its own punctuation.
			if k < 1 || k+len(w) > len(t) {
				continue
			}
			if b := t[:k-1]; strings.HasSuffix(b, ": ") || strings.HasSuffix(b, "error ") || strings.HasSuffix(b, "= ") || strings.HasSuffix(b, "\"") {
				if recordTextEnds(t[k+len(w):]) {
					return true
				}
			}
		case "ENOBUFS":
			if wordAt(t, k, len(w)) {
				return true
			}
		default:
			if recordTextEnds(t[k+len(w):]) {
				return true
			}
		}
	}
	return false
}

// recordTextEnds: after, what follows a message's words in a record, ends it or is the
// program's own punctuation (" (105)", ": ...", a comma, a quote), not a sentence going on.
func recordTextEnds(after string) bool {
	after = strings.TrimRight(after, " \t\r")
	return after == "" || strings.IndexByte("(\"',;:]}.!", after[0]) >= 0 || strings.HasPrefix(after, " (") || strings.HasPrefix(after, " [")
}

// netlinkReadContext: the words before the errno say it came from a read of the socket
// (rtnl_listen's "netlink receive error", a monitor, an event loop, conntrack's dump or
// event read), not from a send ("netlink_talk: sendmsg()") or a request's answer
// ("RTNETLINK answers: ", the kernel's reply to one request).
func netlinkReadContext(before string) bool {
	l := strings.ToLower(before)
	if strings.Contains(l, "send") || strings.Contains(l, "answers") {
		return false
	}
	for _, w := range []string{"receiv", "recv", "read", "listen", "monitor", "event", "(conntrack-tools)"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}
