package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Status lines that boards and appliance OSes print of their own memory, each a program's
// summary of /proc/meminfo in MB, not the file (round 8, g47–g52, docs/accuracy.md):
//
//   - NVIDIA Jetson's tegrastats (L4T; Jetson Linux Developer Guide, "tegrastats Utility"):
//     one line per interval, "RAM 717/3964MB (lfb 140x4MB) SWAP 0/1982MB (cached 0MB) IRAM
//     0/252kB(lfb 252kB) CPU [18%@102,...] EMC_FREQ ... GR3D_FREQ ... <sensor>@<t>C ...". RAM
//     is used/total in MB, lfb the count and size of the largest free blocks, SWAP
//     used/total (cached). tegrastats is NVIDIA's closed binary: "used" is its own sum, not a
//     meminfo line, and the lfb figure is its own reading of the buddy lists, so neither is
//     read as a zone's; the totals are MemTotal and SwapTotal rounded to MB.
//   - Armbian's login banner (armbian/build, the motd's 30-armbian-sysinfo): "Memory usage:  4
//     % of 3633MB  Zram usage:    1 % of 1816Mb" (2020; "53% of 231M" later): the share of
//     memory in use of MemTotal/1024 from free's Mem row, and the zram swap's. The share is
//     the script's sum; only the total is a kernel figure.
//
// Both give the host's memory size (MB-rounded, as earlyoom's: host facts' score 2), and the
// line's other figures are kept in the artifact as printed; no rule reads them.

// Tegrastats is one tegrastats sample's memory figures, as printed (MB).
type Tegrastats struct {
	RAMUsedMB    int64  `json:"ram_used_mb"`
	RAMTotalMB   int64  `json:"ram_total_mb"`
	LFBBlocks    int64  `json:"lfb_blocks,omitempty"`
	LFBBlockMB   int64  `json:"lfb_block_mb,omitempty"`
	SwapUsedMB   int64  `json:"swap_used_mb,omitempty"`
	SwapTotalMB  int64  `json:"swap_total_mb,omitempty"`
	SwapCachedMB int64  `json:"swap_cached_mb,omitempty"`
	Swap         bool   `json:"swap_printed"`
	IRAMUsedKB   int64  `json:"iram_used_kb,omitempty"`
	IRAMTotalKB  int64  `json:"iram_total_kb,omitempty"`
	NotRead      string `json:"not_read"`
}

var (
	reTegraRAM  = lazyre.New(`^RAM (\d+)/(\d+)MB(?: \(lfb (\d+)x(\d+)MB\))?`)
	reTegraSwap = lazyre.New(`\bSWAP (\d+)/(\d+)MB(?: \(cached (\d+)MB\))?`)
	// IRAM: the SoC's internal SRAM (used/total kB), the audio engine's, not the kernel's memory.
	reTegraIRAM = lazyre.New(`\bIRAM (\d+)/(\d+)kB`)
)

func parseTegrastats(t string) (Tegrastats, bool) {
	m := reTegraRAM.FindStringSubmatch(t)
	if m == nil {
		return Tegrastats{}, false
	}
	num := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	ts := Tegrastats{RAMUsedMB: num(m[1]), RAMTotalMB: num(m[2]), LFBBlocks: num(m[3]), LFBBlockMB: num(m[4])}
	if ts.RAMTotalMB <= 0 || ts.RAMUsedMB > ts.RAMTotalMB {
		return Tegrastats{}, false
	}
	if s := reTegraSwap.FindStringSubmatch(t); s != nil {
		ts.Swap, ts.SwapUsedMB, ts.SwapTotalMB, ts.SwapCachedMB = true, num(s[1]), num(s[2]), num(s[3])
	}
	if s := reTegraIRAM.FindStringSubmatch(t); s != nil {
		ts.IRAMUsedKB, ts.IRAMTotalKB = num(s[1]), num(s[2])
	}
	ts.NotRead = "RAM used (tegrastats' own sum), lfb (its count of the largest free blocks, not a zone's buddy list), IRAM (the SoC's SRAM), CPU, EMC, GPU, temperatures and power: not read by any rule"
	return ts, true
}

// tryTegrastats reads a run of tegrastats lines (other output may stand between them, as
// when it runs beside a program in one terminal: each line is taken alone).
func (d *doc) tryTegrastats(i int) int {
	ts, ok := parseTegrastats(strings.TrimSpace(d.ls[i].Text))
	if !ok {
		return 0
	}
	no := d.ls[i].No
	mem := &kernel.Counters{}
	mem.Set("MemTotal", ts.RAMTotalMB*1024)
	if ts.Swap {
		mem.Set("SwapTotal", ts.SwapTotalMB*1024)
		mem.Set("SwapFree", (ts.SwapTotalMB-ts.SwapUsedMB)*1024)
	}
	d.host.memTotal(ts.RAMTotalMB*1024, 2) // MB-rounded, as earlyoom's
	d.segSeq++
	d.addSamples(KindBoardStatus, "", no, no, []model.Sample{{Source: spanSource(no, no), MemInfo: mem}})
	d.addArtifact(KindBoardStatus, no, no, map[string]any{"tool": "tegrastats", "memory": ts})
	return 1
}

// ArmbianMotd is the memory part of Armbian's login banner, as printed.
type ArmbianMotd struct {
	MemoryUsagePct int64   `json:"memory_usage_pct"`
	MemoryTotalMB  float64 `json:"memory_total_mb"`
	ZramUsagePct   int64   `json:"zram_usage_pct,omitempty"`
	ZramTotalMB    float64 `json:"zram_total_mb,omitempty"`
	NotRead        string  `json:"not_read"`
}

// reMotdUsage: "Memory usage:  4 % of 3633MB", "Zram usage:    23% of 115M", "Swap usage:
// 0% of 1.9G" (the script prints M or G, "MB" and "Mb" in older releases).
var reMotdUsage = lazyre.New(`\b(Memory|Zram|Swap) usage:\s+(\d+) ?% of (\d+(?:\.\d+)?)([MG])[Bb]?\b`)

func parseArmbianMotd(t string) (ArmbianMotd, bool) {
	var a ArmbianMotd
	mem := false
	for _, m := range reMotdUsage.FindAllStringSubmatch(t, 4) {
		pct, _ := strconv.ParseInt(m[2], 10, 64)
		size, _ := strconv.ParseFloat(m[3], 64)
		if m[4] == "G" {
			size *= 1024
		}
		switch m[1] {
		case "Memory":
			a.MemoryUsagePct, a.MemoryTotalMB, mem = pct, size, true
		case "Zram", "Swap":
			a.ZramUsagePct, a.ZramTotalMB = pct, size
		}
	}
	if !mem || a.MemoryTotalMB <= 0 || a.MemoryUsagePct > 100 {
		return ArmbianMotd{}, false
	}
	a.NotRead = "the usage shares are the banner script's own sums of free's columns, not meminfo lines: not read by any rule; the memory total is the host's size"
	return a, true
}

// tryArmbianMotd reads the banner's "Memory usage:" line: the host's memory size.
func (d *doc) tryArmbianMotd(i int) int {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.HasPrefix(t, "Memory usage:") {
		return 0
	}
	a, ok := parseArmbianMotd(t)
	if !ok {
		return 0
	}
	no := d.ls[i].No
	d.host.memTotal(int64(a.MemoryTotalMB*1024), 2)
	d.segSeq++
	d.addArtifact(KindBoardStatus, no, no, map[string]any{"tool": "Armbian login banner (motd)", "memory": a})
	return 1
}
