package artifact

import (
	"testing"

	"headroom/model"
)

// fix61b: a total of swapped pages over a stated span is a mean swap rate.
func TestFix61bSwapPagesOverSpan(t *testing.T) {
	for text, want := range map[string]float64{
		"the guest experienced 97% PSI memory stall, 176,000+ swap pages\nwritten, and near-OOM conditions over a sustained period exceeding 150\nseconds.\n": 176000 * 4.0 / 150,
		"During the backup 12000 pages were swapped out in 2 minutes.\n":                                                                                      12000 * 4.0 / 120,
	} {
		if v := statedRate(t, text, model.RateSwapOutKBPerSec); v < want-0.01 || v > want+0.01 {
			t.Errorf("%q: %v KiB/s, want %v", text, v, want)
		}
	}
	if v := statedRate(t, "About 30000 pages were read back from swap in 60 seconds after the job ended.\n", model.RateSwapInKBPerSec); v != 2000 {
		t.Errorf("swap-in total: %v KiB/s, want 2000", v)
	}
}

func TestFix61bSwapPagesOverSpanCounterCases(t *testing.T) {
	for _, text := range []string{
		"kswapd scanned 500000 pages in 10 seconds while swap stayed empty.\n",        // scanned pages, not swapped
		"pswpout shows 176000 pages since boot.\n",                                    // no span
		"The cache held 300000 pages over 5 minutes; no swap device is configured.\n", // no swap of pages
		"If 100000 pages were swapped out in 10 seconds the box would stall.\n",       // hypothetical
	} {
		if v := statedRate(t, text, model.RateSwapOutKBPerSec); v != 0 {
			t.Errorf("%q: swap-out %v KiB/s, want none", text, v)
		}
	}
}
