package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
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
//
// h28c: the PSI line of later releases, in the block that opens "Memory status that requires
// corrective actions:" (check_psi_ex): "Current PSI metric value (%s) >= soft_threshold_max_psi
// (%s)" (hard_ for SIGKILL); and the threshold's name in "PSI avg (%s) > NAME (%s)" is any
// name of a PSI setting (it was renamed between releases). nohang's kill (implement_corrective_
// action), "Implementing a corrective action:" then "Sending %s to the victim" (older: "Send %s
// to the victim", "  Sending %s to the victim; OK; response time: %s ms"), is a kill for low
// memory by a userspace killer: kept as earlyoom's and systemd-oomd's are (lowmemkill.go), with
// the victim from the "Victim status" block before it ("PID: %s, name: %s, ...", older
// "Victim is %s, pid: %s" or "Name: %s" / "Pid: %s"). Both are read bare as well as under
// nohang's syslog tag: the words are nohang's own, and a line must start with them.

var (
	reNohangPSIThreshold = lazyre.New(`^\)\s*>=?\s*[a-z_]*psi[a-z_]*\s*\(\s*[0-9.]+\s*\)`)
	reNohangKill         = lazyre.New(`^(?:\*\s*)?Send(?:ing)? (SIGTERM|SIGKILL) to the victim(?:\s*$|[;:.,])`)
	reNohangVictim       = lazyre.New(`(?:\bPID:\s*(\d+), name: ([^,]+),|\bVictim is (\S+?),? pid: (\d+)|^\s*Name:\s+(\S.*?)\s*$)`)
)

// nohangPSIValue is the PSI value of a nohang line, and whether the line holds one.
func nohangPSIValue(t string) (float64, bool) {
	t = strings.TrimSpace(t)
	var num string
	switch {
	case strings.HasPrefix(t, "PSI avg (") || strings.HasPrefix(t, "Current PSI metric value ("):
		rest := t[strings.IndexByte(t, '(')+1:]
		j := strings.IndexByte(rest, ')')
		if j <= 0 || !reNohangPSIThreshold.MatchString(rest[j:]) {
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

// daemonBareLine reads line i, outside a syslog, when it is one of nohang's own lines (its
// PSI value, its kill, or the headers of its blocks, named) or systemd-oomd's pressure line
// (oomctl's dump, a candidate of its kill).
func (d *doc) daemonBareLine(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	switch {
	case strings.HasPrefix(t, oomdPressureHead):
		return d.oomdPressureLine(i, t)
	case strings.HasPrefix(t, "Memory status that requires corrective actions") || strings.HasPrefix(t, "Implementing a corrective action"):
		d.unparsedUnread(i, "nohang's header of its trigger or its action: named, not read as the host's state")
		return true
	case strings.HasPrefix(t, "PSI") || strings.HasPrefix(t, "Current PSI") || strings.Contains(t, " to the victim"):
		return d.nohangLine(i)
	}
	return false
}

// nohangLine reads line i, a line of nohang, when it holds a PSI value or a kill.
func (d *doc) nohangLine(i int) bool {
	l := &d.ls[i]
	if d.nohangKill(i) {
		return true
	}
	v, ok := nohangPSIValue(l.Text)
	if !ok {
		return false
	}
	d.addDaemonPSI(i, v, "nohang's PSI value: its psi_metrics of psi_path, by default full_avg10 of /proc/pressure/memory")
	return true
}

// addDaemonPSI keeps line i's memory PSI value as an OOM daemon logged it.
func (d *doc) addDaemonPSI(i int, v float64, what string) {
	l := &d.ls[i]
	d.used[i] = true
	d.segSeq++
	d.tl.Samples = append(d.tl.Samples, model.Sample{
		Source: spanSource(l.No, l.No) + " (" + what + ")",
		Rates:  model.Rates{model.RateDaemonMemPSIPct: v},
	})
}

// nohangKill reads line i when it is nohang's kill, the victim from the lines before it.
func (d *doc) nohangKill(i int) bool {
	t := strings.TrimSpace(d.ls[i].Text)
	if !strings.Contains(t, " to the victim") {
		return false
	}
	m := reNohangKill.FindStringSubmatch(t)
	if m == nil {
		return false
	}
	o := model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1, Reporter: "nohang (" + m[1] + ")"}
	// The victim's block stands within the few lines before the action (find_victim_info's
	// dozen lines at most); a line of another kill ends the search.
	for k := i - 1; k >= 0 && k >= i-16; k-- {
		pt := d.ls[k].Text
		if strings.Contains(pt, " to the victim") {
			break
		}
		if !strings.Contains(pt, "ame: ") && !strings.Contains(pt, "Victim is ") {
			continue
		}
		v := reNohangVictim.FindStringSubmatch(pt)
		if v == nil {
			continue
		}
		switch {
		case v[2] != "":
			o.Victim, o.PID = strings.TrimSpace(v[2]), atoiOr0(v[1])
		case v[3] != "":
			o.Victim, o.PID = v[3], atoiOr0(v[4])
		default:
			o.Victim = v[5]
		}
		break
	}
	d.used[i] = true
	d.addLowMemKill(o, d.ls[i].No)
	return true
}

func atoiOr0(s string) int { v, _ := strconv.Atoi(s); return v }
