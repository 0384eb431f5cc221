package kernel

// munin's "memory" plugin (munin/plugins/node.d.linux/memory) prints /proc/meminfo's lines
// multiplied by 1024, one "field.value BYTES" line each; its config's
// "graph_args --base 1024 -l 0 --upper-limit BYTES" is MemTotal. "apps" (MemTotal minus free,
// buffers, cached, slab, ...) and "swap" (SwapTotal - SwapFree) are the plugin's sums, no
// meminfo line, so they have no name here.
var muninMemory = map[string]string{
	"free": "MemFree", "buffers": "Buffers", "cached": "Cached", "slab": "Slab",
	"swap_cache": "SwapCached", "page_tables": "PageTables", "vmalloc_used": "VmallocUsed",
	"committed": "Committed_AS", "mapped": "Mapped", "active": "Active", "inactive": "Inactive",
}

// MuninMemoryMetric is the /proc/meminfo line behind a field of munin's memory plugin
// (bytes, so Scale 1024); ok is false for the plugin's own sums and for other fields.
func MuninMemoryMetric(field string) (NodeMetric, bool) {
	n := muninMemory[field]
	return NodeMetric{File: "meminfo", Name: n, Scale: 1024}, n != ""
}

// MuninMemoryTotal is the meminfo name of the memory graph's --upper-limit.
const MuninMemoryTotal = "MemTotal"
