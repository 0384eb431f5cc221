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

// Before 1.2 the status line had no totals (fix33a, corpus 2841; main.c of v1.0 and v1.1:
// "mem avail: %lu MiB (%ld %%), swap free: %lu MiB (%d %%)"), and the start-up lines gave
// each total with earlyoom's minimum ("mem total: %lu MiB, min: %lu MiB (%d %%)", "swap
// total: ..."); 1.2 printed the limits as percentages ("mem  total: %4d MiB, sending SIGTERM
// at %2d %%, SIGKILL at %2d %%").
var (
	reEarlyoomStatusOld = lazyre.New(`^mem avail:\s*(\d+) MiB \(\s*\d+ ?%\), swap free:\s*(\d+) MiB \(\s*\d+ ?%\)`)
	reEarlyoomTotalOne  = lazyre.New(`^(mem|swap)\s+total:\s*(\d+) MiB, (?:min:\s*(\d+) MiB \(\s*\d+ ?%\)|sending SIGTERM at)`)
)

// EarlyoomTotal is one start-up line of earlyoom 1.0-1.2: the total of memory or of swap,
// in MiB, with earlyoom's minimum when printed (1.0-1.1).
type EarlyoomTotal struct {
	Of       string `json:"of"` // "mem" or "swap"
	TotalMiB int64  `json:"total_mib"`
	MinMiB   int64  `json:"min_mib,omitempty"`
}

// parseEarlyoomTotalOne reads a start-up line of earlyoom 1.0-1.2.
func parseEarlyoomTotalOne(t string) (EarlyoomTotal, bool) {
	m := reEarlyoomTotalOne.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return EarlyoomTotal{}, false
	}
	tot, err := strconv.ParseInt(m[2], 10, 64)
	if err != nil {
		return EarlyoomTotal{}, false
	}
	min, _ := strconv.ParseInt(m[3], 10, 64)
	return EarlyoomTotal{Of: m[1], TotalMiB: tot, MinMiB: min}, true
}

// earlyoom 0.x-1.0 (main.c, 2014-2018, until v1.1's percentage limits) printed, when
// MemAvailable and SwapFree were both at or below its minimums and just before it killed,
// "Out of memory! avail: %lu MiB < min: %lu MiB": MemAvailable and earlyoom's memory minimum
// in MiB (fix46c, corpus 3904). Its kill line follows, "Killing process %d %s".
var reEarlyoomLow = lazyre.New(`^Out of memory! avail:\s*(\d+) MiB < min:\s*(\d+) MiB\s*$`)

// EarlyoomLow is earlyoom 0.x-1.0's line before a kill: available memory below its minimum.
type EarlyoomLow struct {
	MemAvailMiB int64 `json:"mem_avail_mib"`
	MinMiB      int64 `json:"min_mib"`
}

func parseEarlyoomLow(t string) (EarlyoomLow, bool) {
	av, min, ok := twoMiB(reEarlyoomLow, t)
	if !ok {
		return EarlyoomLow{}, false
	}
	return EarlyoomLow{MemAvailMiB: av, MinMiB: min}, true
}

// twoMiB: the two MiB figures of re's groups 1 and 2 in t, trimmed.
func twoMiB(re *lazyre.Regexp, t string) (a, b int64, ok bool) {
	m := re.FindStringSubmatch(strings.TrimSpace(t))
	if m == nil {
		return 0, 0, false
	}
	a, err1 := strconv.ParseInt(m[1], 10, 64)
	b, err2 := strconv.ParseInt(m[2], 10, 64)
	return a, b, err1 == nil && err2 == nil
}

// earlyoomLowSeen: a bare or earlyoom-tagged line of the document is earlyoom 0.x-1.0's
// "Out of memory! avail: N MiB < min: N MiB" (computed once).
func (d *doc) earlyoomLowSeen() bool {
	if d.earlyoomLow == 0 {
		d.earlyoomLow = -1
		for k := range d.ls {
			l := &d.ls[k]
			if (l.Tag == "earlyoom" || !l.Syslog && !l.Kernel) && strings.HasPrefix(strings.TrimSpace(l.Text), "Out of memory! avail:") {
				if _, ok := parseEarlyoomLow(l.Text); ok {
					d.earlyoomLow = 1
					break
				}
			}
		}
	}
	return d.earlyoomLow > 0
}

// EarlyoomAvail is earlyoom 1.0-1.1's status line: what is available, no totals.
type EarlyoomAvail struct {
	MemAvailMiB int64 `json:"mem_avail_mib"`
	SwapFreeMiB int64 `json:"swap_free_mib"`
}

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
	mem, swap, ok := twoMiB(reEarlyoomTotals, t)
	if !ok {
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
	} else if m := earlyoomOldStatus(l.Text); m != nil {
		av, _ := strconv.ParseInt(m[1], 10, 64)
		sw, _ := strconv.ParseInt(m[2], 10, 64)
		data = EarlyoomAvail{MemAvailMiB: av, SwapFreeMiB: sw}
		mib["MemAvailable"], mib["SwapFree"] = av, sw
	} else if low, ok := parseEarlyoomLow(l.Text); ok {
		data = low
		mib["MemAvailable"] = low.MemAvailMiB
	} else if one, ok := parseEarlyoomTotalOne(l.Text); ok {
		data = one
		if one.Of == "mem" {
			mib["MemTotal"] = one.TotalMiB
		} else {
			mib["SwapTotal"] = one.TotalMiB
		}
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
	if v, ok := mib["MemTotal"]; ok {
		d.host.memTotal(v*1024, 2)
	}
	d.segSeq++
	d.addSamples(KindEarlyoom, "", l.No, l.No, []model.Sample{{Source: spanSource(l.No, l.No), MemInfo: mem}})
	d.addArtifact(KindEarlyoom, l.No, l.No, data)
	return true
}

// earlyoomOldStatus: the submatches of earlyoom 1.0-1.1's status line, nil for any other.
func earlyoomOldStatus(t string) []string {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "mem avail:") {
		return nil
	}
	return reEarlyoomStatusOld.FindStringSubmatch(t)
}
