package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestNICRxOverruns(t *testing.T) {
	t.Run("seed 004 ifconfig totals", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Time = t0
		tl.Samples[0].Source = "lines 300-320"
		tl.Samples[0].NetDev = []kernel.NetDev{
			netdev("bond0", "rx_packets", 3436468025, "rx_errors", 1491402, "rx_dropped", 2982804, "rx_fifo_errors", 1491402),
			netdev("eth1", "rx_packets", 1385841762, "rx_errors", 99347, "rx_dropped", 198694, "rx_fifo_errors", 99347),
		}
		res := run(t, "nic-rx-overruns", tl)
		if len(res.Findings) != 2 {
			t.Fatalf("want a finding per interface, got %d", len(res.Findings))
		}
		f := res.Findings[0]
		if f.Severity != Warning || !evidenceHas(f, "bond0 rx_fifo_errors", "1491402") || !evidenceHas(f, "share of frames lost", "0.0434%") {
			t.Errorf("bond0 finding: %v %+v", f.Severity, f.Evidence)
		}
	})
	t.Run("rising with ring below max", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000+i*100000, "rx_missed_errors", 100+i*50)}
			tl.Samples[i].NICStats = []kernel.NICStats{{Name: "eth0", Ring: &kernel.Ring{Rx: 256, RxMax: 4096}}}
		}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Critical)
		// The ring change belongs to nic-ring-below-max, so tune sees it once.
		if len(f.Changes) != 0 || !evidenceHas(f, "eth0 RX ring", "256 of pre-set maximum 4096") {
			t.Errorf("changes %+v, evidence %+v", f.Changes, f.Evidence)
		}
		r := mustFire(t, run(t, "nic-ring-below-max", tl), Warning)
		if len(r.Changes) != 1 || r.Changes[0].Recommended != "4096" || r.Changes[0].Kind != model.ChangeEthtool {
			t.Errorf("ring changes: %+v", r.Changes)
		}
	})
	// A 32-bit 2.6.32 kernel keeps /proc/net/dev counters in an unsigned long: rx_fifo_errors
	// passing 2^32 between two samples read as a loss of -4294967271 frames, and no warning.
	t.Run("32-bit counter wraps while sampled", func(t *testing.T) {
		tl := timeline(2)
		tl.Host.Kernel, tl.Host.Arch = "2.6.32", "i686"
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000, "rx_fifo_errors", 1<<32-5)}
		tl.Samples[1].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1100000, "rx_fifo_errors", 20)}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Critical)
		if !evidenceHas(f, "eth0 rx_fifo_errors", "+25") || !evidenceHas(f, "eth0 rx_fifo_errors", "wrapped") {
			t.Errorf("evidence %+v", f.Evidence)
		}
	})
	// `ethtool -S X | egrep 'dropped'` keeps rx_dropped (the stack's, on a driver without
	// i40e's port.* names, whose rx_dropped is a ring loss) and a link-down counter: no
	// overrun counter was read, so "no overruns" would be a guess.
	t.Run("a grep that kept no overrun counter is not checked", func(t *testing.T) {
		tl := timeline(1)
		a, b := counters("rx_dropped", 3322, "tx_dropped_link_down", 0), counters("rx_dropped", 768, "tx_dropped", 0)
		tl.Samples[0].NICStats = []kernel.NICStats{{Name: "enp24s0f1", Stats: &a}, {Name: "enp24s0f0", Stats: &b}}
		mustNotCheck(t, run(t, "nic-rx-overruns", tl), "no RX overrun, missed or FIFO counter")
		// One interface with rx_missed_errors read (zero) is checked; the other is named as unread.
		c := counters("rx_dropped", 768, "rx_missed_errors", 0)
		tl.Samples[0].NICStats[1].Stats = &c
		res := run(t, "nic-rx-overruns", tl)
		mustBeHealthy(t, res)
		if !strings.Contains(res.Checked, "on 1 interface;") || !strings.Contains(res.Checked, "not read for enp24s0f1") {
			t.Errorf("checked: %q", res.Checked)
		}
	})
	t.Run("driver alloc failures", func(t *testing.T) {
		tl := timeline(1)
		st := counters("alloc_rx_buff_failed", 12, "rx_packets", 10)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 10)}
		tl.Samples[0].NICStats = []kernel.NICStats{{Name: "eth0", Stats: &st}}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
		if !evidenceHas(f, "alloc_rx_buff_failed", "12") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetDev = []kernel.NetDev{netdev("lo", "rx_fifo_errors", 5), netdev("eth0", "rx_packets", 100, "rx_fifo_errors", 0)}
		}
		mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "nic-rx-overruns", timeline(2)), "/proc/net/dev")
	})
}

