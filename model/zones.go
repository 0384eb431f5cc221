package model

import "headroom/kernel"

// ZoneWatermarks is one zone of a sample as the page allocator sees it: free pages against
// the min, low and high watermarks (mm/page_alloc.c __zone_watermark_ok), the pages it
// manages, and the largest order with a free block. Values are pages, from /proc/zoneinfo
// ("pages free", "min", "low", "high", "present", "managed" since 3.8) and /proc/buddyinfo.
// Since 5.0 the printed watermarks include watermark_boost.
//
// It is the one reading of those field names: rules, the report summary, the exposition and
// the recorder's status line all take zones through Sample.ZoneWatermarks.
type ZoneWatermarks struct {
	Node             int
	Zone             string
	Free             int64
	HasFree          bool
	Min, Low, High   int64
	HasWatermarks    bool // min, low and high were all printed
	HasHigh          bool // high was printed (a pasted excerpt may have only some)
	Present          int64
	Managed          int64
	HasManaged       bool // 3.8+
	LargestFreeOrder int  // -1: no free block, or no buddyinfo for the zone (see HasBuddy)
	HasBuddy         bool
	// PresentNotPrinted: a show_mem zone line cut before present: (FieldPresentNotPrinted).
	PresentNotPrinted bool
}

// Populated reports whether the zone has memory: managed pages (3.8+), else present pages.
// Unpopulated zones (Movable, Device on most hosts) print watermarks over no memory, and
// "free 0 < min 32" there is not exhaustion.
func (z ZoneWatermarks) Populated() bool {
	if z.HasManaged {
		return z.Managed > 0
	}
	// A show_mem zone line the paste cut before present: (FieldPresentNotPrinted) has
	// memory when it has free pages: they are the zone's own.
	return z.Present > 0 || (z.PresentNotPrinted && z.HasFree && z.Free > 0)
}

// FieldPresentNotPrinted marks a zone read from a show_mem line that printed free pages and
// watermarks but was cut before its present: field (artifact/showmem.go).
const FieldPresentNotPrinted = "present_not_printed"

// ZoneView reads one zoneinfo block; buddy is the sample's buddyinfo (nil when absent).
func ZoneView(z kernel.Zone, buddy []kernel.BuddyZone) ZoneWatermarks {
	v := ZoneWatermarks{Node: z.Node, Zone: z.Name, LargestFreeOrder: -1}
	v.Free, v.HasFree = z.Fields.Get("free")
	var ok [3]bool
	v.Min, ok[0] = z.Fields.Get("min")
	v.Low, ok[1] = z.Fields.Get("low")
	v.High, ok[2] = z.Fields.Get("high")
	v.HasWatermarks = ok[0] && ok[1] && ok[2]
	v.HasHigh = ok[2]
	v.Present, _ = z.Fields.Get("present")
	_, v.PresentNotPrinted = z.Fields.Get(FieldPresentNotPrinted)
	v.Managed, v.HasManaged = z.Fields.Get("managed")
	for _, b := range buddy {
		if b.Node == z.Node && b.Zone == z.Name {
			v.HasBuddy = true
			v.LargestFreeOrder = LargestFreeOrder(b.Free)
		}
	}
	return v
}

// LargestFreeOrder is the highest order with a free block in a buddyinfo row, -1 when none.
func LargestFreeOrder(free []int64) int {
	for o := len(free) - 1; o >= 0; o-- {
		if free[o] > 0 {
			return o
		}
	}
	return -1
}

// ZoneWatermarks returns the sample's zones, in zoneinfo order, with their buddyinfo.
func (s *Sample) ZoneWatermarks() []ZoneWatermarks {
	out := make([]ZoneWatermarks, 0, len(s.Zones))
	for _, z := range s.Zones {
		out = append(out, ZoneView(z, s.Buddy))
	}
	return out
}

// ReserveLevel is where a zone's free pages stand in its reserve: below low kswapd is woken;
// below min only allocations allowed into the reserve (GFP_ATOMIC, the NIC receive refill,
// down to 3/8 of min with ALLOC_HARDER|ALLOC_HIGH) still succeed (mm/page_alloc.c
// __zone_watermark_ok). Free memory dipping under low is kswapd's normal cue; free staying in
// the lower half of the min..low band means kswapd is losing, and the next burst of atomic
// allocations eats the reserve.
type ReserveLevel int

// The levels, in order of gravity.
const (
	ReserveAboveMin ReserveLevel = iota // above the lower half of min..low
	ReserveNearMin                      // in the lower half of min..low
	ReserveBelowMin                     // free < min
)

// ReserveJudged is the zone with the least of its min..low band left among a sample's
// populated zones, and its level: the one judgement that doctor's zone-reserve-low rule,
// `headroom check reserve-near-min` and serve's findings share (issue 30: doctor said "no
// current problem" for a zone at 5000 free pages against min 11387 that check called below
// min). Checked is how many zones could be judged (populated, with free pages and all three
// watermarks, low above min); with none, the rest is meaningless.
type ReserveJudged struct {
	Zone    ZoneWatermarks
	Left    float64 // fraction of the min..low band above min (negative below min)
	Level   ReserveLevel
	Checked int
}

// JudgeReserve judges the zones of one reading.
func JudgeReserve(zones []ZoneWatermarks) ReserveJudged {
	var r ReserveJudged
	for _, v := range zones {
		if !v.Populated() || !v.HasFree || !v.HasWatermarks || v.Low <= v.Min {
			continue
		}
		r.Checked++
		left := float64(v.Free-v.Min) / float64(v.Low-v.Min)
		if r.Checked == 1 || left < r.Left {
			r.Zone, r.Left = v, left
		}
	}
	switch {
	case r.Checked == 0:
	case r.Zone.Free < r.Zone.Min:
		r.Level = ReserveBelowMin
	case r.Left < 0.5:
		r.Level = ReserveNearMin
	}
	return r
}
