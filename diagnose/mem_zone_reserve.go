package diagnose

import (
	"fmt"

	"headroom/kernel"
	"headroom/model"
)

// zone-reserve-low: a populated zone's free pages below its min watermark, or in the lower
// half of its min..low band, now. Below low kswapd is woken; below min only allocations
// allowed into the reserve (GFP_ATOMIC: the NIC receive refill, down to 3/8 of min) still
// succeed, and they eat the last of it (mm/page_alloc.c __zone_watermark_ok). No failure
// needs to be logged yet. The judgement is model.JudgeReserve, the one `headroom check
// reserve-near-min` makes and serve exports under this id (issue 30: a capture with Normal
// free 5000 pages against min 11387 was "no current problem" for doctor while check said
// below min and serve's HeadroomZoneFreeBelowMin fired).
func init() {
	Register(Rule{
		ID:     "zone-reserve-low",
		Title:  "a zone's free memory is below its min watermark, or near it, now",
		Family: FamilyMemory,
		Check:  checkZoneReserve,
	})
}

// The mechanism and the advice both readings of the reserve explain: a sampled zoneinfo
// (checkZoneReserve) and a stand-alone dump's zone lines (dumpZoneReserve).
const (
	reserveBelowMin = "below min only allocations allowed into the reserve (GFP_ATOMIC, such as the NIC receive " +
		"refill, down to 3/8 of min) still succeed (mm/page_alloc.c __zone_watermark_ok), and the next burst of them fails"
	reserveAdvice = "Raise vm.min_free_kbytes or vm.watermark_scale_factor so kswapd starts earlier (`headroom plan` " +
		"computes them; see min-free-too-low), and find what holds the memory."
)

func checkZoneReserve(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool { return len(s.Zones) > 0 })
	if last == nil {
		// An allocation-failure report's own zone lines are that failure's evidence (the
		// alloc-fail-* rules judge them); read here too they made a second finding told as
		// an independent problem beside the failure (seed 004) or put before it (session 31).
		if r, ok := dumpZoneReserve(tl); ok {
			return r
		}
		return NotChecked("no /proc/zoneinfo in the input")
	}
	now := model.JudgeReserve(last.ZoneWatermarks())
	if now.Checked == 0 {
		return NotChecked("no populated zone with its free pages and min, low and high watermarks in /proc/zoneinfo")
	}
	// A dip below min earlier in the window, recovered by the last reading.
	dipped, dips := model.ReserveJudged{}, 0
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if len(s.Zones) == 0 || s == last {
			continue
		}
		if r := model.JudgeReserve(s.ZoneWatermarks()); r.Level == model.ReserveBelowMin {
			dips++
			if dips == 1 || r.Left < dipped.Left {
				dipped = r
			}
		}
	}
	src := sampleSource(last, "/proc/zoneinfo")
	z := now.Zone
	ps, _ := pageSize(tl)
	where := fmt.Sprintf("node %d %s: free %s, min %d, low %d pages", z.Node, z.Zone, pagesStr(z.Free, ps), z.Min, z.Low)
	var sev Severity
	var title string
	switch {
	case now.Level == model.ReserveBelowMin:
		sev, title = Critical, fmt.Sprintf("zone %s is below its min watermark: only atomic allocations still succeed, from the reserve", z.Zone)
	case now.Level == model.ReserveNearMin:
		sev, title = Warning, fmt.Sprintf("zone %s is in the lower half of its min..low band: kswapd is not keeping up", z.Zone)
	case dips > 0:
		sev, title = Warning, fmt.Sprintf("zone %s fell below its min watermark while sampled", dipped.Zone.Zone)
	default:
		return Healthy("%d zones above the lower half of their min..low band; least left %s (%.0f%% of the band above min)", now.Checked, where, 100*now.Left)
	}
	ev := []Evidence{{What: "zone with the least of its reserve left (last reading)", Value: where, Source: src}}
	if dips > 0 {
		d := dipped.Zone
		ev = append(ev, Evidence{What: "below min while sampled", Value: fmt.Sprintf("%d of %d readings; lowest node %d %s free %d pages against min %d", dips, len(tl.Samples), d.Node, d.Zone, d.Free, d.Min), Source: src})
	}
	if v, s, ok := tl.Sysctl("vm.min_free_kbytes"); ok {
		ev = append(ev, Evidence{What: "vm.min_free_kbytes", Value: v, Source: s})
	}
	return Fired(Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Facts:    Facts{BelowMin: now.Level == model.ReserveBelowMin},
		Explanation: "Below a zone's low watermark kswapd is woken to reclaim; " + reserveBelowMin +
			": page allocation failures in the receive path and dropped packets follow (alloc-fail-reserve). " +
			"Free memory staying in the lower half of the min..low band means kswapd reclaims more slowly than " +
			"the host allocates. " + reserveAdvice,
	})
}

