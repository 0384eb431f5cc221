package artifact

import "strings"

// fix50b (corpus 4181): the memory.stat dump of an OOM report whose header and kill line are
// not in the text, "Memory cgroup stats for /system.slice/owntone.service:" followed by the
// cgroup's memory.stat (cgroup v2, 5.x+: "anon 255795200", "file 12288", ... as one kernel
// record of indented continuation lines), or v1's one line "Memory cgroup stats for /a:
// cache:28030012KB rss:3958288KB ..." (3.x-4.x). Only mem_cgroup_print_oom_meminfo
// (mm/memcontrol.c; mem_cgroup_print_oom_info before 4.19) prints that line, and only
// dump_header (mm/oom_kill.c) calls it, when the OOM is constrained to a memory cgroup
// (is_memcg_oom): the cgroup reached its limit and its OOM killer ran. The cgroup is named;
// the victim and the trigger are not in the text.
//
// memcgOOMStatsPath returns the cgroup's path of such a line: the line is the kernel's whole
// message (a sentence that mentions "memory cgroup stats for" is not), its path starts with
// '/', and the line ends after the path's ':' (v2, the stats on the lines below) or carries
// the v1 "name:NKB" fields after it.
func memcgOOMStatsPath(t string) (string, bool) {
	s := strings.TrimSpace(t)
	rest, ok := strings.CutPrefix(s, "Memory cgroup stats for ")
	if !ok || rest == "" || rest[0] != '/' {
		return "", false
	}
	if path, ok := strings.CutSuffix(rest, ":"); ok && !strings.ContainsAny(path, " \t") {
		return path, true
	}
	path, stats, ok := strings.Cut(rest, ": ")
	if !ok || strings.ContainsAny(path, " \t") {
		return "", false
	}
	// v1: every field "name:NKB" ("cache:28030012KB rss:3958288KB rss_huge:0KB ...").
	n := 0
	for _, f := range fields(stats) {
		k, v, ok := strings.Cut(f, ":")
		v = strings.TrimSuffix(strings.TrimSuffix(v, "KB"), "kB")
		if !ok || k == "" || !isDigits(v) {
			return "", false
		}
		n++
	}
	return path, n > 0
}

// startsMemcgOOMStats: ls line t opens a memcg OOM report at its stats line (above).
func startsMemcgOOMStats(t string) bool {
	if b := trimBlankLeft(t); !strings.HasPrefix(b, "Memory cgroup stats for /") {
		return false
	}
	_, ok := memcgOOMStatsPath(t)
	return ok
}

const memcgOOMStatsNote = "a memory cgroup's stats line from an OOM report whose header is not in the text (\"Memory cgroup stats for PATH:\"): " +
	"only dump_header (mm/oom_kill.c, mem_cgroup_print_oom_meminfo) prints it, for an OOM constrained to that cgroup, so its OOM killer ran; " +
	"its trigger and victim are not in the text"
