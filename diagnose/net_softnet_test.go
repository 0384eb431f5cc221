package diagnose

import (
	"testing"

	"headroom/kernel"
)

func TestSoftnetBacklogDrops(t *testing.T) {
	t.Run("rising", func(t *testing.T) {
		tl := timeline(3)
		tl.Host.Sysctls["net.core.netdev_max_backlog"] = "1000"
		tl.Samples[0].Softnet = softnet(10, 0)
		tl.Samples[1].Softnet = softnet(200, 0)
		tl.Samples[2].Softnet = softnet(500, 0)
		f := mustFire(t, run(t, "softnet-backlog-drops", tl), Critical)
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.netdev_max_backlog" || f.Changes[0].Recommended != "2000" {
			t.Errorf("changes: %+v", f.Changes)
		}
		if !evidenceHas(f, "drop distribution", "cpu0 holds 100%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("one sample: a small since-boot share is history", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Softnet = softnet(7, 3) // 10 of 2010 packets: 0.5%
		mustFire(t, run(t, "softnet-backlog-drops", tl), Info)
	})
	// A capture, a paste and serve's first scrape hold one reading: since boot, not seen
	// moving, judged as a live window in which the counter did not move (issue 27: a live
	// doctor said info, doctor --from a capture of the same host warning).
	t.Run("one sample: a chronic share is history too", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.core.netdev_max_backlog"] = "1000"
		tl.Samples[0].Softnet = softnet(70, 30) // 100 of 2100: 4.8%
		f := mustFire(t, run(t, "softnet-backlog-drops", tl), Info)
		if !evidenceHas(f, "share of the packets", "4.8% (100 of 2100") || !evidenceHas(f, "while sampled", "not seen moving") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if len(f.Changes) != 0 {
			t.Errorf("a since-boot count alone proposes %+v", f.Changes)
		}
		two := timeline(2)
		two.Host.Sysctls["net.core.netdev_max_backlog"] = "1000"
		two.Samples[0].Softnet, two.Samples[1].Softnet = softnet(70, 30), softnet(70, 30)
		mustFire(t, run(t, "softnet-backlog-drops", two), f.Severity)
	})
	// A rate of drops is critical only as a share of the traffic too: 3 drops a second on a
	// host processing a million packets a second is 0.0003%, a warning; the same rate on a
	// host processing 600 packets a second (0.5%) is critical.
	t.Run("busy host: continuing drops at a tiny share are a warning", func(t *testing.T) {
		for _, tc := range []struct {
			perSecond int64
			want      Severity
			share     string
		}{{1_000_000, Warning, "0.0003% (6 of 2000006): below the 0.10%"}, {600, Critical, "0.50% (6 of 1206)"}} {
			tl := timeline(3)
			for i := range tl.Samples {
				tl.Samples[i].Softnet = []kernel.SoftnetCPU{{CPU: 0, Columns: 13, Processed: 5000 + int64(i)*tc.perSecond, Dropped: 10 + 3*int64(i)}}
			}
			f := mustFire(t, run(t, "softnet-backlog-drops", tl), tc.want)
			if !evidenceHas(f, "share of the packets the backlog saw while sampled", tc.share) {
				t.Errorf("%d/s: evidence: %+v", tc.perSecond, f.Evidence)
			}
		}
	})
	t.Run("rising slowly", func(t *testing.T) {
		tl := timeline(3)
		tl.Samples[0].Softnet = softnet(7, 0)
		tl.Samples[2].Softnet = softnet(8, 0)
		mustFire(t, run(t, "softnet-backlog-drops", tl), Warning)
	})
	t.Run("since boot, none while sampled", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Softnet = softnet(7, 3)
		tl.Samples[1].Softnet = softnet(7, 3)
		mustFire(t, run(t, "softnet-backlog-drops", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].Softnet = softnet(0, 0)
		tl.Samples[1].Softnet = softnet(0, 0)
		mustBeHealthy(t, run(t, "softnet-backlog-drops", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "softnet-backlog-drops", timeline(2)), "softnet_stat")
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
