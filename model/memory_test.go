package model

import (
	"strings"
	"testing"

	"headroom/kernel"
)

func memSample(src string, kv ...any) Sample {
	var c kernel.Counters
	for i := 0; i+1 < len(kv); i += 2 {
		c.Set(kv[i].(string), int64(kv[i+1].(int)))
	}
	return Sample{Source: src, MemInfo: &c}
}

func zoneSample(src string, zones map[string]int64) Sample {
	s := Sample{Source: src}
	for _, name := range []string{"DMA", "Normal", "HighMem", "Movable"} {
		p, ok := zones[name]
		if !ok {
			continue
		}
		var f kernel.Counters
		f.Set("present", p)
		s.Zones = append(s.Zones, kernel.Zone{Name: name, Fields: f})
	}
	return s
}

func allocEvent(src string, pagesRAM int64, zones ...ZoneReport) Event {
	af := &AllocFailure{Zones: zones}
	if pagesRAM > 0 {
		af.PagesRAM = &pagesRAM
	}
	return Event{Kind: "alloc_failure", Source: src, AllocFailure: af}
}

// TestTimelineMemory holds the precedence of the memory facts: the most direct reading wins,
// and lowmem comes from /proc/zoneinfo before an allocation-failure report (the memory rules
// used to skip zoneinfo and take the first report, the network rules the last).
func TestTimelineMemory(t *testing.T) {
	// Seed 004's Mem-Info: DMA 16384 kB + Normal 901120 kB beside HighMem = 896 MiB of lowmem.
	dump := []ZoneReport{{Zone: "DMA", PresentKB: 16384}, {Zone: "Normal", PresentKB: 901120}, {Zone: "HighMem", PresentKB: 7340032}, {Zone: "Movable", PresentKB: 4096}}
	older := []ZoneReport{{Zone: "DMA", PresentKB: 16000}, {Zone: "Normal", PresentKB: 800000}, {Zone: "HighMem", PresentKB: 1000}}
	zoneinfo := zoneSample("capture.txtar", map[string]int64{"DMA": 4096, "Normal": 221184, "HighMem": 1835008, "Movable": 100})
	tests := []struct {
		name             string
		tl               Timeline
		total, low       int64
		totalSrc, lowSrc string
		bits             int
		bitsSrc          string
	}{
		{name: "host facts first",
			tl:    Timeline{Host: Host{MemTotalKB: 8 << 20, LowTotalKB: 860000, Arch: "i686"}, Samples: []Sample{memSample("lines 1-40", "MemTotal", 4<<20, "LowTotal", 700000), zoneinfo}, Events: []Event{allocEvent("lines 50-90", 999, dump...)}},
			total: 8 << 20, totalSrc: "host facts: MemTotal", low: 860000, lowSrc: "host facts: LowTotal", bits: 32, bitsSrc: "architecture i686"},
		{name: "32-bit meminfo before zoneinfo and the report",
			tl:    Timeline{Samples: []Sample{memSample("lines 1-40", "MemTotal", 8<<20, "LowTotal", 868000), zoneinfo}, Events: []Event{allocEvent("lines 50-90", 2097152, dump...)}},
			total: 8 << 20, totalSrc: "lines 1-40", low: 868000, lowSrc: "lines 1-40 LowTotal", bits: 32, bitsSrc: "a HighMem zone (32-bit kernels only)"},
		{name: "zoneinfo capture before the Mem-Info report",
			tl:    Timeline{Host: Host{PageSize: 4096}, Samples: []Sample{zoneinfo}, Events: []Event{allocEvent("lines 50-90", 0, dump...)}},
			total: 16384 + 901120 + 7340032 + 4096, totalSrc: "sum of the zones' present in the report at lines 50-90",
			low: (4096 + 221184) * 4, lowSrc: "capture.txtar present pages of the zones below HighMem", bits: 32, bitsSrc: "a HighMem zone (32-bit kernels only)"},
		{name: "the newest report, Movable is not lowmem",
			tl:    Timeline{Host: Host{PageSize: 4096}, Events: []Event{allocEvent("lines 1-30", 1000, older...), allocEvent("lines 50-90", 2097152, dump...)}},
			total: 2097152 * 4, totalSrc: "pages RAM in the report at lines 50-90",
			low: 16384 + 901120, lowSrc: "DMA + Normal present in the report at lines 50-90", bits: 32, bitsSrc: "a HighMem zone (32-bit kernels only)"},
		{name: "64-bit: no HighMem zone, no lowmem",
			tl:    Timeline{Host: Host{Arch: "x86_64"}, Samples: []Sample{memSample("/proc", "MemTotal", 24<<20), zoneSample("/proc", map[string]int64{"DMA": 4000, "Normal": 6000000})}, Events: []Event{allocEvent("lines 1-30", 0, ZoneReport{Zone: "Normal", PresentKB: 100})}},
			total: 24 << 20, totalSrc: "/proc/meminfo", bits: 64, bitsSrc: "architecture x86_64"},
		{name: "nothing known",
			tl: Timeline{Samples: []Sample{{}}}},
		{name: "word size from the host facts",
			tl:   Timeline{Host: Host{WordBits: 64, Arch: "i686"}},
			bits: 64, bitsSrc: "host facts"},
	}
	for _, c := range tests {
		m := c.tl.Memory()
		if m.TotalKB != c.total || m.TotalSource != c.totalSrc {
			t.Errorf("%s: total %d (%s), want %d (%s)", c.name, m.TotalKB, m.TotalSource, c.total, c.totalSrc)
		}
		if m.LowmemKB != c.low || m.LowmemSource != c.lowSrc {
			t.Errorf("%s: lowmem %d (%s), want %d (%s)", c.name, m.LowmemKB, m.LowmemSource, c.low, c.lowSrc)
		}
		if m.WordBits != c.bits || m.WordBitsSource != c.bitsSrc {
			t.Errorf("%s: word %d (%s), want %d (%s)", c.name, m.WordBits, m.WordBitsSource, c.bits, c.bitsSrc)
		}
		if (m.TotalKB == 0) != (m.TotalSource == "") || (m.LowmemKB == 0) != (m.LowmemSource == "") || strings.HasPrefix(m.LowmemSource, " ") {
			t.Errorf("%s: a figure without its source or a source without its figure: %+v", c.name, m)
		}
	}
}

// TestShowsHighMem: the footer's HighMem pages prove HighMem when the dump of a lowmem
// request lists no HighMem line (__show_mem prints only the zones the request may use).
func TestShowsHighMem(t *testing.T) {
	n := int64(1835008)
	if !(&AllocFailure{Zones: []ZoneReport{{Zone: "Normal", PresentKB: 1}}, HighMemPages: &n}).ShowsHighMem() {
		t.Error("footer HighMem pages not seen")
	}
	if (&AllocFailure{Zones: []ZoneReport{{Zone: "Normal", PresentKB: 1}, {Zone: "HighMem"}}}).ShowsHighMem() {
		t.Error("an empty HighMem zone taken for HighMem")
	}
}
