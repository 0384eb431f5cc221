package model

import (
	"testing"
	"time"

	"headroom/kernel"
)

func TestDelta(t *testing.T) {
	const top32 = 1<<32 - 1
	for _, c := range []struct {
		name      string
		prev, cur int64
		width     int
		want      int64
		kind      DeltaKind
	}{
		{"grew", 100, 150, Width64, 50, DeltaGrew},
		{"same", 7, 7, Width32, 0, DeltaGrew},
		{"u32 wrap", top32 - 9, 20, Width32, 30, DeltaWrapped},
		{"u32 drop from low: reset", 5000, 10, Width32, 10, DeltaReset},
		{"u32 drop from the top but far: reset", top32 - 9, 1 << 31, Width32, 1 << 31, DeltaReset},
		{"u64 drop: reset (reboot)", 1 << 40, 12, Width64, 12, DeltaReset},
		{"u64 wrap through 2^63 (negative int64)", -10, 5, Width64, 15, DeltaWrapped},
		{"u64 wrap past the int64 top", 1<<63 - 1, -(1 << 63), Width64, 1, DeltaGrew},
	} {
		d, k := Delta(c.prev, c.cur, c.width)
		if d != c.want || k != c.kind {
			t.Errorf("%s: Delta(%d, %d, %d) = %d %v, want %d %v", c.name, c.prev, c.cur, c.width, d, k, c.want, c.kind)
		}
	}
}

func TestSoftnetDeltasWrapAndCPUs(t *testing.T) {
	prev := []kernel.SoftnetCPU{{CPU: 0, Processed: 1<<32 - 1000, Dropped: 5}, {CPU: 1, Processed: 10}, {CPU: 3, Processed: 50}}
	cur := []kernel.SoftnetCPU{{CPU: 0, Processed: 500, Dropped: 9}, {CPU: 1, Processed: 30}, {CPU: 2, Processed: 1}}
	ds := SoftnetDeltas(prev, cur)
	if len(ds) != 2 || ds[0].CPU != 0 || ds[0].Processed != 1500 || !ds[0].Wrapped || ds[0].Dropped != 4 || ds[1].Processed != 20 || ds[1].Wrapped {
		t.Fatalf("deltas %+v", ds)
	}
	if tot := SoftnetTotals(ds); tot.Processed != 1520 || tot.Dropped != 4 || !tot.Wrapped || tot.Reset {
		t.Errorf("totals %+v", tot)
	}
}

// The softnet rates used to sum the columns over CPUs and give no rate when the sum went
// down: one CPU's u32 wrap hid every drop of the interval.
func TestDeriveRatesSoftnetWrap(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	tl := &Timeline{Samples: []Sample{
		{Time: t0, Softnet: []kernel.SoftnetCPU{{CPU: 0, Processed: 1<<32 - 100, Dropped: 1<<32 - 2}, {CPU: 1, Dropped: 0}}},
		{Time: t0.Add(2 * time.Second), Softnet: []kernel.SoftnetCPU{{CPU: 0, Processed: 100, Dropped: 8}, {CPU: 1, Dropped: 4}}},
	}}
	tl.DeriveRates()
	if r, ok := tl.Samples[1].Rates.Get(RateSoftnetDropPerSec); !ok || r != 7 {
		t.Errorf("softnet drop rate = %v %v, want 7/s ((10 + 4) over 2 s)", r, ok)
	}
}

func TestDeriveRatesNetdevReset(t *testing.T) {
	t0 := time.Unix(1_700_000_000, 0)
	dev := func(name string, rx int64) kernel.NetDev {
		var c kernel.Counters
		c.Set("rx_bytes", rx)
		return kernel.NetDev{Name: name, Counters: c}
	}
	tl := &Timeline{Samples: []Sample{
		{Time: t0, NetDev: []kernel.NetDev{dev("eth0", 1000), dev("eth1", 5000)}},
		{Time: t0.Add(time.Second), NetDev: []kernel.NetDev{dev("eth0", 3000), dev("eth1", 6000)}},
		{Time: t0.Add(2 * time.Second), NetDev: []kernel.NetDev{dev("eth0", 4000), dev("eth1", 10)}},
	}}
	tl.DeriveRates()
	if r, ok := tl.Samples[1].Rates.Get(RateRxBytesPerSec); !ok || r != 3000 {
		t.Errorf("rx rate = %v %v, want 3000", r, ok)
	}
	if r, ok := tl.Samples[2].Rates.Get(RateRxBytesPerSec); ok {
		t.Errorf("rx rate across eth1's reset = %v, want none", r)
	}
	// A 32-bit 2.6.32 kernel's rx_bytes is an unsigned long: it wraps at 4 GiB.
	tl.Host.Kernel, tl.Host.Arch = "2.6.32", "i686"
	tl.Samples[2].NetDev = []kernel.NetDev{dev("eth0", 1<<32-1000), dev("eth1", 6000)}
	tl.Samples = append(tl.Samples, Sample{Time: t0.Add(3 * time.Second), NetDev: []kernel.NetDev{dev("eth0", 1000), dev("eth1", 6000)}})
	for i := range tl.Samples {
		tl.Samples[i].Rates = nil
	}
	tl.DeriveRates()
	if r, ok := tl.Samples[3].Rates.Get(RateRxBytesPerSec); !ok || r != 2000 {
		t.Errorf("rx rate across a 32-bit wrap = %v %v, want 2000", r, ok)
	}
}

func TestCounterDeltaReset(t *testing.T) {
	tl := &Timeline{}
	for _, v := range []int64{100, 150, 20, 50} {
		tl.Samples = append(tl.Samples, Sample{VMStat: &kernel.Counters{}})
		tl.Samples[len(tl.Samples)-1].VMStat.Set("pgscan_direct", v)
	}
	d, _, ok := tl.CounterDelta(func(s *Sample) (int64, bool) { return s.VM("pgscan_direct") })
	// 50 before the reset, 20 since it, 30 after: not 50 - 100 = -50.
	if !ok || d != 100 {
		t.Errorf("CounterDelta across a reset = %d %v, want 100", d, ok)
	}
}

// NetStatDelta: a sample of nstat's increments (SinceLastRun) is the growth since the sample
// before it: 100 since boot, then increments 50, 80 and 60 grew by 190. Differencing them as
// totals would give 50-100 (a reset: +50), +30, and 60-80 (a reset: +60) = 140.
func TestNetStatDeltaAddsIncrements(t *testing.T) {
	tl := &Timeline{}
	for i, v := range []int64{100, 50, 80, 60} {
		s := Sample{NetStat: kernel.Groups{{Name: "Tcp"}}}
		s.NetStat[0].Counters.Set("RetransSegs", v)
		if i > 0 {
			s.NetStatFrom = SinceLastRun
		}
		tl.Samples = append(tl.Samples, s)
	}
	if d, _, ok := tl.NetStatDelta("Tcp", "RetransSegs"); !ok || d != 190 {
		t.Errorf("NetStatDelta over nstat's increments = %d %v, want 190", d, ok)
	}
	if d, _, _ := tl.CounterDelta(func(s *Sample) (int64, bool) { return s.NetStat.Get("Tcp", "RetransSegs") }); d != 140 {
		t.Errorf("CounterDelta (totals) = %d, want 140", d)
	}
}
