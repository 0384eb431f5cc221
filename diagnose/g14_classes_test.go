package diagnose

import (
	"strings"
	"testing"

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
