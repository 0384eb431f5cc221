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
