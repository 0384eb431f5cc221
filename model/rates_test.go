package model

import (
	"math"
	"slices"
	"testing"
	"time"

	"headroom/kernel"
)

func cnt(kv ...any) *kernel.Counters {
	var c kernel.Counters
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(kv[i].(string), int64(kv[i+1].(int)))
	}
	return &c
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestDeriveRates(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	tl := &Timeline{}
	tl.Host.SetPageSize(4096)
	s0 := Sample{Time: t0,
		VMStat: cnt("pswpin", 0, "pswpout", 100, "pgscan_kswapd_normal", 10, "pgscan_kswapd_dma", 5, "allocstall", 1, "pgscan_direct", 0, "pgscan_direct_throttle", 0),
		Stat: &kernel.Stat{Total: kernel.CPUTimes{CPU: "cpu", Fields: []int64{100, 0, 100, 800, 0, 0, 0, 0, 50, 0}},
			Scalars: *cnt("ctxt", 1000, "intr", 500, "procs_running", 3)},
		Interrupts: &kernel.Interrupts{Lines: []kernel.Interrupt{{Name: "TLB", Total: 10}}},
		Threads:    []kernel.TaskStat{{PID: 50, Comm: "kswapd0", STimeTicks: 100}},
		Softnet:    []kernel.SoftnetCPU{{CPU: 0, Dropped: 1}, {CPU: 1, Dropped: 2}},
	}
	s1 := Sample{Time: t0.Add(2 * time.Second),
		VMStat: cnt("pswpin", 0, "pswpout", 612, "pgscan_kswapd_normal", 30, "pgscan_kswapd_dma", 5, "allocstall", 1, "pgscan_direct", 8, "pgscan_direct_throttle", 1000),
		Stat: &kernel.Stat{Total: kernel.CPUTimes{CPU: "cpu", Fields: []int64{200, 0, 400, 1300, 0, 0, 100, 0, 90, 0}},
			Scalars: *cnt("ctxt", 5000, "intr", 700, "procs_running", 7)},
		Interrupts: &kernel.Interrupts{Lines: []kernel.Interrupt{{Name: "TLB", Total: 2010}}},
		Threads:    []kernel.TaskStat{{PID: 50, Comm: "kswapd0", STimeTicks: 300}},
		Softnet:    []kernel.SoftnetCPU{{CPU: 0, Dropped: 11}, {CPU: 1, Dropped: 2}},
	}
	tl.Samples = []Sample{s0, s1}
	tl.DeriveRates()
	if len(tl.Samples[0].Rates) != 0 {
		t.Fatalf("first sample has rates: %v", tl.Samples[0].Rates)
	}
	r := tl.Samples[1].Rates
	want := map[string]float64{
		RateSwapOutKBPerSec:    512 * 4 / 2.0, // 512 pages of 4 KiB in 2 s
		RateSwapInKBPerSec:     0,
		RatePgscanKswapdPerSec: 10, // per-zone names summed (pre-4.8 layout)
		RateAllocstallPerSec:   0,
		RatePgscanDirectPerSec: 4, // pgscan_direct_throttle (events, not pages) excluded
		RateCtxtPerSec:         2000,
		RateIntrPerSec:         100,
		RateCPUUserPct:         10, // 100 of 1000 ticks; guest (field 8) is inside user
		RateCPUSystemPct:       30,
		RateCPUIdlePct:         50,
		RateCPUSoftIRQPct:      10,
		RateRunnable:           7,
		RateTLBShootdownPerSec: 1000,
		RateKswapdCPUPct:       100, // 200 ticks of 1/100 s in 2 s
		RateSoftnetDropPerSec:  5,
	}
	for k, v := range want {
		got, ok := r[k]
		if !ok {
			t.Errorf("%s missing", k)
			continue
		}
		if !near(got, v) {
			t.Errorf("%s = %v, want %v", k, got, v)
		}
	}
	// Absent counters give absent rates, not zeros.
	if _, ok := r[RateCompactStallPerSec]; ok {
		t.Error("compact_stall rate present without the counter")
	}
}

func TestDeriveRatesKeepsPastedRates(t *testing.T) {
	tl := &Timeline{Samples: []Sample{{Rates: Rates{RateCPUSystemPct: 41}}, {Rates: Rates{RateCPUSystemPct: 93}}}}
	tl.DeriveRates()
	if tl.Samples[1].Rates[RateCPUSystemPct] != 93 {
		t.Fatalf("pasted rate overwritten: %v", tl.Samples[1].Rates)
	}
}

func TestMerge(t *testing.T) {
	a := &Timeline{Source: SourceInfo{Kind: SourceText, Name: "a.txt"}, Samples: []Sample{{}, {}},
		Segments: []Segment{{Name: "x", First: 0, Last: 1}}}
	a.Host.Kernel = "2.6.13"
	b := &Timeline{Source: SourceInfo{Kind: SourceText, Name: "b.txt"}, Samples: []Sample{{}},
		Segments: []Segment{{Name: "y", First: 0, Last: 0}}}
	b.Host.Kernel = "4.0"
	b.Host.Arch = "i686"
	m := Merge(a, b)
	if m.Source.Name != "a.txt, b.txt" || len(m.Samples) != 3 || m.Segments[1].First != 2 || m.Host.Kernel != "2.6.13" || m.Host.Arch != "i686" {
		t.Fatalf("merge: %+v", m)
	}
}

