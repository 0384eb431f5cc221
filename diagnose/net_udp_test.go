package diagnose

import (
	"testing"

	"headroom/kernel"
)

func TestUDPBufErrors(t *testing.T) {
	t.Run("receive buffer drops", func(t *testing.T) {
		tl := timeline(2)
		host64(tl)
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 1000, MTU: 1500}}
		tl.Host.Sysctls["net.core.rmem_max"] = "212992"
		tl.Samples[0].NetStat = kernel.Groups{group("Udp", "InDatagrams", 10000, "RcvbufErrors", 0, "SndbufErrors", 0)}
		tl.Samples[1].NetStat = kernel.Groups{group("Udp", "InDatagrams", 19800, "RcvbufErrors", 200, "SndbufErrors", 0)}
		f := mustFire(t, run(t, "udp-rcvbuf-errors", tl), Critical)
		if !evidenceHas(f, "RcvbufErrors", "2.0% of datagrams") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		// 1 Gbit/s at MTU 1500 = 81274 packets/s × 20 ms = 1626 datagrams × 2048 bytes.
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.rmem_max" || f.Changes[0].Recommended != "3330048" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("send buffer errors", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].NetStat = kernel.Groups{group("Udp", "SndbufErrors", 0)}
		tl.Samples[1].NetStat = kernel.Groups{group("Udp", "SndbufErrors", 5)}
		mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	})
	t.Run("since boot", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetStat = kernel.Groups{group("Udp", "RcvbufErrors", 17)}
		mustFire(t, run(t, "udp-rcvbuf-errors", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("Udp", "InDatagrams", 100*i, "RcvbufErrors", 0, "SndbufErrors", 0)}
		}
		mustBeHealthy(t, run(t, "udp-rcvbuf-errors", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "udp-rcvbuf-errors", timeline(2)), "RcvbufErrors")
	})
}

// Only the send-side UDP counter: receive-buffer drops were not read.
func TestUDPBufErrorsPartialCounters(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].NetStat = kernel.Groups{group("Udp", "InDatagrams", 100, "SndbufErrors", 0)}
	mustBeHealthyNaming(t, run(t, "udp-rcvbuf-errors", tl), "RcvbufErrors", "UDP buffer errors are 0")
}
