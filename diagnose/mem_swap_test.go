package diagnose

import (
	"strconv"
	"strings"
	"testing"

	"headroom/model"
)

func TestSwapUnderLoad(t *testing.T) {
	// Seed 004's swap table (si/so in KiB/s), no network columns.
	so := []float64{0, 0, 0, 0, 0, 124, 1044, 111780, 58476, 53704, 69144, 54592, 52316, 63204, 71136}
	si := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 128, 32, 16, 0, 0, 0}
	seed := func() *model.Timeline {
		tl := memTextTimeline()
		tl.Segments = []model.Segment{{Name: "vmstat table at lines 500-516", Kind: "vmstat", First: 0, Last: len(so) - 1}}
		for i := range so {
			tl.Samples = append(tl.Samples, model.Sample{Source: "line " + strconv.Itoa(500+i), Rates: model.Rates{model.RateSwapOutKBPerSec: so[i], model.RateSwapInKBPerSec: si[i]}})
		}
		return tl
	}
	t.Run("seed 004", func(t *testing.T) {
		tl := seed()
		f := mustFire(t, run(t, "swap-under-load", tl), Critical)
		if !evidenceHas(f, "swap in + out", "peak 111780 KiB/s") || !evidenceHas(f, "network rate", "not in the input") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if c, ok := changeFor(f, "vm.swappiness"); !ok || c.Kind != model.ChangeOther {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("32-bit highmem note", func(t *testing.T) {
		tl := seed()
		tl.Events = []model.Event{memAllocEvent(40, "java", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.13", memSeed004Zones())}
		f := mustFire(t, run(t, "swap-under-load", tl), Critical)
		if !strings.Contains(f.Explanation, "cannot relieve") {
			t.Errorf("explanation: %s", f.Explanation)
		}
	})
	t.Run("swapping while receiving", func(t *testing.T) {
		tl := timeline(3)
		memHost64(tl, "6.1.0")
		tl.Host.Sysctls["vm.swappiness"] = "60"
		for i := 1; i < 3; i++ {
			tl.Samples[i].Rates = model.Rates{model.RateSwapOutKBPerSec: 2048, model.RateSwapInKBPerSec: 0, model.RateRxBytesPerSec: 600e6}
		}
		f := mustFire(t, run(t, "swap-under-load", tl), Critical)
		if c, ok := changeFor(f, "vm.swappiness"); !ok || c.Current != "60" || c.Recommended != "10" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	// With the page cache gone, swappiness has nothing to trade: the finding says so and
	// recommends shrinking the working set instead; with cache left, it recommends 10.
	starving := func(fileKB int) *model.Timeline {
		tl := timeline(3)
		memHost64(tl, "6.1.0")
		tl.Host.Sysctls["vm.swappiness"] = "60"
		for i := 1; i < 3; i++ {
			tl.Samples[i].Rates = model.Rates{model.RateSwapOutKBPerSec: 20480, model.RateSwapInKBPerSec: 4096}
			tl.Samples[i].MemInfo = memCounters("MemTotal", 8<<20, "Active(file)", fileKB/2, "Inactive(file)", fileKB/2, "AnonPages", 7<<20)
		}
		return tl
	}
	t.Run("page cache gone: swappiness cannot help", func(t *testing.T) {
		f := mustFire(t, run(t, "swap-under-load", starving(200<<10)), Critical)
		if !evidenceHas(f, "page cache at the peak", "Active(file)+Inactive(file) 204800 kB, 2.4% of 8388608 kB RAM") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if _, ok := changeFor(f, "vm.swappiness"); ok {
			t.Errorf("swappiness recommended with no page cache to reclaim: %+v", f.Changes)
		}
		if _, ok := changeFor(f, "anonymous working set"); !ok || !strings.Contains(f.Explanation, "cannot help") {
			t.Errorf("changes %+v, explanation %s", f.Changes, f.Explanation)
		}
	})
	t.Run("page cache left: swappiness 10", func(t *testing.T) {
		f := mustFire(t, run(t, "swap-under-load", starving(2<<20)), Critical)
		if c, ok := changeFor(f, "vm.swappiness"); !ok || c.Recommended != "10" || evidenceHas(f, "page cache at the peak", "") {
			t.Errorf("changes %+v, evidence %+v", f.Changes, f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(3)
		for i := 1; i < 3; i++ {
			tl.Samples[i].Rates = model.Rates{model.RateSwapOutKBPerSec: 0, model.RateSwapInKBPerSec: 0}
		}
		mustBeHealthy(t, run(t, "swap-under-load", tl))
	})
	t.Run("no swap configured", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].MemInfo = memCounters("SwapTotal", 0)
		mustBeHealthy(t, run(t, "swap-under-load", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "swap-under-load", timeline(1)), "swap-in/out")
	})
}

// Only swap-in rates (a vmstat that kept pswpin, not pswpout): the swap-out half of
// "swap traffic" was not read, and the healthy text must say so.
func TestSwapUnderLoadOneDirectionRead(t *testing.T) {
	tl := timeline(3)
	for i := range tl.Samples {
		tl.Samples[i].Rates = model.Rates{model.RateSwapInKBPerSec: 0}
	}
	mustBeHealthyNaming(t, run(t, "swap-under-load", tl), "swap-out")
}
