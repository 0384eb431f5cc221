package artifact

import (
	"strings"

	"headroom/model"
)

// systemd's notices of a unit's process ended by a signal (pre-round 14, h14b; from
// systemd's source): the media servers run as units (plexmediaserver.service,
// jellyfin.service, emby-server.service), and a report of one "killed" often holds only
// systemd's lines. src/core/service.c service_sigchld_event logs "Main process exited,
// code=%s, status=%i/%s" with sigchld_code_to_string (CLD_KILLED "killed", CLD_DUMPED
// "dumped") and signal_to_string ("KILL", "ABRT", "SEGV"). A SIGKILL alone does not say who sent it:
// the kernel's OOM killer (then the kernel log says "Out of memory: Killed process N" and
// systemd "A process of this unit has been killed by the OOM killer.", which
// systemdOOMLine reads), systemd's own stop timeout, a watchdog or a user. A paste of such
// lines held nothing headroom read (exit 3). When nothing else of the text is read, each is
// named as unread with what it proves (systemdKilledUnread); no kill is recorded from it.
//
// Gated: it runs once, at the end, on the other programs' lines already kept (keepOther,
// bounded), and only when nothing was read; fixed strings.Index, no regexp.

const (
	systemdMainKilled = ": Main process exited, code=killed, status="
	systemdMainDumped = ": Main process exited, code=dumped, status="
)

// systemdKilledWhy says what systemd's line t proves, if it is one of its signal notices.
func systemdKilledWhy(t string) (string, bool) {
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

// systemdKilledUnread names systemd's signal notices (systemdKilledWhy) among the other
// programs' lines kept for statedFiguresUnread, when nothing else of the text was read or
// named: beside a kernel log or another reader's evidence they stay other programs' lines.
func (d *doc) systemdKilledUnread() {
	if !NothingRead(d.tl) || len(d.tl.Unparsed) > 0 || d.tl.Host.OtherOS != "" {
		return
	}
	for _, p := range d.otherLines {
		why, ok := systemdKilledWhy(p.text)
		if !ok {
			if why, ok = abrtHookWhy(p.text); !ok {
				continue
			}
		}
		if len(d.tl.Unparsed) >= maxUnreadEntries {
			break
		}
		d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: p.no, LastLine: p.no, Why: why})
		if a := d.tl.Lines; a != nil { // account ran: the line was counted as another program's
			a.Other--
			a.Unparsed++
		}
	}
	// fix38b: the same notice pasted without date or host ("systemd[1]: sssd.service: Main
	// process exited, code=killed, status=9/KILL") was kept as prose (journalSystemdLine).
	for _, p := range d.proseLines {
		msg, ok := journalSystemdLine(p.text)
		if !ok {
			// h34a: the unit's line alone ("sssd.service: Main process exited, ..."), as
			// systemctl status and journalctl -o cat print it.
			if msg, ok = systemdUnitLine(p.text); !ok {
				continue
			}
		}
		why, ok := systemdKilledWhy(msg)
		if !ok {
			continue
		}
		if len(d.tl.Unparsed) >= maxUnreadEntries {
			break
		}
		d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: p.no, LastLine: p.no, Why: why})
		if a := d.tl.Lines; a != nil { // account ran: the line was counted as prose
			a.Prose--
			a.Unparsed++
		}
	}
}

// systemdUnitLine: t starts with a unit's name and its colon ("sssd.service: "): systemd's
// message without journal prefix (journalctl -o cat, systemctl status's log tail).
func systemdUnitLine(t string) (string, bool) {
	k := strings.Index(t, ": ")
	if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 {
		return "", false
	}
	for _, u := range []string{".service", ".scope", ".slice", ".socket", ".mount", ".timer"} {
		if strings.HasSuffix(t[:k], u) {
			return t, true
		}
	}
	return "", false
}
