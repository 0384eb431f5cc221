package kernel

import "testing"

func TestSynFloodPortPlaceholder(t *testing.T) {
	for msg, want := range map[string]bool{
		"kernel: possible SYN flooding on port X. Sending cookies.":                                         true,
		"TCPv6: Possible SYN flooding on port <port>.":                                                      true,
		"TCP: request_sock_TCP: Possible SYN flooding on port 8080. Sending cookies.  Check SNMP counters.": false,
		"TCP: request_sock_TCP: Possible SYN flooding on port 0.0.0.0:443. Sending cookies.":                false,
		"possible SYN flooding on port 80. Sending cookies.":                                                false,
		"Out of socket memory": false,
	} {
		if got := SynFloodPortPlaceholder(msg); got != want {
			t.Errorf("%q: %v, want %v", msg, got, want)
		}
	}
}
