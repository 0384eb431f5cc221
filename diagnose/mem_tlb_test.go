package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestTLBShootdownStorm(t *testing.T) {
	tlb := func(totals ...int64) *model.Timeline {
		tl := timeline(len(totals))
		tl.Host.CPUs = 48
		tl.Host.Arch = "x86_64"
		tl.Host.Kernel = "4.0.0"
		for i, v := range totals {
			tl.Samples[i].Interrupts = &kernel.Interrupts{CPUs: []string{"CPU0"}, Lines: []kernel.Interrupt{{Name: "TLB", PerCPU: []int64{v}, Total: v, Desc: "TLB shootdowns"}}}
			tl.Samples[i].VMStat = memCounters("pgscan_kswapd", i*1500000, "pgscan_direct", 0)
		}
		tl.DeriveRates()
		return tl
	}
	t.Run("seed 003", func(t *testing.T) {
		f := mustFire(t, run(t, "tlb-shootdown-storm", tlb(0, 900000, 1800000)), Critical)
		if !evidenceHas(f, "TLB shootdowns", "18750/s per CPU over 48 CPUs") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if c, ok := changeFor(f, "kernel"); !ok || c.Recommended != "4.3 or later" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		mustBeHealthy(t, run(t, "tlb-shootdown-storm", tlb(65880, 65900, 65950)))
	})
	t.Run("one sample", func(t *testing.T) {
		mustNotCheck(t, run(t, "tlb-shootdown-storm", tlb(65880)), "two")
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "tlb-shootdown-storm", timeline(2)), "TLB")
	})
}
