package artifact

import (
	"strings"

	"headroom/kernel"
)

// KindCgroupMemStat is a cgroup's memory.stat (v2, or v1 in its own layout).
const KindCgroupMemStat = "cgroup_memory_stat"

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
	return k - i
}
