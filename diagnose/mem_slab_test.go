package diagnose

import (
	"fmt"
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

// A slabtop or slabinfo table says which caches hold the kernel's memory: kmalloc's general
// caches are unreclaimable (kmalloc-rcl-* and the inode and dentry caches are not counted).
// Corpus 333: 2.3 GiB in kmalloc-96..1024 with no memory size in the paste.
func TestSlabFromTables(t *testing.T) {
	table := func(caches ...model.SlabCache) *model.Timeline {
		tl := memTextTimeline()
		tl.SlabTables = []model.SlabTable{{Tool: "slabtop", Source: "lines 8-20", Caches: caches}}
		return tl
	}
	leak := []model.SlabCache{{Name: "kmalloc-1024", Objs: 1069376, SizeKB: 1069376}, {Name: "kmalloc-512", Objs: 1072192, SizeKB: 536096},
		{Name: "kmalloc-192", Objs: 2124486, SizeKB: 404664}, {Name: "buffer_head", Objs: 1569945, SizeKB: 161020},
		{Name: "kmalloc-rcl-512", Objs: 10, SizeKB: 900000}, {Name: "dentry", Objs: 5, SizeKB: 900000}}
	tl := table(leak...)
	tl.Host.MemTotalKB = 0
	f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Info)
	if !strings.Contains(f.Title, "1.9 GiB") || !strings.Contains(f.Title, "memory size unknown") {
		t.Errorf("title %q", f.Title)
	}
	tl = table(leak...)
	tl.Host.MemTotalKB = 8 << 20 // 8 GiB: 1.9 GiB is 24%
	mustFire(t, run(t, "slab-unreclaimable-growth", tl), Warning)
	tl = table(model.SlabCache{Name: "kmalloc-64", Objs: 1000, SizeKB: 64})
	tl.Host.MemTotalKB = 0
	mustNotCheck(t, run(t, "slab-unreclaimable-growth", tl), "memory size is unknown")
	tl = table(model.SlabCache{Name: "kmalloc-64", Objs: 1000, SizeKB: 64})
	tl.Host.MemTotalKB = 8 << 20
	mustBeHealthy(t, run(t, "slab-unreclaimable-growth", tl))
}

func TestKmallocCache(t *testing.T) {
	for name, want := range map[string]bool{"kmalloc-1024": true, "kmalloc-8k": true, "kmalloc-cg-256": true, "dma-kmalloc-1k": true,
		"size-512": true, "size-512(DMA)": true, "kmalloc-rcl-512": false, "buffer_head": false, "kmalloc-": false, "dentry": false} {
		if got := kmallocCache(name); got != want {
			t.Errorf("%s: %v", name, got)
		}
	}
}

// Several /proc/slabinfo dumps pasted as one table, their rows sorted by name (the series of
// one cache in consecutive rows) or one dump after another without headers between: an
// unreclaimable cache whose objects in use rise by the growth bar (16 MiB and +10%) over
// three or more readings, never falling as printed, is a growing unreclaimable slab
// (corpus 1117). Counter-cases keep the bar of a single snapshot and of the growth: one
// reading of the same size, a rise of 8 MiB, a fall, a reclaimable cache (dentry), and two
// readings only are not fired.
func TestSlabSeriesFromSlabinfoDumps(t *testing.T) {
	row := func(name string, active, objsize int64) string {
		per := int64(4096 * 2 / objsize)
		if per < 1 {
			per = 1
		}
		slabs := (active + per - 1) / per
		return fmt.Sprintf("%-18s %7d %7d %6d %4d %4d : tunables    0    0    0 : slabdata %6d %6d      0\n", name, active, slabs*per, objsize, per, 2, slabs, slabs)
	}
	rows := func(name string, objsize int64, actives ...int64) string {
		var b strings.Builder
		for _, a := range actives {
			b.WriteString(row(name, a, objsize))
		}
		return b.String()
	}
	intro := "Rows of slabinfo taken while the box leaked:\n\n"
	sorted := intro + rows("dentry", 192, 4000, 4100) + rows("kmalloc-2048", 2048, 200, 3000, 9000, 15000) + rows("kmalloc-64", 64, 900, 910)
	var b strings.Builder
	for _, a := range []int64{200, 3000, 9000, 15000} {
		b.WriteString(row("dentry", 4000, 192) + row("kmalloc-2048", a, 2048))
	}
	for name, text := range map[string]string{"sorted": sorted, "one dump after another": intro + b.String()} {
		f := mustFire(t, run(t, "slab-unreclaimable-growth", pasteTimeline(t, text)), Warning)
		if !strings.Contains(f.Title, "kmalloc-2048") || !strings.Contains(f.Title, "4 slabinfo readings") {
			t.Errorf("%s: title %q", name, f.Title)
		}
	}
	for name, text := range map[string]string{
		"one snapshot":      intro + row("kmalloc-2048", 15000, 2048) + row("dentry", 4000, 192) + row("kmalloc-64", 900, 64),
		"rise of 8 MiB":     intro + rows("kmalloc-2048", 2048, 200, 2000, 4200),
		"falling":           intro + rows("kmalloc-2048", 2048, 15000, 9000, 3000, 200),
		"reclaimable cache": intro + rows("dentry", 192, 2000, 90000, 180000),
		"two readings":      intro + rows("kmalloc-2048", 2048, 200, 15000),
	} {
		res := run(t, "slab-unreclaimable-growth", pasteTimeline(t, text))
		if len(res.Findings) != 0 {
			t.Errorf("%s: fired %q", name, res.Findings[0].Title)
		}
	}
}
