package diagnose

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// kswapd-saturated: kswapd (mm/vmscan.c kswapd → balance_pgdat), one thread per NUMA node,
// near a full CPU, or scanning far more than it reclaims. Reclaim then cannot keep up with
// allocation: zones sink below low toward min, atomic receive allocations eat the reserve,
// and tasks fall into direct reclaim. Seed 003: two kswapd at 100% of a CPU for ~1.5 M
// reclaims/s capped a 2×40G CDN box at 14 Gbit/s until batched TLB flushes (4.3) cut the
// cost of each unmapped page.
//
// direct-reclaim-stalls: allocating tasks reclaim themselves (__alloc_pages_direct_reclaim):
// allocstall counts the entries (per zone allocstall_* since 4.10; one "allocstall" before),
// pgscan_direct the pages scanned (per node since 4.8, per zone pgscan_direct_<zone> before:
// the rates sum the prefix). PSI memory (4.20+) says how much wall time tasks lost to it:
// "some" = at least one task stalled, "full" = all non-idle tasks stalled.
func init() {
	Register(Rule{
		ID:     "kswapd-saturated",
		Title:  "kswapd near a full CPU, or scanning with low reclaim efficiency",
		Family: FamilyMemory,
		Check:  checkKswapdSaturated,
	})
	Register(Rule{
		ID:     "direct-reclaim-stalls",
		Title:  "tasks stall in direct reclaim (allocstall, pgscan_direct, PSI memory)",
		Family: FamilyMemory,
		Check:  withTraceStalls(checkDirectReclaim),
	})
}

// Thresholds. kswapd: one thread ≥ 90% of a CPU over the window is saturated (critical),
// ≥ 50% warns. Efficiency: pgsteal/pgscan < 10% while scanning ≥ 10000 pages/s (40 MB/s of
// 4 KiB pages) warns. Direct reclaim: any allocstall while sampled warns; PSI memory some
// avg10 ≥ 10% warns, full avg10 ≥ 5% is critical. Anchors: netdata, node-mixin and PCP have no
// kswapd or PSI alert; node-mixin's NodeMemoryMajorPagesFaults (500 major faults/s for 15 m)
// is the nearest; systemd-oomd acts at 60% "some" over 30 s (ManagedOOMMemoryPressureLimit).
const (
	kswapdCritPct        = 90.0
	kswapdWarnPct        = 50.0
	kswapdScanMinPerSec  = 10000.0
	kswapdEfficiencyWarn = 0.10
	// kswapdSinceBootPasses: since boot, kswapd has scanned at least this many times all of
	// RAM's pages (fix61d); with efficiency under kswapdEfficiencyWarn that is reclaim
	// grinding through the LRU for little, whatever the uptime.
	kswapdSinceBootPasses = 1000
	memPSISomeWarnPct     = 10.0
	memPSIFullCritPct     = 5.0
	// memTracedReclaimWarnMS: a traced direct reclaim this long is a warning (drsnoop).
	memTracedReclaimWarnMS = 100.0
	memUserHZ              = 100 // USER_HZ: /proc/PID/stat utime/stime units (include/asm-generic/param.h)
	memThreadMinWindow     = 0.5
)

// kswapdThreads returns each kswapd thread's CPU over the timeline, in % of one CPU.
func kswapdThreads(tl *model.Timeline) (pct map[string]float64, secs float64, src string) {
	first := tl.FirstWith(func(s *model.Sample) bool { return memHasThread(s, kernel.KthreadKswapd) })
	last := tl.LastWith(func(s *model.Sample) bool { return memHasThread(s, kernel.KthreadKswapd) })
	if first == nil || first == last || first.Time.IsZero() || last.Time.IsZero() {
		return nil, 0, ""
	}
	secs = last.Time.Sub(first.Time).Seconds()
	if secs < memThreadMinWindow {
		return nil, 0, ""
	}
	pct = map[string]float64{}
	for _, b := range last.Threads {
		if !strings.HasPrefix(b.Comm, kernel.KthreadKswapd) {
			continue
		}
		for _, a := range first.Threads {
			if a.PID == b.PID && a.Comm == b.Comm {
				d := (b.UTimeTicks + b.STimeTicks) - (a.UTimeTicks + a.STimeTicks)
				if d >= 0 {
					pct[b.Comm] = float64(d) * 100 / memUserHZ / secs
				}
			}
		}
	}
	return pct, secs, sampleSource(last, "/proc/PID/stat")
}