// dumpZoneReserve judges the zone lines of a stand-alone show_mem dump whose page size is
// unknown (fix65k; g256's 5437: two Normal zones quoted in a mail, free 87356 kB against
// min 221984 kB): the parser makes a zone reading (a Sample) of a dump only when it knows
// the page size, but free against min is the same judgement in kB. Only the dumps no
// failure or OOM report took as its own (Timeline.MemDumps): a report's own zones are its
// rule's evidence.
func dumpZoneReserve(tl *model.Timeline) (Result, bool) {
	// A dump in a text that holds a report (an OOM kill whose header was cut, a failure) is
	// that report's, whose rule judges it (corpus 706: a router's OOM kill and its dump).
	for _, e := range tl.Events {
		switch e.Kind {
		case model.EventAllocFailure, model.EventAllocStall, model.EventSlabFailure, model.EventOOMKill:
			return Result{}, false
		}
	}
	if len(logMatches(tl, kernel.MsgAllocFailure...)) > 0 {
		return Result{}, false
	}
	for k := len(tl.MemDumps) - 1; k >= 0; k-- {
		d := tl.MemDumps[k]
		var ws []model.ZoneWatermarks
		for _, z := range d.Zones {
			if z.Unpopulated() || z.MinKB <= 0 || z.LowKB <= 0 || z.HighKB <= 0 {
				continue
			}
			w := model.ZoneWatermarks{Node: z.Node, Zone: z.Zone, Free: z.FreeKB, HasFree: true, Min: z.MinKB, Low: z.LowKB, High: z.HighKB,
				HasWatermarks: true, HasHigh: true, Present: z.PresentKB, LargestFreeOrder: -1, PresentNotPrinted: z.PresentKB <= 0}
			if z.ManagedKB != nil {
				w.Managed, w.HasManaged = *z.ManagedKB, true
			}
			ws = append(ws, w)
		}
		now := model.JudgeReserve(ws)
		if now.Checked == 0 {
			continue
		}
		z := now.Zone
		where := fmt.Sprintf("node %d %s: free %d kB, min %d kB, low %d kB", z.Node, z.Zone, z.Free, z.Min, z.Low)
		var sev Severity
		var title string
		switch now.Level {
		case model.ReserveBelowMin:
			sev, title = Critical, fmt.Sprintf("zone %s was below its min watermark when the kernel printed its memory: only atomic allocations still succeeded, from the reserve", z.Zone)
		case model.ReserveNearMin:
			sev, title = Warning, fmt.Sprintf("zone %s was in the lower half of its min..low band when the kernel printed its memory: kswapd was not keeping up", z.Zone)
		default:
			return Healthy("%d zones of the show_mem dump above the lower half of their min..low band; least left %s (%.0f%% of the band above min)", now.Checked, where, 100*now.Left), true
		}
		return Fired(Finding{
			Severity: sev,
			Title:    title,
			Evidence: []Evidence{{What: "zone with the least of its reserve left (a show_mem dump's zone line)", Value: where, Source: d.Source}},
			Facts:    Facts{BelowMin: now.Level == model.ReserveBelowMin},
			Explanation: "The kernel's memory dump prints each zone's free memory and watermarks as they stood when it was printed: " +
				reserveBelowMin + ". " + reserveAdvice,
		}), true
	}
	return Result{}, false
}
