package diagnose

import (
	"testing"

	"headroom/model"
)

// Round 9, fixed by class (fix14b): a memory PSI value an OOM daemon logged (nohang) is
// judged as "some" (model.RateDaemonMemPSIPct): a warning at the "some" threshold, never the
// critical of "full", and a value below it is healthy, naming the daemon's figure.
func TestDirectReclaimDaemonPSI(t *testing.T) {
	t.Run("high", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Rates = model.Rates{model.RateDaemonMemPSIPct: 75.5}
		f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning)
		if f.Severity != Warning {
			t.Errorf("severity %v, want warning (the metric is not named: judged as some)", f.Severity)
		}
		if !evidenceHas(f, "OOM daemon", "peak 75.50%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("low", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Rates = model.Rates{model.RateDaemonMemPSIPct: 2}
		mustBeHealthyNaming(t, run(t, "direct-reclaim-stalls", tl), "OOM daemon")
	})
}
