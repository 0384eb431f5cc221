package artifact

import (
	"strings"

	"headroom/kernel"
)

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
	if _, _, ok := memcgV2StatLine(stats); ok {
		return path, true // v2's first key joined to the line (memcgV2StatsOpen)
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

// fix52a (corpus 4181, 1490, 1443, 1995): cgroup v2's stats in an OOM report. Since 4.19
// mem_cgroup_print_oom_meminfo (mm/memcontrol.c) prints "Memory cgroup stats for " and the
// cgroup's path with pr_cont, then ":", then the whole memory.stat as ONE record,
// pr_info("%s", buf) of memory_stat_format's "anon 255795200\nfile 12288\n...". dmesg shows
// the record's first key on a line of its own with the timestamp ("[529207.647720] anon
// 255795200") and the rest as indented continuation lines; a syslog repeats its prefix on each
// ("Apr 28 09:20:24 UNRAIDSRV kernel: file 21549056"); some kernels' dmesg stamps each line.
// The report's reader used to stop at the first key (no report line kind), leaving it a bare
// kernel log record and the rest to the memory.stat reader or to the log. They are the
// OOM'ing cgroup's memory.stat: read into the report's MemcgStats, keys as the file prints
// them (sizes in bytes, events counted), beside v1's "cache_kb"-style keys of the one-line
// form. A paste that joined the first key to the header line ("...owntone.service: anon
// 255795200") is read the same way.

// memcgV2StatLine reads one memory.stat line of v2's layout: "name value" with a lower-case
// name (memStatLine) that is a v2 size key or one of its event counters (those with a '_'
// or a pg/thp prefix: "workingset_refault_anon", "pgscan", "thp_fault_alloc"). A word and a
// number of prose ("retried 3") is not one.
func memcgV2StatLine(t string) (string, int64, bool) {
	name, v, ok := memStatLine(t)
	if !ok {
		return "", 0, false
	}
	if memStatSizeKeys[name] || strings.Contains(name, "_") || strings.HasPrefix(name, "pg") || strings.HasPrefix(name, "thp") {
		return name, v, true
	}
	return "", 0, false
}

// memcgV2StatsOpen: t is v2's stats header ("Memory cgroup stats for PATH:", nothing after the
// colon, or the first key joined to it), after which memory.stat lines follow.
func memcgV2StatsOpen(t string) bool {
	s := strings.TrimSpace(t)
	rest, ok := strings.CutPrefix(s, "Memory cgroup stats for /")
	if !ok {
		return false
	}
	if strings.HasSuffix(rest, ":") && !strings.ContainsAny(rest, " \t") {
		return true
	}
	_, stats, ok := strings.Cut(rest, ": ")
	if !ok {
		return false
	}
	_, _, ok = memcgV2StatLine(stats)
	return ok
}

// addMemcgV2Stat reads t into MemcgStats when it is a v2 memory.stat line, or the header line
// with the first key joined to it; it reports whether it did.
func (x *reportExtras) addMemcgV2Stat(t string) bool {
	name, v, ok := memcgV2StatLine(t)
	if !ok {
		return false
	}
	if x.MemcgStats == nil {
		x.MemcgStats = &kernel.Counters{}
	}
	x.MemcgStats.Set(name, v)
	return true
}

// openMemcgStat notes whether l is v2's stats header, after which the report reads
// memory.stat lines; a header with the first key joined to it is the first of them (read by
// addOOMLine).
func (r *report) openMemcgStat(l *Line) {
	r.inMemcgStat = memcgV2StatsOpen(l.Text)
	if r.inMemcgStat && !strings.HasSuffix(strings.TrimSpace(l.Text), ":") && r.memcgStatFirst == 0 {
		r.memcgStatFirst, r.memcgStatLast = l.No, l.No
	}
}