// Corpus 249: a grep of i40e's ethtool -S for rx_dropped. Beside the port's
// port.rx_dropped, the VSI's rx_dropped counts frames discarded for want of a descriptor
// (kernel.ClassifyNICCounterIn): 3322 lost at the NIC, a since-boot total without a packet
// count, so info; never "no RX overrun" on 2 interfaces.
func TestNICRxOverrunsI40eVSIRxDropped(t *testing.T) {
	tl := pasteTimeline(t, `root@compute5:~# ethtool -S enp24s0f1 | egrep -E 'rx_dropped|rx_missed'
     rx_dropped: 3322
     port.rx_dropped: 0
root@compute5:~# ethtool -S enp24s0f0 | egrep -E 'rx_dropped|rx_missed'
     rx_dropped: 768
     port.rx_dropped: 0
`)
	res := run(t, "nic-rx-overruns", tl)
	if len(res.Findings) != 2 {
		t.Fatalf("want a finding per interface, got %+v (%s)", res.Findings, res.Checked+res.NotChecked)
	}
	f := res.Findings[0]
	if !evidenceHas(f, "ethtool rx_dropped", "since boot") || f.Severity != Info {
		t.Errorf("finding %v: %+v", f.Severity, f.Evidence)
	}
	// A netdev line beside it must not hide the VSI's count: /proc/net/dev has no overrun
	// column of that name.
	tl.Samples[len(tl.Samples)-1].NetDev = append(tl.Samples[len(tl.Samples)-1].NetDev, netdev("enp24s0f0", "rx_packets", 1000000, "rx_dropped", 768))
	res = run(t, "nic-rx-overruns", tl)
	found := false
	for _, f := range res.Findings {
		found = found || strings.HasPrefix(f.Title, "enp24s0f0") && evidenceHas(f, "enp24s0f0 ethtool rx_dropped", "768")
	}
	if !found {
		t.Errorf("enp24s0f0 with a netdev line: %+v %s", res.Findings, res.Checked+res.NotChecked)
	}
}

// sar -n EDEV's rxfifo/s (parsed since the sysstat reader, read by no rule before): FIFO
// overruns in an interval are frames the NIC dropped; zero in every interval is healthy.
func TestNICRxOverrunsReadsSarEDEV(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].Rates = model.Rates{model.RateNICRxFIFOPerSec: 0}
	tl.Samples[1].Rates = model.Rates{model.RateNICRxFIFOPerSec: 12.5}
	f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
	if !evidenceHas(f, "rxfifo/s", "peak 12.50/s") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	tl.Samples[1].Rates[model.RateNICRxFIFOPerSec] = 0
	mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
}

// The Intel VSI list (ice, i40e) has no rx_packets: the frames its rings took are
// rx_unicast + rx_multicast + rx_broadcast (GLV_UPRC, GLV_MPRC, GLV_BPRC), and its
// rx_dropped (rx_discards) came on top of them. Before, the share was "not known" and a
// 40% loss was info.
func TestNICRxOverrunsIntelVSIShareFromCastCounters(t *testing.T) {
	tl := pasteTimeline(t, `# ethtool -S eth5
NIC statistics:
     rx_unicast: 600000
     tx_unicast: 10
     rx_multicast: 0
     rx_broadcast: 0
     rx_bytes: 90000000
     rx_dropped: 400000
     rx_unknown_protocol: 0
`)
	f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
	if !evidenceHas(f, "share of frames lost", "40.0000% (400000 of 1000000)") {
		t.Errorf("evidence %+v", f.Evidence)
	}
}
