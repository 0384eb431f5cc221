package diagnose

import (
	"fmt"
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// mention is a setting a text names.
func mention(key, value, form string, line int) model.SettingMention {
	return model.SettingMention{Key: key, Value: value, Form: form, Line: line, Source: fmt.Sprintf("line %d", line)}
}

// host32 makes tl a 32-bit HighMem host: 8 GiB of RAM, 896 MiB of lowmem (seed 004's box).
func host32(tl *model.Timeline) {
	tl.Host.Arch = "i686"
	tl.Host.WordBits = 32
	tl.Host.MemTotalKB = 8 << 20
	tl.Host.LowTotalKB = 896 << 10
	hm := true
	tl.Host.HighMem = &hm
}

// host64 makes tl this project's reference machine: x86_64, 24 GiB, 6.18.
func host64(tl *model.Timeline) {
	tl.Host.Arch = "x86_64"
	tl.Host.WordBits = 64
	tl.Host.Kernel = "6.18.44"
	tl.Host.MemTotalKB = 24684084
}

func sockets(state string, n int, recvQ, sendQ int64) []kernel.Socket {
	var out []kernel.Socket
	for i := 0; i < n; i++ {
		out = append(out, kernel.Socket{State: state, Local: fmt.Sprintf("10.0.0.1:%d", 40000+i), Remote: "10.0.0.2:20003", RecvQ: recvQ, SendQ: sendQ})
	}
	return out
}

func TestTCPMemOversized(t *testing.T) {
	t.Run("32-bit default of the 2.6.13 era cannot be backed", func(t *testing.T) {
		tl := timeline(1)
		host32(tl)
		tl.Host.Kernel = "2.6.13-2smp"
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "196608 262144 393216" // 1536 << 8 pages = 1.5 GiB
		f := mustFire(t, run(t, "tcp-mem-oversized", tl), Critical)
		if !evidenceHas(f, "net.ipv4.tcp_mem", "171% of lowmem") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		// plan does not model 2.6.13's default, so it sets the budget: 896 MiB ÷ 4 = 224 MiB
		// = 57344 pages; ⅔ = 38229; ½ = 28672.
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.ipv4.tcp_mem" || f.Changes[0].Recommended != "28672 38229 57344" || f.Changes[0].Kind != model.ChangeSysctl {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("current kernel: back to its own default", func(t *testing.T) {
		tl := timeline(1)
		host32(tl)
		tl.Host.Kernel = "6.1.0"
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "196608 262144 393216"
		f := mustFire(t, run(t, "tcp-mem-oversized", tl), Critical)
		// tcp_init_mem: 229376 lowmem pages / 16 = 14336; {¾, 1, 1½} × 14336.
		if len(f.Changes) != 1 || f.Changes[0].Recommended != "10752 14336 21504" || !strings.Contains(f.Changes[0].Why, "kernel's own default") {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("a single number in prose, lowmem from the allocation-failure dump", func(t *testing.T) {
		tl := timeline(0)
		tl.Source.Kind = model.SourceText
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_mem", "98304", "prose", 233), mention("net.ipv4.tcp_mem", "40960", "prose", 239)}
		tl.Events = []model.Event{{Kind: model.EventAllocFailure, Source: "lines 74-108", AllocFailure: &model.AllocFailure{Zones: []model.ZoneReport{
			{Zone: "DMA", PresentKB: 16384}, {Zone: "Normal", PresentKB: 901120}, {Zone: "HighMem", PresentKB: 8257536},
		}}}}
		f := mustFire(t, run(t, "tcp-mem-oversized", tl), Warning)
		if !evidenceHas(f, "tcp_mem named in the text", "98304 pages (384.0 MiB) = 43% of lowmem") || !evidenceHas(f, "lowmem", "896.0 MiB") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		for _, e := range f.Evidence {
			if strings.Contains(e.Value, "98304") && !strings.Contains(e.Source, "line 233") {
				t.Errorf("a text's setting must say where the text named it: %+v", e)
			}
		}
	})
	t.Run("healthy: this host's kernel default", func(t *testing.T) {
		tl := timeline(1)
		host64(tl)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
		mustBeHealthy(t, run(t, "tcp-mem-oversized", tl))
	})
	t.Run("missing tcp_mem", func(t *testing.T) {
		tl := timeline(1)
		host64(tl)
		mustNotCheck(t, run(t, "tcp-mem-oversized", tl), "tcp_mem")
	})
	t.Run("missing memory size", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
		mustNotCheck(t, run(t, "tcp-mem-oversized", tl), "memory size")
	})
}

func TestTCPBuffersExceedBudget(t *testing.T) {
	seed := func(n int) *model.Timeline {
		tl := timeline(1)
		host32(tl)
		tl.Settings = []model.SettingMention{
			mention("net.ipv4.tcp_rmem", "4096 87380 16777216", "prose", 10),
			mention("net.ipv4.tcp_wmem", "4096 65536 16777216", "prose", 11),
		}
		tl.Samples[0].SocketList = sockets("ESTABLISHED", n, 0, 0)
		tl.Samples[0].Source = "lines 140-156"
		return tl
	}
	t.Run("seed 004's example: 20 × 16 MB × 2 = 640 MB", func(t *testing.T) {
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", seed(20)), Warning)
		if !evidenceHas(f, "worst case", "20 × 32.0 MiB = 640.0 MiB") || !evidenceHas(f, "budget", "224.0 MiB = 1/4 of lowmem") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if len(f.Changes) != 1 || !strings.Contains(f.Changes[0].Recommended, "11.2 MiB per connection") {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("more than all of lowmem", func(t *testing.T) {
		mustFire(t, run(t, "tcp-buffers-exceed-budget", seed(30)), Critical)
	})
	t.Run("over tcp_mem only", func(t *testing.T) {
		tl := timeline(1)
		host64(tl)
		tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 131072 33554432"
		tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 33554432"
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "1000 2000 4000" // 15.6 MiB
		tl.Samples[0].Sockets = &kernel.SocketSummary{Total: 3, ByState: map[string]kernel.SocketStateTotal{"ESTABLISHED": {Count: 2}, "LISTEN": {Count: 1}}}
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Warning)
		if !evidenceHas(f, "connections that can hold buffers", "2") || !strings.Contains(f.Title, "over tcp_mem") {
			t.Errorf("%s: %+v", f.Title, f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		host64(tl)
		tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 131072 6291456"
		tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 4194304"
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
		tl.Samples[0].SocketList = sockets("ESTABLISHED", 20, 0, 0)
		mustBeHealthy(t, run(t, "tcp-buffers-exceed-budget", tl))
	})
	t.Run("missing buffer maxima", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].SocketList = sockets("ESTABLISHED", 20, 0, 0)
		mustNotCheck(t, run(t, "tcp-buffers-exceed-budget", tl), "tcp_rmem")
	})
	t.Run("missing connections", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 131072 6291456"
		mustNotCheck(t, run(t, "tcp-buffers-exceed-budget", tl), "connection count")
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
		if !evidenceHas(f, "10.0.0.1:5001", "8 Mbit/s at RTT 125.0 ms = 122.1 KiB in flight; limited by the send buffer 80%") {
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

func TestRcvqPruning(t *testing.T) {
	t.Run("drops rising", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 100+50*i, "RcvPruned", 0, "TCPRcvQDrop", 10+20*i)}
		}
		f := mustFire(t, run(t, "rcvq-pruning", tl), Critical)
		if !evidenceHas(f, "TCPRcvQDrop", "+40 over 2.0 s") || !evidenceHas(f, "PruneCalled", "+100") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("slow drops are a warning", func(t *testing.T) {
		tl := timeline(3)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "TCPOFODrop", 1)}
		tl.Samples[2].NetStat = kernel.Groups{group("TcpExt", "TCPOFODrop", 2)}
		mustFire(t, run(t, "rcvq-pruning", tl), Warning)
	})
	t.Run("seed 004: large Recv-Q on many connections", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Source = "lines 165-181"
		tl.Samples[0].SocketList = append(sockets("ESTABLISHED", 14, 1897545, 0), sockets("ESTABLISHED", 2, 0, 0)...)
		f := mustFire(t, run(t, "rcvq-pruning", tl), Warning)
		if !evidenceHas(f, "Recv-Q", "14 of 16 connections; largest 1897545 bytes") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("since boot only", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 7, "TCPRcvQDrop", 0)}
		mustFire(t, run(t, "rcvq-pruning", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 0, "RcvPruned", 0, "TCPRcvQDrop", 0, "TCPOFODrop", 0, "TCPBacklogDrop", 0)}
			tl.Samples[i].SocketList = sockets("ESTABLISHED", 5, 4096, 0)
		}
		mustBeHealthy(t, run(t, "rcvq-pruning", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "rcvq-pruning", timeline(2)), "TcpExt")
	})
}

func TestOrphanSendQueues(t *testing.T) {
	t.Run("seed 004: FIN_WAIT1 sockets with full send queues", func(t *testing.T) {
		tl := timeline(1)
		host32(tl)
		tl.Host.Kernel = "2.6.13-2smp"
		tl.Settings = []model.SettingMention{mention("net.ipv4.tcp_wmem", "4096 32768 131072", "prose", 201)}
		tl.Samples[0].Source = "lines 245-266"
		tl.Samples[0].SocketList = sockets("FIN_WAIT1", 19, 0, 300000)
		f := mustFire(t, run(t, "orphan-send-queues", tl), Warning)
		if !evidenceHas(f, "FIN_WAIT1", "19 of 19 closing sockets") || !evidenceHas(f, "kernel 2.6.13", "before 3.18") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		// 224 MiB budget ÷ 128 KiB per orphan = 1792.
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.ipv4.tcp_max_orphans" || f.Changes[0].Recommended != "1792" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("orphans near tcp_max_orphans", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 10, "orphan", 70000)}
		f := mustFire(t, run(t, "orphan-send-queues", tl), Critical)
		if !evidenceHas(f, "tcp_max_orphans", "70000 / 131072 = 53%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "TCP: too many orphaned sockets", Source: "line 9"}}
		mustFire(t, run(t, "orphan-send-queues", tl), Critical)
	})
	t.Run("tcp_retries2 low enough to disable the zero-window abort", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Kernel = "5.15.0"
		tl.Host.Sysctls["net.ipv4.tcp_retries2"] = "8"
		tl.Samples[0].SocketList = sockets("FIN_WAIT1", 4, 0, 100000)
		f := mustFire(t, run(t, "orphan-send-queues", tl), Warning)
		found := false
		for _, c := range f.Changes {
			found = found || (c.Key == "net.ipv4.tcp_retries2" && c.Recommended == "15")
		}
		if !found {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_max_orphans"] = "131072"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 10, "orphan", 3)}
		tl.Samples[0].SocketList = append(sockets("FIN_WAIT1", 1, 0, 2000), sockets("ESTABLISHED", 10, 0, 500000)...)
		mustBeHealthy(t, run(t, "orphan-send-queues", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "orphan-send-queues", timeline(2)), "socket table")
	})
}

func TestListenOverflow(t *testing.T) {
	t.Run("rising fast", func(t *testing.T) {
		tl := timeline(3)
		tl.Host.Sysctls["net.core.somaxconn"] = "128"
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 10*i, "ListenDrops", 10*i)}
		}
		f := mustFire(t, run(t, "listen-overflow", tl), Critical)
		if len(f.Changes) != 1 || f.Changes[0].Key != "net.core.somaxconn" || f.Changes[0].Recommended != "4096" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("rising slowly", func(t *testing.T) {
		tl := timeline(3)
		tl.Host.Sysctls["net.core.somaxconn"] = "4096"
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 1, "ListenDrops", 1)}
		tl.Samples[2].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 2, "ListenDrops", 2)}
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		if len(f.Changes) != 1 || f.Changes[0].Recommended != "8192" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("since boot", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 5, "ListenDrops", 5)}
		f := mustFire(t, run(t, "listen-overflow", tl), Info)
		if len(f.Changes) != 0 {
			t.Errorf("an old count is no reason to change: %+v", f.Changes)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 0, "ListenDrops", 0)}
		}
		mustBeHealthy(t, run(t, "listen-overflow", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "listen-overflow", timeline(2)), "ListenOverflows")
	})
}

