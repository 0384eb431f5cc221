package artifact

import (
	"regexp"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// earlyoom (a userspace OOM daemon many desktops and Raspberry Pi images run) logs the
// memory it sees (main.c print_mem_stats): "mem avail:  3056 of  3836 MiB (79.66%), swap
// free: 16373 of 16383 MiB (99.94%)", from MemAvailable, MemTotal, SwapFree and SwapTotal of
// /proc/meminfo, in MiB. In a syslog next to a kernel report it tells whether the machine as
// a whole was short of memory at the time (corpus 410: 80% available, yet a 32-bit kernel's
// lowmem ran out).

// EarlyoomStatus is one earlyoom status line, in MiB as printed.
type EarlyoomStatus struct {
	MemAvailMiB  int64 `json:"mem_avail_mib"`
	MemTotalMiB  int64 `json:"mem_total_mib"`
	SwapFreeMiB  int64 `json:"swap_free_mib"`
	SwapTotalMiB int64 `json:"swap_total_mib"`
}

var reEarlyoomStatus = regexp.MustCompile(`^mem avail:\s*(\d+) of\s*(\d+) MiB \([\d.]+ ?%\), swap free:\s*(\d+) of\s*(\d+) MiB`)

// parseEarlyoomStatus reads the line's text after its syslog prefix; ok is false for any
// other line.
func parseEarlyoomStatus(t string) (EarlyoomStatus, bool) {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "mem avail:") {
		return EarlyoomStatus{}, false
	}
	m := reEarlyoomStatus.FindStringSubmatch(t)
	if m == nil {
		return EarlyoomStatus{}, false
	}
	var v [4]int64
	for k := range v {
		n, err := strconv.ParseInt(m[k+1], 10, 64)
		if err != nil {
			return EarlyoomStatus{}, false
		}
		v[k] = n
	}
	return EarlyoomStatus{MemAvailMiB: v[0], MemTotalMiB: v[1], SwapFreeMiB: v[2], SwapTotalMiB: v[3]}, true
}

// earlyoomLine reads line i when it is earlyoom's status line (with earlyoom's syslog tag,
// or bare as earlyoom prints it on a terminal); it reports whether it did.
func (d *doc) earlyoomLine(i int) bool {
	l := &d.ls[i]
	if l.Tag != "earlyoom" && (l.Syslog || l.Kernel) {
		return false
	}
	st, ok := parseEarlyoomStatus(l.Text)
	if !ok {
		return false
	}
	d.used[i] = true
	mem := &kernel.Counters{}
	mem.Set("MemTotal", st.MemTotalMiB*1024)
	mem.Set("MemAvailable", st.MemAvailMiB*1024)
	mem.Set("SwapTotal", st.SwapTotalMiB*1024)
	mem.Set("SwapFree", st.SwapFreeMiB*1024)
	// MiB-rounded: above a report's "pages RAM" (1), below free's and top's kB totals (3).
	d.host.memTotal(st.MemTotalMiB*1024, 2)
	d.segSeq++
	d.addSamples(KindEarlyoom, "", l.No, l.No, []model.Sample{{Source: spanSource(l.No, l.No), MemInfo: mem}})
	d.addArtifact(KindEarlyoom, l.No, l.No, st)
	return true
}
