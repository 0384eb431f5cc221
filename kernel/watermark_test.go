package kernel

import "testing"

func TestWatermarkFloor(t *testing.T) {
	// Seed 004's failing zone: Normal free 12248 kB against min 32768 kB; GFP_ATOMIC's floor
	// is 3/8 × 32768 = 12288 kB, so the refill failed at its floor.
	if f := WatermarkFloor(32768, true, true, KV(2, 6, 26)); f != 12288 {
		t.Errorf("GFP_ATOMIC on 2.6.26: floor %d, want 12288", f)
	}
	for _, c := range []struct {
		high, atomic bool
		v            KernelVersion
		want         int64
	}{
		{true, true, KV(6, 18, 0), 3000},     // GFP_ATOMIC in every era
		{true, false, KV(6, 18, 0), 4000},    // __GFP_HIGH that may sleep
		{false, true, KV(6, 2, 0), 6000},     // non-blocking without __GFP_HIGH: ALLOC_HARDER to 6.2
		{false, true, KV(6, 3, 0), 8000},     // 6.3+: ALLOC_NON_BLOCK only with __GFP_HIGH
		{false, true, KernelVersion{}, 6000}, // unknown release: read as before 6.3
		{false, false, KV(6, 18, 0), 8000},   // GFP_KERNEL
	} {
		if got := WatermarkFloor(8000, c.high, c.atomic, c.v); got != c.want {
			t.Errorf("high=%v atomic=%v %v: %d, want %d", c.high, c.atomic, c.v, got, c.want)
		}
	}
	// AtomicUsable is the low watermark at its lowest (min + min/4) less GFP_ATOMIC's floor.
	for _, min := range []int64{8, 1024, 32768 * 1024, 67584} {
		if got, want := AtomicUsable(min), min+min/4-WatermarkFloor(min, true, true, KernelVersion{}); got != want {
			t.Errorf("AtomicUsable(%d) = %d, low − floor = %d", min, got, want)
		}
		if MinForAtomic(AtomicUsable(min)) != min {
			t.Errorf("MinForAtomic(AtomicUsable(%d)) = %d", min, MinForAtomic(AtomicUsable(min)))
		}
	}
}
