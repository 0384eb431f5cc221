package diagnose

import (
	"testing"
)

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
