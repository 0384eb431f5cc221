package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
)

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

// Interfaces whose counters hold no rx_dropped (only loopback, or a paste of other counters)
// were not checked: "rx_dropped is 0 on N interfaces" must count only those read.
func TestRxDroppedUnreadIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].NetDev = []kernel.NetDev{netdev("lo", "rx_dropped", 0), netdev("eth0", "rx_bytes", 1000)}
	mustNotCheck(t, run(t, "rx-dropped-software", tl), "rx_dropped")

	tl.Samples[0].NetDev = append(tl.Samples[0].NetDev, netdev("eth1", "rx_bytes", 1000, "rx_dropped", 0))
	mustBeHealthyNaming(t, run(t, "rx-dropped-software", tl), "eth0", "on 2 interfaces")
}

// A later table without the dropped column (ethtool -S rx_missed, another tool) must not hide
// the earlier /proc/net/dev that has it.
func TestRxDroppedLaterTableWithoutColumn(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000, "rx_dropped", 0)}
	tl.Samples[1].NetDev = []kernel.NetDev{netdev("eth0", "rx_bytes", 5000)}
	res := run(t, "rx-dropped-software", tl)
	mustBeHealthy(t, res)
	if !strings.Contains(res.Checked, "rx_dropped is 0 on 1 interface") {
		t.Errorf("checked: %q", res.Checked)
	}
}

// An i40e interface (its ethtool -S prints port.* counters, corpus 249): the netdev
// rx_dropped is the VSI's no-descriptor discards, a ring loss that nic-rx-overruns reports,
// not a software drop.
func TestRxDroppedIntelVSI(t *testing.T) {
	tl := timeline(1)
	st := counters("rx_dropped", 3322, "port.rx_dropped", 0)
	tl.Samples[0].NetDev = []kernel.NetDev{netdev("enp24s0f1", "rx_packets", 1000000, "rx_dropped", 3322)}
	tl.Samples[0].NICStats = []kernel.NICStats{{Name: "enp24s0f1", Stats: &st}}
	mustBeHealthyNaming(t, run(t, "rx-dropped-software", tl), "VSI")
	mustFire(t, run(t, "nic-rx-overruns", tl), Warning) // 0.33% of the frames received
}
