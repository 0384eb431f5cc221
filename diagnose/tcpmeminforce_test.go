package diagnose

import (
	"strings"
	"testing"
)

// sockstat's TCP mem is judged against the tcp_mem the host ran with: its own, a sysctl
// listing, or the value a sentence states it has (issue 29: "sockstat mem above tcp_mem[2]
// not judged"). A value written to sysctl.conf or set with sysctl -w is what an author set,
// not what the kernel judged that sample against: the check says so instead of judging.
func TestTCPMemoryPressureAgainstTCPMemInForce(t *testing.T) {
	const sock = "TCP: inuse 12000 orphan 300 tw 5000 alloc 13000 mem 190000\n"
	for _, c := range []struct {
		text, why string
		fire      bool
	}{
		{"$ sysctl net.ipv4.tcp_mem\nnet.ipv4.tcp_mem = 94000 125000 188000\n" + sock, "", true},
		{"The proxy runs with net.ipv4.tcp_mem = 94000 125000 188000 and sockstat shows\n" + sock, "as the text states it", true},
		{"The proxy runs with net.ipv4.tcp_mem = 94000 125000 188000 and sockstat shows\nTCP: inuse 12000 orphan 300 tw 5000 alloc 13000 mem 90000\n", "", false},
		{"sysctl -w net.ipv4.tcp_mem=\"94000 125000 188000\"\n" + sock, "sysctl-w", false},
		{"net.ipv4.tcp_mem = 94000 125000 188000\n" + sock, "sysctl.conf", false},
	} {
		d, _ := rootOf(t, c.text)
		f := findingOf(d, "tcp-memory-pressure")
		if (f != nil) != c.fire {
			t.Errorf("%q: tcp-memory-pressure fired=%v, want %v", c.text, f != nil, c.fire)
			continue
		}
		if c.why == "" {
			continue
		}
		if f != nil {
			if !strings.Contains(evidenceText(f), c.why) || !strings.Contains(evidenceText(f), "188000") {
				t.Errorf("%q: evidence %q lacks %q and the limit", c.text, evidenceText(f), c.why)
			}
			continue
		}
		if ck := checkOf(d, "tcp-memory-pressure"); ck == nil || ck.Status != StatusNotChecked || !strings.Contains(ck.Why, c.why) {
			t.Errorf("%q: check %+v, want not checked naming %q", c.text, ck, c.why)
		}
	}
}
