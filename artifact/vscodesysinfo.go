package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// VS Code's system info (fix46c, corpus 3916): the issue reporter's "System Info" table, which
// VS Code pastes into every issue it files, and `code --status` print the machine's memory as
// "Memory (System)" (src/vs/platform/diagnostics diagnosticsService getSystemInfo and
// formatEnvironment): `${(os.totalmem() / GB).toFixed(2)}GB (${(os.freemem() / GB).toFixed(2)}GB
// free)` with GB = 1024³, so GiB to two decimals. Node's os.freemem() is libuv's free memory:
// sysinfo's freeram (MemFree, page cache left out) until libuv 1.45 read MemAvailable. The row
// is the poster's own machine (the reporter fills it in), so its total is the host's memory
// size; the free figure is kept as printed but read as no pressure, since on the versions most
// pastes come from it is MemFree, which a healthy desktop keeps low. Forms:
//
//	|Memory (System)|7.75GB (1.68GB free)|        the reporter's markdown table
//	Memory (System):  7.75GB (1.68GB free)         code --status
var reVSCodeMemory = lazyre.New(`^\|?\s*Memory \(System\)\s*(?:\||:)\s*(\d+(?:\.\d+)?)\s?GB \((\d+(?:\.\d+)?)\s?GB free\)\s*\|?\s*$`)

// VSCodeMemory is VS Code's "Memory (System)" figure, in GiB as printed.
type VSCodeMemory struct {
	TotalGiB float64 `json:"total_gib"`
	FreeGiB  float64 `json:"free_gib"`
	Note     string  `json:"note"`
}

// vscodeMemoryLine reads line i when it is VS Code's "Memory (System)" row or line.
func (d *doc) vscodeMemoryLine(i int) bool {
	l := &d.ls[i]
	if l.Syslog || l.Kernel || !strings.Contains(l.Text, "Memory (System)") {
		return false
	}
	m := reVSCodeMemory.FindStringSubmatch(strings.TrimSpace(l.Text))
	if m == nil {
		return false
	}
	tot, err1 := strconv.ParseFloat(m[1], 64)
	free, err2 := strconv.ParseFloat(m[2], 64)
	if err1 != nil || err2 != nil || tot <= 0 || free > tot {
		return false
	}
	d.used[i] = true
	// Rounded to 10 MiB: below a kernel report's or meminfo's kB totals.
	d.host.memTotal(int64(tot*1024*1024), 1)
	d.addArtifact(KindVSCodeMemory, l.No, l.No, VSCodeMemory{TotalGiB: tot, FreeGiB: free,
		Note: "VS Code's os.totalmem() and os.freemem() (libuv: MemFree before libuv 1.45, MemAvailable after): the host's size; the free figure is not read as memory pressure"})
	return true
}
