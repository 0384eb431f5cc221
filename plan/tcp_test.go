package plan

import (
	"math"
	"testing"
	"time"

	"headroom/kernel"
)

func kv(t *testing.T, s string) kernel.KernelVersion {
	t.Helper()
	v, err := kernel.ParseKernelVersion(s)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBDPBytes(t *testing.T) {
	// Seed 004's table (Chicago–CERN, 125 ms): 10 Mbps → "160 KBytes", 100 Mbps → "1.6 MBytes",
	// 1000 Mbps → "16 MBytes", 10000 Mbps → "160 MBytes" (decimal megabytes, rounded).
	cases := []struct {
		bps  float64
		rtt  time.Duration
		want int64
	}{
		{10e6, 125 * time.Millisecond, 156_250},
		{100e6, 125 * time.Millisecond, 1_562_500},
		{1e9, 125 * time.Millisecond, 15_625_000},
		{10e9, 125 * time.Millisecond, 156_250_000},
		{50e6, 125 * time.Millisecond, 781_250}, // seed 004's per-stream share: 1 Gbit/s ÷ 20
		{1e9, 127 * time.Millisecond, 15_875_000},
		{1, time.Millisecond, 1}, // 1/8000 of a byte rounds up to 1
		{1e9, 0, 0},
		{1e9, -time.Second, 0},
		{0, time.Second, 0},
		{math.NaN(), time.Second, 0},
	}
	for _, c := range cases {
		if got := BDPBytes(c.bps, c.rtt); got != c.want {
			t.Errorf("BDPBytes(%v, %v) = %d, want %d", c.bps, c.rtt, got, c.want)
		}
	}
}

func TestReceiveWindowRatio(t *testing.T) {
	cases := []struct {
		kernel   string
		adv      int
		has      bool
		measured float64
		want     float64
	}{
		{"2.6.13", 0, false, 0, 0.75},  // default tcp_adv_win_scale=2
		{"3.10.0", 0, false, 0, 0.5},   // default 1 since 3.4
		{"5.15.0", 2, true, 0, 0.75},   // a host that set it back to 2
		{"5.15.0", -2, true, 0, 0.25},  // negative: space >> 2
		{"5.15.0", 0, true, 0, 1},      // zero: space >> 0
		{"6.18.44", 2, true, 0, 0.68},  // 6.6+: the sysctl is ignored
		{"", 0, false, 0, 0.68},        // unknown: assume current
		{"2.6.13", 0, false, 0.6, 0.6}, // measured wins
	}
	for _, c := range cases {
		got, why := ReceiveWindowRatio(kv(t, c.kernel), c.adv, c.has, c.measured)
		if got != c.want || why == "" {
			t.Errorf("ReceiveWindowRatio(%q, %d, %v, %v) = %v, %q; want %v", c.kernel, c.adv, c.has, c.measured, got, why, c.want)
		}
	}
	so := map[string]float64{"2.6.13": 0.75, "5.4.0": 0.5, "6.6.0": 0.25, "6.9.12": 0.25, "6.10.0": 0.5, "6.11.0": 0.68, "6.18.44": 0.68}
	for k, want := range so {
		if got := SetsockoptWindowRatio(kv(t, k), 0, false, 0); got != want {
			t.Errorf("SetsockoptWindowRatio(%s) = %v, want %v", k, got, want)
		}
	}
}

func TestBufferAndThroughput(t *testing.T) {
	// Seed 004: 50 Mbit/s per stream at 125 ms, ¾ of the buffer is window on 2.6.13:
	// ⌈781250 / 0.75⌉ = 1041667 → 255 pages of 4096 = 1044480 bytes, "1 MB buffers".
	if got := BufferBytesFor(50e6, 125*time.Millisecond, 0.75, 4096); got != 1044480 {
		t.Errorf("seed 004 buffer = %d, want 1044480", got)
	}
	// The same with 64 KiB pages: 16 pages = 1048576.
	if got := BufferBytesFor(50e6, 125*time.Millisecond, 0.75, 65536); got != 1048576 {
		t.Errorf("64K-page buffer = %d, want 1048576", got)
	}
	// One stream at 1 Gbit/s over 125 ms on 6.18: ⌈15625000 / 0.68⌉ = 22977942 → 5610 pages.
	got := BufferBytesFor(1e9, 125*time.Millisecond, MeasuredScalingRatio, 4096)
	if got != 22978560 {
		t.Errorf("1 Gbit/s buffer = %d, want 22978560", got)
	}
	if r := ThroughputBitsPerSec(got, 125*time.Millisecond, MeasuredScalingRatio); r < 0.9e9 {
		t.Errorf("that buffer reaches %v bit/s, want ≥ 90%% of 1 Gbit/s", r)
	}
	// The measurement the ratio comes from: a 1 MB buffer at 127 ms gave about 43 Mbit/s.
	if r := ThroughputBitsPerSec(1e6, 127*time.Millisecond, MeasuredScalingRatio); math.Abs(r-43e6) > 0.5e6 {
		t.Errorf("1 MB at 127 ms = %v bit/s, want ≈ 43 Mbit/s", r)
	}
	if r := ThroughputBitsPerSec(1e6, 0, 0.5); r != 0 {
		t.Errorf("zero RTT throughput = %v", r)
	}
}

func TestKernelDefaultTCPMemPages(t *testing.T) {
	// This 6.18 host: nr_free_buffer_pages 6141872 gives the tcp_mem it reads.
	if got := KernelDefaultTCPMemPages(6141872); got != [3]int64{287898, 383867, 575796} {
		t.Errorf("KernelDefaultTCPMemPages(6141872) = %v", got)
	}
	if got := KernelDefaultTCPMemPages(1000); got != [3]int64{96, 128, 192} {
		t.Errorf("KernelDefaultTCPMemPages(1000) = %v, want the 128-page floor", got)
	}
}
