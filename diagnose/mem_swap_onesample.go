package diagnose

import (
	"fmt"

	"headroom/model"
)

// swapOneSample: the swap rates of a timeline are a single sample, below the level at which
// the rule fires. One sample cannot fire the rule (swapMinSamples), so neither can it clear
// the host: a lone vmstat row is usually the average since boot (vmstat(8): "The first report
// produced gives averages since the last reboot"; `vmstat` with no delay prints only that
// row), whose si/so of 0 says nothing of the hour the text is about. When the input holds
// the evidence swapWithoutRate reads with RAM short as well (a snapshot whose swap is full or
// half used while under memShortShare of RAM is available), or the author's words that the
// host swaps, that decides, at warning, and the lone sample is cited beside it; otherwise
// the rule stays healthy as before (fix54d).
func swapOneSample(tl *model.Timeline, i int, swapKBs float64) (Result, bool) {
	// A full swap beside RAM still available is old pages parked on disk, which the lone
	// row's 0 may well describe: only a snapshot with RAM short too, or the author's words,
	// outweigh it.
	short := false
	if s := tl.LastWith(func(s *model.Sample) bool { _, _, _, _, ok := swapUnderPressure(s); return ok }); s != nil {
		mem, okm := s.Mem("MemTotal")
		avail, oka := memAvailableKB(s)
		short = okm && oka && mem > 0 && float64(avail) < memShortShare*float64(mem)
	}
	if !short && tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSwapping] > 0 }) == nil {
		return Result{}, false
	}
	res, ok := swapWithoutRate(tl)
	if !ok || len(res.Findings) == 0 {
		return Result{}, false
	}
	f := &res.Findings[0]
	src := sampleSource(&tl.Samples[i], "")
	for k := range f.Evidence {
		if f.Evidence[k].What == "swap-in/out rate" {
			f.Evidence[k] = Evidence{What: "swap-in/out rate",
				Value:  fmt.Sprintf("one sample only, %.0f KiB/s: a single vmstat row is usually the average since boot, not the load the text is about; vmstat 1 (si/so) or two samples of /proc/vmstat (pswpin/pswpout) while the load runs would measure it", swapKBs),
				Source: src}
		}
	}
	f.Title = "the host swapped under load (no swap rate in the input beyond one sample)"
	return res, true
}
