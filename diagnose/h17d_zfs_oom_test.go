package diagnose

import (
	"strings"
	"testing"
)

// Pre-round 17 (h17d): a host's OOM kill on a ZFS host (Proxmox VE, TrueNAS SCALE) names the
// ARC when the text shows it (arcstats, arc_summary): its size against RAM, c_max, and the
// change zfs_arc_max. Snippets written here from the kernel's and OpenZFS's format strings.

const h17dKill = "Nov 30 03:12:44 pve kernel: kvm invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=0\n" +
	"Nov 30 03:12:44 pve kernel: oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),cpuset=qemu.slice,mems_allowed=0,global_oom,task_memcg=/qemu.slice/104.scope,task=kvm,pid=4242,uid=0\n" +
	"Nov 30 03:12:44 pve kernel: Out of memory: Killed process 4242 (kvm) total-vm:34567890kB, anon-rss:33554432kB, file-rss:1024kB, shmem-rss:0kB, UID:0 pgtables:66000kB oom_score_adj:0\n\n"

const h17dArcstats = "# cat /proc/spl/kstat/zfs/arcstats\n13 1 0x01 123 33456 4169424522 1032145678901234\nname                            type data\n" +
	"c_min                           4    2104533504\nc_max                           4    67343032320\nsize                            4    60129542144\n" +
	"memory_all_bytes                4    67343032320\nmemory_available_bytes          3    -1073741824\n"

const h17dArcSummary = "root@pve:~# arc_summary | grep -A4 'ARC size'\nARC size (current):                                    96.1 %   30.0 GiB\n" +
	"        Target size (adaptive):                       100.0 %   31.2 GiB\n        Min size (hard limit):                          6.2 %    2.0 GiB\n" +
	"        Max size (high water):                           16:1   31.2 GiB\n"

func TestH17dOOMKillNamesZFSARC(t *testing.T) {
	for _, c := range []struct {
		text, value string
		change      bool
	}{
		{h17dKill + h17dArcstats, "89% of memory_all_bytes", true},
		{h17dKill + h17dArcSummary, "size 30 GiB, c_max 31.2 GiB", true},
		// A small ARC beside the kill is cited, but capping it is no change to make.
		{h17dKill + "name                            type data\nsize                            4    104857600\nmemory_all_bytes                4    67343032320\n", "size 100 MiB", false},
	} {
		d := h16aRun(t, c.text)
		fs := findings(d, "oom-kill")
		if len(fs) == 0 || !evidenceHas(fs[0], "ZFS ARC", c.value) {
			t.Errorf("%q: want oom-kill citing the ARC (%s), got %+v", c.text, c.value, fs)
			continue
		}
		has := false
		for _, ch := range fs[0].Changes {
			has = has || ch.Key == "zfs_arc_max"
		}
		if has != c.change {
			t.Errorf("%q: zfs_arc_max change %v, want %v", c.text, has, c.change)
		}
	}
	// The ARC alone, at c_max with plenty available, is no finding (a full cache is no leak),
	// and a memory cgroup's kill does not cite the host's ARC.
	for _, text := range []string{
		h17dArcSummary,
		"name                            type data\nsize                            4    34359738368\nc_max                           4    34359738368\nmemory_all_bytes                4    137438953472\nmemory_available_bytes          3    60129542144\n",
	} {
		d := h16aRun(t, text)
		if len(d.Findings) != 0 {
			t.Errorf("%q: findings %+v", text, d.Findings)
		}
	}
	memcg := strings.Replace(h17dKill, "constraint=CONSTRAINT_NONE", "constraint=CONSTRAINT_MEMCG", 1)
	memcg = strings.Replace(memcg, ",global_oom,", ",oom_memcg=/qemu.slice/104.scope,", 1)
	d := h16aRun(t, memcg+h17dArcstats)
	if fs := findings(d, "oom-kill"); len(fs) == 0 || evidenceHas(fs[0], "ZFS ARC", "") {
		t.Errorf("a memory cgroup's kill: want oom-kill without the ARC, got %+v", fs)
	}
}
