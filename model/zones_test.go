package model

import (
	"testing"

	"headroom/kernel"
)

func TestZoneView(t *testing.T) {
	var f kernel.Counters
	for _, kv := range []struct {
		k string
		v int64
	}{{"free", 5000}, {"min", 100}, {"low", 125}, {"high", 150}, {"present", 262144}, {"managed", 250000}} {
		f.Set(kv.k, kv.v)
	}
	s := Sample{
		Zones: []kernel.Zone{{Node: 0, Name: "Normal", Fields: f}, {Node: 0, Name: "Movable", Fields: kernel.Counters{}}},
		Buddy: []kernel.BuddyZone{{Node: 0, Zone: "Normal", Free: []int64{10, 4, 0, 1, 0}}, {Node: 1, Zone: "Normal", Free: []int64{1, 1, 1, 1, 1}}},
	}
	zs := s.ZoneWatermarks()
	if len(zs) != 2 {
		t.Fatalf("%d zones", len(zs))
	}
	z := zs[0]
	if z.Free != 5000 || !z.HasFree || z.Min != 100 || z.Low != 125 || z.High != 150 || !z.HasWatermarks || !z.HasHigh ||
		z.Managed != 250000 || !z.HasManaged || !z.Populated() || !z.HasBuddy || z.LargestFreeOrder != 3 {
		t.Errorf("Normal: %+v", z)
	}
	if m := zs[1]; m.Populated() || m.HasWatermarks || m.HasBuddy || m.LargestFreeOrder != -1 {
		t.Errorf("empty Movable: %+v", m)
	}
	if LargestFreeOrder([]int64{0, 0}) != -1 || LargestFreeOrder(nil) != -1 {
		t.Error("LargestFreeOrder of no free block")
	}
}
