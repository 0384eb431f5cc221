package artifact

import (
	"strconv"
	"strings"
)

// YARN's dump of a container's process tree (fix20b, round 15's g76): the NodeManager's
// ContainersMonitorImpl logs, with the memory kill, ProcfsBasedProcessTree.getProcessTreeDump:
// a header "|- PID PPID PGRPID SESSID CMD_NAME USER_MODE_TIME(MILLIS) SYSTEM_TIME(MILLIS)
// VMEM_USAGE(BYTES) RSSMEM_USAGE(PAGES) FULL_CMD_LINE" and one row a process, "|- pid ppid
// pgrp session (name) utime stime vmem_bytes rss_pages cmdline". Each row is one process of
// the container YARN judged (its RSS in pages, its virtual size in bytes): the program's
// figures (KindProgramLimit, program "yarn"), never the host's memory; no rule reads them.

// maxYarnTreeRows bounds the rows kept of one dump (a container of thousands of processes).
const maxYarnTreeRows = 64

// tryYarnProcessTree reads the dump whose header is line i; 0 when it is not the header.
func (d *doc) tryYarnProcessTree(i int) int {
	fs := fields(d.ls[i].Text)
	if len(fs) < 10 || fs[0] != "|-" || fs[1] != "PID" || fs[2] != "PPID" || fs[8] != "VMEM_USAGE(BYTES)" || fs[9] != "RSSMEM_USAGE(PAGES)" {
		return 0
	}
	k := i + 1
	for ; k < len(d.ls); k++ {
		row, ok := yarnTreeRow(d.ls[k].Text)
		if !ok {
			break
		}
		if k-i <= maxYarnTreeRows && d.programFigureCount < maxProgramFigureArtifacts {
			d.programFigureCount++
			d.addArtifact(KindProgramLimit, d.ls[k].No, d.ls[k].No, row)
		}
	}
	d.addArtifact(KindProgramLimit, d.ls[i].No, d.ls[i].No, map[string]any{"program": "yarn", "message": "process-tree dump of a container", "processes": k - i - 1})
	return k - i
}

// yarnTreeRow reads one row of the dump: four ids, the command's name in parentheses, two
// times and the two sizes (the command line after them may be cut).
func yarnTreeRow(t string) (map[string]any, bool) {
	fs := fields(t)
	if len(fs) < 10 || fs[0] != "|-" || !strings.HasPrefix(fs[5], "(") || !strings.HasSuffix(fs[5], ")") {
		return nil, false
	}
	var n [8]int64
	for j, f := range []string{fs[1], fs[2], fs[3], fs[4], fs[6], fs[7], fs[8], fs[9]} {
		if !isDigits(f) {
			return nil, false
		}
		n[j], _ = strconv.ParseInt(f, 10, 64)
	}
	return map[string]any{"program": "yarn", "pid": n[0], "ppid": n[1], "name": strings.Trim(fs[5], "()"),
		"vmem_bytes": n[6], "rss_pages": n[7]}, true
}
