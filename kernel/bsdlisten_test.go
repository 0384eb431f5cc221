package kernel

import "testing"

func TestFix55bParseBSDListenOverflow(t *testing.T) {
	for _, c := range []struct {
		msg       string
		ok        bool
		listener  string
		queued    int64
		occurs    int64
		limit     int64
		limitKnow bool
	}{
		// 10.x-11.x: no listener, occurrences since the last line.
		{"sonewconn: pcb 0xcda8abd0: Listen queue overflow: 193 already in queue awaiting acceptance (251 occurrences)", true, "", 193, 251, 128, true},
		// 12.0+: the listener named, credentials appended.
		{"sonewconn: pcb 0xfffff80018c7d540 (127.0.0.1:8080 (proto 6)): Listen queue overflow: 193 already in queue awaiting acceptance (1 occurrences), euid 0, rgid 0, jail 0", true, "127.0.0.1:8080", 193, 1, 128, true},
		// Before 10.x, and a line cut by the paste: no occurrences.
		{"sonewconn: pcb 0xfffff801104b4620: Listen queue overflow: 193 already in queue awaiting acceptance", true, "", 193, -1, 128, true},
		{"sonewconn: pcb 0xcda8abd0: Listen queue overflow: 193 already in queue ", true, "", 193, -1, 128, true},
		{"sonewconn: pcb 0xfffff8014ba261a8: Listen queue overflow: 10 already in queue awaiting acceptance (2 occurrences)", true, "", 10, 2, 6, true},
		// Counter-cases: the same function's other message, prose naming it, Linux's SYN flood.
		{"sonewconn: pcb 0xfffff8014ba261a8: New socket allocation failure: limit reached or out of memory", false, "", 0, 0, 0, false},
		{"what does a Listen queue overflow mean on FreeBSD?", false, "", 0, 0, 0, false},
		{"TCP: request_sock_TCP: Possible SYN flooding on port 80. Sending cookies.  Check SNMP counters.", false, "", 0, 0, 0, false},
	} {
		r, ok := ParseBSDListenOverflow(c.msg)
		if ok != c.ok || ok && (r.Listener != c.listener || r.Queued != c.queued || r.Occurrences != c.occurs) {
			t.Errorf("%q: %+v %v", c.msg, r, ok)
			continue
		}
		if !ok {
			continue
		}
		if l, known := BSDListenLimit(r.Queued); known != c.limitKnow || l != c.limit {
			t.Errorf("%q: limit %d %v, want %d", c.msg, l, known, c.limit)
		}
	}
	// A count no limit gives is not turned into one.
	if l, ok := BSDListenLimit(6); ok {
		t.Errorf("queued 6: limit %d, want unknown", l)
	}
}
