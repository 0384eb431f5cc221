package artifact

// OpenWrt's `ubus call system info` (procd system.c system_info), the memory report its
// forums and LuCI's status page rest on, a JSON object:
//
//	{ "localtime": N, "uptime": N, "load": [ … ],
//	  "memory": { "total": B, "free": B, "shared": B, "buffered": B, "available": B, "cached": B },
//	  "root": { "total": K, "free": K, "used": K, "avail": K }, "tmp": { … },
//	  "swap": { "total": B, "free": B } }
//
// memory and swap are bytes: sysinfo(2)'s totalram, freeram, sharedram, bufferram and swap
// times mem_unit, with MemAvailable and Cached read from /proc/meminfo ×1024 (procd added
// those two in 2019; on kernels before 3.14 available is 0, no MemAvailable: not kept).
// root and tmp are filesystems (KiB) and are not read. "buffered" is procd's own key, so an
// object whose "memory" member holds total and buffered is this report.
var ubusMemKeys = []string{"total", "free", "shared", "buffered", "cached", "available"}

// ubusSystemInfo reads the report from the decoded object; 0 when x is not it.
func (d *doc) ubusSystemInfo(i, n int, x map[string]any) int {
	mem, ok := x["memory"].(map[string]any)
	if !ok || !hasKey(mem, "total") || !hasKey(mem, "buffered") {
		return 0
	}
	tb := &FreeTable{Columns: []string{"total", "free", "shared", "buffers", "cached", "available"}, Unit: "KiB",
		Rows:    map[string][]int64{},
		Printed: map[string][]float64{},
		Note:    "OpenWrt `ubus call system info` (procd system.c system_info): bytes; available 0 (kernels before 3.14) not kept"}
	row, printed := make([]int64, len(ubusMemKeys)), make([]float64, len(ubusMemKeys))
	for c, k := range ubusMemKeys {
		row[c], printed[c] = -1, -1
		if v, ok := jsonInt(mem[k]); ok && !(k == "available" && v == 0) {
			row[c], printed[c] = v/1024, float64(v)
		}
	}
	if row[0] <= 0 || row[1] > row[0] || row[5] > row[0] {
		return 0 // not a memory report: its parts exceed its total
	}
	tb.Rows["Mem"], tb.Printed["Mem"] = row, printed
	if sw, ok := x["swap"].(map[string]any); ok {
		st, sf := int64(-1), int64(-1)
		if v, ok := jsonInt(sw["total"]); ok {
			st = v / 1024
		}
		if v, ok := jsonInt(sw["free"]); ok {
			sf = v / 1024
		}
		// Swap's columns in the table's order: total, free, then no shared, buffers, cached, available.
		tb.Rows["Swap"] = []int64{st, sf, -1, -1, -1, -1}
	}
	tb.Label = d.label(i)
	d.addMemTable(i, n, tb)
	return n
}
