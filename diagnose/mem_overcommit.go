package diagnose

import (
	"fmt"
	"math"

	"headroom/model"
)

// overcommit-exposed: with heuristic (vm.overcommit_memory=0, the default) or unconditional
// (1) overcommit, Committed_AS — the memory every process has been promised
// (vm_committed_as, mm/util.c __vm_enough_memory) — exceeds what RAM and swap can back. If
// the promises are kept the kernel must swap hard or OOM-kill, and socket buffers compete for
// what is left (seed 004: "if committed_AS is greater than physical memory, there is
// potential for swap"; it recommends vm.overcommit_memory=2).
//
// CommitLimit = swap + (RAM − huge pages) × vm.overcommit_ratio / 100 (or
// vm.overcommit_kbytes), enforced only in mode 2 (Documentation/mm/overcommit-accounting.rst).
func init() {
	Register(Rule{
		ID:     "overcommit-exposed",
		Title:  "more memory promised (Committed_AS) than RAM and swap can back, with overcommit on",
		Family: FamilyMemory,
		Check:  checkOvercommitBeancounters,
	})
}

func checkOvercommit(tl *model.Timeline) Result {
	// Committed_AS with CommitLimit (/proc/meminfo), or with RAM and swap (sar -r prints
	// kbcommit and the shares that give MemTotal and SwapTotal, no CommitLimit).
	s := tl.LastWith(func(s *model.Sample) bool {
		_, a := s.Mem("Committed_AS")
		_, b := s.Mem("CommitLimit")
		_, c := s.Mem("MemTotal")
		_, d := s.Mem("SwapTotal")
		return a && (b || c && d)
	})
	if s == nil {
		if res, ok := checkOvercommitStated(tl); ok {
			return res
		}
		why := "no Committed_AS and CommitLimit (/proc/meminfo) in the input"
		if ms := settingMentions(tl, "vm.overcommit_memory"); len(ms) > 0 {
			why += "; the text names vm.overcommit_memory " + memDescribeMentions(ms, "vm.overcommit_memory") + " without the numbers that would show whether the host is exposed"
		}
		return NotChecked("%s", why)
	}
	src := sampleSource(s, "/proc/meminfo")
	committed, _ := s.Mem("Committed_AS")
	limit, haveLimit := s.Mem("CommitLimit")
	memTotal, okMem := s.Mem("MemTotal")
	if !okMem {
		memTotal, _, okMem = memTotalKB(tl)
	}
	swapTotal, okSwap := s.Mem("SwapTotal")
	mode, haveMode := currentSetting(tl, "vm.overcommit_memory")
	m, _ := settingInt(mode)
	if haveMode && m == 2 {
		if !haveLimit {
			return Healthy("strict overcommit (mode 2): Committed_AS %s is held under CommitLimit", memKB(committed))
		}
		return Healthy("strict overcommit (mode 2): Committed_AS %s is held under CommitLimit %s", memKB(committed), memKB(limit))
	}
	if !okMem || !okSwap {
		return NotChecked("Committed_AS %s but MemTotal or SwapTotal is missing: cannot compare the promises with RAM + swap", memKB(committed))
	}
	backing := memTotal + swapTotal
	ev := []Evidence{
		{What: "Committed_AS", Value: memKB(committed), Source: src},
		{What: "MemTotal + SwapTotal", Value: fmt.Sprintf("%s + %s = %s", memKB(memTotal), memKB(swapTotal), memKB(backing)), Source: src},
	}
	if haveLimit {
		ev = append(ev, Evidence{What: "CommitLimit (what mode 2 would enforce)", Value: memKB(limit), Source: src})
	}
	if haveMode {
		ev = append(ev, settingEvidence("vm.overcommit_memory", mode))
	} else {
		ev = append(ev, Evidence{What: "vm.overcommit_memory", Value: "not in the input (the kernel default is 0, heuristic)", Source: "-"})
	}
	var sev Severity
	switch {
	case committed > backing:
		sev = Warning
	case haveLimit && committed > limit:
		sev = Info
	case !haveLimit:
		return Healthy("Committed_AS %s is within RAM + swap %s (CommitLimit is not in the input)", memKB(committed), memKB(backing))
	default:
		return Healthy("Committed_AS %s is within CommitLimit %s and RAM + swap %s", memKB(committed), memKB(limit), memKB(backing))
	}
	if !haveMode {
		sev = Info
	}
	// The ratio that would make CommitLimit cover today's commitments in mode 2.
	hugeKB := int64(0)
	if v, ok := s.Mem("Hugetlb"); ok {
		hugeKB = v
	}
	usable := memTotal - hugeKB
	ratio := int64(-1)
	if usable > 0 {
		ratio = int64(math.Ceil(float64(committed-swapTotal) * 100 / float64(usable)))
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("processes have been promised %s, more than %s", memKB(committed), map[bool]string{true: "RAM + swap", false: "CommitLimit"}[committed > backing]),
		Evidence: ev,
		Explanation: "With heuristic overcommit the kernel refuses only allocations larger than all free memory and swap; the " +
			"promises add up in Committed_AS. When they exceed RAM + swap and are used, reclaim swaps until it cannot and the " +
			"OOM killer picks a victim, while kernel memory such as socket buffers competes for the same pages. Mode 2 " +
			"(strict) refuses allocations past CommitLimit instead: malloc, mmap and fork fail with ENOMEM up front. That is " +
			"right for dedicated servers whose applications size their memory deliberately (Fermilab's Java data servers with " +
			"fixed heaps); it breaks software that reserves much more than it touches — JVMs with large -Xmx, fork() of a big " +
			"process (Redis BGSAVE, a forking proxy), browsers, sanitizers, anything mapping large sparse areas without " +
			"MAP_NORESERVE — and a CommitLimit below today's Committed_AS makes new allocations fail at once.",
	}
	rec := "2, with vm.overcommit_ratio so that CommitLimit covers today's Committed_AS plus growth"
	why := "strict accounting turns a later OOM kill into an immediate ENOMEM the application can handle"
	switch {
	case ratio > 100:
		rec = "keep 0/1 and add memory or swap: mode 2 would need vm.overcommit_ratio " + fmt.Sprint(ratio) + " (> 100) to cover today's Committed_AS"
		why = "the promises exceed RAM even after counting swap; strict mode would refuse allocations already made possible"
	case ratio >= 0:
		rec = fmt.Sprintf("2 with vm.overcommit_ratio ≥ %d (the current default is 50)", max(ratio, 0))
		why += fmt.Sprintf("; (Committed_AS %s − swap %s) ÷ (RAM − huge pages %s) = %d%%: a lower ratio refuses allocations the running processes already rely on", memKB(committed), memKB(swapTotal), memKB(usable), ratio)
	}
	f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "vm.overcommit_memory", Current: mode.Value, Recommended: rec, Why: why}}
	return Fired(f)
}

