package artifact

import "strings"

// systemd's notices of a unit's process ended by a signal (pre-round 14, h14b; from
// systemd's source): the media servers run as units (plexmediaserver.service,
// jellyfin.service, emby-server.service), and a report of one "killed" often holds only
// systemd's lines. src/core/service.c service_sigchld_event logs "Main process exited,
// code=%s, status=%i/%s" with sigchld_code_to_string (CLD_KILLED "killed", CLD_DUMPED
// "dumped") and signal_to_string ("KILL", "ABRT", "SEGV"); src/core/unit.c unit_log_failure
// "Failed with result '%s'." with the service's result ("oom-kill" since systemd 243, when
// the unit cgroup's memory.events oom_kill rose). A SIGKILL alone does not say who sent it:
// the kernel's OOM killer (then the kernel log says "Out of memory: Killed process N" and
// systemd "A process of this unit has been killed by the OOM killer.", which
// systemdOOMLine reads), systemd's own stop timeout, a watchdog or a user. A paste of such
// lines held nothing headroom read (exit 3). Each is named as unread with what it proves;
// no kill is recorded from it.
//
// Gated: only systemd's lines holding "kill" are handed (systemdOOMHanded); two fixed
// strings.Index, no regexp.

const (
	systemdMainKilled = ": Main process exited, code=killed, status="
	systemdMainDumped = ": Main process exited, code=dumped, status="
	systemdOOMResult  = ": Failed with result 'oom-kill'."
)

// systemdKilledWhy says what systemd's line t proves, if it is one of its signal notices.
func systemdKilledWhy(t string) (string, bool) {
	if k := strings.Index(t, systemdOOMResult); k > 0 && strings.IndexByte(t[:k], ' ') < 0 {
		return "systemd: the unit failed with result 'oom-kill' (src/core/unit.c unit_log_failure): the kernel's OOM killer killed a process in the unit's cgroup (its memory.events oom_kill rose), whether the host or the unit's own MemoryMax ran out; the victim and the memory are in the kernel's report, not in this line; headroom has no reader for this log", true
	}
	for _, p := range []string{systemdMainKilled, systemdMainDumped} {
		k := strings.Index(t, p)
		if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 {
			continue
		}
		sig := t[k+len(p):]
		if j := strings.IndexByte(sig, '/'); j >= 0 {
			sig = sig[j+1:]
		}
		if sig == "KILL" || strings.HasPrefix(sig, "KILL ") {
			return "systemd: the unit's main process ended by SIGKILL (src/core/service.c service_sigchld_event: \"Main process exited, code=killed, status=9/KILL\"); systemd does not say who sent it: the kernel's OOM killer logs \"Out of memory: Killed process N\" in the kernel log (and systemd \"A process of this unit has been killed by the OOM killer.\"), otherwise a stop timeout, a watchdog or a user; no OOM kill without the kernel's line; headroom has no reader for this log", true
		}
		return "systemd: the unit's main process ended by a signal (src/core/service.c service_sigchld_event: \"Main process exited, code=killed|dumped, status=N/SIG\"): the program crashed or was stopped, no kill by the kernel's OOM killer (that one is SIGKILL) and no statement about memory; headroom has no reader for this log", true
	}
	return "", false
}

// systemdKilledLine names systemd's signal notice on line i (systemdKilledWhy).
func (d *doc) systemdKilledLine(i int) bool {
	why, ok := systemdKilledWhy(d.ls[i].Text)
	if !ok {
		return false
	}
	d.unparsedUnread(i, why)
	return true
}
