package diagnose

import (
	"strings"
	"testing"
	"time"

	"headroom/model"
)

func TestSlabUnreclaimableGrowth(t *testing.T) {
	t.Run("large share", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.MemTotalKB = 8 << 20
		tl.Samples[0].MemInfo = memCounters("MemTotal", 8<<20, "SUnreclaim", 2<<20+100)
		f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Critical)
		if !evidenceHas(f, "share of MemTotal", "25.0%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("growing", func(t *testing.T) {
		tl := timeline(4)
		tl.Host.MemTotalKB = 16 << 20
		for i := range tl.Samples {
			tl.Samples[i].Time = t0.Add(time.Duration(i) * 30 * time.Second)
			tl.Samples[i].MemInfo = memCounters("SUnreclaim", 200<<10+i*20<<10)
		}
		f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Warning)
		if !evidenceHas(f, "growth", "over 90 s, never falling") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("seed 004 dump", func(t *testing.T) {
		tl := memTextTimeline()
		ev := memAllocEvent(40, "java", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.13-2smp", memSeed004Zones())
		ev.AllocFailure.MemInfo = memCounters("active", 513325, "inactive", 1421680, "free", 4567, "slab", 130154)
		tl.Events = []model.Event{ev}
		f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Info)
		// 130154 pages = 520616 kB of DMA + Normal present 917504 kB = 57%.
		if !evidenceHas(f, "share of lowmem", "57% of 896 MiB") || !strings.Contains(f.Explanation, "2.6.19") {
			t.Errorf("%+v %s", f.Evidence, f.Explanation)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.MemTotalKB = 24684084
		tl.Samples[0].MemInfo = memCounters("SUnreclaim", 31516)
		mustBeHealthy(t, run(t, "slab-unreclaimable-growth", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "slab-unreclaimable-growth", timeline(2)), "SUnreclaim")
	})
}