func TestKernelThreadRatesCoverTheLiveReader(t *testing.T) {
	// The live reader samples kernel.KernelThreadPrefixes; each must have a rate, or a thread
	// read live would add to no figure while the same thread in a top paste would.
	var got []string
	for _, r := range KernelThreadRates {
		got = append(got, r.Prefix)
	}
	if !slices.Equal(got, kernel.KernelThreadPrefixes) {
		t.Fatalf("KernelThreadRates prefixes %v, kernel.KernelThreadPrefixes %v", got, kernel.KernelThreadPrefixes)
	}
	for comm, want := range map[string]string{
		"kswapd0": RateKswapdCPUPct, "[kswapd1]": RateKswapdCPUPct, "kcompactd0": RateKcompactdCPUPct,
		"ksoftirqd/3": RateKsoftirqdCPUPct, "kworker/0:1": "", "swapper": "",
	} {
		r, ok := KernelThreadRate(comm)
		if r != want || ok != (want != "") {
			t.Errorf("KernelThreadRate(%q) = %q, %v; want %q", comm, r, ok, want)
		}
	}
}

// The drop rates take each counter's growth by Delta, interface by interface: a 32-bit
// kernel's rx_dropped that passes 2^32 still counts its growth, an interface that goes away
// does not make the total look reset, loopback is not a NIC, and a reset counter gives no
// figure rather than a made-up one. (report's watch printed "-" for the wrap and the
// vanished interface when it summed totals itself.)
func TestDropRates(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 14, 2, 0, 0, time.UTC)
	dev := func(name string, kv ...any) kernel.NetDev { return kernel.NetDev{Name: name, Counters: *cnt(kv...)} }
	pair := func(kernelRelease, arch string) *Timeline {
		tl := &Timeline{Host: Host{Kernel: kernelRelease, Arch: arch}, Samples: []Sample{
			{Time: t0, NetDev: []kernel.NetDev{
				dev("eth0", "rx_dropped", 1<<32-10, "rx_fifo_errors", 5, "rx_crc_errors", 0),
				dev("eth1", "rx_dropped", 7000, "rx_fifo_errors", 0),
				dev("lo", "rx_dropped", 0, "rx_fifo_errors", 0)},
				NetStat: kernel.Groups{{Name: "TcpExt", Counters: *cnt("TCPRcvQDrop", 100, "ListenOverflows", 3)}}},
			{Time: t0.Add(2 * time.Second), NetDev: []kernel.NetDev{
				dev("eth0", "rx_dropped", 30, "rx_fifo_errors", 15, "rx_crc_errors", 1000),
				dev("lo", "rx_dropped", 999, "rx_fifo_errors", 0)},
				NetStat: kernel.Groups{{Name: "TcpExt", Counters: *cnt("TCPRcvQDrop", 150, "ListenOverflows", 13)}}},
		}}
		tl.DeriveRates()
		return tl
	}
	// 32-bit 2.6.32: eth0 dropped 40 across the wrap + 10 FIFO overruns in 2 s; CRC errors are
	// damage, not a shortage.
	r := pair("2.6.32", "i686").Samples[1].Rates
	if v, ok := r[RateNICRxDropPerSec]; !ok || !near(v, 25) {
		t.Errorf("nic drops/s across a 32-bit wrap = %v %v, want 25", v, ok)
	}
	if v, ok := r[RateSocketDropPerSec]; !ok || !near(v, 30) {
		t.Errorf("socket drops/s = %v %v, want 30", v, ok)
	}
	// On a 64-bit kernel the same fall is a reset: no figure.
	if v, ok := pair("6.1.0", "x86_64").Samples[1].Rates[RateNICRxDropPerSec]; ok {
		t.Errorf("nic drops/s across a reset = %v, want none", v)
	}
}

// Every kernel thread the sampler reads has the rate its CPU share adds to, and a comm as ps
// and top print it finds that rate.
func TestKernelThreadRatesCoverTheSampledThreads(t *testing.T) {
	for _, p := range kernel.KernelThreadPrefixes {
		found := false
		for _, r := range KernelThreadRates {
			found = found || r.Prefix == p
		}
		if !found {
			t.Errorf("kernel thread %q is sampled but has no rate", p)
		}
	}
	for comm, want := range map[string]string{"kswapd0": RateKswapdCPUPct, "[kcompactd1]": RateKcompactdCPUPct, "ksoftirqd/3": RateKsoftirqdCPUPct} {
		if got, ok := KernelThreadRate(comm); !ok || got != want {
			t.Errorf("KernelThreadRate(%q) = %q %v, want %q", comm, got, ok, want)
		}
	}
	if _, ok := KernelThreadRate("kworker/0:1"); ok {
		t.Error("kworker given a rate")
	}
}
