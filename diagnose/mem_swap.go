package diagnose

import (
	"fmt"
	"strings"

	"headroom/model"
)

// swap-under-load: the host swaps in or out (vmstat si/so, /proc/vmstat pswpin/pswpout)
// while it moves network traffic. Swap I/O competes with the receive path for CPU and disk,
// and on a 32-bit HighMem kernel it cannot help the allocations that fail: user pages live
// mostly in HighMem, so swapping them out frees little lowmem (seed 004: "goes into swap to
// try to free memory, but this just adds to CPU load ... nothing swappable in low memory";
// its vmstat shows so up to 111780 KiB/s).
func init() {
	Register(Rule{
		ID:     "swap-under-load",
		Title:  "swapping while the network is busy",
		Family: FamilyMemory,
		Check:  checkSwapUnderLoad,
	})
}

// Thresholds: swap traffic (in + out) ≥ 1 MiB/s in at least two samples warns; ≥ 10 MiB/s in
// at least two samples, or ≥ 1 MiB/s in samples where the network moves ≥ 10% of the link
// (≥ 10 MB/s when the link speed is unknown), is critical. Anchors: netdata warns when 20% of
// RAM was swapped out in 30 minutes (30min_ram_swapped_out) and on swap 80% used
// (used_swap); node-mixin warns at 500 major page faults/s for 15 m
// (NodeMemoryMajorPagesFaults); PCP pmie's memory.swap_low watches free swap, not its rate.
const (
	swapWarnKBPerSec       = 1024.0
	swapCritKBPerSec       = 10240.0
	swapMinSamples         = 2
	swapNetBusyShare       = 0.10
	swapNetBusyBytesPerSec = 10e6
	// Churn: pages written out and read back in the same samples, in at least half of
	// at least swapChurnMinSamples samples, is the working set not fitting, whatever the
	// rate (vmstat's si and so both non-zero row after row, or si row after row after an
	// so burst at the warn rate); it warns below 1 MiB/s too.
	swapChurnMinSamples = 5
)

