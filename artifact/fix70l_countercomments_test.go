package artifact

import (
	"strings"
	"testing"
)

// fix70l (corpus 7062, 7075, 7168): an author's note after each counter line, under a form
// too (a bar's prefix). The counter line
// loses its note; a shell comment, a sysctl.conf line and prose keep theirs.
func TestCounterLinesLoseTheirNotes(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"MemTotal:       16130120 kB # 所有的可用内存\n", "MemTotal:       16130120 kB\n"},
		{"UdpRcvbufErrors                  9123844      0.0   # ← buffer overflow = dropped packets\r\n", "UdpRcvbufErrors                  9123844      0.0\r\n"},
		{"nr_free_pages 78730 // the first reading\n", "nr_free_pages 78730\n"},
		{"Slab:            1362624 kB <--------\n", "Slab:            1362624 kB\n"},
		{"CurrConns: 53 #**Current connections count**\n", "CurrConns: 53\n"},
		{"foo 12 #012bar\n", "foo 12 #012bar\n"},
		{"$ nstat -az | grep -iE 'udp' # the kernel's UDP counters\n", "$ nstat -az | grep -iE 'udp' # the kernel's UDP counters\n"},
		{"net.core.rmem_max = 16777216 # 16 MB\n", "net.core.rmem_max = 16777216 # 16 MB\n"},
		{"we saw 12 drops # honestly\n", "we saw 12 drops # honestly\n"},
	} {
		in, want := strings.TrimRight(tc.in, "\r\n"), strings.TrimRight(tc.want, "\r\n")
		if got := stripCounterNote(in); got != want {
			t.Errorf("%q: %q, want %q", tc.in, got, tc.want)
		}
	}
	tl := ParseString("| $ nstat -az | grep -iE 'udp'\n| UdpInDatagrams                  48213991      0.0\n| UdpRcvbufErrors                  9123844      0.0   # ← buffer overflow = dropped packets\n", "t", Options{})
	found := false
	for _, s := range tl.Samples {
		if v, ok := s.NetStatValue("Udp", "RcvbufErrors"); ok && v == 9123844 {
			found = true
		}
	}
	if !found {
		t.Errorf("UdpRcvbufErrors with its note not read")
	}
}
