package diagnose

import (
	"fmt"

	"headroom/model"
)

// fix53a: the zone lines of an allocation-failure report's Mem-Info ("Normal free:5824kB
// min:38188kB low:47732kB high:57276kB ...", mm/page_alloc.c show_free_areas, called by
// warn_alloc right after the failure) are the host's zones at the moment the request
// failed: the same free pages and watermarks /proc/zoneinfo would have shown then. When
// the input has no /proc/zoneinfo, zone-reserve-low judges them (model.JudgeReserve, the
// one judgement), told as the state at the failure, not now. Only failure reports: a
// headerless Mem-Info (a stack dump's show_mem) is a show_mem sample already, and an OOM
// report's zones stay the OOM's.

// reportZoneWatermarks reads a report's zone lines as the allocator's view, in pages.
func reportZoneWatermarks(zs []model.ZoneReport, pageBytes int64) []model.ZoneWatermarks {
	kb := pageBytes / 1024
	if kb <= 0 {
		kb = 4
	}
	out := make([]model.ZoneWatermarks, 0, len(zs))
	for _, z := range zs {
		if !zoneLineRead(z) || z.Unpopulated() {
			continue
		}
		v := model.ZoneWatermarks{Node: z.Node, Zone: z.Zone, LargestFreeOrder: -1}
		v.Free, v.HasFree = z.FreeKB/kb, true
		v.Min, v.Low, v.High = z.MinKB/kb, z.LowKB/kb, z.HighKB/kb
		if z.Fields != nil {
			_, okMin := z.Fields.Get("min_kb")
			_, okLow := z.Fields.Get("low_kb")
			_, okHigh := z.Fields.Get("high_kb")
			v.HasWatermarks, v.HasHigh = okMin && okLow && okHigh, okHigh
			_, v.PresentNotPrinted = z.Fields.Get(model.FieldPresentNotPrinted)
			if _, ok := z.Fields.Get("free_kb"); !ok {
				v.HasFree = false
			}
		} else {
			v.HasWatermarks, v.HasHigh = z.MinKB > 0 && z.LowKB > 0 && z.HighKB > 0, z.HighKB > 0
		}
		v.Present = z.PresentKB / kb
		if z.ManagedKB != nil {
			v.Managed, v.HasManaged = *z.ManagedKB/kb, true
		}
		if !v.HasManaged && v.Present == 0 {
			// A zone line cut before present: its free pages are the zone's own.
			v.PresentNotPrinted = true
		}
		out = append(out, v)
	}
	return out
}

// zoneReserveAtFailure judges the zones of the last allocation-failure report that printed
// free pages and watermarks; ok is false when none did.
func zoneReserveAtFailure(tl *model.Timeline) (Result, bool) {
	ps, _ := pageSize(tl)
	var judged model.ReserveJudged
	var at *model.Event
	for i := range tl.Events {
		e := &tl.Events[i]
		if e.AllocFailure == nil || len(e.AllocFailure.Zones) == 0 {
			continue
		}
		if r := model.JudgeReserve(reportZoneWatermarks(e.AllocFailure.Zones, ps)); r.Checked > 0 {
			judged, at = r, e
		}
	}
	if at == nil {
		return Result{}, false
	}
	z := judged.Zone
	src := memEventSource(at)
	where := fmt.Sprintf("node %d %s: free %s, min %d, low %d pages", z.Node, z.Zone, pagesStr(z.Free, ps), z.Min, z.Low)
	var sev Severity
	var title string
	switch judged.Level {
	case model.ReserveBelowMin:
		sev, title = Critical, fmt.Sprintf("zone %s was below its min watermark at the allocation failure: only atomic allocations still succeeded, from the reserve", z.Zone)
	case model.ReserveNearMin:
		sev, title = Warning, fmt.Sprintf("zone %s was in the lower half of its min..low band at the allocation failure: kswapd was not keeping up", z.Zone)
	default:
		return Healthy("no /proc/zoneinfo; at the allocation failure (%s) %d zones were above the lower half of their min..low band; least left %s (%.0f%% of the band above min)", src, judged.Checked, where, 100*judged.Left), true
	}
	ev := []Evidence{{What: "zone with the least of its reserve left, in the failure report's Mem-Info (the host's zones when the request failed)", Value: where, Source: src}}
	if v, s, ok := tl.Sysctl("vm.min_free_kbytes"); ok {
		ev = append(ev, Evidence{What: "vm.min_free_kbytes", Value: v, Source: s})
	}
	return Fired(Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Facts:    Facts{BelowMin: judged.Level == model.ReserveBelowMin},
		Explanation: "warn_alloc prints the zones right after the request failed (show_free_areas, mm/page_alloc.c): " +
			"they are this host's free pages and watermarks at that moment. Below a zone's low watermark kswapd is " +
			"woken to reclaim; below min only allocations allowed into the reserve (GFP_ATOMIC, down to 3/8 of min) " +
			"still succeed (__zone_watermark_ok), and the next burst of them fails. Free memory in the lower half of " +
			"the min..low band means kswapd reclaimed more slowly than the host allocated. Raise vm.min_free_kbytes " +
			"or vm.watermark_scale_factor so kswapd starts earlier (`headroom plan`), and find what holds the memory.",
	}), true
}
