package diagnose

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"headroom/model"
)

// node-unreclaimable: the kernel's own mark that reclaim gave up. Since 4.8 reclaim is per
// node, and /proc/zoneinfo prints "node_unreclaimable: 1" in every populated zone of a node
// whose kswapd failed to reclaim anything MAX_RECLAIM_RETRIES (16) times in a row
// (pgdat->kswapd_failures, mm/vmscan.c balance_pgdat; printed by mm/vmstat.c
// zoneinfo_show_print). wakeup_kswapd then leaves the node to direct reclaim ("Hopeless
// node, leave it to direct reclaim") until some reclaim frees pages again: allocations that
// can sleep stall reclaiming themselves, those that cannot (the NIC's RX refill in softirq)
// get no background reclaim to keep the zones above min, and the OOM killer is near. Before
// 4.8 the mark was the zone's: "all_unreclaimable: 1" in zoneinfo (zone->all_unreclaimable,
// set when pages_scanned reached six times the zone's reclaimable pages; computed by
// zone_reclaimable() from 3.12).
func init() {
	Register(Rule{
		ID:     "node-unreclaimable",
		Title:  "reclaim gave up on a node (node_unreclaimable, all_unreclaimable in zoneinfo)",
		Family: FamilyMemory,
		Check:  checkNodeUnreclaimable,
	})
	// With kswapd stopped on the node, nothing reclaims in the background: tasks reclaim for
	// themselves, and atomic allocations meet zones that nobody refills above min.
	Explains(
		Edge{Cause: "node-unreclaimable", Effect: "direct-reclaim-stalls",
			Link: "kswapd gave up on the node, so allocating tasks reclaim for themselves"},
		Edge{Cause: "node-unreclaimable", Effect: "alloc-fail-reserve",
			Link: "kswapd gave up on the node, so nothing refills the zones above min for allocations that cannot reclaim"},
		Edge{Cause: "slab-unreclaimable-growth", Effect: "node-unreclaimable", Holds: slabMatters,
			Link: "unreclaimable slab holds the memory, so every reclaim pass frees nothing"},
		// fix22d: the mark in an OOM report's Mem-Info ("all_unreclaimable? yes", printed by
		// dump_header's show_mem, mm/oom_kill.c) is the exhausted memory the OOM killer
		// answered, read once more: reclaim found nothing in use it could free. The kill is
		// the story's root (corpus 1924, 1926: a router's OOM report whose victim line is
		// cut); a memory cgroup at its limit leaves the node's reclaim alone.
		Edge{Cause: "oom-kill", Effect: "node-unreclaimable", Holds: oomNotCgroupOnly,
			Link: "memory ran out: everything left was in use, so reclaim freed nothing and gave up on the node"},
	)
}

// oomNotCgroupOnly holds for an OOM kill of the host, or one whose report does not say host
// or cgroup; kills only inside memory cgroups at their limit do not exhaust a node.
func oomNotCgroupOnly(cause, effect *Finding) (string, bool) {
	if cause.Facts.OOM == OOMCgroup {
		return "", false
	}
	return "the same exhausted memory", true
}

// zoneMarkMinShare: a zone-level mark (all_unreclaimable, before 4.8) on a zone holding less
// than this share of the sample's present pages (the 16 MiB DMA zone, which is marked on
// healthy hosts because almost none of it is reclaimable) does not say the host's reclaim
// stalled.
const zoneMarkMinShare = 0.05

// unreclaimableZone is one zone block read with its mark.
type unreclaimableZone struct {
	z      model.ZoneWatermarks
	fields func(string) (int64, bool)
	src    string
	why    string // how its node was known, for a fragment
}