// checkOvercommitStated judges sar's %commit the author states (fix61): Committed_AS over
// MemTotal + SwapTotal, so above 100% the promises exceed everything RAM and swap can back.
// The sizes are not stated, so no ratio for mode 2 is computed.
func checkOvercommitStated(tl *model.Timeline) (Result, bool) {
	st := memSeriesStats(tl, model.RateStatedCommitPct, 100)
	if st.n == 0 {
		return Result{}, false
	}
	where := memSampleWhere(tl, st.peakIdx, "the text")
	mode, haveMode := currentSetting(tl, "vm.overcommit_memory")
	if m, _ := settingInt(mode); haveMode && m == 2 {
		return Healthy("strict overcommit (mode 2): sar's %%commit %.0f%% (stated, %s) is held under CommitLimit", st.peak, where), true
	}
	if st.over == 0 || st.peak <= 100 {
		return Healthy("sar's %%commit the text states peaks at %.0f%% (%s): Committed_AS within RAM + swap", st.peak, where), true
	}
	sev := Warning
	ev := []Evidence{{What: "sar %commit (Committed_AS ÷ (MemTotal + SwapTotal)), stated", Value: fmt.Sprintf("up to %.0f%%", st.peak), Source: where}}
	if haveMode {
		ev = append(ev, settingEvidence("vm.overcommit_memory", mode))
	} else {
		sev = Info
		ev = append(ev, Evidence{What: "vm.overcommit_memory", Value: "not in the input (the kernel default is 0, heuristic)", Source: "-"})
	}
	return Fired(Finding{
		Severity: sev,
		Title:    fmt.Sprintf("processes have been promised %.0f%% of RAM + swap (sar %%commit, stated)", st.peak),
		Evidence: ev,
		Explanation: "sar's %commit is Committed_AS over RAM + swap: above 100% the memory processes were promised exceeds " +
			"everything that can back it. When the promises are used, reclaim swaps until it cannot and the OOM killer picks a " +
			"victim, while kernel memory such as socket buffers competes for the same pages. The RAM and swap sizes are not in " +
			"the input, so no vm.overcommit_ratio for strict mode (2) is computed: read /proc/meminfo (Committed_AS, " +
			"CommitLimit) before changing vm.overcommit_memory.",
	}), true
}
