package artifact

import (
	"fmt"
	"strings"
)

// QUIC stacks' own records of a UDP send that failed (pre-round 29, h29a). A QUIC
// endpoint sends every packet with sendmsg on a UDP socket (with UDP_SEGMENT, GSO, when the
// kernel has it), so an ENOBUFS it records is udp_sendmsg's -ENOBUFS, which the kernel counts
// in Udp SndbufErrors (net/ipv4/udp.c: the send buffer past sk_sndbuf, a qdisc or device
// queue that dropped the datagram, a failed skb allocation): the send side of
// udp-rcvbuf-errors (noteUDPSendENOBUFS), as omfwd's, the tunnel daemons' and the DNS
// servers' lines are (h22b, h27a, h28b). The forms, from each program's format string:
//
//   - quinn-udp (quinn's UDP layer, Rust; src/unix.rs log_sendmsg_error, at most once a
//     minute): warn!("sendmsg error: {:?}, Transmit: { destination: {:?}, src_ip: {:?},
//     ecn: {:?}, len: {:?}, segment_size: {:?} }"), the error as Rust's io::Error Debug,
//     `Os { code: 105, kind: Uncategorized, message: "No buffer space available" }` (an
//     early release printed the error alone, "enc:" for "ecn:" in some).
//   - nginx's QUIC (src/os/unix/ngx_udp_sendmsg.c ngx_sendmsg): ngx_connection_error(c, err,
//     "sendmsg() failed"), an [alert] for ENOBUFS, "*N sendmsg() failed (105: No buffer
//     space available)" with the connection's number "*N"; ngx_write_channel's "sendmsg()
//     failed" (the master's AF_UNIX channel to its workers) has no connection, so no "*N",
//     and is left to the errno readers.
//   - curl's HTTP/3 (lib/vquic/vquic.c do_sendmsg, ngtcp2/quiche/OpenSSL QUIC): failf(data,
//     "sendmsg() returned %zd (errno %d)"), "; disable GSO" after it for EIO on a GSO send.
//
// The same calls with another errno are no memory evidence and are named with what they
// are: EMSGSIZE (90) a datagram over the path MTU or a GSO batch the device refuses, EIO (5)
// a GSO send the driver cannot segment (curl and quic-go then send without GSO), EPERM (1)
// a firewall's drop, ENETUNREACH/EHOSTUNREACH a route. Go's own "write udp A->B: sendmsg:
// message too long" (quic-go's connection error, Caddy's and AdGuard's log of it) likewise;
// Go's "sendmsg: no buffer space available" is read already (vpnudpsend.go).
// Gated: a strings.Contains for "--> " (Chromium's net log), "Write failed with error: "
// (quiche) or "sendmsg" before any other test.

const quicSendOtherWhy = "a QUIC stack's UDP send (sendmsg) failed with an errno that is no memory shortage: EMSGSIZE (90, \"message too long\") is a datagram over the path MTU or a GSO batch (UDP_SEGMENT) the device or route refuses, EIO (5) a GSO send the driver could not segment (curl and quic-go then send without GSO), EPERM (1) a firewall's drop, ENETUNREACH/EHOSTUNREACH a route; no socket buffer, queue or page allocation is involved (`ethtool -k` tx-udp-segmentation tells about GSO); headroom has no rule for it"

const quicSendOtherOSWhy = "curl's HTTP/3 send (lib/vquic/vquic.c): sendmsg failed with an errno other than Linux's ENOBUFS (105): 55 is ENOBUFS on macOS and the BSDs, so the text is likely not a Linux host's and no Linux counter grew; headroom has no rule for it"

// Chromium's net log (chrome://net-export read in the netlog viewer, or net-internals'
// events as text) prints a failed UDP send as "UDP_SEND_ERROR" with "--> net_error = -55
// (ERR_NO_BUFFER_SPACE)" and a QUIC session closed for it with "--> quic_error = 27
// (QUIC_PACKET_WRITE_ERROR)" (net/log/net_log_event_type_list.h, net/base/net_error_list.h,
// quiche's quic_error_codes.h). ERR_NO_BUFFER_SPACE is ENOBUFS on Linux and WSAENOBUFS on
// Windows; the log does not say which OS, so it is named, not read as this host's counter.
// quiche's QuicConnection::OnWriteError logs "Write failed with error: %d (%s)" with the
// errno and strerror: 105 with Linux's text is udp_sendmsg's ENOBUFS (read below).
const chromeNoBufferWhy = "Chromium's net log: a UDP send of its QUIC session failed with ERR_NO_BUFFER_SPACE (-55), Chromium's name for ENOBUFS on Linux (udp_sendmsg, counted in Udp SndbufErrors: the socket's send buffer or a full qdisc or device queue) and WSAENOBUFS on Windows, or the session was closed for a write error (QUIC_PACKET_WRITE_ERROR); the log does not say which OS, and it counts nothing on the host: on a Linux host `nstat -az UdpSndbufErrors` and `tc -s qdisc` tell; headroom has no reader for Chromium's net log"

