package artifact

import (
	"headroom/kernel"
	"headroom/model"
)

// memDumpOf keeps, of a show_mem dump that stands alone, what says whether anything was
// left to reclaim (model.MemDump): the page cache and anonymous memory, from the Mem-Info
// line in pages of the dump's own size, else from the node lines' or the zone lines' kB,
// else (the cache only) from the footer's "N total pagecache pages"; the swap footer; a node
// line's "all_unreclaimable? yes". No page size, no page counts converted: none is guessed.
func memDumpOf(src string, zones []model.ZoneReport, memInfo *kernel.Counters, totals *kernel.Counters, nodes []NodeCounters, pageKB int64) model.MemDump {
	d := model.MemDump{Source: src, Zones: zones, MemInfo: memInfo}
	pair := func(get func(string) (int64, bool), a, b string, scale int64) *int64 {
		x, okA := get(a)
		y, okB := get(b)
		if !okA || !okB {
			return nil
		}
		v := (x + y) * scale
		return &v
	}
	var nodeFields, zoneFields []*kernel.Counters
	for _, nc := range nodes {
		nodeFields = append(nodeFields, nc.Fields)
	}
	for _, z := range zones {
		zoneFields = append(zoneFields, z.Fields)
	}
	// sumOf adds a+b over the node lines, else over the zone lines (a dump prints both
	// since 4.8, each node's once; the zones' sum is the same memory).
	sumOf := func(a, b string) *int64 {
		for _, set := range [][]*kernel.Counters{nodeFields, zoneFields} {
			var s int64
			n := 0
			for _, c := range set {
				if c == nil {
					continue
				}
				if v := pair(c.Get, a, b, 1); v != nil {
					s += *v
					n++
				}
			}
			if n > 0 {
				return &s
			}
		}
		return nil
	}
	switch {
	case memInfo != nil && pageKB > 0 && pair(memInfo.Get, "active_file", "inactive_file", pageKB) != nil:
		d.FileKB, d.FileFrom = pair(memInfo.Get, "active_file", "inactive_file", pageKB), "Mem-Info active_file + inactive_file"
		d.AnonKB = pair(memInfo.Get, "active_anon", "inactive_anon", pageKB)
	default:
		if v := sumOf("active_file_kb", "inactive_file_kb"); v != nil {
			d.FileKB, d.FileFrom = v, "the node or zone lines' active_file + inactive_file"
			d.AnonKB = sumOf("active_anon_kb", "inactive_anon_kb")
		} else if totals != nil && pageKB > 0 {
			if n, ok := totals.Get("total_pagecache_pages"); ok {
				v := n * pageKB
				d.FileKB, d.FileFrom = &v, "the footer's total pagecache pages"
			}
		}
	}
	if totals != nil {
		if v, ok := totals.Get("free_swap_kb"); ok {
			d.FreeSwapKB = &v
		}
		if v, ok := totals.Get("total_swap_kb"); ok {
			d.TotalSwapKB = &v
		}
	}
	for _, nc := range nodes {
		if nc.AllUnreclaimable != nil && *nc.AllUnreclaimable {
			d.NodeUnreclaimable = true
		}
	}
	return d
}
