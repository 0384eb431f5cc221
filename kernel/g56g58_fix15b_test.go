package kernel

import "testing"

// /proc/net/udp6's header spells the peer "remote_address" (include/net/transp_v6.h
// IPV6_SEQ_DGRAM_HEADER); udp's "rem_address". Before: the udp6 table was not read.
func TestFix15bUDP6SocketHeader(t *testing.T) {
	for _, c := range []struct {
		t    string
		want bool
	}{
		{"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops", true},
		{"  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode ref pointer drops", true},
		// counter-cases: /proc/net/tcp6's header, one with rto fields, a sentence
		{"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode", false},
		{"  sl  local_address                         remote_address                        st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode rto ato", false},
		{"sl is the slot and local_address the socket's address, remote_address its peer", false},
	} {
		if got := IsUDPSocketHeader(c.t); got != c.want {
			t.Errorf("%q: %v, want %v", c.t, got, c.want)
		}
	}
}
