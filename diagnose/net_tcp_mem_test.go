package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

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
		if !evidenceHas(f, "tcp_mem named in the text", "98304 pages (384 MiB) = 43% of lowmem") || !evidenceHas(f, "lowmem", "896 MiB") {
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
		// Seed 004's GridFTP streams were moving data: 1.9 MB unread in each (Recv-Q).
		tl.Samples[0].SocketList = sockets("ESTABLISHED", n, 1897545, 0)
		tl.Samples[0].Source = "lines 140-156"
		return tl
	}
	t.Run("seed 004's example: 20 × 16 MB × 2 = 640 MB", func(t *testing.T) {
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", seed(20)), Warning)
		if !evidenceHas(f, "worst case", "20 × 32 MiB = 640 MiB") || !evidenceHas(f, "budget", "224 MiB = 1/4 of lowmem") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if len(f.Changes) != 1 || !strings.Contains(f.Changes[0].Recommended, "11.2 MiB per connection") {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("more than all of lowmem, tcp_mem unknown: a warning, not a crisis", func(t *testing.T) {
		// The kernel bounds the sum by tcp_mem; the text does not give it, so whether the host
		// or TCP's pressure stops the streams first is unknown (issue 27: critical only when
		// tcp_mem itself lets TCP take more than the memory can back).
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", seed(30)), Warning)
		if !strings.Contains(f.Title, "unless tcp_mem stops them") {
			t.Errorf("title: %s", f.Title)
		}
	})
	t.Run("more than all of lowmem, and tcp_mem lets them: critical", func(t *testing.T) {
		tl := seed(30)
		tl.Settings = append(tl.Settings, mention("net.ipv4.tcp_mem", "196608 262144 393216", "prose", 12)) // 1.5 GiB
		mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Critical)
	})
	t.Run("more than all of lowmem, but tcp_mem stops them: a note", func(t *testing.T) {
		tl := seed(30)
		tl.Settings = append(tl.Settings, mention("net.ipv4.tcp_mem", "28672 38229 57344", "prose", 12)) // 224 MiB
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Info)
		if !evidenceHas(f, "exposure", "224 MiB") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("over tcp_mem only", func(t *testing.T) {
		tl := timeline(1)
		host64(tl)
		tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 131072 33554432"
		tl.Host.Sysctls["net.ipv4.tcp_wmem"] = "4096 16384 33554432"
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "1000 2000 4000" // 15.6 MiB
		tl.Samples[0].Sockets = &kernel.SocketSummary{Total: 3, ByState: map[string]kernel.SocketStateTotal{"ESTABLISHED": {Count: 2, Holding: 2, MemBytes: 1 << 20}, "LISTEN": {Count: 1}}}
		f := mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Info)
		if !evidenceHas(f, "connections that can hold buffers", "2") || !strings.Contains(f.Title, "over tcp_mem pressure") {
			t.Errorf("%s: %+v", f.Title, f.Evidence)
		}
		// The same two sockets idle: nothing to say.
		tl.Samples[0].Sockets.ByState["ESTABLISHED"] = kernel.SocketStateTotal{Count: 2}
		mustBeHealthy(t, run(t, "tcp-buffers-exceed-budget", tl))
		// A summary recorded before the holding count existed, with memory held: counted busy.
		tl.Samples[0].Sockets.ByState["ESTABLISHED"] = kernel.SocketStateTotal{Count: 2, MemBytes: 8192}
		mustFire(t, run(t, "tcp-buffers-exceed-budget", tl), Info)
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

// tcp_rmem without tcp_wmem, tcp_mem without the host's memory: the worst case counts no send
// buffers and no budget was compared, so "fit tcp_mem and the memory budget" would claim both.
func TestTCPBuffersBudgetPartialInput(t *testing.T) {
	tl := timeline(1)
	tl.Host.Sysctls["net.ipv4.tcp_rmem"] = "4096 87380 1048576"
	tl.Host.Sysctls["net.ipv4.tcp_mem"] = "191733 255646 383466"
	tl.Samples[0].SocketList = sockets("ESTABLISHED", 10, 0, 0)
	mustBeHealthyNaming(t, run(t, "tcp-buffers-exceed-budget", tl), "tcp_wmem", "and the memory budget")
}

// tcp_mem is in pages. With the page size and the architecture unknown, "below half of RAM"
// rests on an assumed 4 KiB page: on a 64 KiB-page kernel the same number is 16× as much.
func TestTCPMemOversizedPageSizeAssumed(t *testing.T) {
	tl := timeline(1)
	host64(tl)
	tl.Host.Arch = ""
	tl.Host.PageSize, tl.Host.PageSizeBytes = 0, 0
	tl.Host.Sysctls["net.ipv4.tcp_mem"] = "287898 383867 575796"
	mustBeHealthyNaming(t, run(t, "tcp-mem-oversized", tl), "page size")
}
