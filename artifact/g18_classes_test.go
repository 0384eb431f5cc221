package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// The classes the held-out batch g18 found (corpus 653-672), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

// 6.x's SLUB failure names the CPU that tried and its node before the node asked for
// (mm/slub.c slab_out_of_memory: "on CPU %u (of node %d) on node %d"); its lines may sit
// among another report's call trace (corpus 655). Before: no slab failure read.
func TestSlabFailureCPUWording(t *testing.T) {
	text := `[ 5021.100001] SLUB: Unable to allocate memory on CPU 3 (of node 1) on node -1, gfp=0xa20(GFP_ATOMIC)
[ 5021.100002]  __alloc_pages+0x2b1/0x330
[ 5021.100003]   cache: skbuff_head_cache, object size: 232, buffer size: 256, default order: 1, min order: 0
[ 5021.100004]  allocate_slab+0x8c/0x4a0
[ 5021.100005]   node 1: slabs: 912, objs: 29184, free: 0
`
	s, err := ParseSlabFailure(text, "6.8.0")
	if err != nil {
		t.Fatalf("ParseSlabFailure: %v", err)
	}
	if s.Node != -1 || s.Mode != "0xa20(GFP_ATOMIC)" || s.Cache != "skbuff_head_cache" || s.ObjectSize != 232 || s.DefaultOrder != 1 {
		t.Errorf("read %+v, want node -1, mode 0xa20(GFP_ATOMIC), cache skbuff_head_cache (232, order 1)", *s)
	}
	// The older wordings still read.
	for _, h := range []string{
		"SLUB: Unable to allocate memory on node -1 (gfp=0x20)",
		"SLUB: Unable to allocate memory on node 0, gfp=0x820(GFP_ATOMIC)",
	} {
		if _, err := ParseSlabFailure(h+"\n", ""); err != nil {
			t.Errorf("%q: %v", h, err)
		}
	}
}

// A kernel message named first, then said in the same sentence to be in the author's log
// (corpus 667: "'Out of socket memory' is the possible issue here due I see that in dmesg
// when crash happens"). Before: exit 3, nothing read. A possibility, another reader's log,
// a negation and advice stay prose.
func TestMessageSeenAfter(t *testing.T) {
	logged := func(text string) int {
		t.Helper()
		return len(ParseString(text, "p", Options{}).Log)
	}
	for _, c := range []struct {
		text string
		want int
	}{
		{"Could the stalls be \"Out of socket memory\", since we saw those messages in kern.log right before the proxy died?\n", 1},
		{"My guess is that the too many orphaned sockets warning explains it, as I get it on the console daily.\n", 1},
		{"Is possible SYN flooding on port 443 the cause, given we also see that message in syslog at each stall?\n", 1},
		// counter-cases
		{"Maybe it is \"Out of socket memory\", but I don't see that in dmesg.\n", 0},
		{"The message 'Out of socket memory' means tcp_mem is too low: if you see it in dmesg, raise it.\n", 0},
		{"The kernel prints 'Out of socket memory' from tcp_out_of_resources, and if we see that in dmesg we raise tcp_mem.\n", 0},
		{"The kernel prints 'Out of socket memory' from tcp_check_oom. We have it in the log of the other cluster.\n", 0},
	} {
		if got := logged(c.text); got != c.want {
			t.Errorf("%q: %d log records, want %d", c.text, got, c.want)
		}
	}
}

// The connection tracking table said to have filled (corpus 668: "customer was doing heavy
// churn and managed to fill up the conntrack table"). Before: exit 3, nothing read. A
// title's "protect against", a possibility, a negation and advice state nothing.
func TestStatedConntrackFull(t *testing.T) {
	rate := func(text string) float64 {
		t.Helper()
		v := 0.0
		for _, s := range ParseString(text, "p", Options{}).Samples {
			if !strings.Contains(s.Source, model.ForeignMark) {
				v = max(v, s.Rates[model.RateStatedConntrackFull])
			}
		}
		return v
	}
	for _, c := range []struct {
		text string
		want float64
	}{
		{"During the load test the k8s node filled the nf_conntrack table within minutes and new pods could not resolve DNS.\n", 1},
		{"Since Monday our conntrack table is full every evening and SSH to the gateway times out.\n", 1},
		{"The burst of short UDP flows maxed out the conntrack table on both routers.\n", 1},
		// counter-cases
		{"# Guard the host against a full conntrack table\n\nWe should document how to size it.\n", 0},
		{"If the conntrack table fills up, new connections are dropped.\n", 0},
		{"The churn never filled the conntrack table; drops came from the NIC.\n", 0},
		{"You should raise nf_conntrack_max before a flood can fill the conntrack table.\n", 0},
	} {
		if got := rate(c.text); got != c.want {
			t.Errorf("%q: stated conntrack full %v, want %v", c.text, got, c.want)
		}
	}
}
