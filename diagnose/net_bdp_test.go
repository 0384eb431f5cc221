package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestTCPBuffersBelowBDP(t *testing.T) {
	live := func(flows ...kernel.Socket) *model.Timeline {
		tl := timeline(2)
		host64(tl)
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", SpeedMbps: 1000, MTU: 1500}}
		tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 200000"
		tl.Samples[1].SocketList = flows
		return tl
	}
	t.Run("send buffer limited", func(t *testing.T) {
		f := mustFire(t, run(t, "tcp-buffers-below-bdp", live(bulkFlow(8_000_000, 0))), Warning)
		// 1 MB/s × 125 ms = 125000 bytes in flight, ≥ half of the 200000-byte send buffer.
		if !evidenceHas(f, "10.0.0.1:5001", "8 Mbit/s at RTT 125.0 ms = 122 KiB in flight; limited by the send buffer 80%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		var keys []string
		for _, c := range f.Changes {
			keys = append(keys, c.Key)
		}
		if strings.Join(keys, ",") != "net.ipv4.tcp_rmem,net.ipv4.tcp_wmem" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("peer's window limited", func(t *testing.T) {
		f := mustFire(t, run(t, "tcp-buffers-below-bdp", live(bulkFlow(0, 5_000_000))), Warning)
		if !evidenceHas(f, "10.0.0.1:5001", "peer's receive window 50%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: not limited", func(t *testing.T) {
		mustBeHealthy(t, run(t, "tcp-buffers-below-bdp", live(bulkFlow(100_000, 100_000))))
	})
	t.Run("healthy: no established flows in a live dump", func(t *testing.T) {
		tl := live()
		tl.Samples[1].Sockets = &kernel.SocketSummary{Total: 1, ByState: map[string]kernel.SocketStateTotal{"LISTEN": {Count: 1}}}
		mustBeHealthy(t, run(t, "tcp-buffers-below-bdp", tl))
	})
	// Issue 18: loopback iperf3 at 15 Gbit/s is not judged against any link's BDP.
	t.Run("healthy: loopback and host-local flows", func(t *testing.T) {
		lo := bulkFlow(8_000_000, 0)
		lo.Local, lo.Remote = "127.0.0.1:5201", "127.0.0.1:40000"
		lo.Info.RTTUsec, lo.Info.DeliveryRateBps = 30, 1_875_000_000
		lo6 := lo
		lo6.Local, lo6.Remote = "[::1]:5201", "[::1]:40002"
		self := lo
		self.Local, self.Remote = "10.0.0.1:5201", "10.0.0.1:40004"
		r := run(t, "tcp-buffers-below-bdp", live(lo, lo6, self))
		mustBeHealthy(t, r)
		if !strings.Contains(r.Checked, "3 flows") || !strings.Contains(r.Checked, "loopback or host-local") {
			t.Errorf("why: %q", r.Checked)
		}
		// A real flow next to them is still judged.
		mustFire(t, run(t, "tcp-buffers-below-bdp", live(lo, bulkFlow(8_000_000, 0))), Warning)
	})
	// A sub-millisecond RTT on a link of unknown speed: the suggested plan command must carry
	// an RTT plan accepts, not "0s".
	t.Run("suggested command keeps a sub-millisecond RTT", func(t *testing.T) {
		tl := live()
		tl.Host.NICs = nil
		fl := bulkFlow(8_000_000, 0)
		fl.Info.RTTUsec = 400
		fl.Info.DeliveryRateBps = 100_000_000
		fl.Mem.Sndbuf = 60000
		tl.Samples[1].SocketList = []kernel.Socket{fl}
		f := mustFire(t, run(t, "tcp-buffers-below-bdp", tl), Warning)
		if len(f.Changes) != 1 || !strings.Contains(f.Changes[0].Recommended, "--rtt 400µs") {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("missing: a pasted table has no tcp_info", func(t *testing.T) {
		tl := timeline(1)
		tl.Source.Kind = model.SourceText
		tl.Samples[0].SocketList = sockets("FIN_WAIT1", 5, 0, 1000)
		tl.Samples[0].Sockets = &kernel.SocketSummary{Total: 5, ByState: map[string]kernel.SocketStateTotal{"FIN_WAIT1": {Count: 5}}}
		mustNotCheck(t, run(t, "tcp-buffers-below-bdp", tl), "tcp_info")
	})
}

func bulkFlow(sndbufLimited, rwndLimited int64) kernel.Socket {
	return kernel.Socket{
		State: "ESTABLISHED", Local: "10.0.0.1:5001", Remote: "10.0.0.2:40000", Inode: 1234,
		Mem: &kernel.SKMemInfo{Sndbuf: 200000, Rcvbuf: 131072},
		Info: &kernel.TCPInfo{Len: 232, RTTUsec: 125000, DeliveryRateBps: 1_000_000, BusyUsec: 10_000_000,
			SndbufLimitedUsec: sndbufLimited, RwndLimitedUsec: rwndLimited},
	}
}
