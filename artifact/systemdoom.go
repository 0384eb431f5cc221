package artifact

import (
	"fmt"
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
	t := d.ls[i].Text
	k := strings.Index(t, systemdOOMMsg)
	if k <= 0 || strings.IndexByte(t[:k], ' ') >= 0 {
		return false
	}
	unit := t[:k]
	d.used[i] = true
	d.addRuntimeOOM(model.RuntimeOOM{Reporter: "systemd for " + unit + " (the unit cgroup's memory.events oom_kill rose)",
		Source: fmt.Sprintf("line %d", d.ls[i].No)})
	return true
}
