package artifact

import (
	"fmt"
	"strings"
)

// A VPN or overlay daemon's own record of a UDP send refused with ENOBUFS (pre-round 22,
// h22b). Each tunnels its traffic in UDP datagrams and logs a failed send with the errno's
// text, as the program prints it:
//
//   - OpenVPN: check_status (src/openvpn/socket.h x_check_status) "%s %s: %s
//     (fd=%d,code=%d)", description "write" and proto2ascii's "UDPv4"/"UDPv6": "write UDPv4:
//     No buffer space available (fd=6,code=105)", with "[EXTENDED]" before the colon when
//     IP_RECVERR says more; 2.3's msg M_ERRNO "write UDPv4: No buffer space available
//     (code=105)". OpenVPN sets IP_RECVERR on Linux, so a qdisc's drop comes back as ENOBUFS.
//   - wireguard-go (device/send.go): "%v - Failed to send data packets: %v" with Go's
//     net.OpError, "write udp4 A->B: sendmsg: no buffer space available" (tailscale's wg
//     and magicsock lines carry the same Go error).
//   - Nebula (outside.go/inside.go): "Failed to write outgoing packet" with
//     error="sendto: no buffer space available" and udpAddr=.
//   - libreswan's pluto (programs/pluto/send.c): "sendto on %s to %s failed in %s" with
//     log_errno's ". Errno 105: No buffer space available".
//   - strongSwan's charon (socket-default plugin): "error writing to socket: %s" with
//     strerror on its IKE UDP socket, "NN[NET] error writing to socket: No buffer space
//     available".
//
// udp_sendmsg counts every -ENOBUFS as Udp SndbufErrors (net/ipv4/udp.c: the send buffer
// past sk_sndbuf in __ip_append_data, or NET_XMIT_DROP from a full qdisc or device queue
// turned into -ENOBUFS by net_xmit_errno; a failed skb allocation also gives it). The
// record is that counter's increment as the daemon saw it: the send side of
// udp-rcvbuf-errors, as rsyslog's omfwd line is (noteUDPSendENOBUFS, rcvbufcapped.go; one
// decision for both, docs/accuracy.md "UDP sends refused with ENOBUFS").
//
// A read that fails ("read UDPv4: ...", "recvmsg: ..."), a netlink socket's ENOBUFS
// (unreadnetlink.go), a write to the tun device ("write to TUN/TAP") and a sentence that
// only names the error are not this. Gated: one strings.Index for the errno's text (its
// first letter either case) or OpenVPN's "code=105" before any other test.

const vpnENOBUFSText = "o buffer space available"

// vpnUDPSendENOBUFS: t is a daemon's UDP send failing with ENOBUFS.
func vpnUDPSendENOBUFS(t string) bool {
	k := strings.Index(t, vpnENOBUFSText)
	if k < 1 {
		if k = strings.Index(t, "code=105)"); k < 0 {
			return false
		}
	} else if c := t[k-1]; c != 'N' && c != 'n' {
		return false
	} else {
		k--
	}
	if len(t) > maxErrnoLineBytes || !hasDigit(t) || !errnoTextEnds(t, k) {
		return false
	}
	before := t[:k]
	if strings.HasSuffix(before, "error writing to socket: ") {
		// charon's IKE socket (UDP 500/4500): its "[NET]" subsystem tag or its name.
		return strings.Contains(before, "[NET]") || strings.Contains(before, "charon")
	}
	if j := strings.Index(before, "sendto on "); j >= 0 && strings.Contains(before[j:], " failed in ") {
		// libreswan's pluto (programs/pluto/send.c): log_errno's "sendto on %s to %s failed in
		// %s" and ". Errno %d: %s" on its IKE UDP socket.
		return true
	}
	l := strings.ToLower(t)
	if !strings.Contains(l, "udp") || strings.Contains(l, "netlink") || strings.Contains(l, "tun/tap") {
		return false
	}
	lb := l[:k]
	// The failing call is a send: OpenVPN's "write UDPv4", Go's "write udp4 ...:
	// sendmsg:", Nebula's "sendto:", wireguard-go's "Failed to send".
	send := -1
	for _, v := range []string{"write ", "send", "writing "} {
		if j := strings.LastIndex(lb, v); j > send {
			send = j
		}
	}
	recv := -1
	for _, v := range []string{"read ", "recv", "reading "} {
		if j := strings.LastIndex(lb, v); j > recv {
			recv = j
		}
	}
	return send >= 0 && send > recv
}

// errnoTextEnds: the errno's text at t[k:] stands as strerror's is printed in a record,
// after ": " and ending the line or followed by the program's own punctuation (" (code=105)",
// "(fd=6,code=105)", a closing quote), not inside a sentence ("...: No buffer space available
// on my router?"). OpenVPN's bare "code=105)" is its own end.
func errnoTextEnds(t string, k int) bool {
	if strings.HasPrefix(t[k:], "code=105)") {
		return true
	}
	if k < 2 || t[k-2:k] != ": " {
		return false
	}
	after := strings.TrimRight(t[k+1+len(vpnENOBUFSText):], " \t\r")
	return after == "" || strings.IndexByte("(\"',;]", after[0]) >= 0 || strings.HasPrefix(after, " (") || strings.HasPrefix(after, " [")
}

