package artifact

import (
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// KindCgroupMemStat is a cgroup's memory.stat (v2, or v1 in its own layout);
// KindCgroupMemEvents its memory.events (v2) or memory.oom_control (v1).
const (
	KindCgroupMemStat   = "cgroup_memory_stat"
	KindCgroupMemEvents = "cgroup_memory_events"
)

// A cgroup's memory.stat is "name value" lines like /proc/vmstat, but its sizes are in
// BYTES and carry no nr_ prefix: "anon 4096", "kernel_stack 81920", "sock 0"
// (mm/memcontrol.c memory_stat_format, memory_stats[]; the keys are listed in
// Documentation/admin-guide/cgroup-v2.rst "memory.stat"). Read as /proc/vmstat, its bare
// names (kernel, pagetables, percpu, sock, vmalloc, slab) are lost and its byte sizes would
// be taken for pages. memStatSizeKeys are the v2 size keys: none of them is a /proc/vmstat
// name, so two of them in a block of "name value" lines say it is memory.stat.
var memStatSizeKeys = map[string]bool{
	"anon": true, "file": true, "kernel": true, "kernel_stack": true, "pagetables": true,
	"sec_pagetables": true, "percpu": true, "sock": true, "vmalloc": true, "shmem": true,
	"zswap": true, "zswapped": true, "file_mapped": true, "file_dirty": true, "file_writeback": true,
	"swapcached": true, "anon_thp": true, "file_thp": true, "shmem_thp": true,
	"inactive_anon": true, "active_anon": true, "inactive_file": true, "active_file": true,
	"unevictable": true, "slab_reclaimable": true, "slab_unreclaimable": true, "slab": true,
	"hugetlb": true,
}

// memStatV1Keys are keys only the v1 memory.stat prints (mm/memcontrol-v1.c
// memcg1_stat_format, Documentation/admin-guide/cgroup-v1/memory.rst 5.2): byte sizes too.
var memStatV1Keys = map[string]bool{
	"cache": true, "rss": true, "rss_huge": true, "mapped_file": true, "dirty": true,
	"writeback": true, "swap": true, "hierarchical_memory_limit": true, "hierarchical_memsw_limit": true,
}

// CgroupMemStat is a pasted memory.stat. Values are as the file prints them: bytes for
// sizes, counts for events (pgfault, workingset_refault_*, thp_*).
type CgroupMemStat struct {
	Version int             `json:"cgroup_version"` // 2, or 1 when v1-only keys are present
	Stat    kernel.Counters `json:"stat"`
}

// memStatLine matches "name value" with a lower-case name, the shape of both memory.stat and
// /proc/vmstat lines (any indentation: pastes put the file after a label or in a column).
func memStatLine(t string) (string, int64, bool) {
	fs := fields(t)
	if len(fs) != 2 || !isDigits(fs[1]) || fs[0] == "" || fs[0][0] < 'a' || fs[0][0] > 'z' {
		return "", 0, false
	}
	for i := 0; i < len(fs[0]); i++ {
		c := fs[0][i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9') {
			return "", 0, false
		}
	}
	v, ok := atoi(fs[1])
	return fs[0], v, ok
}

func (d *doc) tryCgroupMemStat(i int) int {
	if _, _, ok := memStatLine(d.ls[i].Text); !ok {
		return 0
	}
	if n := d.tryCgroupMemEvents(i); n > 0 {
		return n
	}
	k := procBlock(d.ls, i, func(t string) bool { _, _, ok := memStatLine(t); return ok })
	ms := &CgroupMemStat{Version: 2}
	sizes, v1, total := 0, 0, 0
	for _, l := range d.ls[i:k] {
		name, v, _ := memStatLine(l.Text)
		switch {
		case memStatSizeKeys[name]:
			sizes++
		case memStatV1Keys[name]:
			v1++
		case strings.HasPrefix(name, "total_"):
			total++ // v1 hierarchical totals: total_rss, total_cache ...
		}
		ms.Stat.Set(name, v)
	}
	// Two distinct signs and three lines at least: a /proc/vmstat excerpt has none of these
	// names (it prints nr_anon_pages, nr_shmem, nr_kernel_stack ...).
	if k-i < 3 || sizes+v1+total < 2 {
		return 0
	}
	if v1+total > 0 {
		ms.Version = 1
	}
	d.segSeq++
	d.addArtifact(KindCgroupMemStat, d.ls[i].No, d.ls[k-1].No, ms)
	d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: ms.Version, Path: d.cgroupPathAbove(i),
		Stat: &ms.Stat, Source: spanSource(d.ls[i].No, d.ls[k-1].No)})
	return k - i
}

