package diagnose

import (
	"strings"
	"testing"
)

// netstat -tlnp: a LISTEN row's Recv-Q is its accept queue (/proc/net/tcp rx_queue =
// sk_ack_backlog), Send-Q 0. A queue of 50 or more completed connections is an application
// that stopped calling accept(). Before: listen-overflow not checked (2521).
func TestFix29bNetstatListenStalled(t *testing.T) {
	hdr := "Active Internet connections (only servers)\nProto Recv-Q Send-Q Local Address           Foreign Address         State       PID/Program name\n"
	text := hdr +
		"tcp        0      0 127.0.0.1:8005          0.0.0.0:*               LISTEN      1/java\n" +
		"tcp      101      0 0.0.0.0:80              0.0.0.0:*               LISTEN      1/java\n" +
		"tcp       51      0 0.0.0.0:1234            0.0.0.0:*               LISTEN      1/java\n"
	d, _ := rootOf(t, text)
	f := findingOf(d, "listen-overflow")
	if f == nil || f.Severity != Warning || !evidenceHas(*f, "nobody accept()ed", "0.0.0.0:80 101 queued") || !evidenceHas(*f, "nobody accept()ed", "0.0.0.0:1234 51 queued") {
		t.Fatalf("listen-overflow %+v (checks %+v)", f, d.Checks)
	}
	if !strings.Contains(f.Title, "accept()") {
		t.Errorf("title %q", f.Title)
	}
	// The queue is full because accept() stopped: no somaxconn change.
	for _, c := range f.Changes {
		if c.Key == "net.core.somaxconn" {
			t.Errorf("somaxconn proposed for a stalled acceptor: %+v", c)
		}
	}
	// Counter-cases that must not fire.
	for name, c := range map[string]string{
		// a short queue between two accept() calls
		"short queue": hdr + "tcp        4      0 0.0.0.0:80              0.0.0.0:*               LISTEN      1/java\n",
		// an established socket's Recv-Q is bytes unread, not an accept queue
		"established": hdr + "tcp      101      0 10.0.0.1:80             10.0.0.2:51234          ESTABLISHED 1/java\n",
		// a sentence naming the figures
		"prose": "The Recv-Q of the LISTEN socket on port 80 was 101 while the backlog is 100.\n",
	} {
		d, _ := rootOf(t, c)
		if f := findingOf(d, "listen-overflow"); f != nil {
			t.Errorf("%s: %+v", name, f)
		}
	}
}
