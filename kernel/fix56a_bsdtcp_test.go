package kernel

import "testing"

func TestFix56aBSDTCPSentence(t *testing.T) {
	for line, want := range map[string]string{
		"1070592345 data packets (1759534178262 bytes) retransmitted": "RetransSegs",
		"1 data packet (512 bytes) retransmitted":                     "RetransSegs",
		"35543667869 packets sent":                                    "OutSegs",
		"1 packet sent":                                               "OutSegs",
		"0 listen queue overflows":                                    "ListenOverflows",
		"4314 discarded due to memory problems":                       "",
		"26345036 connections closed (including 5498422 drops)":       "",
	} {
		st, _, ok := BSDTCPSentence(line)
		if !ok || st.Name != want {
			t.Errorf("%q: %+v %v, want %q", line, st, ok, want)
		}
	}
	// Linux's sentences are not the BSD section's.
	for _, line := range []string{"5498657 segments retransmitted", "251371875 segments sent out", "160 times the listen queue of a socket overflowed"} {
		if st, _, ok := BSDTCPSentence(line); ok {
			t.Errorf("%q read as %+v", line, st)
		}
	}
}
