package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// A show_mem dump of a NUMA node whose DMA and DMA32 zones are empty (2.6.18 prints them
// "free:0kB min:0kB ... present:0kB", corpus 756): those zones are in no zonelist, so
// "free 0 ≤ floor" there is no exhausted reserve; before, they were cited as eligible zones
// at or below the request's floor.
func TestAllocFailUnpopulatedZonesNotEligible(t *testing.T) {
	empty := func(name string) model.ZoneReport {
		z := memZone(name, 0, 0, 0, []int64{0, 0, 16160, 16160}, nil)
		z.Fields = &kernel.Counters{}
		z.Fields.Set("free_kb", 0)
		z.Fields.Set("present_kb", 0)
		return z
	}
	dmaCited := func(dma model.ZoneReport) bool {
		tl := memTextTimeline()
		zones := []model.ZoneReport{dma, empty("DMA32"), memZone("Normal", 85048, 11476, 16547840, []int64{0, 0, 0, 0}, nil)}
		tl.Events = []model.Event{memAllocEvent(3, "swapper", 0, "0x20", []string{"GFP_ATOMIC"}, memBool(true), "2.6.18-238.el5", zones)}
		tl.Events[0].AllocFailure.ModeValue = 0x20
		for _, id := range allocClasses {
			for _, f := range run(t, id, tl).Findings {
				for _, e := range f.Evidence {
					if strings.HasPrefix(e.What, "zone DMA ") || strings.HasPrefix(e.What, "zone DMA32") {
						return true
					}
				}
			}
		}
		return false
	}
	if dmaCited(empty("DMA")) {
		t.Errorf("an empty zone (present 0 kB) cited as an eligible zone")
	}
	// Counter-case: a populated DMA zone at its floor is still cited (DMA32 stays empty).
	full := memZone("DMA", 0, 40, 16384, []int64{0, 0, 16160, 16160}, []int64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	full.Fields = &kernel.Counters{}
	full.Fields.Set("present_kb", 16384)
	if !dmaCited(full) {
		t.Errorf("a populated DMA zone at its floor not cited")
	}
}
