package diagnose

import (
	"fmt"

	"headroom/kernel"
	"headroom/model"
)

// An OOM report is the allocator's own failure path: out_of_memory runs when a request that
// may reclaim found no zone it could use above its watermark after reclaim (mm/page_alloc.c
// __alloc_pages_may_oom). On a 32-bit kernel with HighMem, a request that may not use HighMem
// (no __GFP_HIGHMEM: gfp_zone gives Normal or lower) fails this way with lowmem short while
// HighMem holds gigabytes free — the lowmem exhaustion alloc-fail-lowmem names, reported by
// the OOM killer instead of a "page allocation failure" (corpus 1904, RHEL 5 Xen guest: DMA
// free 3396 kB below min 3452 kB, HighMem 8.9 GB free). The report is classified as a
// failure report is (memClassify on its header and dump); only the lowmem cause is taken
// from it, and the CMA cause (fix70m): an OOM with HighMem short too, or of a memory cgroup,
// is the OOM rules' alone.

// oomLowmemVerdicts are the OOM reports of tl whose request could not use HighMem while the
// lowmem zones it could use were short and HighMem was above its watermarks, and those whose
// zones' free memory was CMA's, which the request could not use.
func oomLowmemVerdicts(tl *model.Timeline) []allocVerdict {
	var out []allocVerdict
	for i := range tl.Events {
		e := &tl.Events[i]
		if e.Kind != model.EventOOMKill || e.OOMKill == nil {
			continue
		}
		if v, ok := oomLowmemVerdict(tl, e); ok {
			out = append(out, v)
		}
	}
	return out
}

func oomLowmemVerdict(tl *model.Timeline, e *model.Event) (allocVerdict, bool) {
	o := e.OOMKill
	if o.Constraint == "CONSTRAINT_MEMCG" || o.Memcg != "" {
		return allocVerdict{}, false // a cgroup's limit, not the zones
	}
	mayReclaim := false // out_of_memory is reached only by requests that may reclaim
	af := &model.AllocFailure{Process: o.Invoker, Order: max(o.Order, 0), Mode: o.Mode, Atomic: &mayReclaim, Zones: o.Zones}
	v := allocVerdict{ev: e, af: af, oom: true}
	if o.Mode != "" {
		value, _ := kernel.ParseGFPNumber(o.Mode)
		d := kernel.DecodeGFPMode(o.Mode, value, tl.Host.Kernel)
		af.GFPFlags, af.GFPCandidates, af.GFPNote = d.Flags, d.Candidates, d.Note
		if !oomModeLowmemOnly(d) {
			return allocVerdict{}, false
		}
	}
	src := memEventSource(e)
	if len(af.Zones) == 0 {
		af.Zones, src = showMemSampleZones(tl)
		v.borrowed = src
	}
	v.zones = af.Zones
	if !highMemAboveWatermark(v.zones) {
		// fix70m: the other cause an OOM's own dump can prove: the free memory of the zones
		// the request could use was CMA's, which a request that is not movable may not take
		// (corpus 7070: an i386 LKP VM, Normal free 18184 kB of which free_cma 16228 kB,
		// min 2012 kB: GFP_KERNEL had 1956 kB).
		if len(v.zones) > 0 {
			memClassify(tl, &v, false)
			if v.class == classCMA && !v.inferred {
				return v, true
			}
		}
		return allocVerdict{}, false
	}
	memClassify(tl, &v, false)
	if v.inferred {
		return allocVerdict{}, false
	}
	if v.class != classLowmem && len(v.checks) > 0 && dumpHighMem(tl, &v) {
		// The OOM path's own test is stricter than a failure's: before calling the killer
		// the allocator tries once more at the high watermark (__alloc_pages_may_oom,
		// ALLOC_WMARK_HIGH; 2.6.x's __alloc_pages alike), and 2.6.9-era kernels called it
		// from reclaim that made no progress, whatever the free pages (out_of_memory from
		// try_to_free_pages), so a zone reclaim had given up on (all_unreclaimable) served
		// nothing more. A zone above high that reclaim could still free would have served it.
		short := true
		for _, c := range v.checks {
			unrecl := c.z.AllUnreclaimable != nil && *c.z.AllUnreclaimable
			if !c.belowMin && !c.belowFloor && !unrecl && (c.z.HighKB <= 0 || c.z.FreeKB > c.z.HighKB+c.reservePages*memPage(tl)/1024) {
				short = false
			}
		}
		if short {
			v.class, v.also = classLowmem, nil
			v.notes = append(v.notes, "each lowmem zone the request could use was below its high watermark, the allocator's last test before the OOM killer, or marked all_unreclaimable: reclaim had given up on it")
		}
	}
	if v.class != classLowmem {
		return allocVerdict{}, false
	}
	hm := highMemZone(v.zones)
	v.highMemProof, v.highMemSource = "", "" // the dump's own HighMem line is the proof
	switch {
	case o.Mode == "":
		v.notes = append(v.notes, fmt.Sprintf("the OOM report's header (gfp_mask, order) is not in the input; its request could not use HighMem all the same: HighMem had %d kB free above its min %d kB (%s), so a request allowed there would have been served and the OOM killer would not have run", hm.FreeKB, hm.MinKB, src))
	default:
		v.notes = append(v.notes, fmt.Sprintf("the OOM killer was invoked by %s's request (gfp_mask %s, order %d), which may not use HighMem: it failed in lowmem while HighMem had %d kB free", memOr(o.Invoker, "a task"), o.Mode, af.Order, hm.FreeKB))
	}
	if o.Order < 0 {
		v.notes = append(v.notes, "the report prints no order (2.6.12 and earlier): order 0, the least a request asks, is assumed")
	}
	return v, true
}

