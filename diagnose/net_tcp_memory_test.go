package diagnose

import (
	"strings"
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
		if !evidenceHas(f, "sockstat mem", "81920 pages (320 MiB)") {
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
	// This host's own tcp_mem is the kernel's default (nr_free_buffer_pages at boot, 0.5%
	// below plan's MemTotal model): a 0.5% "raise" would change nothing. With the aborts only
	// since boot there is nothing to size a change from; with pressure now, the per-socket
	// maxima are what can give.
	t.Run("kernel default tcp_mem, aborts since boot only: no change", func(t *testing.T) {
		tl := timeline(2)
		tl.Host.Arch, tl.Host.Kernel, tl.Host.MemTotalKB = "x86_64", "6.18.44", 24684084
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
		for i := range tl.Samples {
			tl.Samples[i].SockStat = kernel.Groups{group("TCP", "mem", 106)}
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 0, "TCPAbortOnMemory", 86)}
		}
		f := mustFire(t, run(t, "tcp-memory-pressure", tl), Info)
		if len(f.Changes) != 0 {
			t.Errorf("a since-boot count with tcp_mem at the kernel default changes nothing; got %+v", f.Changes)
		}
	})
	t.Run("kernel default tcp_mem, pressure now: per-socket maxima", func(t *testing.T) {
		tl := timeline(1)
		tl.Host.Arch, tl.Host.Kernel, tl.Host.MemTotalKB = "x86_64", "6.18.44", 24684084
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "mem", 400000)}
		f := mustFire(t, run(t, "tcp-memory-pressure", tl), Warning)
		if len(f.Changes) != 1 || f.Changes[0].Kind != model.ChangeOther || !strings.Contains(f.Changes[0].Why, "already what plan sets") {
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
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "TCP: out of memory -- consider tuning tcp_mem"}.WithSource("line 3")})
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

// A sockstat TCP mem figure with no tcp_mem to compare it with, or a /proc/net/protocols
// without a TCP row, judges nothing: "no memory-pressure counters or log lines" would rest on
// counters that were never read.
func TestTCPMemoryPressureUnjudgedIsNotHealthy(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].SockStat = kernel.Groups{group("TCP", "mem", 12)}
	tl.Samples[0].Protocols = []kernel.Protocol{{Name: "UDP", Pressure: "NI"}}
	mustNotCheck(t, run(t, "tcp-memory-pressure", tl), "tcp_mem")

	// The counters read are named, the comparison not made is said.
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "TCPMemoryPressures", 0)}
	mustBeHealthyNaming(t, run(t, "tcp-memory-pressure", tl), "TCPMemoryPressures", "no memory-pressure counters or log lines")
}
