package artifact

import (
	"fmt"

	"headroom/kernel"
	"headroom/model"
)

// buddyOnlyDump reports whether a show_mem dump holds named buddy lines alone ("Node 0
// Normal: 4801*4kB (UE) 1461*8kB (UMEC) ... = 988012kB", mm/page_alloc.c show_free_areas)
// with no zone line (free/min/low/high/present): the excerpt a reader greps out of dmesg to
// follow fragmentation over time. A series of them (two or more in the text) shows the same
// free_area lists /proc/buddyinfo prints (frag_show) over time, so they are read as buddyinfo
// samples; a single such line stays unread as before (a line quoted once in prose, with no
// failure of its order, is no reading of the host to judge: corpus 676). A full dump keeps
// its zones' reading (showMemZoneReading) and is not fed here.
func buddyOnlyDump(zones []model.ZoneReport) bool {
	if len(zones) == 0 {
		return false
	}
	for _, z := range zones {
		if len(z.FreeBlocks) == 0 || z.MinKB != 0 || z.LowKB != 0 || z.HighKB != 0 || z.PresentKB != 0 || z.ManagedKB != nil {
			return false
		}
	}
	return true
}

// addBuddySeries keeps a buddy-only dump's lines: the first reading is held until a second
// makes the series, then both and every later one are samples. Lines of one dump that
// repeat a zone are readings at different times (one sample each).
func (d *doc) addBuddySeries(src string, bz []kernel.BuddyZone) {
	var cur []kernel.BuddyZone
	seen := map[string]bool{}
	flush := func() {
		if len(cur) == 0 {
			return
		}
		s := model.Sample{Source: src, Buddy: cur}
		cur, seen = nil, map[string]bool{}
		if d.buddySeries == nil {
			d.buddySeries = &s
			return
		}
		if first := d.buddySeries; first.Source != "" {
			d.tl.Samples = append(d.tl.Samples, *first)
			first.Source = "" // fed
		}
		d.tl.Samples = append(d.tl.Samples, s)
	}
	for _, z := range bz {
		key := fmt.Sprintf("%d/%s", z.Node, z.Zone)
		if seen[key] {
			flush()
		}
		seen[key] = true
		cur = append(cur, z)
	}
	flush()
}
