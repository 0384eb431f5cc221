package artifact

import (
	"strconv"
	"strings"
)

// systemd-oomd's memory pressure figures (h28c). oomd reads a monitored cgroup's
// memory.pressure "full" line (src/oom/oomd-util.c oomd_cgroup_context_acquire,
// read_resource_pressure(PRESSURE_TYPE_FULL)) and prints it in two places:
//
//	the kill (oomd-manager.c monitor_memory_pressure_contexts_handler): "Killed %s due to
//	  memory pressure for %s being %lu.%02lu%% > %lu.%02lu%% for > %s with reclaim activity"
//	  ("Marked %s for killing due to ..." since v256), the first percentage the avg10 it
//	  compared with ManagedOOMMemoryPressureLimit;
//	each cgroup of a dump (oomd-util.c oomd_dump_memory_pressure_cgroup_context, in oomctl's
//	  output and in the "Considered N cgroups for killing, top candidates were:" block of a
//	  kill): "Pressure: Avg10: %lu.%02lu Avg60: %lu.%02lu Avg300: %lu.%02lu Total: %s", with a
//	  comma after each figure in later releases ("Avg10: 71.20, Avg60: 23.08, ...").
//
// Tasks of a cgroup stalled on memory are tasks of the host stalled on memory, so the cgroup's
// full average bounds the host's "some" from below: kept as model.RateDaemonMemPSIPct, which
// checkDirectReclaim judges as "some" (as nohang's value), never as "full". The candidates'
// usages and pgscan counters stay named unread (oomdLineWhy).

const oomdPressureHead = "Pressure: Avg10: "

// oomdPressurePct is the avg10 of a dump's "Pressure: Avg10: ..." line (t trimmed).
func oomdPressurePct(t string) (float64, bool) {
	if !strings.HasPrefix(t, oomdPressureHead) || !strings.Contains(t, " Avg60: ") || !strings.Contains(t, " Avg300: ") {
		return 0, false
	}
	f := strings.Fields(t[len(oomdPressureHead):])
	if len(f) == 0 {
		return 0, false
	}
	return pctValue(strings.TrimSuffix(f[0], ","))
}

// oomdKillPressure is the pressure a kill for memory pressure states ("... being 57.42% >
// 50.00% for > 20s ...").
func oomdKillPressure(t string) (float64, bool) {
	i := strings.Index(t, " due to memory pressure for ")
	if i < 0 {
		return 0, false
	}
	rest := t[i:]
	j := strings.Index(rest, " being ")
	if j < 0 {
		return 0, false
	}
	rest = rest[j+len(" being "):]
	k := strings.Index(rest, "% > ")
	if k <= 0 {
		return 0, false
	}
	return pctValue(rest[:k])
}

func pctValue(s string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || v < 0 || v > 100 {
		return 0, false
	}
	return v, true
}

// oomdPressureLine reads line i (its text t, trimmed) when it is a dump's pressure line.
func (d *doc) oomdPressureLine(i int, t string) bool {
	v, ok := oomdPressurePct(t)
	if !ok {
		return false
	}
	d.addDaemonPSI(i, v, "systemd-oomd's dump of a cgroup: its memory.pressure full avg10 as oomd sampled it")
	return true
}
