package plan

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestRxBufferBytes(t *testing.T) {
	cases := []struct {
		mtu, page int
		want      int64
		wantOrder int
	}{
		{1500, 4096, 2048, 0},   // 1500+14+64+320 = 1898 → 2048
		{9000, 4096, 16384, 2},  // 9398 → 16384: order 2 (seed 000's order:2)
		{4000, 4096, 8192, 1},   // 4398 → 8192
		{1500, 65536, 32768, 0}, // never below half a page
		{0, 0, 2048, 0},         // defaults
	}
	for _, c := range cases {
		b, o := RxBufferBytes(c.mtu, c.page)
		if b != c.want || o != c.wantOrder {
			t.Errorf("RxBufferBytes(%d, %d) = %d, order %d; want %d, order %d", c.mtu, c.page, b, o, c.want, c.wantOrder)
		}
	}
	if pps := PacketsPerSec(1e9, 1500); math.Abs(pps-81274.38) > 0.01 {
		t.Errorf("PacketsPerSec(1 Gbit/s, 1500) = %v, want 1e9/8/1538 = 81274.38", pps)
	}
}

func TestKernelDefaultMinFreeKBytes(t *testing.T) {
	// The table in mm/page_alloc.c's comment (4·√lowmem): 512 MB → 2896k, 1024 MB → 4096k,
	// 16384 MB → 16384k; seed 004's 896 MiB lowmem → 3831k.
	cases := map[int64]int64{524288: 2896, 1048576: 4096, 16777216: 16384, 917504: 3831, 1000: 128}
	for kb, want := range cases {
		if got := KernelDefaultMinFreeKBytes(kb); got != want {
			t.Errorf("KernelDefaultMinFreeKBytes(%d) = %d, want %d", kb, got, want)
		}
	}
	// Clamps by era: 5 TiB of lowmem is 4·√(5·2^30) ≈ 293k kB.
	big := int64(5) << 30
	for k, want := range map[string]int64{"6.18.44": 262144, "5.7.0": 262144, "5.6.19": 65536, "2.6.13": 65536, "2.6.9": 16384} {
		if got := KernelDefaultMinFreeKBytesForVersion(big, kv(t, k)); got != want {
			t.Errorf("%s: default for 5 TiB = %d, want %d", k, got, want)
		}
	}
	// 2.6.0–2.6.9 used √lowmem: 896 MiB → 957 kB.
	if got := KernelDefaultMinFreeKBytesForVersion(917504, kv(t, "2.6.9")); got != 957 {
		t.Errorf("2.6.9 default for 896 MiB = %d, want 957", got)
	}
}

