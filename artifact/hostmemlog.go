package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// h40c: the host's memory as ollama logs it about the machine it runs on. Two forms, both
// logfmt with sizes as format.HumanBytes2 prints them (binary units: "62.5 GiB", "215.1 MiB",
// "0 B"):
//
//   - llm/server.go NewLlamaServer, at INFO before a model loads:
//     slog.Info("system memory", "total", ..., "free", ..., "free_swap", ...) →
//     msg="system memory" total="62.5 GiB" free="58.3 GiB" free_swap="8.0 GiB"
//     (github.com/ollama/ollama llm/server.go; corpus 3682, issue 10739);
//   - discover/gpu.go GetGPUInfo, at DEBUG: msg="updating system memory data"
//     before.total=... before.free=... before.free_swap=... now.total=... now.free=...
//     now.free_swap=... (fix44a named it unread; its "now" figures are the newest).
//
// The program states these are the host's ("system memory", read from /proc/meminfo on
// Linux by discover/cpu_linux.go), so total is read as this host's RAM, with free and
// free swap as the artifact's fields; no rule is decided from them (a moment's figure, no
// pressure counter). A sentence naming the message ("what does msg=\"system memory\"
// mean?") has no quoted total= figure and stays prose.
var reOllamaSysMem = lazyre.New(`msg="(?:system memory|updating system memory data)"((?:\s+[\w.]+="[\d.]+ (?:B|KiB|MiB|GiB|TiB)")+)`)

var reOllamaSizeKV = lazyre.New(`([\w.]+)="([\d.]+) (B|KiB|MiB|GiB|TiB)"`)

// ollamaHostMemory reads ollama's host memory line: total, free and free swap in KiB (free
// swap -1 when the line has none).
func ollamaHostMemory(t string) (total, free, freeSwap int64, ok bool) {
	m := reOllamaSysMem.FindStringSubmatch(t)
	if m == nil {
		return 0, 0, 0, false
	}
	freeSwap = -1
	for _, kv := range reOllamaSizeKV.FindAllStringSubmatch(m[1], -1) {
		v, err := strconv.ParseFloat(kv[2], 64)
		if err != nil {
			continue
		}
		kb := int64(v * map[string]float64{"B": 1.0 / 1024, "KiB": 1, "MiB": 1024, "GiB": 1 << 20, "TiB": 1 << 30}[kv[3]])
		switch strings.TrimPrefix(strings.TrimPrefix(kv[1], "now."), "before.") {
		case "total":
			if !strings.HasPrefix(kv[1], "before.") || total == 0 {
				total = kb
			}
		case "free":
			if !strings.HasPrefix(kv[1], "before.") || free == 0 {
				free = kb
			}
		case "free_swap":
			if !strings.HasPrefix(kv[1], "before.") || freeSwap < 0 {
				freeSwap = kb
			}
		}
	}
	return total, free, freeSwap, total >= 16*1024 && total <= 1<<36 && free <= total
}

// ollamaHostMemoryLines takes the first ollama host memory line of the other programs'
// log lines or the prose (a hard-wrapped log puts msg= on a continuation line) as this
// host's memory.
func (d *doc) ollamaHostMemoryLines(sub *subjects) bool {
	for _, ls := range [][]proseLine{d.otherLines, d.proseLines} {
		for _, p := range ls {
			if !strings.Contains(p.text, "system memory") {
				continue
			}
			total, free, swap, ok := ollamaHostMemory(p.text)
			if !ok {
				continue
			}
			d.tl.Host.MemTotalKB = total
			sub.memKB = total
			clear(sub.section)
			data := map[string]any{"mem_total_kb": total, "mem_free_kb": free, "program": "ollama", "text": strings.TrimSpace(p.text)}
			if swap >= 0 {
				data["swap_free_kb"] = swap
			}
			d.addArtifact(KindStated, p.no, p.no, data)
			return true
		}
	}
	return false
}
