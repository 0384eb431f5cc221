package tune

import (
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// netdevSample is a sample at second sec with eth0's /proc/net/dev "drop" (rx_dropped) and
// "fifo" (rx_fifo_errors) columns, and TcpExt and IpExt counters.
func netdevSample(sec int, drop, fifo int64, inOctets int64) model.Sample {
	var c kernel.Counters
	c.Set("rx_bytes", 1)
	c.Set("rx_dropped", drop)
	c.Set("rx_fifo_errors", fifo)
	var g kernel.Groups
	g.Set("IpExt", "InOctets", inOctets)
	for _, n := range []string{"PruneCalled", "RcvPruned", "TCPRcvQDrop"} {
		g.Set("TcpExt", n, 0)
	}
	return model.Sample{Time: fixedNow().Add(time.Duration(sec) * time.Second), NetDev: []kernel.NetDev{{Name: "eth0", Counters: c}}, NetStat: g}
}

// Issue 31 item 1: a /proc/net/dev counter of a 32-bit kernel before 2.6.36 (unsigned long,
// Host.NetDevCounterWidth) that passes 2^32 during --verify grew by the modular difference.
// tune's own sampler took every drop of a counter for a reset and left the interval out,
// so a NIC guard lost exactly the intervals of heavy drops.
func TestIntervalsNetDev32BitWrap(t *testing.T) {
	tl := &model.Timeline{Host: model.Host{Kernel: "2.6.26-2-686", Arch: "i686"},
		Samples: []model.Sample{netdevSample(0, 0xfffffff0, 5, 10), netdevSample(1, 0x10, 7, 20)}}
	iv := Intervals(tl, nil)
	if len(iv) != 1 {
		t.Fatalf("%d intervals", len(iv))
	}
	// 0x20 dropped across the wrap, 2 FIFO overruns.
	if got, ok := iv[0][RateNICRxDrops("eth0")]; !ok || got != 0x20+2 {
		t.Errorf("eth0 drops across the wrap: %v %v, want 34/s", got, ok)
	}
	// The same drop on a 64-bit kernel is a reset: not a measurement.
	tl.Host = model.Host{Kernel: "6.1.0", Arch: "x86_64"}
	if got, ok := Intervals(tl, nil)[0][RateNICRxDrops("eth0")]; ok {
		t.Errorf("a 64-bit counter that went back was measured: %v", got)
	}
}

// The NIC guard sums kernel.RxDropNetDevCounters (kernel/nicloss.go), each counter taken on
// its own: "drop" (rx_dropped, which holds rx_missed_errors in /proc/net/dev) and "fifo"
// (rx_fifo_errors); a reset of either leaves the interval out.
func TestIntervalsNICDrops(t *testing.T) {
	tl := &model.Timeline{Host: model.Host{Kernel: "6.1.0", Arch: "x86_64"},
		Samples: []model.Sample{netdevSample(0, 100, 50, 0), netdevSample(2, 140, 60, 1000), netdevSample(3, 150, 0, 3000)}}
	iv := Intervals(tl, nil)
	if len(iv) != 2 {
		t.Fatalf("%d intervals", len(iv))
	}
	if got := iv[0][RateNICRxDrops("eth0")]; got != (40+10)/2.0 {
		t.Errorf("drops %v/s, want 25/s", got)
	}
	if got, ok := iv[1][RateNICRxDrops("eth0")]; ok {
		t.Errorf("fifo reset, yet measured: %v", got)
	}
	if iv[0][RateIPInOctets] != 500 || iv[1][RateIPInOctets] != 2000 || iv[0][RateTCPPrune] != 0 {
		t.Errorf("IpExt and TcpExt: %v %v", iv[0], iv[1])
	}
	// A sample without /proc/net/dev: no NIC figure, not zero.
	tl.Samples[1].NetDev = nil
	if _, ok := Intervals(tl, nil)[0][RateNICRxDrops("eth0")]; ok {
		t.Error("measured without /proc/net/dev")
	}
}

// Allocation failures are the kernel log's events inside each interval; a recording whose
// kernel log could not be read has none, not zero. Intervals never span a break, and take
// model's rates and the flow figures as they are.
func TestIntervalsEventsBreaksFlows(t *testing.T) {
	at := func(sec float64) time.Time { return fixedNow().Add(time.Duration(sec * float64(time.Second))) }
	tl := &model.Timeline{Samples: []model.Sample{{Time: at(0)}, {Time: at(1), Rates: model.Rates{model.RateAllocstallPerSec: 3}}, {Time: at(2)}, {Time: at(3)}},
		Events: []model.Event{{Kind: model.EventAllocFailure, Time: at(-0.5)}, {Kind: model.EventAllocFailure, Time: at(0.5)},
			{Kind: model.EventAllocFailure, Time: at(1)}, {Kind: model.EventOOMKill, Time: at(1.5)}, {Kind: model.EventAllocFailure, Time: at(2.5)}},
		Breaks: []int{3}}
	flows := map[time.Time]model.Rates{at(2): {RateFlowDelivery: 7e6}}
	iv := Intervals(tl, flows)
	if len(iv) != 2 {
		t.Fatalf("%d intervals (a break at 3)", len(iv))
	}
	if iv[0][RateAllocFailures] != 2 || iv[1][RateAllocFailures] != 0 || iv[0][model.RateAllocstallPerSec] != 3 || iv[1][RateFlowDelivery] != 7e6 {
		t.Errorf("intervals %v", iv)
	}
	tl.NotAvailable = []model.Unavailable{{What: "kernel log (/dev/kmsg)", Why: "permission denied"}}
	if _, ok := Intervals(tl, flows)[0][RateAllocFailures]; ok {
		t.Error("allocation failures counted from an unread kernel log")
	}
}