// vpnUDPSendLine reads a daemon's UDP send refused with ENOBUFS and names its read's.
func (d *doc) vpnUDPSendLine(i int, t string) bool {
	if ovpnSplitStamp(&d.ls[i]) {
		t = d.ls[i].Host + " " + d.ls[i].Tag + ": " + t
	}
	send := vpnUDPSendENOBUFS(t)
	if !send && !vpnUDPReadENOBUFS(t) || d.exampleLog(i) {
		return false // the gates first: exampleLog looks back
	}
	if send && ovpnOtherOSCode(t) {
		d.unparsedUnread(i, vpnUDPSendOtherOSWhy)
	} else if send {
		d.noteUDPSendENOBUFS(i)
	} else {
		d.unparsedUnread(i, vpnUDPReadWhy)
	}
	return true
}

// ovpnOtherOSCode: OpenVPN's record carries an errno other than Linux's ENOBUFS (105) for
// "No buffer space available": FreeBSD's and macOS's is 55 (an OPNsense or pfSense box), so
// the line is not a Linux host's and no Linux counter grew.
func ovpnOtherOSCode(t string) bool {
	k := strings.LastIndex(t, "code=")
	if k < 0 {
		return false
	}
	n := leadingDigits(t[k+len("code="):])
	return n != "" && n != "105"
}

const vpnUDPSendOtherOSWhy = "a tunnel daemon's UDP send refused with \"No buffer space available\" under another system's errno (OpenVPN's code=N is errno; Linux's ENOBUFS is 105, FreeBSD's and macOS's 55): not a Linux host's, so no Linux counter (Udp SndbufErrors) or rule applies; on FreeBSD `netstat -m` (mbufs denied) and the interface's queue tell why"

// ovpnSplitStamp: OpenVPN's own log file ("2026-11-30 10:12:01 write UDPv4: ...", its
// --log with a date stamp) read by the syslog splitter as host "write" and tag "UDPv4".
func ovpnSplitStamp(l *Line) bool {
	return l.Syslog && (l.Host == "write" || l.Host == "read") && strings.HasPrefix(l.Tag, "UDP")
}

// vpnUDPReadENOBUFS: the same record on a read of the UDP socket ("read UDPv4: No buffer
// space available (code=105)", Go's "read udp4 ...: recvmsg: no buffer space available"),
// with no send in it.
func vpnUDPReadENOBUFS(t string) bool {
	k := strings.Index(t, vpnENOBUFSText)
	if k < 1 || len(t) > maxErrnoLineBytes || !hasDigit(t) || !errnoTextEnds(t, k-1) {
		return false
	}
	l := strings.ToLower(t[:k])
	return strings.Contains(l, "udp") && !strings.Contains(l, "netlink") && (strings.Contains(l, "read ") || strings.Contains(l, "recv")) &&
		!strings.Contains(l, "write ") && !strings.Contains(l, "send")
}

const vpnUDPReadWhy = "a tunnel daemon's read of its UDP socket returned ENOBUFS (OpenVPN's check_status \"read UDPv4: No buffer space available\", Go's \"recvmsg: no buffer space available\"): the error the socket reported, not a count of datagrams dropped at its receive buffer (Udp RcvbufErrors, which no read returns) and not a shortage of RAM; the Udp counters (`nstat -az UdpRcvbufErrors UdpSndbufErrors`) tell whether datagrams were lost; headroom has no rule for the line alone"

// isVPNTag: a tunnel daemon's syslog tag, whose lines vpnUDPSendLine reads (readsTag):
// OpenVPN's ("openvpn", Debian's openvpn@NAME unit "ovpn-NAME"), wireguard-go's,
// tailscaled's, strongSwan's charon, Nebula's, ZeroTier's, libreswan's pluto.
func isVPNTag(tag string) bool {
	switch tag {
	case "openvpn", "openvpn-server", "openvpn-client", "wireguard-go", "tailscaled", "charon", "charon-systemd",
		"nebula", "zerotier-one", "pluto", "ipsec":
		return true
	}
	return strings.HasPrefix(tag, "ovpn-")
}

// OpenVPN's socket buffer line (src/openvpn/socket.c socket_set_buffers, at verb 3 and up):
// "Socket Buffers: R=[%d->%d] S=[%d->%d]", SO_RCVBUF and SO_SNDBUF as getsockopt read them
// before and after OpenVPN set its rcvbuf/sndbuf options (the kernel's doubled values). It
// states sizes, no drops: the line is named with its figures and no rule fires on it. Equal
// figures are the usual case (no rcvbuf/sndbuf asked, or OpenVPN 2.6's default of leaving the
// kernel's size); an "after" below twice the configured request was capped at
// net.core.rmem_max/wmem_max, which this line alone cannot tell (the request is not in it).
const ovpnSockBufNeedle = "Socket Buffers: R=["

