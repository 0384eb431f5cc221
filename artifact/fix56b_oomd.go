package artifact

import (
	"fmt"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// systemd-oomd's lines that are not its "Killed"/"Marked" kill line (fix56b):
//
//	"oomd attempting to kill PID with SIG": oomd-util.c's kill of each process of the chosen
//	  cgroup (oomd_cgroup_kill, the callback of cg_kill_recursive, before kill(2)); logged
//	  at debug level, so a journal with oomd's debug log (systemd's TEST-55-OOMD, a
//	  LogLevel=debug unit) holds it and not always the kill line. It is a kill by
//	  systemd-oomd: one low-memory killer's kill of the PIDs logged, read once at the end of
//	  the text when no other line of oomd's or of systemd's told that kill (oomdAttempts).
//	"Memory pressure for CGROUP is P% > L% for > Ns with reclaim activity": the trigger
//	  before a kill (oomd-manager.c monitor_memory_pressure_contexts_handler, systemd
//	  250+), P the cgroup's memory.pressure full avg10 as in the kill line: kept as the
//	  daemon's PSI value (oomdpressure.go), never the host's.
//
// And journalctl's -o short-monotonic without a host ("[   77.740597] systemd-oomd[659]:
// Marked ..."), whose stamp looks like dmesg's: the "prog[pid]: " after the stamp is
// systemd-oomd's tag (journalTagAfterStamp), not a kernel record.
var (
	reOomdAttempt  = lazyre.New(`^oomd attempting to kill (\d+) with ([A-Z]+)\s*$`)
	reOomdPressure = lazyre.New(`^Memory pressure for (/\S*) is (\d+(?:\.\d+)?)% > (\d+(?:\.\d+)?)% for > \S+ with reclaim activity\s*$`)
)

// oomdAttempt is one "oomd attempting to kill" line.
type oomdAttempt struct {
	pid, sig string
	no       int
}

// oomdOwnLine reads a systemd-oomd line that is an attempt to kill or its pressure trigger.
func (d *doc) oomdOwnLine(i int, t string) bool {
	if m := reOomdAttempt.FindStringSubmatch(t); m != nil {
		d.used[i] = true
		d.oomdAttempts = append(d.oomdAttempts, oomdAttempt{pid: m[1], sig: m[2], no: d.ls[i].No})
		return true
	}
	if m := reOomdPressure.FindStringSubmatch(t); m != nil {
		if v, ok := pctValue(m[2]); ok {
			d.addDaemonPSI(i, v, "systemd-oomd's trigger: "+m[1]+"'s memory.pressure full avg10 over its limit "+m[3]+"%")
			return true
		}
	}
	return false
}

// oomdAttemptsKill adds systemd-oomd's kill of the attempts read when no other line told a
// kill of systemd-oomd's.
func (d *doc) oomdAttemptsKill() {
	if len(d.oomdAttempts) == 0 {
		return
	}
	for _, o := range d.tl.RuntimeOOMs {
		if o.Scope == model.OOMScopeLowMemKiller && strings.HasPrefix(o.Reporter, "systemd-oomd") {
			return
		}
	}
	seen := map[string]bool{}
	var pids []string
	for _, a := range d.oomdAttempts {
		if !seen[a.pid] {
			seen[a.pid] = true
			pids = append(pids, a.pid)
		}
	}
	a := d.oomdAttempts[0]
	d.addLowMemKill(model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1,
		Reporter: fmt.Sprintf("systemd-oomd (SIG%s to PID %s)", a.sig, strings.Join(pids, ", "))}, a.no)
}

// journalTags are the programs whose journal lines journalTagAfterStamp takes after a
// dmesg-like stamp: systemd-oomd's all, systemd's only its line of oomd's kill.
func journalTagAfterStamp(s string, l *Line) string {
	if l.Tag != "" || l.Syslog || l.UptimeUsec < 0 {
		return s
	}
	sp := strings.IndexByte(s, ' ')
	if sp <= 0 || !hostIsTag(s[:sp]) {
		return s
	}
	tag, msg := s[:strings.IndexByte(s, '[')], s[sp+1:]
	switch {
	case tag == "systemd-oomd":
	case tag == "systemd" && strings.Contains(msg, systemdOomdKilled):
	default:
		return s
	}
	l.Syslog, l.Kernel, l.Tag = true, false, tag
	return msg
}

// openKillLine (fix56b): a kernel line left open at a space ("Out of memory in UB 1234: OOM
// ", a knowledge-base page that broke the OOM killer's kill line where the reader's width
// ended, whatever its other lines' width) whose unprefixed next line completes the kill
// line ("killed process 21738 (php-cgi) score 0 ..."): the two are one record whatever the
// text's wrap width. Only a join that makes the kill phrase is taken.
func openKillLine(prev, cur string) bool {
	if !strings.HasSuffix(prev, " ") || isOOMKillPhrase(prev) {
		return false
	}
	return isOOMKillPhrase(strings.TrimRight(prev, " ") + " " + strings.TrimLeft(cur, " "))
}
