package diagnose

import (
	"strings"
	"testing"

	"headroom/artifact"
)

// h22b: a tunnel daemon's UDP send refused with ENOBUFS (artifact/vpnudpsend.go), in the
// forms users paste it. udp_sendmsg counts each such return in Udp SndbufErrors, so it is
// the send side of udp-rcvbuf-errors, as rsyslog's omfwd line is: a warning that names the
// send path (the send buffer, a qdisc or device queue, an skb allocation) and proposes no
// receive buffer; never an OOM or a memory finding.
func TestH22bTunnelUDPSendENOBUFS(t *testing.T) {
	const ovpn23 = "Nov 30 10:12:01 vpn1 openvpn[1234]: write UDPv4: No buffer space available (code=105)\n"
	const ovpn26 = "2026-11-30 10:12:01 client1/203.0.113.5:1194 write UDPv4 []: No buffer space available (fd=6,code=105)\n"
	const wggo = "Nov 30 10:20:11 host wireguard-go[812]: ERROR: (wg0) 2026/11/30 10:20:11 peer(AbCd…WxYz) - Failed to send data packets: write udp4 0.0.0.0:51820->198.51.100.7:51820: sendmsg: no buffer space available\n"
	const nebula = "Nov 30 12:00:00 lh nebula[700]: time=\"2026-11-30T12:00:00Z\" level=error msg=\"Failed to write outgoing packet\" error=\"sendto: no buffer space available\" udpAddr=\"198.51.100.3:4242\"\n"
	const charon = "Nov 30 11:00:00 gw charon: 09[NET] error writing to socket: No buffer space available\n"
	for _, text := range []string{
		ovpn23 + ovpn23 + ovpn23, // three records, counted below
		"ovpn-server[1234]: write UDPv6: No buffer space available (fd=5,code=105)\n",
		ovpn26,
		"> " + ovpn23,
		"openvpn-1  | " + ovpn26,
		wggo,
		"```\n" + wggo + "```\n",
		nebula,
		charon,
		"2026-11-30 10:12:01 write UDPv4: No buffer space available (fd=6,code=105)\n",
		"Mon Nov 30 10:12:01 2026 us=123456 write UDPv4: No buffer space available (code=105)\n",
		"Nov 30 11:05:00 gw pluto[2211]: ERROR: \"tun-a\" #12: sendto on eth0 to 198.51.100.1:4500 failed in STATE_V2_ESTABLISHED_CHILD_SA. Errno 105: No buffer space available\n",
		"Nov 30 10:30:02 host tailscaled[901]: magicsock: sendUDP: write udp4 0.0.0.0:41641->203.0.113.9:41641: sendmsg: no buffer space available\n",
	} {
		wantUDPSendSide(t, text, "oom-kill", "min-free-too-low", "alloc-fail-reserve")
	}
	d, _ := rootOf(t, ovpn23+ovpn23+ovpn23)
	if f := findingOf(d, "udp-rcvbuf-errors"); f == nil || !strings.Contains(evidenceText(f), "3 records in the text") {
		t.Errorf("three OpenVPN records not counted: %+v", f)
	}
	// Counter-cases, no finding: a read's ENOBUFS, a write to the tun device, another errno, a netlink
	// socket's ENOBUFS, the words in a question, the buffer sizes as configuration, OpenVPN's
	// socket buffer line (healthy or not: sizes, no drops), charon's SPI failure.
	for _, text := range []string{
		"Nov 30 10:12:01 vpn1 openvpn[1234]: read UDPv4: No buffer space available (code=105)\n",
		"Nov 30 10:12:01 vpn1 openvpn[1234]: write to TUN/TAP : No buffer space available (fd=7,code=105)\n",
		"Nov 30 10:12:01 vpn1 openvpn[1234]: write UDPv4 [EHOSTUNREACH]: No route to host (fd=6,code=113)\n",
		"Nov 30 10:20:11 host wireguard-go[812]: ERROR: (wg0) 2026/11/30 10:20:11 peer(AbCd) - Failed to send data packets: write udp4 0.0.0.0:51820->198.51.100.7:51820: sendmsg: message too long\n",
		"Nov 30 10:30:02 host tailscaled[901]: monitor: netlink receive: recvmsg: no buffer space available\n",
		"Why would OpenVPN say write UDPv4: No buffer space available on my router?\n",
		"listen:\n  host: 0.0.0.0\n  port: 4242\n  read_buffer: 10485760\n  write_buffer: 10485760\n",
		"sndbuf 393216\nrcvbuf 393216\n",
		"Nov 30 10:11:58 vpn1 openvpn[1234]: Socket Buffers: R=[212992->212992] S=[212992->212992]\n",
		"sndbuf 4194304\nrcvbuf 4194304\nNov 30 10:11:58 vpn1 openvpn[1234]: Socket Buffers: R=[212992->425984] S=[212992->425984]\n",
		"Nov 30 11:00:00 gw charon: 12[KNL] unable to allocate SPI from kernel\n",
		"Nov 30 10:29:58 host tailscaled[901]: magicsock: [warning] failed to force-set UDP read buffer size to 7340032: operation not permitted; using kernel default values (impacts throughput only)\n",
		"2026-11-30 10:12:01 read UDPv4: No buffer space available (fd=6,code=105)\n",
		"Nov 30 11:05:00 gw pluto[2211]: ERROR: \"tun-a\" #12: sendto on eth0 to 198.51.100.1:4500 failed in main_outI1. Errno 101: Network is unreachable\n",
		"Nov 30 10:12:01 fw openvpn[834]: write UDP: No buffer space available (code=55)\n", // FreeBSD's ENOBUFS: not a Linux host's
	} {
		if d, _ := rootOf(t, text); findingOf(d, "udp-rcvbuf-errors") != nil || findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: udp-rcvbuf-errors or oom-kill fired", text)
		}
	}
	if s := unreadWhys(t, "Nov 30 10:12:01 fw openvpn[834]: write UDP: No buffer space available (code=55)\n"); !strings.Contains(s, "FreeBSD's and macOS's 55") {
		t.Errorf("FreeBSD's code=55 not named: %q", s)
	}
}