// ovpnSockBuffers reads the four figures of OpenVPN's line.
func ovpnSockBuffers(t string) (r0, r1, s0, s1 string, ok bool) {
	k := strings.Index(t, ovpnSockBufNeedle)
	if k < 0 {
		return "", "", "", "", false
	}
	rest := t[k+len(ovpnSockBufNeedle):]
	pair := func(rest, open string) (a, b, tail string, ok bool) {
		rest, ok = strings.CutPrefix(rest, open)
		if !ok {
			return "", "", "", false
		}
		a = leadingDigits(rest)
		rest, ok = strings.CutPrefix(rest[len(a):], "->")
		b = leadingDigits(rest)
		if !ok || a == "" || b == "" || !strings.HasPrefix(rest[len(b):], "]") {
			return "", "", "", false
		}
		return a, b, rest[len(b)+1:], true
	}
	r0, r1, rest, ok = pair(rest, "")
	if !ok {
		return "", "", "", "", false
	}
	s0, s1, _, ok = pair(rest, " S=[")
	return r0, r1, s0, s1, ok
}

// ovpnSockBufLine names OpenVPN's socket buffer line with its figures.
func (d *doc) ovpnSockBufLine(i int, t string) bool {
	r0, r1, s0, s1, ok := ovpnSockBuffers(t)
	if !ok || d.exampleLog(i) {
		return false
	}
	d.unparsedUnread(i, fmt.Sprintf("OpenVPN's socket buffers (src/openvpn/socket.c socket_set_buffers: SO_RCVBUF %s -> %s bytes, SO_SNDBUF %s -> %s bytes, as getsockopt reads them before and after its rcvbuf/sndbuf options, the kernel's doubled values): sizes, no drops; a size after below twice a configured request was capped at net.core.rmem_max or wmem_max; receive-buffer drops are Udp RcvbufErrors (netstat -su, nstat); no rule fires on the sizes alone", r0, r1, s0, s1))
	return true
}

// charon's SPI allocation refused by the kernel (libcharon kernel-netlink
// kernel_netlink_ipsec.c get_spi_internal, XFRM_MSG_ALLOCSPI; the IKE task's "unable to
// allocate SPI from kernel"): the XFRM layer gave no free SPI or refused the request; an
// IPsec state's failure, no socket buffer and no memory reading.
const charonSPIWhy = "strongSwan's charon could not get an SPI from the kernel (kernel-netlink's XFRM_MSG_ALLOCSPI request refused: \"unable to allocate SPI\"): an IPsec state the XFRM layer would not create (the xfrm module, a full SPI range, a conflicting state); no socket buffer and no memory reading; /proc/net/xfrm_stat counts the XFRM layer's errors; headroom has no rule for it"

func charonSPILine(t string) bool {
	k := strings.Index(t, "unable to allocate SPI")
	return k > 0 && hasDigit(t[:k]) && (strings.Contains(t[:k], "[KNL]") || strings.Contains(t[:k], "[IKE]") || strings.Contains(t[:k], "[CHD]") || strings.Contains(t[:k], "charon"))
}

// jaeger-client-cpp's UDP sender (fix36b): UDPTransport::flush / ThriftSender catch the
// std::system_error of the UDP socket's send and rethrow it as "Could not send span " +
// what() + ", code=" + the errno's value; the reporter logs it through ErrorUtil
// ("Failed to flush spans in reporter: Could not send span No buffer space available,
// code=105, numFailed=N"). Its only system_error sender is the UDP agent transport (the
// HTTP one reports curl's errors), so errno 105 there is udp_sendmsg's -ENOBUFS, counted in
// Udp SndbufErrors: the send side of udp-rcvbuf-errors (noteUDPSendENOBUFS). The error
// quoted with its code in a title or sentence that says a span send hit it ("... occurred at
// span send") is the same record. Gated: one strings.Index for the errno's text followed by
// ", code=105".
const jaegerENOBUFSText = "o buffer space available, code=105"

// jaegerSpanSendENOBUFS: t holds jaeger-client-cpp's span send refused with ENOBUFS.
func jaegerSpanSendENOBUFS(t string) bool {
	k := strings.Index(t, jaegerENOBUFSText)
	if k < 1 || len(t) > maxErrnoLineBytes || (t[k-1] != 'N' && t[k-1] != 'n') {
		return false
	}
	if after := t[k+len(jaegerENOBUFSText):]; after != "" && after[0] >= '0' && after[0] <= '9' {
		return false // code=1050: another number
	}
	before := t[:k-1]
	if strings.Contains(before, "Could not send span ") {
		return true
	}
	l := strings.ToLower(t)
	return strings.Contains(l, "span") && strings.Contains(l, "send")
}
