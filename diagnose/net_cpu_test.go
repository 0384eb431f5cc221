package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// vmstatRow is one pasted vmstat row as artifact fills it: rates only, no clock.
func vmstatRow(r, in, cs, us, sy, id float64) model.Sample {
	return model.Sample{Source: "vmstat", Rates: model.Rates{
		model.RateRunnable: r, model.RateIntrPerSec: in, model.RateCtxtPerSec: cs,
		model.RateCPUUserPct: us, model.RateCPUSystemPct: sy, model.RateCPUIdlePct: id,
	}}
}

// pasted builds a text timeline of vmstat tables, one segment each.
func pasted(tables []string, rows ...[]model.Sample) *model.Timeline {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceText, Name: "test"}}
	tl.Host.Sysctls = map[string]string{}
	for i, rs := range rows {
		first := len(tl.Samples)
		tl.Samples = append(tl.Samples, rs...)
		tl.Segments = append(tl.Segments, model.Segment{Name: "vmstat table", Kind: "vmstat", First: first, Last: len(tl.Samples) - 1, Label: tables[i]})
	}
	return tl
}

func repeat(n int, s model.Sample) []model.Sample {
	out := make([]model.Sample, n)
	for i := range out {
		out[i] = s
	}
	return out
}

func TestContextSwitchStorm(t *testing.T) {
	t.Run("seed 004's 64-bit odd behavior, CPU count unknown", func(t *testing.T) {
		tl := pasted([]string{"odd behavior (64 bit machines)"}, repeat(21, vmstatRow(52, 350, 1080000, 11, 89, 0)))
		f := mustFire(t, run(t, "context-switch-storm", tl), Critical)
		if !evidenceHas(f, "runnable", "52 on average: each switched out every 48 µs") || !evidenceHas(f, "CPU count", "not in the input") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("known CPU count, warning", func(t *testing.T) {
		tl := timeline(0)
		tl.Host.CPUs = 4
		tl.Samples = repeat(5, vmstatRow(10, 20000, 500000, 20, 60, 20))
		f := mustFire(t, run(t, "context-switch-storm", tl), Warning)
		if !evidenceHas(f, "per CPU", "125000 switches/s on each of 4 CPUs") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: seed 002's busy firewall switches little", func(t *testing.T) {
		tl := pasted([]string{"5xab"}, repeat(18, vmstatRow(18, 4700, 1050, 50, 50, 0)))
		mustBeHealthy(t, run(t, "context-switch-storm", tl))
	})
	t.Run("healthy: many switches but an idle CPU split", func(t *testing.T) {
		tl := timeline(0)
		tl.Host.CPUs = 2
		tl.Samples = repeat(5, vmstatRow(1, 50000, 300000, 5, 10, 85))
		mustBeHealthy(t, run(t, "context-switch-storm", tl))
	})
	t.Run("missing", func(t *testing.T) {
		tl := timeline(0)
		tl.Samples = repeat(2, vmstatRow(52, 350, 1080000, 11, 89, 0))
		mustNotCheck(t, run(t, "context-switch-storm", tl), "at least 3 samples")
	})
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

// seed001 is seed 001's first readprofile table (top 20 symbols of 36324 ticks).
func seed001Profile() model.Profile {
	rows := []model.ProfileRow{
		{Symbol: "default_idle", Ticks: 28044}, {Symbol: "__rdtsc_delay", Ticks: 1117}, {Symbol: "eth_type_trans", Ticks: 927},
		{Symbol: "skb_release_data", Ticks: 733}, {Symbol: "kmalloc", Ticks: 645}, {Symbol: "kfree", Ticks: 638},
		{Symbol: "__make_request", Ticks: 463}, {Symbol: "__scsi_end_request", Ticks: 415}, {Symbol: "alloc_skb", Ticks: 382},
		{Symbol: "tw_interrupt", Ticks: 372}, {Symbol: "kfree_skbmem", Ticks: 241}, {Symbol: "scsi_dispatch_cmd", Ticks: 233},
		{Symbol: "__generic_copy_to_user", Ticks: 233}, {Symbol: "__kfree_skb", Ticks: 194}, {Symbol: "scsi_request_fn", Ticks: 184},
		{Symbol: "ip_rcv", Ticks: 103}, {Symbol: "__wake_up", Ticks: 88}, {Symbol: "do_anonymous_page", Ticks: 84}, {Symbol: "do_softirq", Ticks: 72},
	}
	return model.Profile{Tool: "readprofile", Source: "lines 55-74", Total: 36324, Rows: rows}
}

func TestAllocatorChurn(t *testing.T) {
	t.Run("seed 001 before and after the frame pool", func(t *testing.T) {
		after := model.Profile{Tool: "readprofile", Source: "lines 84-103", Total: 34880, Rows: []model.ProfileRow{
			{Symbol: "default_idle", Ticks: 28581}, {Symbol: "skb_release_data", Ticks: 657}, {Symbol: "alloc_skb_frame", Ticks: 335},
			{Symbol: "__kfree_skb", Ticks: 193}, {Symbol: "kfree_skbmem", Ticks: 160}, {Symbol: "alloc_skb", Ticks: 43}, {Symbol: "eth_type_trans", Ticks: 1094},
		}}
		tl := timeline(0)
		tl.Profiles = []model.Profile{seed001Profile(), after}
		f := mustFire(t, run(t, "allocator-churn", tl), Warning)
		// 733+645+638+382+241+194 = 2833 of 36324−28044 = 8280; 657+335+193+160+43 = 1388 of 6299.
		if !evidenceHas(f, "profile 1", "34% of non-idle (2833 of 8280 non-idle ticks") || !evidenceHas(f, "profile 2", "22% of non-idle (1388 of 6299 non-idle ticks") ||
			!evidenceHas(f, "absent from the last profile", "kfree, kmalloc") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("perf percentages", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "perf", Rows: []model.ProfileRow{
			{Symbol: "intel_idle", Share: 50}, {Symbol: "kmem_cache_alloc_node", Share: 8}, {Symbol: "__alloc_skb", Share: 4},
			{Symbol: "kfree_skb_reason.part.0", Share: 3}, {Symbol: "tcp_v4_rcv", Share: 20}, {Symbol: "copy_user_enhanced_fast_string", Share: 15},
		}}}
		f := mustFire(t, run(t, "allocator-churn", tl), Warning)
		if !evidenceHas(f, "profile 1", "30% of non-idle") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "readprofile", Total: 20000, Rows: []model.ProfileRow{
			{Symbol: "default_idle", Ticks: 10000}, {Symbol: "csum_partial", Ticks: 5000}, {Symbol: "kmalloc", Ticks: 300}, {Symbol: "kfree", Ticks: 300},
		}}}
		mustBeHealthy(t, run(t, "allocator-churn", tl))
	})
	t.Run("missing: no profile", func(t *testing.T) {
		mustNotCheck(t, run(t, "allocator-churn", timeline(1)), "profile")
	})
	t.Run("missing: too few ticks", func(t *testing.T) {
		tl := timeline(0)
		tl.Profiles = []model.Profile{{Tool: "readprofile", Total: 600, Rows: []model.ProfileRow{{Symbol: "default_idle", Ticks: 100}, {Symbol: "kmalloc", Ticks: 400}}}}
		mustNotCheck(t, run(t, "allocator-churn", tl), "non-idle ticks")
	})
}