func checkNodeUnreclaimable(tl *model.Timeline) Result {
	var zones []unreclaimableZone
	var total int64 // present pages of the sample's zones, to weigh a zone-level mark
	if s := tl.LastWith(func(s *model.Sample) bool { return len(s.Zones) > 0 }); s != nil {
		src := sampleSource(s, "/proc/zoneinfo")
		for i, v := range s.ZoneWatermarks() {
			zones = append(zones, unreclaimableZone{z: v, fields: s.Zones[i].Fields.Get, src: src})
			total += v.Present
		}
	}
	for _, f := range tl.ZoneFragments {
		v := model.ZoneView(f.Zone, nil)
		zones = append(zones, unreclaimableZone{z: v, fields: f.Zone.Fields.Get, src: f.Source + " (a zone's block without its header)", why: f.NodeWhy})
	}
	if len(zones) == 0 {
		if r, ok := nodeUnreclaimableAtOOM(tl); ok {
			return r
		}
		return NotChecked("no /proc/zoneinfo in the input (its node_unreclaimable, 4.8+, or all_unreclaimable lines)")
	}
	var ev []Evidence
	sev := Severity(-1)
	read, markedNodes := map[int]bool{}, map[int]bool{}
	anyRead, small := false, []string{}
	zoneMarked := false // a zone-level all_unreclaimable mark was judged
	for _, u := range zones {
		name := zoneName(u.z)
		if v, ok := u.fields("node_unreclaimable"); ok {
			anyRead = true
			read[u.z.Node] = true
			if v == 0 || markedNodes[u.z.Node] {
				continue
			}
			markedNodes[u.z.Node] = true
			node := "node " + fmt.Sprint(u.z.Node)
			if u.z.Node < 0 {
				node = "the node of this zone (its header is not in the input)"
			}
			val := fmt.Sprintf("node_unreclaimable %d: kswapd failed to reclaim anything from %s 16 times in a row (MAX_RECLAIM_RETRIES) and stopped", v, node)
			if u.why != "" {
				val += "; the node is known because " + u.why
			}
			ev = append(ev, Evidence{What: "reclaim gave up on " + node, Value: val, Source: u.src})
			sev = max(sev, Warning)
			continue
		}
		if v, ok := u.fields("all_unreclaimable"); ok {
			anyRead = true
			read[u.z.Node] = true
			if v == 0 {
				continue
			}
			if total > 0 && u.z.Present > 0 && float64(u.z.Present) < zoneMarkMinShare*float64(total) {
				small = append(small, name)
				continue
			}
			val := fmt.Sprintf("all_unreclaimable %d: reclaim scanned this zone six times over without freeing it", v)
			if sc, ok := u.fields("scanned"); ok {
				val += fmt.Sprintf(" (scanned %d pages)", sc)
			}
			ev = append(ev, Evidence{What: "reclaim gave up on zone " + name, Value: val, Source: u.src})
			sev = max(sev, Warning)
			zoneMarked = true
		}
	}
	if !anyRead {
		return NotChecked("the zoneinfo read has no node_unreclaimable (4.8+) or all_unreclaimable line: the closing lines of its zone blocks are not in the input")
	}
	// A marked node whose populated zone is at or below min: atomic allocations there are
	// failing now, with nothing reclaiming in the background.
	for _, u := range zones {
		z := u.z
		if !markedNodes[z.Node] || !z.Populated() || !z.HasFree || !z.HasWatermarks || z.Free > z.Min {
			continue
		}
		sev = Critical
		ev = append(ev, Evidence{What: "zone " + zoneName(z) + " at its min watermark", Value: fmt.Sprintf("free %d pages, min %d", z.Free, z.Min), Source: u.src})
	}
	title := "reclaim gave up: the kernel marked memory as unreclaimable"
	if sev == Warning && !zoneMarked {
		if above := markedNodesAboveHigh(zones, markedNodes); above != nil {
			// The mark is stale: kswapd_failures is reset only by a reclaim pass that frees
			// pages (mm/vmscan.c shrink_node: "On reclaim progress, reset the failure
			// counter"). Memory freed otherwise (a task's exit, a dropped cache) leaves it
			// set, and kswapd is not woken again while every zone is above its low
			// watermark, so a node that recovered keeps printing node_unreclaimable 1.
			sev = Info
			title = "reclaim gave up on a node earlier; its zones are now above their high watermark"
			ev = append(ev, above...)
		}
	}
	if sev < 0 {
		msg := fmt.Sprintf("no node or zone marked unreclaimable (%s)", nodeList(read))
		if len(small) > 0 {
			msg += fmt.Sprintf("; %s marked all_unreclaimable but holds under %.0f%% of the memory (normal for a small DMA zone)", strings.Join(small, ", "), 100*zoneMarkMinShare)
		}
		return Healthy("%s", msg)
	}
	return Fired(Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Explanation: "kswapd, the background reclaimer, stops trying on a node after 16 passes in a row that freed nothing " +
			"(pgdat->kswapd_failures, mm/vmscan.c); until some reclaim succeeds again, allocations that can sleep reclaim " +
			"for themselves (direct reclaim: latency spikes, PSI memory stalls) and those that cannot, such as the NIC's " +
			"receive refill in softirq, get no background help to keep the zones above min, so packets are dropped and " +
			"the OOM killer is near. What pins the memory decides the fix: unreclaimable slab (slab-unreclaimable-growth), " +
			"anonymous memory without swap, mlocked or pinned pages, or a kernel accounting leak.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "reclaimable memory",
			Recommended: "find what holds the memory (meminfo: AnonPages, Unevictable, Mlocked, SUnreclaim; slabtop) and release or bound it; on a known kernel leak, update the kernel",
			Why:         "no sysctl makes unreclaimable memory reclaimable; the mark clears by itself once reclaim frees pages again"}},
	})
}

