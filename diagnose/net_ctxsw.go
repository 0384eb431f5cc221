package diagnose

import (
	"fmt"

	"headroom/model"
)

// context-switch-storm: the CPUs switch tasks far more often than scheduling needs, with a
// long run queue and most CPU time in the kernel. The scheduler hands a CPU to a runnable
// task for at least its minimum slice (CFS sched_min_granularity 0.75 ms × (1 + log2 CPUs),
// EEVDF base_slice 0.75 ms on 6.6+), so runnable tasks that merely share CPUs switch a few
// hundred to a few thousand times a second per CPU. A million switches a second with dozens
// of runnable tasks and ~90% system time (seed 004's 64-bit "odd behavior": 1.08 M cs/s,
// r = 52, 89% sy, two Java processes "in infinite loop") means tasks wake each other and give
// the CPU back at once: futex ping-pong on a contended lock, sched_yield() spin loops, or
// wakeup storms, and the CPUs spend their time in the scheduler instead of the work.
func init() {
	Register(Rule{
		ID:     "context-switch-storm",
		Title:  "context switches far above normal with a long run queue and system time dominating",
		Family: FamilyNetwork,
		Check:  checkContextSwitchStorm,
	})
}

// Thresholds. With the CPU count known: at least ctxswPerCPUWarn switches per CPU per second
// (a switch costs a few µs directly and more in lost cache and TLB state, so 100 k/s per CPU
// is 10–50% of that CPU), a run queue of at least ctxswRunqPerCPU runnable tasks per CPU, and
// system time at least ctxswSysPct. Without it (a pasted vmstat): at least ctxswTotalWarn
// switches per second, ctxswRunqMin runnable tasks, and ctxswPerRunnable switches per second
// per runnable task (each one switched out every 200 µs or sooner, well below any scheduler
// slice). ctxswMinRows samples of one table or phase must meet them: a single second proves
// nothing. Critical when the storm leaves the CPUs no idle time (≤ ctxswCritIdlePct) and
// system time is ≥ ctxswCritSysPct.
const (
	ctxswPerCPUWarn  = 100_000
	ctxswRunqPerCPU  = 2.0
	ctxswSysPct      = 50.0
	ctxswTotalWarn   = 500_000
	ctxswRunqMin     = 16.0
	ctxswPerRunnable = 5_000
	ctxswMinRows     = 3
	ctxswCritIdlePct = 5.0
	ctxswCritSysPct  = 80.0
)

type ctxswRow struct {
	cs, r, sy, us, id float64
	hasUs, hasID      bool
}