// h22b: the tunnel lines named with no rule are listed as unread, so a paste of them alone
// is no evidence-free text (exit 3): OpenVPN's read ENOBUFS and Socket Buffers line, charon's
// SPI failure, tailscale's refused SO_RCVBUFFORCE.
func TestH22bTunnelLinesNamed(t *testing.T) {
	for text, want := range map[string]string{
		"Nov 30 10:12:01 vpn1 openvpn[1234]: read UDPv4: No buffer space available (code=105)\n":                                                                                                           "read of its UDP socket",
		"Nov 30 10:11:58 vpn1 openvpn[1234]: Socket Buffers: R=[212992->425984] S=[212992->212992]\n":                                                                                                      "SO_RCVBUF 212992 -> 425984",
		"Nov 30 11:00:00 gw charon: 12[KNL] unable to allocate SPI from kernel\n":                                                                                                                          "XFRM_MSG_ALLOCSPI",
		"Nov 30 10:29:58 host tailscaled[901]: magicsock: [warning] failed to force-set UDP read buffer size to 7340032: operation not permitted; using kernel default values (impacts throughput only)\n": "SO_RCVBUFFORCE",
	} {
		if s := unreadWhys(t, text); !strings.Contains(s, want) {
			t.Errorf("%q: unread %q lacks %q", text, s, want)
		}
	}
}

// unreadWhys joins the accounts of the lines text's parse lists as unread.
func unreadWhys(t *testing.T, text string) string {
	t.Helper()
	tl, err := artifact.Parse(strings.NewReader(text), "paste.txt", artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var whys []string
	for _, u := range tl.Unparsed {
		whys = append(whys, u.Why)
	}
	return strings.Join(whys, "; ")
}

// evidenceText joins a finding's evidence, each item's What and Value.
func evidenceText(f *Finding) string {
	var all []string
	for _, e := range f.Evidence {
		all = append(all, e.What+" "+e.Value)
	}
	return strings.Join(all, "; ")
}

// wantUDPSendSide: text's ENOBUFS on a UDP send is udp-rcvbuf-errors' send side (Udp
// SndbufErrors, no receive-buffer advice, no change proposed), and none of notIDs fires.
func wantUDPSendSide(t *testing.T, text string, notIDs ...string) {
	t.Helper()
	d, _ := rootOf(t, text)
	f := findingOf(d, "udp-rcvbuf-errors")
	if f == nil {
		t.Errorf("%q: no udp-rcvbuf-errors", text)
		return
	}
	if ev := evidenceText(f); !strings.HasPrefix(f.Title, "UDP sends refused with ENOBUFS") || !strings.Contains(ev, "Udp SndbufErrors") ||
		len(f.Changes) != 0 || strings.Contains(ev, "rmem") {
		t.Errorf("%q: not the send side: %q, %q, %d changes", text, f.Title, ev, len(f.Changes))
	}
	for _, id := range notIDs {
		if findingOf(d, id) != nil {
			t.Errorf("%q: %s fired", text, id)
		}
	}
}
