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

const netlinkENOBUFSWhy = "a program's netlink socket overran: its recvmsg on a netlink socket returned ENOBUFS (\"No buffer space available\"; babeld's kernel_netlink.c netlink_read: \"netlink_read: recvmsg(): No buffer space available\"): the kernel could not queue a route, link or neighbour notification into that socket's receive buffer and dropped it (net/netlink/af_netlink.c netlink_overrun); the daemon resyncs or retries. The buffer is the socket's SO_RCVBUF, capped at net.core.rmem_max; a burst of changes outruns it. Not the host's memory, not a NIC's drops and not a send refused for buffer space; one such line after a boot or a full-table load is no memory shortage"

// netlinkRecvENOBUFS says why t is a program's netlink recvmsg failing with ENOBUFS.
func netlinkRecvENOBUFS(t string) (string, bool) {
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
