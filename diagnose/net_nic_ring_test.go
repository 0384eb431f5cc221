package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
)

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

// Since-boot counters that did not move while sampled never produce a change: RX ring losses
// from long ago do not justify an ethtool -G that resets the link.
func TestNICRingLossesThatDidNotMoveProposeNoChange(t *testing.T) {
	tl := timeline(3)
	tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 1000, MTU: 1500}}
	for i := range tl.Samples {
		tl.Samples[i].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000+i*1000, "rx_missed_errors", 40)}
		tl.Samples[i].NICStats = []kernel.NICStats{{Name: "eth0", Ring: &kernel.Ring{Rx: 256, RxMax: 4096}}}
	}
	f := mustFire(t, run(t, "nic-ring-below-max", tl), Info)
	if len(f.Changes) != 0 || !evidenceHas(f, "frames lost", "none while sampled") {
		t.Errorf("unmoved losses: changes %+v evidence %+v", f.Changes, f.Evidence)
	}
	// The same losses growing while sampled do.
	tl.Samples[2].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1003000, "rx_missed_errors", 90)}
	f = mustFire(t, run(t, "nic-ring-below-max", tl), Warning)
	if len(f.Changes) != 1 || !strings.Contains(f.Changes[0].Key, "eth0 rx") {
		t.Errorf("growing losses: changes %+v", f.Changes)
	}
}
