package diagnose

import (
	"testing"
	"time"

	"headroom/kernel"
)

// Round 9, fixed by class (fix14a): a paste of two machines' ifconfig (the host's ports,
// then the device's) is two untimed snapshots with different interfaces; the later one
// must not hide the earlier one's drops.
func TestRxDroppedUntimedSnapshotsOfTwoHosts(t *testing.T) {
	tl := timeline(2)
	for i := range tl.Samples {
		tl.Samples[i].Time = time.Time{}
	}
	tl.Samples[0].NetDev = []kernel.NetDev{netdev("enp9s0", "rx_packets", 5000, "rx_dropped", 120)}
	tl.Samples[1].NetDev = []kernel.NetDev{netdev("sfp3", "rx_packets", 3000, "rx_dropped", 0)}
	f := mustFire(t, run(t, "rx-dropped-software", tl), Info)
	if !evidenceHas(f, "enp9s0 rx_dropped", "120") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// Counter-case: a timed series judges its last sample; an interface only in an earlier
// reading of the same host (gone since) is not judged from its old counters.
func TestRxDroppedTimedSeriesJudgesLastSample(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].NetDev = []kernel.NetDev{netdev("veth7", "rx_packets", 5000, "rx_dropped", 120), netdev("eth0", "rx_packets", 100, "rx_dropped", 0)}
	tl.Samples[1].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 200, "rx_dropped", 0)}
	mustBeHealthy(t, run(t, "rx-dropped-software", tl))
}
