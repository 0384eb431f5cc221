package diagnose

import (
	"strings"
	"testing"
)

// FreeBSD's sonewconn records fire listen-overflow with FreeBSD's knobs, no Linux change.
func TestFix55bBSDListenOverflow(t *testing.T) {
	for _, text := range []string{
		"Apr 3 18:38:30 server kernel: sonewconn: pcb 0xcda8abd0: Listen queue overflow: 193 already in queue awaiting acceptance (1 occurrences)\n" +
			"Apr 3 18:39:32 server kernel: sonewconn: pcb 0xcda8abd0: Listen queue overflow: 193 already in queue awaiting acceptance (251 occurrences)\n",
		// Quoted without a syslog prefix, as posts paste it (12.0+'s form naming the listener).
		"After running the daemon I get these messages:\n" +
			"sonewconn: pcb 0xfffff804083a3d58 (0.0.0.0:18080 (proto 6)): Listen queue overflow: 193 already in queue awaiting acceptance (34 occurrences)\n" +
			"sonewconn: pcb 0xfffff804083a3d58 (0.0.0.0:18080 (proto 6)): Listen queue overflow: 193 already in queue awaiting acceptance (21 occurrences), euid 0, rgid 0, jail 0\n",
		"kernel: sonewconn: pcb 0xfffff801104b4620: Listen queue overflow: 193 already in queue awaiting acceptance\n\n# netstat -Lan\nCurrent listen queue sizes (qlen/incqlen/maxqlen)\nProto Listen         Local Address\ntcp4  0/0/128        *.80\n",
	} {
		tl := pasteTimeline(t, text)
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		if !strings.Contains(f.Title, "FreeBSD") || len(f.Evidence) == 0 || !strings.Contains(f.Evidence[0].Value, "limit of 128") {
			t.Errorf("finding: %s %+v", f.Title, f.Evidence)
		}
		if len(f.Changes) != 0 || !strings.Contains(f.Explanation, "kern.ipc.soacceptqueue") {
			t.Errorf("changes %+v, explanation %s", f.Changes, f.Explanation)
		}
	}
}

// Counter-cases: a FreeBSD listen-queue table with room and no record, and sonewconn's other
// message, are no overflow; Linux's SYN flood keeps its own path.
func TestFix55bBSDListenCounterCases(t *testing.T) {
	for _, text := range []string{
		"# netstat -Lan\nCurrent listen queue sizes (qlen/incqlen/maxqlen)\nProto Listen         Local Address\ntcp4  0/0/128        *.80\ntcp6  3/0/1024       *.443\n",
		"Jun 1 10:00:00 host kernel: sonewconn: pcb 0xfffff8014ba261a8: New socket allocation failure: limit reached or out of memory\n",
	} {
		if r := run(t, "listen-overflow", pasteTimeline(t, text)); len(r.Findings) > 0 {
			t.Errorf("%q: %+v", text, r.Findings)
		}
	}
	tl := pasteTimeline(t, "[12345.678901] TCP: request_sock_TCP: Possible SYN flooding on port 80. Sending cookies.  Check SNMP counters.\n")
	f := mustFire(t, run(t, "listen-overflow", tl), Warning)
	if strings.Contains(f.Title, "FreeBSD") || strings.Contains(f.Explanation, "kern.ipc") {
		t.Errorf("Linux SYN flood: %s / %s", f.Title, f.Explanation)
	}
}