// chromeNetLogNoBuffer: t is a net log's ERR_NO_BUFFER_SPACE or QUIC_PACKET_WRITE_ERROR
// parameter line ("--> net_error = -55 (ERR_NO_BUFFER_SPACE)", "--> quic_error = 27
// (QUIC_PACKET_WRITE_ERROR)").
func chromeNetLogNoBuffer(t string) bool {
	k := strings.Index(t, "--> ")
	if k < 0 {
		return false
	}
	r := t[k+len("--> "):]
	return strings.HasPrefix(r, "net_error = -55 (ERR_NO_BUFFER_SPACE)") ||
		strings.HasPrefix(r, "quic_error = ") && strings.HasSuffix(strings.TrimRight(r, " \r"), "(QUIC_PACKET_WRITE_ERROR)")
}

// quicheWriteFailed: quiche's "Write failed with error: 105 (No buffer space available)" on
// a QUIC connection's line (the errno and Linux's strerror): ok with the errno.
func quicheWriteFailed(t string) (int, bool) {
	k := strings.Index(t, "Write failed with error: ")
	if k < 0 || !strings.Contains(strings.ToLower(t[:k]), "quic") {
		return 0, false
	}
	n, rest := leadingInt(t[k+len("Write failed with error: "):])
	if n <= 0 || !strings.HasPrefix(rest, " (") {
		return 0, false
	}
	if n == 105 {
		return n, strings.HasPrefix(rest, " (No buffer space available)")
	}
	return n, true
}

// quicSendErrno finds a QUIC stack's failed sendmsg in t and returns the errno it printed
// (0 when it printed none as a number: quinn's early form without a code).
func quicSendErrno(t string) (errno int, ok bool) {
	if k := strings.Index(t, "sendmsg error: Os { code: "); k >= 0 {
		// quinn-udp: the io::Error's code, then its message in quotes.
		n, rest := leadingInt(t[k+len("sendmsg error: Os { code: "):])
		return n, n > 0 && strings.HasPrefix(rest, ", kind: ") && recordHead(t[:k])
	}
	if k := strings.Index(t, "sendmsg() failed ("); k > 0 {
		// nginx: "*N " (the connection) just before, "(E: text)" after.
		if !nginxConnBefore(t[:k]) {
			return 0, false
		}
		n, rest := leadingInt(t[k+len("sendmsg() failed ("):])
		return n, n > 0 && strings.HasPrefix(rest, ": ")
	}
	if k := strings.Index(t, "sendmsg() returned -1 (errno "); k >= 0 {
		n, rest := leadingInt(t[k+len("sendmsg() returned -1 (errno "):])
		return n, n > 0 && strings.HasPrefix(rest, ")") && recordHead(t[:k])
	}
	return 0, false
}

// recordHead: before is what a logger prints ahead of the message: nothing, a level or
// target ending ": " or "] " (tracing's "WARN quinn_udp: ", env_logger's "[... WARN
// quinn_udp] "), curl's verbose "* " or its "curl: (55) "; a sentence that quotes the
// message ("curl said sendmsg() returned ...") is not one. fix34a (corpus 2899): a level
// word alone after the time, with no target ("25-07-21 21:02:22.913 WARN sendmsg error:",
// a logger that prints the time and the level only) is one too.
func recordHead(before string) bool {
	b := strings.TrimLeft(before, " \t>`")
	return b == "" || b == "*" || strings.HasSuffix(b, ": ") || strings.HasSuffix(b, "] ") || strings.HasSuffix(b, "* ") || strings.HasSuffix(b, ") ") || stampLevelHead(b)
}

// stampLevelHead: b ends with a logger's level in capitals after a time of day or nothing,
// "21:02:22.913 WARN ", "ERROR "; "the log says WARN " has words, not a time, before it.
func stampLevelHead(b string) bool {
	f := fields(b)
	if len(f) == 0 || !strings.HasSuffix(b, " ") {
		return false
	}
	switch f[len(f)-1] {
	case "WARN", "WARNING", "ERROR", "INFO", "DEBUG", "TRACE":
	default:
		return false
	}
	if len(f) == 1 {
		return true
	}
	prev := f[len(f)-2]
	return strings.Count(prev, ":") >= 2 && hasDigit(prev)
}