func checkContextSwitchStorm(tl *model.Timeline) Result {
	cpus := tl.Host.CPUs
	if cpus == 0 {
		if s := tl.LastWith(func(s *model.Sample) bool { return s.Stat != nil && len(s.Stat.PerCPU) > 0 }); s != nil {
			cpus = len(s.Stat.PerCPU)
		}
	}
	row := func(i int) (ctxswRow, bool) {
		r := tl.Samples[i].Rates
		cs, ok1 := r.Get(model.RateCtxtPerSec)
		run, ok2 := r.Get(model.RateRunnable)
		sy, ok3 := r.Get(model.RateCPUSystemPct)
		if !(ok1 && ok2 && ok3) {
			return ctxswRow{}, false
		}
		x := ctxswRow{cs: cs, r: run, sy: sy}
		x.us, x.hasUs = r.Get(model.RateCPUUserPct)
		x.id, x.hasID = r.Get(model.RateCPUIdlePct)
		return x, true
	}
	storm := func(x ctxswRow) bool {
		if x.sy < ctxswSysPct {
			return false
		}
		if cpus > 0 {
			return x.cs/float64(cpus) >= ctxswPerCPUWarn && x.r >= ctxswRunqPerCPU*float64(cpus)
		}
		return x.cs >= ctxswTotalWarn && x.r >= ctxswRunqMin && x.cs/x.r >= ctxswPerRunnable
	}
	ps := netPhases(tl)
	if len(ps) == 0 && len(tl.Samples) > 0 {
		ps = []netPhase{{Name: "all samples", First: 0, Last: len(tl.Samples) - 1}}
	}
	total := 0
	type hit struct {
		p    netPhase
		rows []ctxswRow
		n    int
	}
	var best hit
	for _, p := range ps {
		var h hit
		h.p = p
		for i := p.First; i <= p.Last && i < len(tl.Samples); i++ {
			x, ok := row(i)
			if !ok {
				continue
			}
			total++
			h.n++
			if storm(x) {
				h.rows = append(h.rows, x)
			}
		}
		if len(h.rows) > len(best.rows) {
			best = h
		}
	}
	if total < ctxswMinRows {
		return NotChecked("needs at least %d samples with context switches, run queue and system time (vmstat, /proc/stat over time); have %d", ctxswMinRows, total)
	}
	if len(best.rows) < ctxswMinRows {
		return Healthy("no stretch of %d samples with a context-switch storm in %d samples", ctxswMinRows, total)
	}
	var cs, r, sy, us, id []float64
	for _, x := range best.rows {
		cs = append(cs, x.cs)
		r = append(r, x.r)
		sy = append(sy, x.sy)
		if x.hasUs {
			us = append(us, x.us)
		}
		if x.hasID {
			id = append(id, x.id)
		}
	}
	mcs, mr, msy := netMean(cs), netMean(r), netMean(sy)
	where := best.p.title()
	ev := []Evidence{
		{What: "samples in the storm", Value: fmt.Sprintf("%d of %d", len(best.rows), best.n), Source: where},
		{What: "context switches", Value: fmt.Sprintf("%.0f/s on average", mcs), Source: where},
		{What: "runnable tasks (vmstat r)", Value: fmt.Sprintf("%.0f on average: each switched out every %.0f µs", mr, 1e6*mr/mcs), Source: where},
		{What: "CPU split", Value: netCPUSplit(msy, us, id), Source: where},
	}
	if cpus > 0 {
		ev = append(ev, Evidence{What: "per CPU", Value: fmt.Sprintf("%.0f switches/s on each of %d CPUs, %.1f runnable per CPU", mcs/float64(cpus), cpus, mr/float64(cpus)), Source: "CPU count of the host"})
	} else {
		ev = append(ev, Evidence{What: "CPU count", Value: "not in the input: judged on the total rate and the switches per runnable task", Source: "thresholds for unknown CPU count", Role: Background})
	}
	sev := Warning
	if msy >= ctxswCritSysPct && len(id) > 0 && netMean(id) <= ctxswCritIdlePct {
		sev = Critical
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("context-switch storm: %.0f switches/s with %.0f runnable tasks and %.0f%% system time", mcs, mr, msy),
		Evidence: ev,
		Explanation: "Tasks that merely share CPUs switch at most a few thousand times a second per CPU, because " +
			"the scheduler lets each run for its slice. Hundreds of thousands per CPU with a long run queue and " +
			"most time in the kernel means tasks hand the CPU back immediately: threads waking each other on a " +
			"contended lock (futex ping-pong), sched_yield() spin loops, or a wakeup storm. The CPUs then spend " +
			"their time in the scheduler, and everything else, receive processing included, waits. Find the " +
			"callers: `perf top -g` or `perf record -a -g`, per-task switch counts with `pidstat -w 1` or " +
			"voluntary/nonvoluntary_ctxt_switches in /proc/PID/status. No sysctl fixes it; the application's " +
			"locking or spinning does (Fermilab's two Java processes at 99.9% each, \"in infinite loop\").",
	}
	return Fired(f)
}

func netCPUSplit(sy float64, us, id []float64) string {
	s := fmt.Sprintf("%.0f%% system", sy)
	if len(us) > 0 {
		s += fmt.Sprintf(", %.0f%% user", netMean(us))
	}
	if len(id) > 0 {
		s += fmt.Sprintf(", %.0f%% idle", netMean(id))
	}
	return s + " on average"
}
