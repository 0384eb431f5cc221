package diagnose

import (
	"testing"

	"headroom/model"
)

// fix58b (corpus 4901): a 2.6 vmstat run taken while the box swaps: one row writes out at
// so=1182 KiB/s, then si stays non-zero row after row (298, 170, 127, ... KiB/s) with free
// at 3-4 MB. The pages written out are read back at once: churn spread over time, though
// no row but one reaches the warn rate.
func TestFix58bSwapOutThenReadBack(t *testing.T) {
	mk := func(so, si []float64) *model.Timeline {
		tl := timeline(len(so))
		for i := range so {
			tl.Samples[i].Rates = model.Rates{model.RateSwapOutKBPerSec: so[i], model.RateSwapInKBPerSec: si[i]}
		}
		return tl
	}
	so := []float64{0, 0, 0, 0, 175, 1182, 0, 122, 0, 0, 0, 0, 0, 0}
	si := []float64{0, 0, 0, 0, 26, 56, 20, 171, 298, 170, 127, 86, 73, 40}
	f := mustFire(t, run(t, "swap-under-load", mk(so, si)), Warning)
	if !evidenceHas(f, "swap churn", "read back after a swap-out burst") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// counter-cases: the same swap-in with no burst before it (pages of an old swap-out read
	// back slowly), and a burst with nothing read back after it, stay healthy.
	noBurst := []float64{0, 0, 0, 0, 175, 600, 0, 122, 0, 0, 0, 0, 0, 0}
	mustBeHealthy(t, run(t, "swap-under-load", mk(noBurst, si)))
	quiet := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 0}
	mustBeHealthy(t, run(t, "swap-under-load", mk(so, quiet)))
	// swap-in before the burst is no read-back of it.
	before := []float64{20, 30, 40, 50, 60, 70, 80, 90, 0, 0, 0, 0, 0, 0}
	late := []float64{0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1182}
	mustBeHealthy(t, run(t, "swap-under-load", mk(late, before)))
}
