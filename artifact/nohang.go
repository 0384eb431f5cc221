package artifact

import (
	"strconv"
	"strings"

	"headroom/model"
)

// nohang (github.com/hakavlad/nohang), a userspace OOM daemon for desktops, logs through
// journald under its own tag. The lines that carry a measured memory PSI value, from its
// source (nohang, 2019-2020 releases; src/nohang since):
//
//	"PSI avg (%s) > sigterm_psi_threshold (%s)" and "... > sigkill_psi_threshold (%s)"
//	  (mem_info of the PSI trigger; the value in brackets after '>' is the threshold)
//	"PSI avg: %6s | MemAvail: %s M, %s % | SwapFree: ..." (the periodic report with
//	  print_mem_check_results; "PSI: %6s | ..." since 2020)
//
// The value is psi_metrics (default full_avg10; some_/full_ avg10/60/300) of psi_path
// (default /proc/pressure/memory; a cgroup's memory.pressure when configured), which the
// line does not name: it is kept as model.RateDaemonMemPSIPct, judged as memory "some"
// (diagnose checkDirectReclaim). Its thresholds, timers, MemAvail and SwapFree shares are
// not read (the shares are of nohang's own computation); the other lines are named unread.

// nohangPSIValue is the PSI value of a nohang line, and whether the line holds one.
func nohangPSIValue(t string) (float64, bool) {
	t = strings.TrimSpace(t)
	var num string
	switch {
	case strings.HasPrefix(t, "PSI avg ("):
		rest := t[len("PSI avg ("):]
		j := strings.IndexByte(rest, ')')
		if j <= 0 || !strings.HasPrefix(strings.TrimSpace(rest[j+1:]), "> ") || !strings.Contains(rest[j:], "_psi_threshold (") {
			return 0, false
		}
		num = rest[:j]
	case strings.HasPrefix(t, "PSI avg:") || strings.HasPrefix(t, "PSI:"):
		rest := t[strings.IndexByte(t, ':')+1:]
		j := strings.IndexByte(rest, '|')
		if j <= 0 || !strings.Contains(rest[j:], "MemAvail:") {
			return 0, false
		}
		num = rest[:j]
	default:
		return 0, false
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || v < 0 || v > 100 {
		return 0, false
	}
	return v, true
}

// nohangLine reads line i, a syslog line of nohang, when it holds a PSI value.
func (d *doc) nohangLine(i int) bool {
	l := &d.ls[i]
	v, ok := nohangPSIValue(l.Text)
	if !ok {
		return false
	}
	d.used[i] = true
	d.segSeq++
	d.tl.Samples = append(d.tl.Samples, model.Sample{
		Source: spanSource(l.No, l.No) + " (nohang's PSI value: its psi_metrics of psi_path, by default full_avg10 of /proc/pressure/memory)",
		Rates:  model.Rates{model.RateDaemonMemPSIPct: v},
	})
	return true
}