func checkSwapUnderLoad(tl *model.Timeline) Result {
	type pt struct {
		i       int
		swapKBs float64
		netBps  float64
		hasNet  bool
		churn   bool // both in and out moved
		// stated: the author's rate ("the SSD moves 20 MB/s in each direction while it
		// swaps", corpus 937) tells what the swap traffic runs at, not one instant: it
		// counts as the samples the rule asks for (weighStated keeps it below critical).
		// So does a tool's mean over a whole run (an LKP table's vmstat.swap.so).
		stated bool
		// spanSec: the seconds a pasted row is a mean over (a `vmstat 10` row, fix57b): a
		// rate held over at least swapMinSamples seconds counts as that many samples, as
		// two one-second samples would (model.RateIntervalSec).
		spanSec float64
	}
	var pts []pt
	// readIn/readOut: samples whose swap-in or swap-out rate was read; a missing direction
	// counts as 0 in the sum, so a healthy result must say it was not read.
	var readIn, readOut int
	burstOut := false // an earlier sample wrote out at ≥ swapWarnKBPerSec
	for i := range tl.Samples {
		r := tl.Samples[i].Rates
		in, okIn := r.Get(model.RateSwapInKBPerSec)
		out, okOut := r.Get(model.RateSwapOutKBPerSec)
		if !okIn && !okOut {
			continue
		}
		if okIn {
			readIn++
		}
		if okOut {
			readOut++
		}
		src := sampleSource(&tl.Samples[i], "")
		// fix58b: pages read back in, sample after sample, after a burst that wrote out at
		// the warn rate, are the same churn spread over time: what was pushed out is needed
		// again at once (a vmstat run with so=1182 once, then si>0 row after row).
		p := pt{i: i, swapKBs: in + out, churn: in > 0 && (out > 0 || burstOut), stated: strings.Contains(src, StatedMark) || strings.Contains(src, model.RunMeanMark)}
		p.spanSec, _ = r.Get(model.RateIntervalSec)
		rx, okRx := r.Get(model.RateRxBytesPerSec)
		tx, okTx := r.Get(model.RateTxBytesPerSec)
		if okRx || okTx {
			p.netBps, p.hasNet = rx+tx, true
		}
		pts = append(pts, p)
		burstOut = burstOut || out >= swapWarnKBPerSec
	}
	if len(pts) == 0 {
		if res, ok := swapWithoutRate(tl); ok { // mem_swap_norate.go
			return res
		}
		if s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.Mem("SwapTotal"); return ok }); s != nil {
			if v, _ := s.Mem("SwapTotal"); v == 0 {
				return Healthy("no swap configured (SwapTotal 0 kB in %s)", sampleSource(s, "/proc/meminfo"))
			}
		}
		return NotChecked("no swap-in/out rates: needs two samples of /proc/vmstat (pswpin/pswpout) or a vmstat table (si/so)")
	}
	linkBps := 0.0
	for _, n := range tl.Host.NICs {
		if !n.Virtual && n.SpeedMbps > 0 && n.Name != "lo" {
			linkBps += float64(n.SpeedMbps) * 1e6 / 8
		}
	}
	busyAt := swapNetBusyBytesPerSec
	busyWhy := fmt.Sprintf("≥ %.0f MB/s (link speed unknown)", swapNetBusyBytesPerSec/1e6)
	if linkBps > 0 {
		busyAt = swapNetBusyShare * linkBps
		busyWhy = fmt.Sprintf("≥ %.0f%% of the %.0f MB/s link", 100*swapNetBusyShare, linkBps/1e6)
	}
	var warnN, warnShown, critN, busyN, netKnown, churnN int
	peak, peakIdx, peakSpan := 0.0, -1, 0.0
	var sum float64
	for _, p := range pts {
		sum += p.swapKBs
		if p.swapKBs > peak || peakIdx < 0 {
			peak, peakIdx, peakSpan = p.swapKBs, p.i, p.spanSec
		}
		if p.hasNet {
			netKnown++
		}
		if p.churn {
			churnN++
		}
		weight := 1
		if p.stated || p.spanSec >= swapMinSamples {
			weight = swapMinSamples
		}
		if p.swapKBs >= swapWarnKBPerSec {
			warnShown++
			warnN += weight
			if p.hasNet && p.netBps >= busyAt {
				busyN++
			}
		}
		if p.swapKBs >= swapCritKBPerSec {
			critN += weight
		}
	}
	mean := sum / float64(len(pts))
	churning := len(pts) >= swapChurnMinSamples && 2*churnN >= len(pts)
	if warnN < swapMinSamples && !churning {
		if len(pts) < swapMinSamples {
			if res, ok := swapOneSample(tl, pts[0].i, pts[0].swapKBs); ok { // mem_swap_onesample.go
				return res
			}
		}
		msg := fmt.Sprintf("swap traffic peaked at %.0f KiB/s over %d samples (fires at %.0f KiB/s in %d samples)", peak, len(pts), swapWarnKBPerSec, swapMinSamples)
		switch {
		case readOut == 0:
			msg += "; swap-out (pswpout, so) not in the input: swap-in only"
		case readIn == 0:
			msg += "; swap-in (pswpin, si) not in the input: swap-out only"
		}
		return Healthy("%s", msg)
	}
	src := memSampleWhere(tl, peakIdx, "/proc/vmstat")
	if seg := memSegmentOf(tl, peakIdx); seg != "" {
		src = seg
	}
	ev := []Evidence{{What: "swap in + out", Value: fmt.Sprintf("peak %.0f KiB/s (%.1f MiB/s), mean %.0f KiB/s; %d of %d samples ≥ %.0f KiB/s", peak, peak/1024, mean, warnShown, len(pts), swapWarnKBPerSec), Source: src}}
	if peakSpan >= swapMinSamples {
		ev[0].Value += fmt.Sprintf("; each row is a mean over %.0f s (the tool's sampling interval: vmstat's delay, the gap between two sar rows), so a row at the rate counts as the %d samples the rule asks for", peakSpan, swapMinSamples)
	}
	if churning {
		ev = append(ev, Evidence{What: "swap churn", Value: fmt.Sprintf("pages went out and came back in (in the same sample, or read back after a swap-out burst) in %d of %d samples: the working set does not fit", churnN, len(pts)), Source: src})
	}
	sev := Warning
	switch {
	case busyN >= 1:
		sev = Critical
		ev = append(ev, Evidence{What: "network while swapping", Value: fmt.Sprintf("%d samples with swap ≥ %.0f KiB/s and traffic %s", busyN, swapWarnKBPerSec, busyWhy), Source: src})
	case critN >= swapMinSamples:
		sev = Critical
	}
	if netKnown == 0 {
		ev = append(ev, Evidence{What: "network rate in the same samples", Value: "not in the input (the swap samples carry no interface counters)", Source: src})
	}
	starved, starvedWhy := swapFileStarved(tl, peakIdx)
	if starved {
		ev = append(ev, Evidence{What: "page cache at the peak", Value: starvedWhy, Source: memSampleWhere(tl, peakIdx, "/proc/meminfo")})
	}
	highmem := (tl.Host.HighMem != nil && *tl.Host.HighMem) || func() bool {
		for _, e := range tl.Events {
			if e.AllocFailure != nil && memAllocHighMem(e.AllocFailure) {
				return true
			}
		}
		return false
	}()
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("the host swaps (up to %.1f MiB/s)", peak/1024),
		Evidence: ev,
		Explanation: "Swap-out means reclaim found too little clean page cache and is writing anonymous memory to disk; " +
			"swap-in means tasks fault it back. Both cost CPU and disk time the receive path needs, and a task waiting on a " +
			"swap-in stops draining its sockets, so receive queues fill and windows close. vm.swappiness (0-100; 0-200 since " +
			"5.8) weighs anonymous against file reclaim: lower values keep applications resident and reclaim page cache first; " +
			"0 avoids swap until file pages are nearly gone, which on 3.5+ can mean OOM kills instead of swapping.",
	}
	if highmem {
		f.Explanation += " On this 32-bit HighMem kernel swapping cannot relieve the allocations that fail: user pages sit " +
			"mostly in HighMem, so swapping them out frees HighMem, while socket buffers need lowmem (Fermilab). The fix is " +
			"less lowmem demand (socket buffers sized to lowmem, tcp_mem) or a 64-bit kernel; see alloc-fail-lowmem."
	}
	if starved {
		// vm.swappiness only chooses between file and anonymous pages when both can be
		// reclaimed; with the page cache gone, the anonymous working set does not fit and no
		// setting of it helps (the lab's swap-under-load scenario measured no gain from
		// swappiness 10 in that state: docs/lab-results.md).
		f.Explanation += " Here the page cache is nearly gone, so there is nothing else to reclaim: the anonymous " +
			"working set does not fit in memory, and vm.swappiness, which only weighs file against anonymous pages, " +
			"cannot help; lowering it would change nothing measurable."
		f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "anonymous working set",
			Recommended: "find what grew (per-process RSS, per-cgroup memory.current) and cap it (memory.max, or memory.limit_in_bytes on cgroup v1), run fewer workers, or add RAM",
			Why:         "what reclaim cannot drop without swapping (application memory, and kernel memory such as socket buffers) needs more than the host has; swappiness cannot move that boundary"})
	} else if cur, ok := currentSetting(tl, "vm.swappiness"); ok {
		if c, ok := settingInt(cur); ok && c > 10 {
			f.Changes = append(f.Changes, model.Change{Kind: model.ChangeSysctl, Key: "vm.swappiness", Current: cur.Value, Recommended: "10",
				Why: "reclaim page cache well before anonymous memory on a host whose applications must stay resident to drain sockets; risk: a larger working set of file pages is evicted, and with no clean cache left the kernel swaps anyway"})
		}
	} else {
		ms := settingMentions(tl, "vm.swappiness")
		why := "lower it to reclaim page cache before application memory"
		if len(ms) > 0 {
			why += "; the text names " + memDescribeMentions(ms, "vm.swappiness")
		}
		f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "vm.swappiness", Recommended: "10 (the current value is not in the input)", Why: why})
	}
	if highmem {
		f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "lowmem demand", Recommended: "size socket buffers and tcp_mem to lowmem (`headroom plan`), or a 64-bit kernel",
			Why: "on a 32-bit HighMem kernel swap frees HighMem; the failing allocations need lowmem"})
	}
	return Fired(f)
}