// oomModeLowmemOnly: the decoded mode's highest zone is below HighMem, in the era in force or
// in every candidate era when the era is unknown.
func oomModeLowmemOnly(d kernel.GFPDecoding) bool {
	if len(d.Flags) > 0 {
		return memZoneRank(kernel.GFPClasszone(kernel.GFPFlagSet(d.Flags))) < memZoneRank("HighMem")
	}
	if len(d.Candidates) == 0 {
		return false
	}
	for _, c := range d.Candidates {
		if memZoneRank(kernel.GFPClasszone(kernel.GFPFlagSet(c.Flags))) >= memZoneRank("HighMem") {
			return false
		}
	}
	return true
}

// showMemSampleZones are the zones of the text's show_mem dump read apart from any report (a
// paste that quotes the OOM kill line and the zone lines in separate fragments), in kB, and
// the dump's source.
func showMemSampleZones(tl *model.Timeline) ([]model.ZoneReport, string) {
	psz, ok := pageSize(tl)
	if !ok {
		return nil, ""
	}
	kb := func(p int64) int64 { return p * psz / 1024 }
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if len(s.Zones) == 0 {
			continue
		}
		var zs []model.ZoneReport
		for _, w := range s.ZoneWatermarks() {
			if !w.HasFree {
				continue
			}
			z := model.ZoneReport{Node: w.Node, Zone: w.Zone, FreeKB: kb(w.Free), MinKB: kb(w.Min), LowKB: kb(w.Low), HighKB: kb(w.High), PresentKB: kb(w.Present)}
			if !w.PresentNotPrinted && !w.Populated() {
				continue
			}
			zs = append(zs, z)
		}
		if highMemZone(zs) != nil {
			return zs, memOr(s.Source, "the text's zone dump")
		}
	}
	return nil, ""
}

func highMemZone(zs []model.ZoneReport) *model.ZoneReport {
	for i := range zs {
		if memZoneRank(zs[i].Zone) == memZoneRank("HighMem") && !zs[i].Unpopulated() {
			return &zs[i]
		}
	}
	return nil
}

// highMemAtMin: the dump's HighMem zone, its min read, had no free pages above min. Then
// the memory did not sit in HighMem: every zone was at its reserve, and a request allowed
// HighMem would have failed too, which is reserve exhaustion, not a lowmem restriction
// (2.6.9 e1000 refill failures: DMA, Normal and HighMem all below min).
func highMemAtMin(zs []model.ZoneReport) bool {
	z := highMemZone(zs)
	return z != nil && z.MinKB > 0 && z.FreeKB <= z.MinKB
}

// highMemAboveWatermark: the dump's HighMem zone had free pages above its high watermark (its
// min when the line was cut before high): a request allowed HighMem would have found them.
func highMemAboveWatermark(zs []model.ZoneReport) bool {
	z := highMemZone(zs)
	if z == nil || z.MinKB <= 0 {
		return false
	}
	return z.FreeKB > max(z.MinKB, z.HighKB)
}
