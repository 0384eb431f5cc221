package artifact

import "testing"

// An arrow the paster drew to the right of a counter's line is cut; dashes that are not an
// arrow stay (g266's 5828).
func TestFix66dStripArrowAnnotation(t *testing.T) {
	for in, want := range map[string]string{
		"62678 times the listen queue of a socket overflowed    ---- >accept queue": "62678 times the listen queue of a socket overflowed",
		"65640 SYNs to LISTEN sockets dropped  ----> half-open queue full":          "65640 SYNs to LISTEN sockets dropped",
		"120 packets pruned from receive queue --> see below":                       "120 packets pruned from receive queue",
		"120 packets pruned from receive queue -- see below":                        "120 packets pruned from receive queue -- see below",
		"TCPBacklogDrop: 3 --- 4":                                                   "TCPBacklogDrop: 3 --- 4",
	} {
		if got := stripAnnotation(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// g266 (5826): numactl --show's CPU list on a 16-CPU host is 16 numbers after a name and a
// colon, like a /proc/net/dev row without its header; its packets outnumber its bytes.
func TestFix66fNumactlIsNoNetDevRow(t *testing.T) {
	if isNetDevBareRow("physcpubind: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15  ") {
		t.Error("numactl's physcpubind read as /proc/net/dev")
	}
	if !isNetDevBareRow("  eth0: 1234567 8910 0 0 4 0 0 0 7654321 6543 0 0 0 0 0 0") {
		t.Error("a real row refused")
	}
	if !isNetDevBareRow("  lo: 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0") {
		t.Error("an idle interface refused")
	}
}