func TestRetransmitRate(t *testing.T) {
	tcp := func(tl *model.Timeline, i, retrans, out int) {
		tl.Samples[i].NetStat = kernel.Groups{group("Tcp", "RetransSegs", retrans, "OutSegs", out)}
	}
	t.Run("warning", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 1000, 100000)
		tcp(tl, 1, 1200, 110000)
		f := mustFire(t, run(t, "retransmit-rate", tl), Warning)
		if !evidenceHas(f, "while sampled", "200 / 10000 = 2.0%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("critical", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 0, 0)
		tcp(tl, 1, 600, 10000)
		mustFire(t, run(t, "retransmit-rate", tl), Critical)
	})
	t.Run("since boot in a paste", func(t *testing.T) {
		tl := timeline(1)
		tcp(tl, 0, 3000, 100000)
		f := mustFire(t, run(t, "retransmit-rate", tl), Warning)
		if !evidenceHas(f, "since boot", "3.0%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: idle host with a high share of few segments", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 0, 5000)
		tcp(tl, 1, 3, 5030) // 10% of 30 segments: too few to judge
		mustBeHealthy(t, run(t, "retransmit-rate", tl))
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 10, 100000)
		tcp(tl, 1, 12, 200000)
		mustBeHealthy(t, run(t, "retransmit-rate", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "retransmit-rate", timeline(2)), "RetransSegs")
	})
}

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