func TestMinFreeKBytes(t *testing.T) {
	base := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"}
	// 81274.38 frames/s × 0.1 s × 2048 B = 16644994 B; × 8/7 = 19022850 B = 18578 kB.
	kb, why := MinFreeKBytes(base)
	if kb != 18578 || !strings.Contains(why, "18578 kB") {
		t.Errorf("1 Gbit/s: %d kB (%s), want 18578", kb, why)
	}
	// A 256-entry ring adds 256 × 2048 B: (16644994 + 524288) × 8/7 = 19622036 B = 19163 kB.
	in := base
	in.NICs = []NIC{{Name: "eth0", SpeedMbps: 1000, RxRing: 256, RxRingMax: 4096}}
	if kb, _ := MinFreeKBytes(in); kb != 19163 {
		t.Errorf("with ring: %d kB, want 19163", kb)
	}
	// Drops seen: the ring will grow to 4096 entries, 8 MiB to refill.
	in.NICs[0].DropsSeen = true
	if kb, _ := MinFreeKBytes(in); kb != ceilDiv((16644994+4096*2048)*8/7, 1024) {
		t.Errorf("with the ring raised: %d kB", kb)
	}
	// Seed 004: bonded 2 × 1 Gbit/s, i686 with 8 GiB: (33289987 B) × 8/7 = 37155 kB needed;
	// 2.6.13's watermarks sit min/4 and min/2 above min, so the reserve is 1.5 × min and the
	// budget 1/20 of 896 MiB lowmem (45875 kB) holds min to 2/3 of it, 30583 kB (was 37155,
	// a reserve of 55732 kB, 6 % of lowmem); the expert chose 65536.
	in = Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, MemoryBytes: 8 << 30, Arch: "i686", KernelVersion: "2.6.13",
		NICs: []NIC{{SpeedMbps: 2000}}}
	if kb, why := MinFreeKBytes(in); kb != 30583 || ReserveKB(kb, 0, 896<<10) > 45875 {
		t.Errorf("seed 004: %d kB (%s), want 30583", kb, why)
	}
	// A 64 MiB box at 1 Gbit/s on a 4.6+ kernel: min_free_kbytes takes half of the reserve
	// budget (1/20 of 64 MiB = 3276 kB), the watermark gaps the rest: 1638 kB.
	in = base
	in.MemoryBytes = 64 << 20
	if kb, why := MinFreeKBytes(in); kb != 1638 || !strings.Contains(why, "capped") {
		t.Errorf("64 MiB: %d kB (%s), want the 1638 kB cap", kb, why)
	}
	// A slow link on a big box gets the kernel default, never less: 10 Mbit/s on 16 GiB.
	in = base
	in.BandwidthBitsPerSec, in.MemoryBytes = 10e6, 16<<30
	if kb, _ := MinFreeKBytes(in); kb != 16384 {
		t.Errorf("10 Mbit/s on 16 GiB: %d kB, want the default 16384", kb)
	}
	// A longer kswapd reaction scales the burst: 200 ms doubles it.
	in = base
	in.KswapdReaction = 200 * time.Millisecond
	if kb, _ := MinFreeKBytes(in); kb != ceilDiv(int64(math.Ceil(81274.3823146944*0.2*2048))*8/7, 1024) {
		t.Errorf("200 ms reaction: %d kB", kb)
	}
}

func TestWatermarkScaleFactor(t *testing.T) {
	in := Input{BandwidthBitsPerSec: 1e9, RTT: 125 * time.Millisecond, MemoryBytes: 8 << 30, Arch: "x86_64", KernelVersion: "6.18.44"}
	// ⌈16644994 × 10000 / 8589934592⌉ = 20.
	if f, why, ok := WatermarkScaleFactor(in); !ok || f != 20 {
		t.Errorf("8 GiB: %d (%s, %v), want 20", f, why, ok)
	}
	in.KernelVersion = "4.5.7"
	if _, _, ok := WatermarkScaleFactor(in); ok {
		t.Error("4.5 has no watermark_scale_factor")
	}
	// 100 Gbit/s on 64 MiB asks for the 1000 maximum (a gap of 10 % of memory, a reserve of
	// over 20 %); within the reserve budget the gap is what min_free_kbytes 1638 kB leaves:
	// (3276 − 1638) ÷ 2 = 819 kB, ⌊819 × 10000 ÷ 65536⌋ = 124.
	in.KernelVersion, in.MemoryBytes, in.BandwidthBitsPerSec = "6.18.44", 64<<20, 100e9
	if f, why, _ := WatermarkScaleFactor(in); f != 124 || ReserveKB(1638, f, 65536) > 3276 || !strings.Contains(why, "capped") {
		t.Errorf("capped factor = %d (%s), want 124", f, why)
	}
}

func TestNetdev(t *testing.T) {
	pps := PacketsPerSec(1e9, 1500)
	if got := NetdevMaxBacklogPackets(pps); got != 1626 { // 81274.38 × 0.02 = 1625.5
		t.Errorf("backlog = %d, want 1626", got)
	}
	if got := NetdevBudgetPackets(pps, 2000); got != 163 { // 162.5
		t.Errorf("budget at 2000 µs = %d, want 163", got)
	}
	if got := NetdevBudgetPackets(pps, 8000); got != 651 { // 650.2
		t.Errorf("budget at 8000 µs = %d, want 651", got)
	}
	if got := NetdevBudgetPackets(pps, 0); got != 163 {
		t.Errorf("budget with unknown usecs = %d, want the 2000 µs default's 163", got)
	}
	if got := RingMillis(256, pps); math.Abs(got-3.15) > 0.01 {
		t.Errorf("256-entry ring lasts %v ms, want 3.15", got)
	}
}
