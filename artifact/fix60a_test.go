package artifact

import (
	"testing"

	"headroom/model"
)

// fix60a: ethtool_stats.pl's per-second rates ("Ethtool(i40e1) stat: N ( N,NNN) <= name
// /sec"), wrapped by mailers and quoted-printable, read as ethtool -S rates; and warn_alloc's
// vmemmap_alloc_block header ("vmemmap alloc failure: order:9, mode:0x4cc0(...)") read as
// an allocation failure.

func ringLossRates(text string) []float64 {
	tl := ParseString(text, "p", Options{})
	var out []float64
	for _, s := range tl.Samples {
		if v, ok := s.Rates[model.RateNICRxRingLossPerSec]; ok {
			out = append(out, v)
		}
	}
	return out
}

func TestFix60aEthtoolStatsPl(t *testing.T) {
	for _, c := range []struct {
		name, text string
		want       []float64
	}{
		// i40e: port.rx_dropped (GLPRT_RDPC) and, beside port. names, the VSI's rx_dropped
		// (rx_discards) are both no-descriptor losses; names and "/sec" wrapped by the mailer.
		{"i40e wrapped", "Show adapter(s) (enp101s0f0) statistics (ONLY that changed!)\n" +
			"Ethtool(enp101s0f0) stat:   2729223958 (  2,729,223,958) <= \nport.rx_bytes /sec\n" +
			"Ethtool(enp101s0f0) stat:      7185397 (      7,185,397) <= \nport.rx_dropped /sec\n" +
			"Ethtool(enp101s0f0) stat:     17702658 (     17,702,658) <= rx-0.packets \n/sec\n" +
			"Ethtool(enp101s0f0) stat:     17756128 (     17,756,128) <= rx_dropped /sec\n" +
			"Ethtool(enp101s0f0) stat:     17702594 (     17,702,594) <= rx_packets /sec\n", []float64{7185397 + 17756128}},
		// mlx5: rx_discards_phy is the port's loss for lack of buffers; rx_cache_busy is a
		// page-recycling counter, no loss.
		{"mlx5", " Ethtool(mlx5p1  ) stat:     6653761 (   6,653,761) <= rx_cache_busy /sec\n" +
			" Ethtool(mlx5p1  ) stat:        1034 (       1,034) <= rx_discards_phy /sec\n" +
			" Ethtool(mlx5p1  ) stat:     7323230 (   7,323,230) <= rx_packets /sec\n", []float64{1034}},
		// quoted-printable mail: "<=3D" and soft line breaks inside the name
		{"quoted-printable", "Ethtool(enp7s0f0) stat:      9060176 (      9,060,176) <=3D rx_bytes /sec\n" +
			"Ethtool(enp7s0f0) stat:    946625059 (    946,625,059) <=3D rx_bytes_nic /s=\nec\n" +
			"Ethtool(enp7s0f0) stat:     14694930 (     14,694,930) <=3D rx_missed_error=\ns /sec\n", []float64{14694930}},
		// counter-cases: without port. names a plain rx_dropped is the stack's, no ring loss;
		// a block of rates with no loss counter gives no reading (the script prints only the
		// counters that changed, so an absent one says nothing).
		{"plain rx_dropped", "Ethtool(eth0) stat:        5000 (        5,000) <= rx_dropped /sec\n" +
			"Ethtool(eth0) stat:      900000 (      900,000) <= rx_packets /sec\n", nil},
		{"no loss counter", "Ethtool(eth0) stat:      900000 (      900,000) <= rx_packets /sec\n" +
			"Ethtool(eth0) stat:    90000000 (   90,000,000) <= rx_bytes /sec\n", nil},
		// a sentence naming the script is no reading
		{"prose", "I ran ethtool_stats.pl and Ethtool(eth0) stat lines showed rx_dropped /sec rising.\n", nil},
	} {
		got := ringLossRates(c.text)
		if len(got) != len(c.want) {
			t.Errorf("%s: ring-loss rates %v, want %v", c.name, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%s: ring-loss rates %v, want %v", c.name, got, c.want)
			}
		}
	}
}

func TestFix60aVmemmapAllocFailure(t *testing.T) {
	text := "[   49.215291] kworker/0:1: vmemmap alloc failure: order:9, mode:0x4cc0(GFP_KERNEL|__GFP_RETRY_MAYFAIL), nodemask=(null),cpuset=/,mems_allowed=0\n" +
		"[   49.215299] CPU: 0 PID: 18 Comm: kworker/0:1 Not tainted 5.13.0-rc5 #1\n" +
		"[   49.215307] Call Trace:\n[   49.215310]  dump_stack+0x76/0x94\n[   49.215314]  warn_alloc.cold+0x78/0xdc\n" +
		"[   49.215319]  vmemmap_alloc_block+0x86/0xdc\n"
	tl := ParseString(text, "p", Options{})
	var afs []*model.AllocFailure
	for _, e := range tl.Events {
		if e.AllocFailure != nil {
			afs = append(afs, e.AllocFailure)
		}
	}
	if len(afs) != 1 || afs[0].Order != 9 || afs[0].Process != "kworker/0:1" || afs[0].ModeValue != 0x4cc0 {
		t.Fatalf("vmemmap header: %+v, want one order-9 failure of kworker/0:1, mode 0x4cc0", afs)
	}
	// Counter-cases: prose naming the message, and another subsystem's "alloc failure"
	// without warn_alloc's order and mode, are no report.
	for _, s := range []string{
		"We sometimes get a vmemmap alloc failure after hot-add, is that known?\n",
		"[  1.0] mlx5_core 0000:01:00.0: page alloc failure in rx refill\n",
	} {
		if got := allocProcesses(s); len(got) != 0 { // fix55c_test.go
			t.Errorf("%q: read as allocation failures of %q", s, got)
		}
	}
}

// A ring-loss counter with its rate in pps in prose (statednicgrow.go statedNICLossPPS).
func TestFix60aStatedLossPPS(t *testing.T) {
	for _, c := range []struct {
		text string
		want []float64
	}{
		{"Toke - we are seeing drops from port.rx_dropped on both interfaces:\n\n1 IRQ, XDP_REDIRECT -- port.rx_dropped: appx. 50-75 pps / interface\n4 IRQ, XDP_REDIRECT -- port.rx_dropped: appx. 2000 pps / interface\n", []float64{2000}},
		// counter-cases: a rate of 0, a counter that is no ring loss, a question
		{"With one IRQ and no XDP we see port.rx_dropped: 0 pps on each interface.\n", nil},
		{"The bridge forwards rx_packets: 950000 pps on each interface.\n", nil},
		{"Would port.rx_dropped: 2000 pps be a problem here?\n", nil},
	} {
		got := ringLossRates(c.text)
		if len(got) != len(c.want) || len(got) > 0 && got[0] != c.want[0] {
			t.Errorf("%q: ring-loss rates %v, want %v", c.text, got, c.want)
		}
	}
}