func memHasThread(s *model.Sample, prefix string) bool {
	for _, t := range s.Threads {
		if strings.HasPrefix(t.Comm, prefix) {
			return true
		}
	}
	return false
}

func checkKswapdSaturated(tl *model.Timeline) Result {
	threads, secs, tsrc := kswapdThreads(tl)
	sum := memSeriesStats(tl, model.RateKswapdCPUPct, kswapdWarnPct)
	scan := memSeriesStats(tl, model.RatePgscanKswapdPerSec, kswapdScanMinPerSec)
	steal := memSeriesStats(tl, model.RatePgstealKswapdPerSec, 0)
	busy := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedKswapdBusy] > 0 })
	if len(threads) == 0 && sum.n == 0 && scan.n == 0 {
		if res, ok := kswapdSinceBoot(tl); ok { // fix61d
			return res
		}
		if busy != nil {
			// Only words: the author says kswapd runs hot ("consuming a large amount of
			// CPU", "loops forever") without a figure. A warning that says the share is
			// the author's and unmeasured, never a CPU percentage made up for it.
			return Fired(Finding{Severity: Warning, Title: "kswapd cannot keep up with allocation (no CPU figure given)",
				Evidence: []Evidence{{What: "kswapd busy", Value: statedBy(busy) + ", without a CPU figure; no top, /proc/PID/stat or /proc/vmstat in the input measures it", Source: sampleSource(busy, "the text")}},
				Explanation: "kswapd reclaims in the background from the low watermark up to high; when it runs continuously, memory is " +
					"allocated faster than it can be freed, or it cannot balance a zone at all (a zone too small to reach its " +
					"high watermark). The text says so in words: top (kswapd's %CPU over a few seconds) and two samples of " +
					"/proc/vmstat (pgscan_kswapd, pgsteal_kswapd) would measure it.",
				Changes: []model.Change{{Kind: model.ChangeOther, Key: "reclaim load",
					Recommended: "measure it first: top -b -n 3 | grep kswapd, and /proc/vmstat twice a few seconds apart (pgscan_kswapd, pgsteal_kswapd); then find what allocates and what is reclaimed",
					Why:         "kswapd's CPU is the cost of reclaim; the text gives no figure to size a change on"}}})
		}
		return NotChecked("no kswapd CPU time (two samples of /proc/PID/stat, or top) and no pgscan_kswapd rate (two samples of /proc/vmstat)")
	}
	var ev []Evidence
	sev, fired := Info, false
	raise := func(s Severity) { fired = true; sev = max(sev, s) }
	maxThread := -1.0
	if len(threads) > 0 {
		var names []string
		for n := range threads {
			names = append(names, n)
		}
		sort.Strings(names)
		var parts []string
		for _, n := range names {
			parts = append(parts, fmt.Sprintf("%s %.0f%%", n, threads[n]))
			maxThread = max(maxThread, threads[n])
		}
		ev = append(ev, Evidence{What: "kswapd CPU per thread (% of one CPU)", Value: fmt.Sprintf("%s over %.1f s", strings.Join(parts, ", "), secs), Source: tsrc})
	} else if sum.n > 0 {
		// Only the summed rate (a pasted top, or threads not matched by PID): judge it as one thread.
		maxThread = sum.mean
		ev = append(ev, Evidence{What: "kswapd CPU, all threads (% of one CPU)", Value: fmt.Sprintf("mean %.0f%%, peak %.0f%% over %d samples", sum.mean, sum.peak, sum.n), Source: memSampleWhere(tl, sum.peakIdx, "top")})
	}
	switch {
	case maxThread >= kswapdCritPct:
		raise(Critical)
	case maxThread >= kswapdWarnPct:
		raise(Warning)
	}
	if scan.n > 0 {
		v := fmt.Sprintf("mean %.0f pages/s, peak %.0f", scan.mean, scan.peak)
		if steal.n > 0 && scan.mean > 0 {
			eff := steal.mean / scan.mean
			v += fmt.Sprintf("; reclaimed %.0f pages/s (efficiency %.0f%%)", steal.mean, 100*eff)
			if scan.mean >= kswapdScanMinPerSec && eff < kswapdEfficiencyWarn {
				raise(Warning)
			}
		}
		ev = append(ev, Evidence{What: "kswapd scan rate", Value: v, Source: memSampleWhere(tl, scan.peakIdx, "/proc/vmstat")})
	} else if steal.n > 0 {
		// Reclaimed pages without the scan count (a stated "1.5 Millions reclaims/s"): no
		// efficiency can be computed.
		ev = append(ev, Evidence{What: "kswapd reclaim rate", Value: fmt.Sprintf("mean %.0f pages/s, peak %.0f; pages scanned not in the input", steal.mean, steal.peak), Source: memSampleWhere(tl, steal.peakIdx, "/proc/vmstat")})
	}
	if !fired {
		msg := []string{}
		if maxThread >= 0 {
			msg = append(msg, fmt.Sprintf("kswapd at most %.0f%% of a CPU", maxThread))
		}
		if scan.n > 0 {
			msg = append(msg, fmt.Sprintf("scanning %.0f pages/s on average", scan.mean))
		}
		return Healthy("%s", strings.Join(msg, "; "))
	}
	f := Finding{
		Severity: sev,
		Title:    "kswapd cannot keep up with allocation",
		Evidence: ev,
		Explanation: "kswapd reclaims in the background from the low watermark up to high. When it runs near a full CPU, or " +
			"scans many pages for each one it frees (mapped, dirty or active pages; anonymous memory with no swap), memory " +
			"is allocated faster than it is freed: zones sink to min, atomic receive allocations fail and tasks stall in " +
			"direct reclaim. Unmapping mapped pages costs a TLB-flush IPI to every CPU that may cache them; before 4.3 one " +
			"per page (the LKML CDN-cache report: 900 K IPIs/s, two kswapd at 100% for 1.5 M reclaims/s). Remedies: reclaim less (smaller " +
			"page-cache churn, fewer mapped file pages), a kernel with batched flushes, and vm.zone_reclaim_mode=0 on NUMA.",
	}
	if cur, ok := currentSetting(tl, "vm.zone_reclaim_mode"); ok {
		if c, ok := settingInt(cur); ok && c != 0 {
			f.Changes = append(f.Changes, model.Change{Kind: model.ChangeSysctl, Key: "vm.zone_reclaim_mode", Current: cur.Value, Recommended: "0",
				Why: "non-zero makes each node reclaim its own memory before using a remote node's free pages: more reclaim for the same load (Documentation/admin-guide/sysctl/vm.rst)"})
		}
	}
	if ch, ok := batchedFlushChange(tl); ok {
		f.Changes = append(f.Changes, ch)
	}
	if len(f.Changes) == 0 {
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "reclaim load",
			Recommended: "find what allocates and what is reclaimed (vmstat pgscan_file/pgscan_anon, sar -B) and reduce it; watch tlb-shootdown-storm",
			Why:         "kswapd's CPU is the cost of reclaim; no sysctl makes a page cheaper to free"}}
	}
	return Fired(f)
}

