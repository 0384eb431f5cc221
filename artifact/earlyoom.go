package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
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

// The percentages are printed with PRIPCT, "%5.2lf%%" (msg.h): under 10% with a leading
// space, "( 1.57%)", the form of every line of a machine about to kill (h25c).
var reEarlyoomStatus = lazyre.New(`^mem avail:\s*(\d+) of\s*(\d+) MiB \(\s*[\d.]+ ?%\), swap free:\s*(\d+) of\s*(\d+) MiB`)

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

// EarlyoomTotals is the line earlyoom prints when it starts (main.c: "mem total: %4lld MiB,
// swap total: %4lld MiB"): the machine's MemTotal and SwapTotal, in MiB (corpus 487).
type EarlyoomTotals struct {
	MemTotalMiB  int64 `json:"mem_total_mib"`
	SwapTotalMiB int64 `json:"swap_total_mib"`
}

var reEarlyoomTotals = lazyre.New(`^mem total:\s*(\d+) MiB, swap total:\s*(\d+) MiB`)

func parseEarlyoomTotals(t string) (EarlyoomTotals, bool) {
	m := reEarlyoomTotals.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return EarlyoomTotals{}, false
	}
	mem, err1 := strconv.ParseInt(m[1], 10, 64)
	swap, err2 := strconv.ParseInt(m[2], 10, 64)
	if err1 != nil || err2 != nil {
		return EarlyoomTotals{}, false
	}
	return EarlyoomTotals{MemTotalMiB: mem, SwapTotalMiB: swap}, true
}

// earlyoomLine reads line i when it is earlyoom's status line (with earlyoom's syslog tag,
// or bare as earlyoom prints it on a terminal); it reports whether it did.
func (d *doc) earlyoomLine(i int) bool {
	l := &d.ls[i]
	if l.Tag != "earlyoom" && (l.Syslog || l.Kernel) {
		return false
	}
	var data any
	mib := map[string]int64{}
	if st, ok := parseEarlyoomStatus(l.Text); ok {
		data = st
		mib["MemTotal"], mib["MemAvailable"], mib["SwapTotal"], mib["SwapFree"] = st.MemTotalMiB, st.MemAvailMiB, st.SwapTotalMiB, st.SwapFreeMiB
	} else if tot, ok := parseEarlyoomTotals(l.Text); ok {
		data = tot
		mib["MemTotal"], mib["SwapTotal"] = tot.MemTotalMiB, tot.SwapTotalMiB
	} else {
		return false
	}
	d.used[i] = true
	mem := &kernel.Counters{}
	for _, name := range []string{"MemTotal", "MemAvailable", "SwapTotal", "SwapFree"} {
		if v, ok := mib[name]; ok {
			mem.Set(name, v*1024)
		}
	}
	// MiB-rounded: above a report's "pages RAM" (1), below free's and top's kB totals (3).
	d.host.memTotal(mib["MemTotal"]*1024, 2)
	d.segSeq++
	d.addSamples(KindEarlyoom, "", l.No, l.No, []model.Sample{{Source: spanSource(l.No, l.No), MemInfo: mem}})
	d.addArtifact(KindEarlyoom, l.No, l.No, data)
	return true
}
