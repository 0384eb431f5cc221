package artifact

import (
	"strconv"
	"strings"
)

// /proc/PID/limits (fix20b, round 15's g76): fs/proc/base.c proc_pid_limits prints a header
// "Limit  Soft Limit  Hard Limit  Units" and one row a resource limit ("%-25s %-20s %-20s
// %-10s": its name from lnames[], soft and hard as numbers or "unlimited", the unit), pasted
// whole or through `grep files`. Each row is one process's rlimit (RLIMIT_NOFILE, NPROC,
// MEMLOCK, AS, ...), never the host's memory or fs.file-max: the figures are kept
// (KindProgramLimit, program "proc_pid_limits") and no rule reads them.

// procLimitNames: lnames[] of fs/proc/base.c, in its order.
var procLimitNames = []string{
	"Max cpu time", "Max file size", "Max data size", "Max stack size", "Max core file size",
	"Max resident set", "Max processes", "Max open files", "Max locked memory", "Max address space",
	"Max file locks", "Max pending signals", "Max msgqueue size", "Max nice priority",
	"Max realtime priority", "Max realtime timeout",
}

// tryProcLimits reads the table at line i (its header, or its first row).
func (d *doc) tryProcLimits(i int) int {
	k := i
	if fs := fields(d.ls[i].Text); len(fs) >= 5 && fs[0] == "Limit" && fs[1] == "Soft" && fs[3] == "Hard" {
		k++
	}
	data := map[string]any{"program": "proc_pid_limits"}
	start := k
	for ; k < len(d.ls); k++ {
		key, soft, hard, ok := procLimitRow(d.ls[k].Text)
		if !ok {
			break
		}
		data[key] = map[string]any{"soft": soft, "hard": hard}
	}
	if k == start {
		return 0
	}
	d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[k-1].No, data)
	return k - i
}

// procLimitRow reads one row: the limit's name as a key ("max_open_files"), soft and hard
// (an int64, or "unlimited").
func procLimitRow(t string) (string, any, any, bool) {
	t = strings.TrimSpace(t)
	if !strings.HasPrefix(t, "Max ") {
		return "", nil, nil, false
	}
	for _, name := range procLimitNames {
		if !strings.HasPrefix(t, name+" ") {
			continue
		}
		fs := fields(t[len(name):])
		if len(fs) < 2 || len(fs) > 3 {
			return "", nil, nil, false
		}
		soft, ok1 := procLimitValue(fs[0])
		hard, ok2 := procLimitValue(fs[1])
		if !ok1 || !ok2 {
			return "", nil, nil, false
		}
		return strings.ReplaceAll(strings.ToLower(name), " ", "_"), soft, hard, true
	}
	return "", nil, nil, false
}

func procLimitValue(s string) (any, bool) {
	if s == "unlimited" {
		return s, true
	}
	if !isDigits(s) {
		return nil, false
	}
	v, err := strconv.ParseInt(s, 10, 64)
	return v, err == nil
}