// batchedFlushChange advises a 4.3+ kernel on x86 hosts without batched reclaim TLB flushes.
func batchedFlushChange(tl *model.Timeline) (model.Change, bool) {
	v, ok := tl.Host.KernelVersion()
	if !ok || v.AtLeast(4, 3, 0) || kernel.ArchFamily(tl.Host.Arch) != "x86" {
		return model.Change{}, false
	}
	return model.Change{Kind: model.ChangeOther, Key: "kernel", Current: tl.Host.Kernel, Recommended: "4.3 or later",
		Why: "4.3 batches the TLB flushes of pages unmapped during reclaim into one IPI per CPU (Mel Gorman's \"TLB flush multiple pages per IPI\", commit 72b252aed506): the LKML CDN-cache report went from 14 to 60 Gbit/s"}, true
}

// memDirectScanWarnPerSec: pages scanned directly per second (sar -B pgscand/s) from which
// direct reclaim is a warning: 1000 pages/s is 4 MiB/s of LRU scanned by allocating tasks.
const memDirectScanWarnPerSec = 1000

func checkDirectReclaim(tl *model.Timeline) Result {
	stall := counterGrowth(tl, "/proc/vmstat", func(s *model.Sample) (int64, bool) { return kernel.SumZoned(s.VMStat, "allocstall") })
	scan := counterGrowth(tl, "/proc/vmstat", func(s *model.Sample) (int64, bool) { return kernel.SumZoned(s.VMStat, "pgscan_direct") })
	psi := tl.LastWith(func(s *model.Sample) bool { return s.Pressure("memory") != nil })
	stallRate := memSeriesStats(tl, model.RateAllocstallPerSec, 0)
	// sar -B's pgscand/s: pages scanned by allocating tasks per second (sysstat reads
	// pgscan_direct* from /proc/vmstat). Any page scanned that way is a task that stopped
	// in direct reclaim; sar prints no allocstall.
	scanRate := memSeriesStats(tl, model.RatePgscanDirectPerSec, 0.01)
	var stalls []*model.Event // "page allocation stalls for Nms" reports (4.1x kernels)
	for i := range tl.Events {
		if e := &tl.Events[i]; e.Kind == model.EventAllocStall && e.AllocStall != nil {
			stalls = append(stalls, e)
		}
	}
	statedStall := memSeriesStats(tl, model.RateStatedStallSec, 0)
	// A stall in reclaim the author states without timing it (h31b): "the box is thrashing".
	statedThrash := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedReclaimStall] > 0 })
	// A memory PSI average an OOM daemon logged (nohang): which average of which file the
	// daemon read is its configuration, not the line, so it is judged as "some" (some >=
	// full; model.RateDaemonMemPSIPct), never as "full".
	daemonPSI := memSeriesStats(tl, model.RateDaemonMemPSIPct, memPSISomeWarnPct)
	// A memory PSI figure the author states as measured here (fix59b), judged as "some".
	statedPSI := memSeriesStats(tl, model.RateStatedMemPSIPct, memPSISomeWarnPct)
	// Direct reclaims a tracer timed (bcc drsnoop): each is a task that stopped to reclaim.
	traced := memSeriesStats(tl, model.RateTracedReclaimLongestMS, memTracedReclaimWarnMS)
	// Memory cgroups' own memory.pressure: the stalls of their tasks only.
	cgPSI := cgroupsByStall(tl)
	if !stall.hasLast && psi == nil && len(cgPSI) == 0 && stallRate.n == 0 && scanRate.n == 0 && len(stalls) == 0 && statedStall.n == 0 && statedThrash == nil && daemonPSI.n == 0 && statedPSI.n == 0 && traced.n == 0 {
		return NotChecked("no allocstall in /proc/vmstat, no pgscand/s of sar -B, no /proc/pressure/memory (PSI, 4.20+), no traced direct reclaim (drsnoop) and no \"page allocation stalls\" report in the kernel log")
	}
	var ev []Evidence
	sev, fired := Info, false
	raise := func(s Severity) { fired = true; sev = max(sev, s) }
	if len(stalls) > 0 {
		// The kernel printed these itself: a request that may reclaim had spent at least
		// stall_timeout (10 s) in the slow path, reclaiming and compacting (mm/page_alloc.c
		// __alloc_pages_slowpath, 4.1x). The time is measured, not inferred.
		raise(Warning)
		longest := stalls[0]
		for _, e := range stalls {
			if e.AllocStall.StallMS > longest.AllocStall.StallMS {
				longest = e
			}
		}
		r := longest.AllocStall.Request
		v := fmt.Sprintf("%d report(s); longest %.1f s: %s, order %d, mode %s", len(stalls), float64(longest.AllocStall.StallMS)/1000, memOr(r.Process, "task not in the input"), r.Order, memOr(r.Mode, "unknown"))
		ev = append(ev, Evidence{What: "page allocation stalls (the kernel's own warning after 10 s in direct reclaim)", Value: v, Source: memEventSource(longest)})
	}
	if traced.n > 0 {
		// A task in direct reclaim for 100 ms or more missed a network service's latency
		// budget many times over; shorter ones are reclaim happening, named as info.
		if traced.peak >= memTracedReclaimWarnMS {
			raise(Warning)
		} else {
			raise(Info)
		}
		_, counts := tl.Series(model.RateTracedReclaims)
		n := 0.0
		for _, c := range counts {
			if !math.IsNaN(c) {
				n += c
			}
		}
		ev = append(ev, Evidence{What: "direct reclaims a tracer timed (bcc drsnoop)",
			Value:  fmt.Sprintf("%.0f in %d run(s); longest %.2f ms, %d run(s) with one of %.0f ms or more", n, traced.n, traced.peak, traced.over, memTracedReclaimWarnMS),
			Source: memSampleWhere(tl, traced.peakIdx, "drsnoop")})
	}
	if statedStall.n > 0 && statedStall.peak > 0 {
		// A freeze the author timed in a text about reclaim: the stall itself, in words.
		raise(Warning)
		ev = append(ev, Evidence{What: "freezes the author timed", Value: fmt.Sprintf("up to %.0f s", statedStall.peak), Source: memSampleWhere(tl, statedStall.peakIdx, "the text")})
	}
	if statedThrash != nil && (statedStall.n == 0 || statedStall.peak <= 0) {
		// Thrashing, a freeze while reclaiming, tasks waiting on reclaim: the stall in the
		// author's words, with no duration (the rule cannot say how long): named as info,
		// so a measured cause (the swap rate, an OOM kill) stays the diagnosis' root.
		raise(Info)
		ev = append(ev, Evidence{What: "stalls in reclaim the author states", Value: "stated, not timed: the text says the host thrashes or freezes while reclaiming", Source: sampleSource(statedThrash, "the text")})
	}
	switch {
	case stall.rising():
		raise(Warning)
		ev = append(ev, Evidence{What: "allocstall (all zones)", Value: stall.describe(), Source: stall.source})
	case stall.hasLast && !stall.hasDelta && stall.last > 0:
		raise(Info)
		ev = append(ev, Evidence{What: "allocstall (all zones)", Value: stall.describe(), Source: stall.source})
	case stallRate.n > 0 && stallRate.peak > 0:
		raise(Warning)
		ev = append(ev, Evidence{What: "allocation stalls", Value: fmt.Sprintf("peak %.0f/s", stallRate.peak), Source: memSampleWhere(tl, stallRate.peakIdx, "vmstat")})
	}
	if scanRate.n > 0 && scanRate.peak > 0 {
		// A few hundred pages a second is a task or a memory cgroup reclaiming now and
		// then (corpus 315: 141/s, kswapd idle); thousands (4 MiB/s and more) is
		// allocation outrunning kswapd.
		if scanRate.peak >= memDirectScanWarnPerSec {
			raise(Warning)
		} else {
			raise(Info)
		}
		ev = append(ev, Evidence{What: "pages scanned by allocating tasks (sar -B pgscand/s)",
			Value: fmt.Sprintf("peak %.0f/s, mean %.0f/s over %d intervals (%d with direct reclaim)", scanRate.peak, scanRate.mean, scanRate.n, scanRate.over), Source: memSampleWhere(tl, scanRate.peakIdx, "sar -B")})
	}
	if scan.hasLast && (scan.rising() || fired) {
		ev = append(ev, Evidence{What: "pgscan_direct (pages scanned by allocating tasks)", Value: scan.describe(), Source: scan.source})
	}
	if psi != nil {
		p := psi.Pressure("memory")
		src := sampleSource(psi, "/proc/pressure/memory")
		if p.Some != nil {
			ev = append(ev, Evidence{What: "PSI memory some", Value: fmt.Sprintf("avg10 %.2f%%, avg60 %.2f%%, avg300 %.2f%%", p.Some.Avg10, p.Some.Avg60, p.Some.Avg300), Source: src})
			if p.Some.Avg10 >= memPSISomeWarnPct {
				raise(Warning)
			}
		}
		if p.Full != nil {
			ev = append(ev, Evidence{What: "PSI memory full", Value: fmt.Sprintf("avg10 %.2f%%, avg60 %.2f%%, avg300 %.2f%%", p.Full.Avg10, p.Full.Avg60, p.Full.Avg300), Source: src})
			if p.Full.Avg10 >= memPSIFullCritPct {
				raise(Critical)
			}
		}
	}
	hostFired := fired
	cgFired := false
	for n, c := range cgPSI {
		p := c.Pressure
		stalled := p.Full != nil && p.Full.Avg10 >= memPSIFullCritPct || p.Some != nil && p.Some.Avg10 >= memPSISomeWarnPct
		if n >= 3 && !stalled {
			break // the three most stalled, and every other that stalls
		}
		if stalled {
			// A cgroup's stall is its own tasks' (reclaim at its memory.high or memory.max,
			// memory.high's throttling sleep, or reclaim on the host): a warning for the
			// workload in it, never the host's critical "full".
			raise(Warning)
			cgFired = true
		}
		who := "a cgroup whose directory the text does not name"
		if c.Path != "" {
			who = "cgroup " + c.Path
		}
		ev = append(ev, Evidence{What: "PSI memory of " + who + " (its own tasks' stalls, not the host's)",
			Value: cgroupPSIValue(p), Source: c.PressureSource})
	}
	if daemonPSI.n > 0 {
		if daemonPSI.peak >= memPSISomeWarnPct {
			raise(Warning)
		}
		ev = append(ev, Evidence{What: "memory PSI as an OOM daemon logged it (its configured average; at least \"some\")",
			Value: fmt.Sprintf("peak %.2f%% in %d line(s), %d at or above %.0f%%", daemonPSI.peak, daemonPSI.n, daemonPSI.over, memPSISomeWarnPct), Source: memSampleWhere(tl, daemonPSI.peakIdx, "nohang")})
	}
	if statedPSI.n > 0 {
		if statedPSI.peak >= memPSISomeWarnPct {
			raise(Warning)
		}
		ev = append(ev, Evidence{What: "memory PSI the author states as measured on this host (which average not said; at least \"some\")",
			Value: fmt.Sprintf("%.0f%%", statedPSI.peak), Source: memSampleWhere(tl, statedPSI.peakIdx, "the text")})
	}
	if !fired {
		parts := []string{}
		if statedPSI.n > 0 {
			parts = append(parts, fmt.Sprintf("memory PSI stated at %.0f%%", statedPSI.peak))
		}
		if stall.hasLast {
			parts = append(parts, "allocstall "+stall.describe())
		}
		if stallRate.n > 0 {
			parts = append(parts, fmt.Sprintf("no allocation stall in %d samples", stallRate.n))
		}
		if scanRate.n > 0 {
			parts = append(parts, fmt.Sprintf("pgscand/s 0 in %d intervals", scanRate.n))
		}
		if psi != nil {
			p := psi.Pressure("memory")
			if p.Some != nil {
				parts = append(parts, fmt.Sprintf("PSI memory some avg10 %.2f%%", p.Some.Avg10))
			}
			if p.Full != nil {
				parts = append(parts, fmt.Sprintf("PSI memory full avg10 %.2f%%", p.Full.Avg10))
			}
		}
		if daemonPSI.n > 0 {
			parts = append(parts, fmt.Sprintf("memory PSI as an OOM daemon logged it peaked at %.2f%%", daemonPSI.peak))
		}
		if len(cgPSI) > 0 {
			parts = append(parts, fmt.Sprintf("PSI memory of %d cgroup(s) below %.0f%% some and %.0f%% full", len(cgPSI), memPSISomeWarnPct, memPSIFullCritPct))
		}
		if len(parts) == 0 {
			// A pressure entry whose some/full lines were not read judges nothing.
			return NotChecked("no allocstall in /proc/vmstat and no some/full line of /proc/pressure/memory (PSI, 4.20+) read")
		}
		return Healthy("%s", strings.Join(parts, "; "))
	}
	f := Finding{
		Severity: sev,
		Title:    "tasks stall reclaiming memory themselves (direct reclaim)",
		Evidence: ev,
		Explanation: "When kswapd falls behind and a zone reaches its min watermark, an allocation that may sleep reclaims on its " +
			"own (__alloc_pages_direct_reclaim): the task — an application's recv(), a TCP sender refilling its queue — stops " +
			"until pages are freed. PSI memory shows the share of wall time lost: \"some\" at least one task stalled, \"full\" " +
			"all did. A larger gap between the low and min watermarks (vm.watermark_scale_factor, 4.6+) or a larger " +
			"vm.min_free_kbytes wakes kswapd earlier so allocations rarely reach min; the cause is allocation outrunning " +
			"reclaim (see kswapd-saturated).",
	}
	if cgFired {
		f.Explanation += " A cgroup's memory.pressure counts only its own tasks: they stall reclaiming at the cgroup's memory.max, " +
			"sleep in memory.high's throttling (mem_cgroup_handle_over_high), or reclaim for the host. Compare its memory.current " +
			"with memory.high and memory.max and its memory.events' high and max counts: a cgroup held at its limit stalls " +
			"however much the host has free."
	}
	if cgFired && !hostFired && daemonPSI.n == 0 && statedPSI.n == 0 {
		f.Title = "tasks of a memory cgroup stall on memory (the cgroup's own PSI)"
		// Only a cgroup stalls: the host's watermarks are not what its tasks wait on, so
		// no host setting is proposed.
		return Fired(f)
	}
	if ch, need := memWatermarkScaleChange(tl); need {
		f.Changes = append(f.Changes, ch)
	}
	if len(f.Changes) == 0 {
		cur, ok := currentSetting(tl, "vm.min_free_kbytes")
		if ch, need := memMinFreeChange(tl, cur, ok); need {
			f.Changes = append(f.Changes, ch)
		}
	}
	if sev == Info && !stall.hasDelta && traced.n == 0 {
		f.Title = "tasks have stalled in direct reclaim since boot"
	}
	return Fired(f)
}

