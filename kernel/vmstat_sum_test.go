package kernel

import "testing"

// Counters split per zone (pre-4.8 reclaim, allocstall today) are summed; the throttle
// counter that shares the pgscan_direct prefix is not.
func TestSumZoned(t *testing.T) {
	var c Counters
	c.Set("pgscan_direct_normal", 5)
	c.Set("pgscan_direct_dma32", 2)
	c.Set("pgscan_direct_throttle", 100)
	c.Set("allocstall", 7)
	if v, ok := SumZoned(&c, "pgscan_direct"); !ok || v != 7 {
		t.Errorf("pgscan_direct = %d %v, want 7", v, ok)
	}
	if v, ok := SumZoned(&c, "allocstall"); !ok || v != 7 {
		t.Errorf("allocstall = %d %v", v, ok)
	}
	if _, ok := SumZoned(&c, "pgscan_kswapd"); ok {
		t.Error("absent counter reported present")
	}
	if _, ok := SumZoned(nil, "allocstall"); ok {
		t.Error("nil counters reported present")
	}
	// The 2.6 per-zone layout, HighMem included, and the 4.10+ allocstall split.
	var old Counters
	old.Set("pgscan_kswapd_dma", 1)
	old.Set("pgscan_kswapd_normal", 10)
	old.Set("pgscan_kswapd_high", 100)
	old.Set("pgscan_kswapd_movable", 1000)
	old.Set("allocstall_normal", 3)
	old.Set("allocstall_movable", 4)
	if v, ok := SumZoned(&old, "pgscan_kswapd"); !ok || v != 1111 {
		t.Errorf("pgscan_kswapd per zone = %d %v, want 1111", v, ok)
	}
	if v, ok := SumZoned(&old, "allocstall"); !ok || v != 7 {
		t.Errorf("allocstall per zone = %d %v, want 7", v, ok)
	}
}