// memEventsV2 are the keys of a v2 memory.events (Documentation/admin-guide/cgroup-v2.rst
// "memory.events"; mm/memcontrol.c memory_events_show): times the cgroup went under low,
// over high (throttled), to max (allocation reclaimed at the limit), OOM, OOM kills, group
// kills (5.17+). memEventsV1 are v1's memory.oom_control (mm/memcontrol-v1.c
// mem_cgroup_oom_control_read; oom_kill since 4.13).
var (
	memEventsV2 = map[string]bool{"low": true, "high": true, "max": true, "oom": true, "oom_kill": true, "oom_group_kill": true}
	memEventsV1 = map[string]bool{"oom_kill_disable": true, "under_oom": true, "oom_kill": true}
)

// CgroupMemEvents is a pasted memory.events or memory.oom_control.
type CgroupMemEvents struct {
	Version int             `json:"cgroup_version"`
	Events  kernel.Counters `json:"events"`
}

// tryCgroupMemEvents reads memory.events (v2: "max" and "oom" or "oom_kill" among its keys)
// or v1's memory.oom_control ("oom_kill_disable" and "under_oom"): every line must be one of
// the file's keys, so a /proc/vmstat excerpt (whose oom_kill is the host's) is never taken.
func (d *doc) tryCgroupMemEvents(i int) int {
	k := procBlock(d.ls, i, func(t string) bool {
		name, _, ok := memStatLine(t)
		return ok && (memEventsV2[name] || memEventsV1[name])
	})
	if k-i < 3 {
		return 0
	}
	ev := &CgroupMemEvents{}
	for _, l := range d.ls[i:k] {
		name, v, _ := memStatLine(l.Text)
		ev.Events.Set(name, v)
	}
	if !ev.versioned() {
		return 0
	}
	d.addCgroupMemEvents(ev, d.cgroupPathAbove(i), d.ls[i].No, d.ls[k-1].No)
	return k - i
}

// versioned sets the file's version from its keys: v2's memory.events has "max" and "oom" or
// "oom_kill"; v1's memory.oom_control "oom_kill_disable" and "under_oom". It says whether
// the keys are either file's.
func (ev *CgroupMemEvents) versioned() bool {
	has := func(n string) bool { return ev.Events.Has(n) }
	switch {
	case has("max") && (has("oom") || has("oom_kill")) && !has("under_oom"):
		ev.Version = 2
	case has("oom_kill_disable") && has("under_oom") && !has("max"):
		ev.Version = 1
	default:
		return false
	}
	return true
}

func (d *doc) addCgroupMemEvents(ev *CgroupMemEvents, path string, first, last int) {
	d.segSeq++
	d.addArtifact(KindCgroupMemEvents, first, last, ev)
	d.tl.CgroupMemory = append(d.tl.CgroupMemory, model.CgroupMemory{Version: ev.Version, Path: path,
		Events: &ev.Events, Source: spanSource(first, last)})
}

// tryCgroupMemEventsLine reads memory.events or memory.oom_control flattened onto one line
// (h31d): "low 0 high 812 max 40211 oom 7 oom_kill 7", alone or after the command that
// printed it ("$ cat /sys/fs/cgroup/x/memory.events low 0 ..."), as a paste that lost its
// line breaks gives it. Every field after the file's name (or of the line) must be the
// file's key and its count, three pairs at least, so neither a sentence that names
// oom_kill nor /proc/vmstat flattened (its keys are not the file's) is taken.
func (d *doc) tryCgroupMemEventsLine(i int) int {
	t := d.ls[i].Text
	path := ""
	for _, f := range [...]string{"/memory.events ", "/memory.oom_control "} {
		if k := strings.LastIndex(t, f); k > 0 {
			head := t[:k]
			path = strings.Trim(head[strings.LastIndexAny(head, " \t")+1:], "`'\"")
			t = t[k+len(f):]
			break
		}
	}
	fs := fields(t)
	if len(fs) < 6 || len(fs)%2 != 0 {
		return 0
	}
	ev := &CgroupMemEvents{}
	for j := 0; j < len(fs); j += 2 {
		v, ok := atoi(fs[j+1])
		if !ok || !isDigits(fs[j+1]) || !memEventsV2[fs[j]] && !memEventsV1[fs[j]] || ev.Events.Has(fs[j]) {
			return 0
		}
		ev.Events.Set(fs[j], v)
	}
	if !ev.versioned() {
		return 0
	}
	if !strings.HasPrefix(path, "/") {
		path = ""
	}
	d.addCgroupMemEvents(ev, path, d.ls[i].No, d.ls[i].No)
	return 1
}

// cgroupPathAbove returns the cgroup directory a command right above line i names
// ("$ cat /sys/fs/cgroup/system.slice/memory.events"), or "".
func (d *doc) cgroupPathAbove(i int) string {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		for _, f := range fields(d.ls[j].Text) {
			f = strings.Trim(f, "`'\"")
			if dir, _, ok := strings.Cut(f, "/memory."); ok && strings.HasPrefix(f, "/") {
				return dir
			}
		}
	}
	return ""
}
