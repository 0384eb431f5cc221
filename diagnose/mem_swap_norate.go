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
//   - a snapshot whose swap is substantially used (swapShortShare) while memory is short: the
//     RAM still available (MemAvailable, or free + buffers + cache) under memShortShare of the
//     total (h23a: `free -h` on a small VPS, "Swap: 2.0Gi 1.9Gi 84Mi" beside 78Mi available:
//     free -h rounds to two digits, so an exhausted swap may print just under 95%). Swap used
//     with memory available is old pages parked on disk (no finding).
//   - the author's words that this host swaps ("crawls because of the swapping", "eats all the
//     swap"), read by artifact/statedswapping.go into RateStatedSwapping.
const (
	swapExhaustedShare = 0.95
	swapShortShare     = 0.5
	memShortShare      = 0.1
	// swapStarvedUsedShare: swap in use, as a share of RAM, that with the page cache gone
	// counts as the working set having spilled (fix60b).
	swapStarvedUsedShare = 0.25
	// memRoomyShare: RAM available at which the author's "it is swapping" beside a partly
	// used swap is old pages parked on disk (fix60b).
	memRoomyShare = 0.5
)

// swapUnderPressure says whether sample s shows its swap exhausted, or substantially used
// while the RAM available is short; it returns the swap used and total in kB and, for the
// second kind, the RAM available and total.
func swapUnderPressure(s *model.Sample) (used, total, avail, mem int64, ok bool) {
	total, ok = s.Mem("SwapTotal")
	if !ok || total <= 0 {
		return 0, 0, 0, 0, false
	}
	used, ok = swapUsedKB(s, total)
	if !ok || used <= 0 {
		return 0, 0, 0, 0, false
	}
	if float64(used) >= swapExhaustedShare*float64(total) {
		return used, total, 0, 0, true
	}
	mem, okm := s.Mem("MemTotal")
	avail, oka := memAvailableKB(s)
	if !okm || !oka || mem <= 0 || float64(avail) >= memShortShare*float64(mem) {
		return 0, 0, 0, 0, false
	}
	if float64(used) >= swapShortShare*float64(total) {
		return used, total, avail, mem, true
	}
	// A large swap partly used while the page cache is gone and next to nothing is available
	// (fix60b): with file pages and RAM available both under swapFileStarvedShare of RAM,
	// reclaim has nothing left to take but anonymous memory, so every further allocation is
	// served by swapping; swap already holding swapStarvedUsedShare of RAM says that has been
	// happening.
	starved := func(v int64) bool { return float64(v) < swapFileStarvedShare*float64(mem) }
	if file, _, ok := filePagesKB(s); ok && starved(file) && starved(avail) && float64(used) >= swapStarvedUsedShare*float64(mem) {
		return used, total, avail, mem, true
	}
	return 0, 0, 0, 0, false
}

// statedSwapRefuted reports whether the snapshot the input holds shows the swap the author
// calls "swapping" to be old pages parked on disk: swap partly used (short of swapShortShare)
// while at least memRoomyShare of RAM is available and the page cache is not gone. Reclaim
// with half the RAM available is not forced to swap; the pages in swap were pushed out
// earlier (swappiness weighs cold anonymous pages against a streaming page cache), which is
// what the rule's "swap partly used with memory available gives nothing" says (fix60b).
func statedSwapRefuted(tl *model.Timeline) (*model.Sample, bool) {
	s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.Mem("SwapTotal"); return ok })
	if s == nil {
		return nil, false
	}
	total, _ := s.Mem("SwapTotal")
	used, okU := swapUsedKB(s, total)
	mem, okM := s.Mem("MemTotal")
	avail, okA := memAvailableKB(s)
	file, _, okF := filePagesKB(s)
	if total <= 0 || !okU || !okM || !okA || !okF || mem <= 0 {
		return nil, false
	}
	roomy := float64(avail) >= memRoomyShare*float64(mem) && float64(file) >= swapFileStarvedShare*float64(mem)
	return s, roomy && float64(used) < swapShortShare*float64(total)
}

// memAvailableKB is the RAM still available in sample s: MemAvailable, or MemFree plus
// Buffers and Cached where the snapshot predates MemAvailable.
func memAvailableKB(s *model.Sample) (int64, bool) {
	if a, ok := s.Mem("MemAvailable"); ok {
		return a, true
	}
	f, ok := s.Mem("MemFree")
	if !ok {
		return 0, false
	}
	b, _ := s.Mem("Buffers")
	c, _ := s.Mem("Cached")
	return f + b + c, true
}

// memAvailableWhat names what memAvailableKB read in sample s: "available", or "free" when
// the snapshot has neither MemAvailable nor buffers or cache (a top Mem line quoted without
// them), so the figure is a floor of what was available (fix54d).
func memAvailableWhat(s *model.Sample) string {
	_, a := s.Mem("MemAvailable")
	_, b := s.Mem("Buffers")
	_, c := s.Mem("Cached")
	if a || b || c {
		return "available"
	}
	return "free (the snapshot gives no buffers or cache)"
}

// swapWithoutRate returns the finding for a timeline with no swap-in/out rate, if either kind
// of evidence is there.
func swapWithoutRate(tl *model.Timeline) (Result, bool) {
	var ev []Evidence
	if s := tl.LastWith(func(s *model.Sample) bool { _, _, _, _, ok := swapUnderPressure(s); return ok }); s != nil {
		used, total, avail, mem, _ := swapUnderPressure(s)
		v := fmt.Sprintf("%d of %d kB (%.0f%%): the swap is exhausted; a snapshot gives no swap-in/out rate", used, total, 100*float64(used)/float64(total))
		if mem > 0 {
			v = fmt.Sprintf("%d of %d kB (%.0f%%) while %d of %d kB RAM (%.0f%%) is %s: the working set exceeds RAM; a snapshot gives no swap-in/out rate", used, total, 100*float64(used)/float64(total), avail, mem, 100*float64(avail)/float64(mem), memAvailableWhat(s))
		}
		ev = append(ev, Evidence{What: "swap used (one snapshot)", Value: v, Source: sampleSource(s, "the swap totals")})
	}
	if s := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedSwapping] > 0 }); s != nil {
		if _, refuted := statedSwapRefuted(tl); !refuted {
			ev = append(ev, Evidence{What: "swapping", Value: statedBy(s) + ", without a rate", Source: sampleSource(s, "the text")})
		}
	}
	if len(ev) == 0 {
		return Result{}, false
	}
	ev = append(ev, Evidence{What: "swap-in/out rate", Value: "not in the input: two samples of /proc/vmstat (pswpin/pswpout) or vmstat 1 (si/so) would measure it", Source: "not in the input"})
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