// markedNodesAboveHigh returns, when every populated zone of every marked node has its
// watermarks and is above high, one evidence line per such zone; else nil (a zone without
// watermarks, or one at or below high, keeps the warning).
func markedNodesAboveHigh(zones []unreclaimableZone, marked map[int]bool) []Evidence {
	var ev []Evidence
	for _, u := range zones {
		z := u.z
		if !marked[z.Node] || !z.Populated() {
			continue
		}
		if !z.HasFree || !z.HasWatermarks || z.Free <= z.High {
			return nil
		}
		ev = append(ev, Evidence{What: "zone " + zoneName(z) + " above its high watermark",
			Value:  fmt.Sprintf("free %d pages > high %d: the mark stays until a reclaim pass frees pages (shrink_node), which nothing needs now", z.Free, z.High),
			Source: u.src})
	}
	return ev
}

func zoneName(z model.ZoneWatermarks) string {
	switch {
	case z.Zone != "" && z.Node >= 0:
		return fmt.Sprintf("%s (node %d)", z.Zone, z.Node)
	case z.Zone != "":
		return z.Zone
	}
	return "(name not in the input)"
}

func nodeList(nodes map[int]bool) string {
	var parts []string
	for _, n := range slices.Sorted(maps.Keys(nodes)) {
		if n < 0 {
			parts = append(parts, "a zone block without its header")
		} else {
			parts = append(parts, fmt.Sprintf("node %d", n))
		}
	}
	return strings.Join(parts, ", ")
}

// nodeUnreclaimableAtOOM reads the mark from the last host OOM report's own dump when no
// zoneinfo was read (fix68m; g295's 6983 and 6988): dump_header's show_mem prints each node's
// "all_unreclaimable? yes|no" (4.8+, the node's kswapd_failures) or each zone's (before 4.8).
// A zone under zoneMarkMinShare of the dump's memory (a 16 MiB DMA zone) is not weighed, as
// in zoneinfo. ok is false when the report printed no mark.
func nodeUnreclaimableAtOOM(tl *model.Timeline) (Result, bool) {
	for i := len(tl.Events) - 1; i >= 0; i-- {
		e := &tl.Events[i]
		o := e.OOMKill
		if o == nil || o.Memcg != "" || o.Constraint == "CONSTRAINT_MEMCG" {
			continue
		}
		var total int64
		for _, z := range o.Zones {
			total += z.PresentKB
		}
		var ev []Evidence
		read := false
		for _, n := range slices.Sorted(maps.Keys(o.NodesUnreclaimable)) {
			read = true
			if o.NodesUnreclaimable[n] {
				ev = append(ev, Evidence{What: fmt.Sprintf("reclaim gave up on node %d", n),
					Value: "all_unreclaimable? yes on the node's line of the OOM report's dump: kswapd had failed to reclaim anything from it 16 times in a row", Source: memEventSource(e)})
			}
		}
		if len(o.NodesUnreclaimable) == 0 {
			for _, z := range o.Zones {
				if z.AllUnreclaimable == nil {
					continue
				}
				read = true
				if !*z.AllUnreclaimable || total > 0 && z.PresentKB > 0 && float64(z.PresentKB) < zoneMarkMinShare*float64(total) {
					continue
				}
				ev = append(ev, Evidence{What: fmt.Sprintf("reclaim gave up on zone %s (node %d)", z.Zone, z.Node),
					Value: "all_unreclaimable? yes on the zone's line of the OOM report's dump: reclaim had scanned it six times over without freeing it", Source: memEventSource(e)})
			}
		}
		if !read {
			continue
		}
		if len(ev) == 0 {
			return Healthy("the OOM report's dump at %s marks no node or sizeable zone unreclaimable", memEventSource(e)), true
		}
		return Fired(Finding{Severity: Warning,
			Title:    "reclaim had given up when the OOM killer ran: the kernel marked memory as unreclaimable",
			Evidence: ev,
			Explanation: "The OOM report's own dump says reclaim had stopped finding anything to free on these nodes or zones " +
				"before the killer ran: what holds the memory is not reclaimable (anonymous memory without swap, unreclaimable " +
				"slab, mlocked or pinned pages). Killing a task frees its anonymous memory; if the holder is the kernel, the " +
				"killing goes on.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "reclaimable memory",
				Recommended: "find what holds the memory (the dump's slab_unreclaimable and anon counts, meminfo, slabtop) and release or bound it",
				Why:         "no sysctl makes unreclaimable memory reclaimable"}},
		}), true
	}
	return Result{}, false
}