// swapFileStarvedShare: below this share of RAM in file pages at the swap peak, reclaim had
// next to no page cache left to take instead of anonymous memory. 5% is of the order of the
// low watermarks plus the working file set of a small server (binaries, libraries).
const swapFileStarvedShare = 0.05

// filePagesKB is the page cache of sample s: Active(file)+Inactive(file), or Buffers+Cached
// when a pasted table has only those, or free's buff/cache (which adds SReclaimable: an upper
// bound, so a share below a threshold holds for the page cache too).
func filePagesKB(s *model.Sample) (int64, string, bool) {
	if a, okA := s.Mem("Active(file)"); okA {
		in, okI := s.Mem("Inactive(file)")
		return a + in, "Active(file)+Inactive(file)", okI
	}
	if c, okC := s.Mem("Cached"); okC {
		b, _ := s.Mem("Buffers")
		return c + b, "Buffers+Cached", true
	}
	if bc, ok := s.Mem("BuffCache"); ok {
		return bc, "buff/cache", true
	}
	return 0, "", false
}

// swapFileStarved reports whether sample i shows file pages (Active(file)+Inactive(file), or
// Buffers+Cached when a pasted table has only those) below swapFileStarvedShare of RAM, and
// the figures that say so. Without both figures it reports false: not enough to judge.
func swapFileStarved(tl *model.Timeline, i int) (bool, string) {
	if i < 0 || i >= len(tl.Samples) {
		return false, ""
	}
	s := &tl.Samples[i]
	total, ok := s.Mem("MemTotal")
	if !ok || total <= 0 {
		total = tl.Host.MemTotalKB
	}
	if total <= 0 {
		return false, ""
	}
	file, what, ok := filePagesKB(s)
	if !ok {
		return false, ""
	}
	share := float64(file) / float64(total)
	if share >= swapFileStarvedShare {
		return false, ""
	}
	why := fmt.Sprintf("%s %d kB, %.1f%% of %d kB RAM (below %.0f%%)", what, file, 100*share, total, 100*swapFileStarvedShare)
	if anon, ok := s.Mem("AnonPages"); ok {
		why += fmt.Sprintf("; AnonPages %d kB", anon)
	}
	return true, why
}
