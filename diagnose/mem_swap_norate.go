package diagnose

import (
	"fmt"

	"headroom/model"
)

// swap-under-load without a swap rate. Two kinds of evidence say the host swapped under load
// but not how fast, and so never reach critical:
//   - a snapshot (free, /proc/meminfo, top's header) whose swap is exhausted: used at least
//     swapExhaustedShare of a configured swap. A swap that filled was written out all the way
//     (anonymous memory did not fit RAM); a snapshot of swap partly used with memory available
//     is old pages parked on disk, and a swap merely configured is neither (no finding).
//   - the author's words that this host swaps ("crawls because of the swapping", "eats all the
//     swap"), read by artifact/statedswapping.go into RateStatedSwapping.
const swapExhaustedShare = 0.95

// swapWithoutRate returns the finding for a timeline with no swap-in/out rate, if either kind
// of evidence is there.
func swapWithoutRate(tl *model.Timeline) (Result, bool) {
	var ev []Evidence
	if s := tl.LastWith(func(s *model.Sample) bool {
		total, ok := s.Mem("SwapTotal")
		if !ok || total <= 0 {
			return false
		}
		used, ok := swapUsedKB(s, total)
		return ok && float64(used) >= swapExhaustedShare*float64(total)
	}); s != nil {
		total, _ := s.Mem("SwapTotal")
		used, _ := swapUsedKB(s, total)
		ev = append(ev, Evidence{What: "swap used (one snapshot)", Value: fmt.Sprintf("%d of %d kB (%.0f%%): the swap is exhausted; a snapshot gives no swap-in/out rate", used, total, 100*float64(used)/float64(total)), Source: sampleSource(s, "the swap totals")})
	}
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSwapping] > 0 }); s != nil {
		ev = append(ev, Evidence{What: "swapping", Value: "stated by the author, without a rate", Source: sampleSource(s, "the text")})
	}
	if len(ev) == 0 {
		return Result{}, false
	}
	ev = append(ev, Evidence{What: "swap-in/out rate", Value: "not in the input: two samples of /proc/vmstat (pswpin/pswpout) or vmstat 1 (si/so) would measure it", Source: "-"})
	return Fired(Finding{
		Severity: Warning,
		Title:    "the host swapped under load (no swap rate in the input)",
		Evidence: ev,
		Explanation: "Anonymous memory did not fit in RAM and went to swap. Swap I/O costs CPU and disk time the receive path " +
			"needs, and a task waiting on a swap-in stops draining its sockets; when swap fills as well, the next " +
			"allocation that cannot be reclaimed ends in the OOM killer. Without swap-in/out rates the severity cannot be " +
			"measured, so this stays a warning.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "anonymous working set",
			Recommended: "measure first (vmstat 1 for si/so while the load runs), then find what grew (per-process RSS, per-cgroup memory.current) and cap it (memory.max), run fewer workers, or add RAM",
			Why:         "a full or busy swap says the working set exceeds RAM; a larger swap only delays the kill and keeps the host slow"}},
	}), true
}

// swapUsedKB is the swap in use of sample s: SwapUsed as a table prints it, or SwapTotal -
// SwapFree.
func swapUsedKB(s *model.Sample, total int64) (int64, bool) {
	if u, ok := s.Mem("SwapUsed"); ok {
		return u, true
	}
	if f, ok := s.Mem("SwapFree"); ok && f <= total {
		return total - f, true
	}
	return 0, false
}
