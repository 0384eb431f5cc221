package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestSoftnetSqueeze(t *testing.T) {
	tenGig := func(tl *model.Timeline) {
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 10000, MTU: 1500}}
		tl.Host.Sysctls["net.core.netdev_budget"] = "300"
		tl.Host.Sysctls["net.core.netdev_budget_usecs"] = "2000"
	}
	t.Run("squeezing on one CPU", func(t *testing.T) {
		tl := timeline(3)
		tenGig(tl)
		tl.Samples[0].Softnet = squeezes([]int64{0, 0}, []int64{100, 0})
		tl.Samples[2].Softnet = squeezes([]int64{0, 0}, []int64{140, 0})
		f := mustFire(t, run(t, "softnet-squeeze", tl), Warning)
		if !evidenceHas(f, "while sampled", "+40 over 2.0 s (20.0/s)") || !evidenceHas(f, "distribution", "cpu0 has 100%") || !evidenceHas(f, "received_rps", "RPS/RFS not in use") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		// 10 Gbit/s at MTU 1500 = 812744 packets/s × 2000 µs = 1626 packets per round.
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.netdev_budget" || f.Changes[0].Recommended != "1626" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("with backlog drops in the same window", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Softnet = squeezes([]int64{0, 0}, []int64{0, 0})
		tl.Samples[1].Softnet = squeezes([]int64{5, 0}, []int64{10, 10})
		mustFire(t, run(t, "softnet-squeeze", tl), Critical)
	})
	t.Run("since boot only", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Softnet = squeezes([]int64{0, 0}, []int64{12, 3})
		mustFire(t, run(t, "softnet-squeeze", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Softnet = squeezes([]int64{0, 0}, []int64{0, 0})
		tl.Samples[1].Softnet = squeezes([]int64{0, 0}, []int64{0, 0})
		mustBeHealthy(t, run(t, "softnet-squeeze", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "softnet-squeeze", timeline(2)), "softnet_stat")
	})
}

func squeezes(dropped, squeezed []int64) []kernel.SoftnetCPU {
	var out []kernel.SoftnetCPU
	for i := range squeezed {
		out = append(out, kernel.SoftnetCPU{CPU: i, Columns: 13, Processed: 100000, Dropped: dropped[i], TimeSqueeze: squeezed[i]})
	}
	return out
}
