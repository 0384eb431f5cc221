package artifact

import "testing"

// h31a: /proc/net/sockstat pasted from its TCP line (`grep TCP /proc/net/sockstat`) is the
// file: its mem is read. A line of another shape that starts with "TCP:" is not.
func TestH31aSockstatTCPLine(t *testing.T) {
	for _, c := range []struct {
		in  string
		mem int64
	}{
		{"TCP: inuse 5000 orphan 10 tw 200 alloc 6000 mem 190000\n", 190000},
		{"TCP: inuse 5000 orphan 10 tw 200 alloc 6000 mem 190000\nUDP: inuse 3 mem 12\n", 190000},
		// counter-cases: the kernel's message, a sentence, no mem field
		{"TCP: out of memory -- consider tuning tcp_mem\n", -1},
		{"TCP: inuse is what sockstat prints first, mem last.\n", -1},
		{"TCP: inuse 5000 orphan 10 tw 200 alloc 6000\n", -1},
	} {
		tl := ParseString(c.in, "t", Options{})
		got := int64(-1)
		for _, s := range tl.Samples {
			if v, ok := s.SockStat.Get("TCP", "mem"); ok {
				got = v
			}
		}
		if got != c.mem {
			t.Errorf("%q: TCP mem %d, want %d", c.in, got, c.mem)
		}
	}
}
