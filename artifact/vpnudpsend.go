package artifact

import (
	"fmt"
	"strings"

	"headroom/model"
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
//   - strongSwan's charon (socket-default plugin): "error writing to socket: %s" with
//     strerror on its IKE UDP socket, "NN[NET] error writing to socket: No buffer space
//     available".
//
// udp_sendmsg counts every -ENOBUFS as Udp SndbufErrors (net/ipv4/udp.c: the send buffer
// past sk_sndbuf in __ip_append_data, or NET_XMIT_DROP from a full qdisc or device queue
// turned into -ENOBUFS by net_xmit_errno). It is no shortage of RAM. The rule
// udp-rcvbuf-errors reports it (diagnose/net_udp.go udpStated) as a warning with the
// number of such lines; no drop count is invented.
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
	if len(t) > maxErrnoLineBytes || !hasDigit(t) {
		return false
	}
	before := t[:k]
	if strings.HasSuffix(before, "error writing to socket: ") {
		// charon's IKE socket (UDP 500/4500): its "[NET]" subsystem tag or its name.
		return strings.Contains(before, "[NET]") || strings.Contains(before, "charon")
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

// vpnUDPSendLine records a daemon's UDP send refused with ENOBUFS as a stated sample for
// udp-rcvbuf-errors (model.RateStatedUDPSendENOBUFS), one per line.
func (d *doc) vpnUDPSendLine(i int, t string) bool {
	if !vpnUDPSendENOBUFS(t) || d.exampleLog(i) {
		return false
	}
	d.noteUDPSendENOBUFS(i)
	return true
}

// noteUDPSendENOBUFS records line i, a program's UDP send refused with ENOBUFS (a tunnel
// daemon's, rsyslog omfwd's), as a stated sample for udp-rcvbuf-errors.
func (d *doc) noteUDPSendENOBUFS(i int) {
	d.used[i] = true
	no := d.ls[i].No
	rates := model.Rates{model.RateStatedUDPSendENOBUFS: 1}
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: fmt.Sprintf("line %d (%s)", no, StatedMark), Rates: rates})
	d.addArtifact(KindStated, no, no, rates)
}

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
