package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// The prose-and-stated classes of held-out batches g14-g17 (corpus 563-652), on the rules'
// side: each test failed before its change.

// kswapd running hot stated without a figure (corpus 578, 649): a warning that says the
// words are the author's, never a CPU share. Before: not checked.
func TestKswapdBusyStated(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 2 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedKswapdBusy: 1}
	f := mustFire(t, run(t, "kswapd-saturated", tl), Warning)
	if !evidenceHas(f, "kswapd busy", "without a CPU figure") || strings.Contains(f.Title, "%") {
		t.Errorf("finding %+v", f)
	}
	// A stated figure is judged as a figure.
	tl.Samples[0].Rates[model.RateKswapdCPUPct] = 30
	mustBeHealthy(t, run(t, "kswapd-saturated", tl))
	mustNotCheck(t, run(t, "kswapd-saturated", timeline(1)), "kswapd")
}

// A vendor kernel's own out-of-memory message in place of the OOM killer, and its reboot
// (corpus 575: Broadcom's "triggered out of memory codition (oom killer not called)" re-logged
// as crashlog records). Before: no OOM line found, oom-kill healthy.
func TestOOMVendorMessage(t *testing.T) {
	tl := memTextTimeline()
	tl.Log = model.NewLog([]model.LogRecord{
		model.LogRecord{Message: "dhd_dpc triggered out of memory condition (oom killer not called): gfp_mask=0xd0, order=1, oom_score_adj=0"}.WithSource("line 4"),
		model.LogRecord{Message: "Kernel panic - not syncing: Reboot due to persistent out of memory condition.."}.WithSource("line 5"),
	})
	f := mustFire(t, run(t, "oom-kill", tl), Critical)
	if !strings.Contains(f.Title, "did not call the OOM killer") || f.Facts.OOM != OOMHost {
		t.Errorf("finding %+v", f)
	}
	// A log without it is still healthy.
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "wl0: out of descriptors"}.WithSource("line 4")})
	mustBeHealthy(t, run(t, "oom-kill", tl))
}

// An out-of-memory stated in prose (corpus 646, 521): a warning that says no report was read.
// Before: not checked, or healthy beside an unrelated log.
func TestOOMStated(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 1 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedOOM: 1}
	f := mustFire(t, run(t, "oom-kill", tl), Warning)
	if !evidenceHas(f, "out of memory", "stated by the author") || f.Facts.OOM != OOMUndecided {
		t.Errorf("finding %+v", f)
	}
	// A kernel report read beside it is judged as the report.
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "Out of memory: Killed process 812 (postgres) total-vm:4194304kB, anon-rss:2097152kB"}.WithSource("line 3")})
	f = mustFire(t, run(t, "oom-kill", tl), Critical)
	if evidenceHas(f, "out of memory", "stated by the author") {
		t.Errorf("the report's finding cites the sentence: %+v", f.Evidence)
	}
}

// Unreclaimable slab stated in a sentence, judged against the memory the author states
// (corpus 581: "SUnreclaim is 2.3 GB" on "a 4 gb system"): the share is over the critical
// line, but both numbers are the author's, so the finding is a warning that says so. Before:
// weighStated let the host's size ("host facts: MemTotal") keep it critical.
func TestSlabStatedIsWarning(t *testing.T) {
	tl := timeline(1)
	tl.Host.MemTotalKB = 4 << 20
	tl.Samples[0].Source = "line 1 (stated in the text)"
	tl.Samples[0].MemInfo = &kernel.Counters{}
	tl.Samples[0].MemInfo.Set("SUnreclaim", 2411724)
	f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Critical)
	weighStated(&f)
	if f.Severity != Warning || !strings.Contains(f.Title, StatedMark) {
		t.Errorf("weighed %v %q", f.Severity, f.Title)
	}
}

// A retransmitted share the author states, with no counter (corpus 608): judged by the rule's
// thresholds, the evidence saying whose figure it is. Before: not checked.
func TestRetransStated(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 1 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedRetransPct: 30}
	f := mustFire(t, run(t, "retransmit-rate", tl), Critical)
	if !evidenceHas(f, "retransmitted share", "30%, stated by the author") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	weighStated(&f)
	if f.Severity != Warning {
		t.Errorf("weighed severity %v, want a warning", f.Severity)
	}
	tl.Samples[0].Rates = model.Rates{model.RateStatedRetransPct: 0.2}
	mustBeHealthy(t, run(t, "retransmit-rate", tl))
}