// cgroupsByStall returns the cgroups whose memory.pressure was read, the most stalled
// first (full avg10, then some avg10).
func cgroupsByStall(tl *model.Timeline) []model.CgroupMemory {
	var cs []model.CgroupMemory
	for _, c := range tl.CgroupMemory {
		if c.Pressure != nil && (c.Pressure.Some != nil || c.Pressure.Full != nil) {
			cs = append(cs, c)
		}
	}
	avg := func(l *kernel.PSILine) float64 {
		if l == nil {
			return -1
		}
		return l.Avg10
	}
	sort.SliceStable(cs, func(a, b int) bool {
		pa, pb := cs[a].Pressure, cs[b].Pressure
		if avg(pa.Full) != avg(pb.Full) {
			return avg(pa.Full) > avg(pb.Full)
		}
		return avg(pa.Some) > avg(pb.Some)
	})
	return cs
}

// cgroupPSIValue prints a cgroup's memory.pressure averages.
func cgroupPSIValue(p *kernel.Pressure) string {
	var parts []string
	for _, l := range []struct {
		name string
		l    *kernel.PSILine
	}{{"some", p.Some}, {"full", p.Full}} {
		if l.l != nil {
			parts = append(parts, fmt.Sprintf("%s avg10 %.2f%%, avg60 %.2f%%, avg300 %.2f%%", l.name, l.l.Avg10, l.l.Avg60, l.l.Avg300))
		}
	}
	return strings.Join(parts, "; ")
}

