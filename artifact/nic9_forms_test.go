package artifact

import (
	"testing"

	"headroom/kernel"
)

// Pre-round 6 hardening (nic9): forms of ethtool -S the reader lost before.

func ethtoolStatsOf(t *testing.T, text string) kernel.Counters {
	t.Helper()
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		for _, st := range s.NICStats {
			if st.Stats != nil {
				return *st.Stats
			}
		}
	}
	t.Fatalf("no ethtool -S read; unparsed %+v", tl.Unparsed)
	return kernel.Counters{}
}

// vmxnet3 prints its names once per queue ("rx buf alloc fail" in every "Rx Queue#" group,
// vmxnet3_get_strings): the second queue's count is kept beside the first's, as name#2, and
// the "Rx Queue#: 1" lines (the queue's index) are read, not left as unreadable lines. Before,
// the later queue's value replaced the earlier one's (a failure on queue 0 followed by 0 on
// queue 1 read as 0).
func TestNic9Vmxnet3RepeatedNamesPerQueue(t *testing.T) {
	text := `# ethtool -S ens192
NIC statistics:
     Rx Queue#: 0
       ucast pkts rx: 5000
       rx buf alloc fail: 23
     Rx Queue#: 1
       ucast pkts rx: 4000
       rx buf alloc fail: 0
     tx timeout count: 0
`
	tl := ParseString(text, "p", Options{})
	if len(tl.Unparsed) > 0 {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}
	c := ethtoolStatsOf(t, text)
	if v, _ := c.Get("rx buf alloc fail"); v != 23 {
		t.Errorf("queue 0 rx buf alloc fail = %d, want 23 (names %v)", v, c.Names())
	}
	if v, ok := c.Get("rx buf alloc fail#2"); !ok || v != 0 {
		t.Errorf("queue 1 rx buf alloc fail#2 = %d %v (names %v)", v, ok, c.Names())
	}
	var refill int64
	for _, l := range kernel.ClassifyNICStats(&c, false) {
		if l.Cause == kernel.NICCauseRefill {
			refill += l.Value
		}
	}
	if refill != 23 {
		t.Errorf("refill failures %d, want 23", refill)
	}
}

// A page's emphasis before the name ("*bw_in_allowance_exceeded: 0", a knowledge-base article
// that starred the counters it explains) is no part of the driver's name. Counter-case: a
// prose line with a star is still prose.
func TestNic9EmphasisAroundCounterNames(t *testing.T) {
	c := ethtoolStatsOf(t, `# ethtool -S eth0
NIC statistics:
tx_timeout: 0
*bw_in_allowance_exceeded: 0
**pps_allowance_exceeded**: 7
`)
	if v, ok := c.Get("bw_in_allowance_exceeded"); !ok || v != 0 {
		t.Errorf("bw_in_allowance_exceeded %d %v (names %v)", v, ok, c.Names())
	}
	if v, _ := c.Get("pps_allowance_exceeded"); v != 7 {
		t.Errorf("pps_allowance_exceeded %d (names %v)", v, c.Names())
	}
	if _, _, ok := ethtoolCounter("* note: 5"); ok {
		t.Errorf("a starred prose line read as a counter")
	}
}
