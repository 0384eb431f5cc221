package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestTCPMemoryPressure(t *testing.T) {
	t.Run("limit reached", func(t *testing.T) {
		tl := timeline(2)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "40960 54613 81920"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 20, "mem", 60000)}
		tl.Samples[1].SockStat = kernel.Groups{group("TCP", "inuse", 20, "mem", 81920)}
		f := mustFire(t, run(t, "tcp-memory-pressure", tl), Critical)
		if !evidenceHas(f, "sockstat mem", "81920 pages (320.0 MiB)") {
			t.Errorf("evidence lacks the peak: %+v", f.Evidence)
		}
	})
	t.Run("pressure", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "40960 54613 81920"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "mem", 60000)}
		mustFire(t, run(t, "tcp-memory-pressure", tl), Warning)
	})
	t.Run("pressure below what the host can back: plan's tcp_mem", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Arch, tl.Host.Kernel, tl.Host.MemTotalKB = "x86_64", "6.18.44", 24684084
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "40960 54613 81920"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "mem", 60000)}
		f := mustFire(t, run(t, "tcp-memory-pressure", tl), Warning)
		// plan sets tcp_init_mem's default from MemTotal pages: 6171021 / 16 = 385688, {¾, 1, 1½}
		// (the running kernel counts free buffer pages instead: 287898 383867 575796 here).
		if len(f.Changes) != 1 || f.Changes[0].Kind != model.ChangeSysctl || f.Changes[0].Recommended != "289266 385688 578532" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("aborts rising", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 3, "TCPAbortOnMemory", 0)}
		tl.Samples[1].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 3, "TCPAbortOnMemory", 2)}
		f := mustFire(t, run(t, "tcp-memory-pressure", tl), Critical)
		if !evidenceHas(f, "TCPAbortOnMemory", "+2 over 1.0 s") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("log line", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = []model.LogRecord{{Message: "TCP: out of memory -- consider tuning tcp_mem", Source: "line 3"}}
		mustFire(t, run(t, "tcp-memory-pressure", tl), Critical)
	})
	t.Run("since boot only is info", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 5)}
		}
		mustFire(t, run(t, "tcp-memory-pressure", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "191733 255646 383466"
		for i := range tl.Samples {
			tl.Samples[i].SockStat = kernel.Groups{group("TCP", "mem", 12)}
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 0, "TCPAbortOnMemory", 0)}
		}
		mustBeHealthy(t, run(t, "tcp-memory-pressure", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "tcp-memory-pressure", timeline(2)), "sockstat")
	})
}

func softnet(dropped ...int64) []kernel.SoftnetCPU {
	var out []kernel.SoftnetCPU
	for i, d := range dropped {
		out = append(out, kernel.SoftnetCPU{CPU: i, Columns: 13, Processed: 1000, Dropped: d})
	}
	return out
}

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
	t.Run("one sample: a chronic share", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Softnet = softnet(70, 30) // 100 of 2100: 4.8%
		f := mustFire(t, run(t, "softnet-backlog-drops", tl), Warning)
		if !evidenceHas(f, "share of the packets", "4.8% (100 of 2100") {
			t.Errorf("evidence: %+v", f.Evidence)
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

func netdev(name string, kv ...any) kernel.NetDev {
	return kernel.NetDev{Name: name, Counters: counters(kv...)}
}

func TestNICRxOverruns(t *testing.T) {
	t.Run("seed 004 ifconfig totals", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Time = t0
		tl.Samples[0].Source = "lines 300-320"
		tl.Samples[0].NetDev = []kernel.NetDev{
			netdev("bond0", "rx_packets", 3436468025, "rx_errors", 1491402, "rx_dropped", 2982804, "rx_fifo_errors", 1491402),
			netdev("eth1", "rx_packets", 1385841762, "rx_errors", 99347, "rx_dropped", 198694, "rx_fifo_errors", 99347),
		}
		res := run(t, "nic-rx-overruns", tl)
		if len(res.Findings) != 2 {
			t.Fatalf("want a finding per interface, got %d", len(res.Findings))
		}
		f := res.Findings[0]
		if f.Severity != Warning || !evidenceHas(f, "bond0 rx_fifo_errors", "1491402") || !evidenceHas(f, "share of frames lost", "0.0434%") {
			t.Errorf("bond0 finding: %v %+v", f.Severity, f.Evidence)
		}
	})
	t.Run("rising with ring below max", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000+i*100000, "rx_missed_errors", 100+i*50)}
			tl.Samples[i].NICStats = []kernel.NICStats{{Name: "eth0", Ring: &kernel.Ring{Rx: 256, RxMax: 4096}}}
		}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Critical)
		// The ring change belongs to nic-ring-below-max, so tune sees it once.
		if len(f.Changes) != 0 || !evidenceHas(f, "eth0 RX ring", "256 of pre-set maximum 4096") {
			t.Errorf("changes %+v, evidence %+v", f.Changes, f.Evidence)
		}
		r := mustFire(t, run(t, "nic-ring-below-max", tl), Warning)
		if len(r.Changes) != 1 || r.Changes[0].Recommended != "4096" || r.Changes[0].Kind != model.ChangeEthtool {
			t.Errorf("ring changes: %+v", r.Changes)
		}
	})
	// A 32-bit 2.6.32 kernel keeps /proc/net/dev counters in an unsigned long: rx_fifo_errors
	// passing 2^32 between two samples read as a loss of -4294967271 frames, and no warning.
	t.Run("32-bit counter wraps while sampled", func(t *testing.T) {
		tl := timeline(2)
		tl.Host.Kernel, tl.Host.Arch = "2.6.32", "i686"
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1000000, "rx_fifo_errors", 1<<32-5)}
		tl.Samples[1].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 1100000, "rx_fifo_errors", 20)}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Critical)
		if !evidenceHas(f, "eth0 rx_fifo_errors", "+25") || !evidenceHas(f, "eth0 rx_fifo_errors", "wrapped") {
			t.Errorf("evidence %+v", f.Evidence)
		}
	})
	t.Run("driver alloc failures", func(t *testing.T) {
		tl := timeline(1)
		st := counters("alloc_rx_buff_failed", 12, "rx_packets", 10)
		tl.Samples[0].NetDev = []kernel.NetDev{netdev("eth0", "rx_packets", 10)}
		tl.Samples[0].NICStats = []kernel.NICStats{{Name: "eth0", Stats: &st}}
		f := mustFire(t, run(t, "nic-rx-overruns", tl), Warning)
		if !evidenceHas(f, "alloc_rx_buff_failed", "12") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetDev = []kernel.NetDev{netdev("lo", "rx_fifo_errors", 5), netdev("eth0", "rx_packets", 100, "rx_fifo_errors", 0)}
		}
		mustBeHealthy(t, run(t, "nic-rx-overruns", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "nic-rx-overruns", timeline(2)), "/proc/net/dev")
	})
}