// kswapdSinceBoot judges one /proc/vmstat with no rate (fix61d): the counters since boot
// (pgscan_kswapd, and pgsteal_kswapd, or before 3.x the per-zone pgsteal_<zone> that counts
// kswapd's and direct reclaim's steals together, judged then against both scans). kswapd
// having scanned RAM's pages kswapdSinceBootPasses times over at under kswapdEfficiencyWarn
// efficiency is reported as a since-boot finding (Info): it says reclaim has been grinding,
// not that it grinds now.
func kswapdSinceBoot(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool { _, ok := kernel.SumZoned(s.VMStat, "pgscan_kswapd"); return ok })
	totalKB, memSrc, okMem := memTotalKB(tl)
	if s == nil || !okMem {
		return Result{}, false
	}
	scanned, _ := kernel.SumZoned(s.VMStat, "pgscan_kswapd")
	stolen, ok := kernel.SumZoned(s.VMStat, "pgsteal_kswapd")
	against, what := scanned, "pgsteal_kswapd ÷ pgscan_kswapd"
	if !ok {
		if stolen, ok = kernel.SumZoned(s.VMStat, "pgsteal"); !ok {
			return Result{}, false
		}
		direct, _ := kernel.SumZoned(s.VMStat, "pgscan_direct")
		against, what = scanned+direct, "pgsteal ÷ (pgscan_kswapd + pgscan_direct), the kernel's per-zone counters before the kswapd/direct split"
	}
	pages := float64(totalKB) / 4
	passes := float64(scanned) / pages
	if against <= 0 || passes < kswapdSinceBootPasses {
		return Result{}, false
	}
	eff := float64(stolen) / float64(against)
	if eff >= kswapdEfficiencyWarn {
		return Result{}, false
	}
	src := sampleSource(s, "/proc/vmstat")
	return Fired(Finding{
		Severity: Info,
		Title:    "kswapd has scanned far more than it freed since boot",
		Evidence: []Evidence{
			{What: "pages kswapd scanned since boot", Value: fmt.Sprintf("%d, %.0f times RAM's %s (at 4 KiB a page)", scanned, passes, memKB(totalKB)), Source: src},
			{What: "reclaim efficiency since boot", Value: fmt.Sprintf("%.1f%% (%s: %d of %d)", 100*eff, what, stolen, against), Source: src},
			{What: "MemTotal", Value: memKB(totalKB), Source: memSrc},
		},
		Explanation: "kswapd reclaims in the background from the low watermark up to high. Scanning thousands of times all " +
			"of memory while freeing under a tenth of what it scans means it walks lists of pages it cannot free " +
			"(mapped, dirty or active pages, anonymous memory with no swap), or keeps waking for a zone or order it " +
			"cannot balance: CPU spent on reclaim for little. The counters run since boot, so this says it has " +
			"happened, not when: two samples of /proc/vmstat a few seconds apart, and top's kswapd line, show whether it is happening now.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "reclaim load",
			Recommended: "measure now: /proc/vmstat twice a few seconds apart (pgscan_kswapd, pgsteal_kswapd) and top -b -n 3 | grep kswapd",
			Why:         "since-boot counters give the total, not today's rate"}},
	}), true
}
