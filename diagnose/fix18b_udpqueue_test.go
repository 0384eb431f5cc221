package diagnose

import (
	"strings"
	"testing"
)

// fix18b: a UDP socket in a pasted ss table whose Recv-Q stands at its receive buffer is
// dropping what arrives (corpus 1647, rsyslogd on UDP 514).
func TestFix18bUDPQueueAtBuffer(t *testing.T) {
	const hdr = "State     Recv-Q    Send-Q       Local Address:Port        Peer Address:Port\n"
	full := hdr +
		"UNCONN    214272    0                  0.0.0.0:514              0.0.0.0:*        users:((\"rsyslogd\",pid=4187794,fd=6))\n" +
		"UNCONN    0         0                     [::]:514                 [::]:*        users:((\"rsyslogd\",pid=4187794,fd=7))\n"
	d, _ := rootOf(t, full)
	if f := findingOf(d, "udp-rcvbuf-errors"); f == nil || !strings.Contains(f.Evidence[0].Value, "214272") {
		t.Fatalf("udp-rcvbuf-errors %+v", f)
	}
	// The host's own rmem_default stated: the buffer is that, and a queue at the stock
	// value is below it.
	if d, _ := rootOf(t, "net.core.rmem_default = 8388608\n\n"+full); findingOf(d, "udp-rcvbuf-errors") != nil {
		t.Error("queue below the host's stated rmem_default read as full")
	}
	// Counter-cases: a TCP listener's accept queue and an established flow's unread bytes
	// of the same size, a UDP queue below the buffer, one far above it (a socket with a
	// larger SO_RCVBUF, whose fill is unknown), a unix datagram socket (a path, no port),
	// a Netid table's tcp row.
	for _, text := range []string{
		hdr + "LISTEN    214272    128     0.0.0.0:514     0.0.0.0:*\n",
		hdr + "ESTAB     214272    0       10.0.0.1:514    10.0.0.2:40000\n",
		hdr + "UNCONN    120000    0       0.0.0.0:514     0.0.0.0:*\n",
		hdr + "UNCONN    4194304   0       0.0.0.0:514     0.0.0.0:*\n",
		hdr + "UNCONN    214272    0       /run/systemd/notify 12345   * 0\n",
		"Netid State  Recv-Q Send-Q Local Address:Port Peer Address:Port\n" + "tcp   ESTAB  214272 0      10.0.0.1:514       10.0.0.2:40000\n",
	} {
		if d, _ := rootOf(t, text); findingOf(d, "udp-rcvbuf-errors") != nil {
			t.Errorf("%q: udp-rcvbuf-errors fired", text)
		}
	}
	// A Netid table's udp row at the buffer is read.
	if d, _ := rootOf(t, "Netid State  Recv-Q Send-Q Local Address:Port Peer Address:Port\n"+"udp   UNCONN 213504 0      0.0.0.0:5140       0.0.0.0:*\n"); findingOf(d, "udp-rcvbuf-errors") == nil {
		t.Error("Netid udp row at the buffer not read")
	}
}
