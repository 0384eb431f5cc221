package artifact

import "testing"

// h22b: the tunnel daemons' forms (vpnudpsend.go), read by their fixed parts.
func TestH22bTunnelForms(t *testing.T) {
	for s, want := range map[string]bool{
		"write UDPv4: No buffer space available (code=105)":                                                                     true,
		"write UDPv6 [ENOBUFS]: No buffer space available (fd=5,code=105)":                                                      true,
		"peer(x) - Failed to send data packets: write udp6 [::]:51820->[2001:db8::1]:51820: sendmsg: no buffer space available": true,
		"09[NET] error writing to socket: No buffer space available":                                                            true,
		"read UDPv4: No buffer space available (code=105)":                                                                      false,
		"write to TUN/TAP : No buffer space available (fd=7,code=105)":                                                          false,
		"netlink receive: recvmsg: no buffer space available 3":                                                                 false,
		"write UDPv4: Network is unreachable (code=101)":                                                                        false,
		"error writing to socket: No buffer space available":                                                                    false, // no charon tag, no digit
		"the UDP write failed: No buffer space available":                                                                       false, // no digit: prose
	} {
		if got := vpnUDPSendENOBUFS(s); got != want {
			t.Errorf("vpnUDPSendENOBUFS(%q) = %v, want %v", s, got, want)
		}
	}
	r0, r1, s0, s1, ok := ovpnSockBuffers("openvpn[1]: Socket Buffers: R=[212992->425984] S=[87040->212992]")
	if !ok || r0 != "212992" || r1 != "425984" || s0 != "87040" || s1 != "212992" {
		t.Errorf("ovpnSockBuffers: %s %s %s %s %v", r0, r1, s0, s1, ok)
	}
	if _, _, _, _, ok := ovpnSockBuffers("Socket Buffers: R=[212992->"); ok {
		t.Error("a cut Socket Buffers line read")
	}
	if !charonSPILine("12[KNL] unable to allocate SPI from kernel") || charonSPILine("why is charon unable to allocate SPI?") {
		t.Error("charonSPILine")
	}
}
