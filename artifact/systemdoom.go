package artifact

import (
	"fmt"
	"slices"
	"strings"

	"headroom/model"
)

// systemdOOMMsg is what systemd logs for a unit when the oom_kill count in its cgroup's
// memory.events rose (src/core/unit.c unit_check_oom, systemd 243+: log_unit_struct(...,
// LOG_UNIT_MESSAGE(u, "A process of this unit has been killed by the OOM killer."),
// MESSAGE_ID SD_MESSAGE_UNIT_OOM), printed "UNIT: A process of this unit ...". The kernel
// counts oom_kill in the victim's memory cgroup for every kill by its OOM killer
// (mm/oom_kill.c __oom_kill_process: memcg_memory_event(..., MEMCG_OOM_KILL)), whether the
// host or that cgroup ran out: a kill by the kernel, its scope not said.
const systemdOOMMsg = ": A process of this unit has been killed by the OOM killer."

// systemdOOMHanded: systemd's line that holds "kill" (the line pass's needleKill), which
// systemdOOMLine may read; every other systemd line stays boring.
func systemdOOMHanded(l *Line, needles uint32) bool {
	if l.Tag != "systemd" || needles&(1<<needleKill) == 0 {
		return false
	}
	return !isBlank(l.Text) && (needles != anyNeedle || strings.Contains(l.Text, "kill"))
}

// systemdOOMLine reads systemd's unit OOM line (systemdOOMMsg) as a kill the kernel made,
// reported by systemd for the unit.
func (d *doc) systemdOOMLine(i int) bool {
	t := strings.TrimLeft(d.ls[i].Text, " \t") // a code block's or a quote's indent
	k := strings.Index(t, systemdOOMMsg)
	if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 {
		return false
	}
	unit := t[:k]
	d.used[i] = true
	if d.systemctlOOMUnits[unit] {
		delete(d.systemctlOOMUnits, unit) // the kill systemctl status's result told (systemdresult.go)
		return true
	}
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: "systemd for " + unit + " (the unit cgroup's memory.events oom_kill rose)",
		Source: fmt.Sprintf("line %d", d.ls[i].No)})
	return true
}

// systemdUnitSuffixes are the unit types whose cgroup systemd watches for OOM kills
// (src/core/unit.c unit_check_oom: services, scopes, slices, sockets, mounts, swaps).
var systemdUnitSuffixes = [...]string{".service", ".scope", ".slice", ".socket", ".mount", ".swap"}

// systemdBareUnitLine reads systemd's two unit OOM lines without the journal's prefix, as
// `journalctl -o cat` (and -o with-unit's message) prints them (h31d): "UNIT: A process of
// this unit has been killed by the OOM killer." and "UNIT: Failed with result 'oom-kill'.".
// Without the tag naming systemd, the unit must be a unit's name (a type systemd watches),
// the line nothing else: a sentence that quotes it ("we saw the unit has been killed by the
// OOM killer") has no unit name before it.
func (d *doc) systemdBareUnitLine(i int) bool {
	t := strings.TrimLeft(d.ls[i].Text, " \t") // indented as a code block by four spaces or a tab
	if d.ls[i].Tag != "" || !strings.Contains(t, "oom") && !strings.Contains(t, "OOM") {
		return false
	}
	k := strings.Index(t, ": ")
	if k <= 0 {
		return false
	}
	unit := t[:k]
	if strings.ContainsAny(unit, " \t") || !slices.ContainsFunc(systemdUnitSuffixes[:], func(s string) bool { return strings.HasSuffix(unit, s) }) {
		return false
	}
	return d.systemdOOMLine(i) || d.systemdFailedOOMLine(i)
}
