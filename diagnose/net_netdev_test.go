package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func squeezes(dropped, squeezed []int64) []kernel.SoftnetCPU {
	var out []kernel.SoftnetCPU
	for i := range squeezed {
		out = append(out, kernel.SoftnetCPU{CPU: i, Columns: 13, Processed: 100000, Dropped: dropped[i], TimeSqueeze: squeezed[i]})
	}
	return out
}

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

func TestSoftnetBacklogPlan(t *testing.T) {
	tl := timeline(3)
	tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 10000, MTU: 1500}}
	tl.Host.Sysctls["net.core.netdev_max_backlog"] = "1000"
	tl.Samples[0].Softnet = softnet(10, 0)
	tl.Samples[2].Softnet = softnet(500, 0)
	f := mustFire(t, run(t, "softnet-backlog-drops", tl), Critical)
	// 812744 packets/s × 20 ms = 16255 packets.
	if len(f.Changes) != 1 || f.Changes[0].Recommended != "16255" {
		t.Errorf("changes: %+v", f.Changes)
	}
}

func TestNICRingBelowMax(t *testing.T) {
	ring := func(rx, max int64) []kernel.NICStats {
		return []kernel.NICStats{{Name: "eth0", Ring: &kernel.Ring{Rx: rx, RxMax: max}}}
	}
	t.Run("losses with a 256-slot ring (seed 001)", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 1000, MTU: 1500}}
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000, "rx_missed_errors", 40)}
		tl.Samples[0].NICStats = ring(256, 4096)
		f := mustFire(t, run(t, "nic-ring-below-max", tl), Warning)
		// 81274 packets/s: 256 slots last 3.1 ms, 4096 last 50.4 ms.
		if !evidenceHas(f, "stall", "the ring lasts 3.1 ms, the maximum 50.4 ms") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if len(f.Changes) != 1 || f.Changes[0].Key != "eth0 rx" || f.Changes[0].Current != "256" || f.Changes[0].Recommended != "4096" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("below max without losses", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000, "rx_missed_errors", 0, "rx_fifo_errors", 0)}
		tl.Samples[0].NICStats = ring(512, 4096)
		f := mustFire(t, run(t, "nic-ring-below-max", tl), Info)
		if len(f.Changes) != 0 {
			t.Errorf("no losses, no change: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NICStats = ring(256, 256) // virtio_net on this host
		mustBeHealthy(t, run(t, "nic-ring-below-max", tl))
	})
	t.Run("missing", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NICStats = []kernel.NICStats{{Name: "veth0", RingErr: "not supported"}}
		mustNotCheck(t, run(t, "nic-ring-below-max", tl), "ethtool -g")
	})
}

func TestRxDroppedSoftware(t *testing.T) {
	t.Run("rising software drops", func(t *testing.T) {
		tl := timeline(3)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 100000, "rx_dropped", 0, "rx_fifo_errors", 0)}
		tl.Samples[1].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 110000, "rx_dropped", 200, "rx_fifo_errors", 0)}
		tl.Samples[2].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 120000, "rx_dropped", 400, "rx_fifo_errors", 0)}
		tl.Samples[0].Softnet = softnet(0, 0)
		tl.Samples[2].Softnet = softnet(300, 0)
		f := mustFire(t, run(t, "rx-dropped-software", tl), Warning)
		if !evidenceHas(f, "software drops while sampled", "+400") || !evidenceHas(f, "softnet_stat dropped", "+300") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("since boot only", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 100000, "rx_dropped", 12, "rx_nohandler", 12)}
		f := mustFire(t, run(t, "rx-dropped-software", tl), Info)
		if !evidenceHas(f, "rx_nohandler", "12") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: seed 004, dropped is the overruns counted twice", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("bond0", "rx_packets", 3436468025, "rx_dropped", 2982804, "rx_fifo_errors", 1491402)}
		res := run(t, "rx-dropped-software", tl)
		mustBeHealthy(t, res)
		if res.Checked == "" {
			t.Error("healthy without saying why")
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetDev = []kernel.NetDev{netdev("lo", "rx_dropped", 9), netdev("eth0", "rx_packets", 100*i, "rx_dropped", 0)}
		}
		mustBeHealthy(t, run(t, "rx-dropped-software", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "rx-dropped-software", timeline(2)), "/proc/net/dev")
	})
}

func TestConntrackFull(t *testing.T) {
	t.Run("near the maximum", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "250000"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		f := mustFire(t, run(t, "conntrack-full", tl), Warning)
		if !evidenceHas(f, "conntrack entries", "250000 / 262144 = 95%") || len(f.Changes) != 1 || f.Changes[0].Recommended != "524288" {
			t.Errorf("%+v %+v", f.Evidence, f.Changes)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "nf_conntrack: nf_conntrack: table full, dropping packet", Source: "line 3"}}
		mustFire(t, run(t, "conntrack-full", tl), Critical)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.netfilter.nf_conntrack_count"] = "0"
		tl.Host.Sysctls["net.netfilter.nf_conntrack_max"] = "262144"
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("healthy log without counts", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "e1000e: eth0 NIC Link is Up", Source: "line 1"}}
		mustBeHealthy(t, run(t, "conntrack-full", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "conntrack-full", timeline(1)), "nf_conntrack")
	})
}

// The processed column is a u32 per CPU: once it wrapped, a since-boot share of drops over it
// is inflated (here 5000 drops over a processed column that restarted at 400 would read as
// 93%). The share then comes from the window only.
func TestSoftnetDropShareAfterProcessedWrap(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].Softnet = []kernel.SoftnetCPU{{CPU: 0, Columns: 13, Processed: 1<<32 - 600, Dropped: 4990}}
	tl.Samples[1].Softnet = []kernel.SoftnetCPU{{CPU: 0, Columns: 13, Processed: 400, Dropped: 5000}}
	f := mustFire(t, run(t, "softnet-backlog-drops", tl), Critical)
	if !evidenceHas(f, "since boot", "not computed") || !evidenceHas(f, "while sampled", "0.99% (10 of 1010)") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	for _, e := range f.Evidence {
		if e.What == "share of the packets the backlog saw" {
			t.Errorf("since-boot share over a wrapped column: %+v", e)
		}
	}
	// Without the wrap the since-boot share stands.
	tl.Samples[0].Softnet[0].Processed = 100
	f = mustFire(t, run(t, "softnet-backlog-drops", tl), Critical)
	if !evidenceHas(f, "share of the packets the backlog saw", "93% (5000 of 5400 since boot)") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}
