package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestKernelTimeGrowth(t *testing.T) {
	t.Run("seed 002: fresh vs after four floods", func(t *testing.T) {
		f := mustFire(t, run(t, "kernel-time-growth", seed002(79)), Critical)
		if !evidenceHas(f, "baseline phase", "50% system over 18 busy samples, 4736 interrupts/s, 1052 context switches/s") ||
			!evidenceHas(f, "later phase", "93% system over 19 busy samples, 990 interrupts/s, 169 context switches/s") ||
			!evidenceHas(f, "comparable load", `same workload "5xab -n 5000 -c 200"`) ||
			!evidenceHas(f, "per unit of work", "0.24% per connections/s → 2.33% per connections/s (9.8×)") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: it recovered", func(t *testing.T) {
		mustBeHealthy(t, run(t, "kernel-time-growth", seed002(20)))
	})
	t.Run("healthy: more system time for more work", func(t *testing.T) {
		tl := pasted([]string{"ab (100 connections/sec)", "ab (400 connections/sec)"},
			repeat(5, vmstatRow(2, 4000, 2000, 40, 30, 30)),
			repeat(5, vmstatRow(2, 2000, 900, 20, 70, 10)))
		mustBeHealthy(t, run(t, "kernel-time-growth", tl))
	})
	t.Run("phases between the markers of a recording", func(t *testing.T) {
		tl := timeline(12)
		for i := range tl.Samples {
			switch {
			case i < 6:
				tl.Samples[i].Rates = vmstatRow(4, 5000, 3000, 50, 40, 10).Rates
			default:
				tl.Samples[i].Rates = vmstatRow(4, 1500, 600, 10, 85, 5).Rates
			}
		}
		tl.Markers = []model.Marker{{Index: 0, Text: "baseline"}, {Index: 6, Text: "after flood"}}
		f := mustFire(t, run(t, "kernel-time-growth", tl), Warning)
		if !evidenceHas(f, "comparable load", "similar run queues") || !strings.Contains(f.Evidence[1].What, "after flood") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("missing: one table", func(t *testing.T) {
		tl := pasted([]string{"x"}, repeat(5, vmstatRow(1, 1, 1, 1, 1, 1)))
		mustNotCheck(t, run(t, "kernel-time-growth", tl), "two or more phases")
	})
}

func TestSeed002KernelTimeGrowth(t *testing.T) {
	d := Run(parseSeed(t, "002"), nil)
	f := mustHave(t, d, "kernel-time-growth", Warning)[0]
	if !evidenceHas(f, "comparable load", "5xab -n 5000 -c 200") || !evidenceHas(f, "baseline phase", "stated load 210 connections/s") || !evidenceHas(f, "later phase", "stated load 40 connections/s") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// seed002 rebuilds the shape of seed 002's tables: a fresh baseline, the flood before and
// after four runs, and the single-run re-measure.
func seed002(lastSy float64) *model.Timeline {
	idle := vmstatRow(0, 101, 11, 0, 0, 100)
	return pasted([]string{
		"ab -n 200 (219 connections/sec) this is two runs sequentially",
		"5xab -n 5000 -c 200 (~210 connections/sec)",
		"at the end of 4 runs / 5xab -n 5000 -c 200 (~40 connections/sec)",
		"ab -n 400 (~48 connections/sec) this is a single run",
	},
		append([]model.Sample{idle}, repeat(5, vmstatRow(1, 3100, 1460, 31, 28, 41))...),
		repeat(18, vmstatRow(18, 4736, 1052, 50, 50, 0)),
		repeat(19, vmstatRow(22, 990, 169, 7, 93, 0)),
		append(repeat(9, vmstatRow(1, 1004, 429, 21, lastSy, 100-lastSy-21)), idle),
	)
}

// System time rose from 10% to 85% between two phases whose samples carry no interrupt or
// context-switch rate (a top or mpstat paste): "while interrupts and context switches fall"
// was never read, so the rule cannot tell more work from costlier work: not checked.
func TestKernelTimeGrowthWithoutInterruptRates(t *testing.T) {
	tl := timeline(12)
	for i := range tl.Samples {
		sy := 10.0
		if i >= 6 {
			sy = 85
		}
		tl.Samples[i].Rates = model.Rates{model.RateCPUSystemPct: sy, model.RateCPUIdlePct: 5}
	}
	tl.Markers = []model.Marker{{Index: 0, Text: "baseline"}, {Index: 6, Text: "after flood"}}
	mustNotCheck(t, run(t, "kernel-time-growth", tl), "context-switch rates are not in the input")
}