// A WinSock error code (fix34a, corpus 2899): Windows' socket calls fail with WSAGetLastError's
// codes, WSABASEERR (10000) plus the BSD number (winerror.h: 10040 WSAEMSGSIZE, 10055
// WSAENOBUFS, 10054 WSAECONNRESET), up to 11031 for the QoS codes; Rust's io::Error on
// Windows prints that code in "Os { code: 10040, ... }", as quinn-udp's send record does.
// No Unix errno is near it (Linux's end below 135, the BSDs' and macOS's below 110), so the
// record is a Windows host's: no Linux counter (Udp SndbufErrors) grew for it.
func winsockCode(errno int) bool { return errno >= 10004 && errno <= 11031 }

const quicSendWinsockWhy = "a QUIC stack's UDP send record with a WinSock error code (Rust's io::Error on Windows, \"Os { code: 10040 }\" is WSAEMSGSIZE: a datagram larger than the buffer or limit it was sent into; 10055 is WSAENOBUFS): a Windows host's, not Linux's, so no Linux counter (Udp SndbufErrors) or rule applies"

// noteWinsock records that a send record carried a WinSock code (what setWindowsOS names).
func (d *doc) noteWinsock(seen string) {
	if d.winsockSeen == "" {
		d.winsockSeen = seen
	}
}

// setWindowsOS names Windows as the text's system when a program's send record carried a
// WinSock error code and nothing else the text holds is a Linux host's (as setOtherOS does
// for a BSD's markers): the text is evidence of that Windows host, not an empty one.
func (d *doc) setWindowsOS() {
	if d.winsockSeen == "" || d.tl.Host.OtherOS != "" || d.tl.Host.Kernel != "" || !NothingRead(d.tl) {
		return
	}
	d.tl.Host.OtherOS = "Windows (seen: " + d.winsockSeen + ")"
}

// nginxConnBefore: before ends with nginx's connection number, "*1203 ".
func nginxConnBefore(before string) bool {
	before = strings.TrimSuffix(before, " ")
	j := strings.LastIndexByte(before, '*')
	if j < 0 || j == len(before)-1 {
		return false
	}
	for _, c := range before[j+1:] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return j == 0 || before[j-1] == ' '
}

// leadingInt reads the decimal digits at the start of s (at most 9) and returns them and
// the rest.
func leadingInt(s string) (int, string) {
	n, i := 0, 0
	for i < len(s) && i < 9 && s[i] >= '0' && s[i] <= '9' {
		n = n*10 + int(s[i]-'0')
		i++
	}
	if i == 0 {
		return -1, s
	}
	return n, s[i:]
}

// goSendmsgNotMemory: Go's net.OpError of a UDP send refused for its size or by the driver's
// segmentation ("write udp A->B: sendmsg: message too long", "...: sendmsg: input/output
// error"), as quic-go's connection and its users log it.
func goSendmsgNotMemory(t string) bool {
	k := strings.Index(t, ": sendmsg: ")
	if k < 0 {
		return false
	}
	w := strings.LastIndex(t[:k], "write udp")
	if w < 0 || strings.IndexByte(t[w:k], '>') < 0 {
		return false
	}
	rest := t[k+len(": sendmsg: "):]
	return strings.HasPrefix(rest, "message too long") || strings.HasPrefix(rest, "input/output error")
}

// quicSendLine reads a QUIC stack's failed UDP send: ENOBUFS (Linux's 105) as the send side
// of udp-rcvbuf-errors, any other errno named with what it is.
func (d *doc) quicSendLine(i int, t string) bool {
	if len(t) > maxErrnoLineBytes {
		return false
	}
	if strings.Contains(t, "--> ") && chromeNetLogNoBuffer(t) && !d.exampleLog(i) {
		d.unparsedUnread(i, chromeNoBufferWhy)
		return true
	}
	errno, ok := quicheWriteFailed(t)
	if !ok && !strings.Contains(t, "sendmsg") {
		return false
	}
	if !ok {
		errno, ok = quicSendErrno(t)
	}
	other := !ok && goSendmsgNotMemory(t)
	if !ok && !other || d.exampleLog(i) {
		return false
	}
	switch {
	case other:
		d.unparsedUnread(i, quicSendOtherWhy)
	case errno == 105 && d.udpSendENOBUFS > 0 && strings.HasPrefix(strings.TrimLeft(t, " \t>`"), "curl: ("):
		d.used[i] = true // curl's exit line repeats the verbose record: one failure, counted once
	case errno == 105:
		d.noteUDPSendENOBUFS(i)
	case errno == 55 && strings.Contains(t, "sendmsg() returned"):
		d.unparsedUnread(i, quicSendOtherOSWhy)
	case winsockCode(errno):
		d.unparsedUnread(i, quicSendWinsockWhy)
		d.noteWinsock(fmt.Sprintf("WinSock error %d in a QUIC stack's send record", errno))
	default:
		d.unparsedUnread(i, quicSendOtherWhy)
	}
	return true
}
