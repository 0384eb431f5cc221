package diagnose

import "headroom/model"

// slabDump is one kernel report whose Mem-Info can carry the slab figures: an allocation
// failure's, or (fix53a) a host-wide OOM report's. dump_header (mm/oom_kill.c) calls
// show_mem for an OOM that is not a memory cgroup's, and show_mem prints the same
// "slab_reclaimable:N slab_unreclaimable:N" line and zone lines as warn_alloc's
// (show_free_areas, mm/page_alloc.c; mm/show_mem.c since 6.x): the host's kernel memory
// when it ran out.
type slabDump struct {
	e         *model.Event
	af        *model.AllocFailure
	where, at string
	// presentKB is the OOM report's zones' present sizes summed: the memory size when the
	// input gives none (model.Timeline.Memory reads it from failure reports only).
	presentKB int64
}

// slabDumps lists the allocation-failure reports first, as slabFromDump read them before,
// then the OOM reports that are not a memory cgroup's, each as a report with only its
// Mem-Info and zones (a memory cgroup's OOM prints its counters, not the host's memory).
func slabDumps(tl *model.Timeline) []slabDump {
	var ds []slabDump
	for i := range tl.Events {
		if af := tl.Events[i].AllocFailure; af != nil {
			ds = append(ds, slabDump{&tl.Events[i], af, "the failure's memory line", "the allocation failure", 0})
		}
	}
	for i := range tl.Events {
		o := tl.Events[i].OOMKill
		if o == nil || o.Memcg != "" || o.Constraint == "CONSTRAINT_MEMCG" || (o.MemInfo == nil && len(o.Zones) == 0) {
			continue
		}
		var present int64
		for _, z := range o.Zones {
			present += z.PresentKB
		}
		ds = append(ds, slabDump{&tl.Events[i], &model.AllocFailure{MemInfo: o.MemInfo, Zones: o.Zones}, "the OOM report's memory line", "the OOM kill", present})
	}
	// fix65n (g256's 5423: two Mem-Info blocks quoted in a mail, their headers cut): a
	// stand-alone dump's Mem-Info line is the host's memory when the kernel printed it, as a
	// report's is. After the reports: a report's own dump speaks first.
	for i := range tl.MemDumps {
		m := &tl.MemDumps[i]
		if m.MemInfo == nil {
			continue
		}
		var present int64
		for _, z := range m.Zones {
			present += z.PresentKB
		}
		ds = append(ds, slabDump{&model.Event{Source: m.Source}, &model.AllocFailure{MemInfo: m.MemInfo, Zones: m.Zones}, "a Mem-Info dump's memory line", "the time of a Mem-Info dump", present})
	}
	return ds
}
