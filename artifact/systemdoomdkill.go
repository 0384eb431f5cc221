package artifact

import (
	"slices"
	"strconv"
	"strings"

	"headroom/model"
)

// systemd's own record of a kill by systemd-oomd (pre-round 25, h25c): when systemd-oomd
// kills a unit's cgroup it sets the cgroup's xattr "user.oomd_ooms"; systemd's manager reads
// it (src/core/unit.c unit_check_oomd_kill) and logs, under the unit's prefix and message id
// SD_MESSAGE_UNIT_OOMD_KILL, "UNIT: systemd-oomd killed N process(es) in this unit.", then
// marks the unit's result 'oom-kill' as it does for the kernel's kill (unit_notify_cgroup_oom
// with managed_oom): the journal's "UNIT: Failed with result 'oom-kill'." after it is the same
// userspace kill, not the kernel's OOM killer. Fedora's desktops and Ubuntu since 22.04 run
// systemd-oomd; this line is what `journalctl --user` shows of it.
//
// Read as systemd-oomd's kill (scope low-memory killer, oom-kill.md), one kill of the unit,
// the N processes its cgroup held; systemd-oomd's own "Killed /PATH/UNIT due to ..." of the
// same unit is not counted twice. Counter-cases: the words in a sentence (no "UNIT: " prefix
// of one word, or text after the period), another count word.
const systemdOomdKilled = ": systemd-oomd killed "

// systemdOomdKilledOf: the unit and the number of processes of systemd's line t.
func systemdOomdKilledOf(t string) (unit string, n int, ok bool) {
	k := strings.Index(t, systemdOomdKilled)
	if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 {
		return "", 0, false
	}
	rest := t[k+len(systemdOomdKilled):]
	d := leadingDigits(rest)
	if d == "" || len(d) > 9 || strings.TrimRight(rest[len(d):], " \t\r") != " process(es) in this unit." {
		return "", 0, false
	}
	n, _ = strconv.Atoi(d)
	return t[:k], n, true
}

// systemdOomdKilledLine reads systemd's line of systemd-oomd's kill of a unit.
func (d *doc) systemdOomdKilledLine(i int) bool {
	unit, n, ok := systemdOomdKilledOf(d.ls[i].Text)
	if !ok {
		return false
	}
	d.used[i] = true
	d.dropUnitResultOOM(unit)
	if d.oomdKilledUnit(unit) {
		return true // systemd-oomd's own line said it
	}
	d.addLowMemKill(model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1, Victim: unit,
		Reporter: "systemd-oomd (per systemd: " + strconv.Itoa(n) + " process(es))"}, d.ls[i].No)
	return true
}

// oomdKilledUnit: a kill by systemd-oomd of unit was read already (its own "Killed
// /.../UNIT" line or systemd's line of it).
func (d *doc) oomdKilledUnit(unit string) bool {
	for _, o := range d.tl.RuntimeOOMs {
		if o.Scope == model.OOMScopeLowMemKiller && strings.HasPrefix(o.Reporter, "systemd-oomd") &&
			(o.Victim == unit || strings.HasSuffix(o.Victim, "/"+unit)) {
			return true
		}
	}
	return false
}

// dropUnitResultOOM removes systemd's "UNIT: Failed with result 'oom-kill'." read before
// systemd-oomd's kill of the unit (journalctl -r prints the result first): the result is
// that kill's, not the kernel's OOM killer's.
func (d *doc) dropUnitResultOOM(unit string) {
	want := "systemd for " + unit + " (Failed with result 'oom-kill')"
	d.tl.RuntimeOOMs = slices.DeleteFunc(d.tl.RuntimeOOMs, func(o model.RuntimeOOM) bool { return o.Reporter == want })
}
