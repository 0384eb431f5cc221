package diagnose

import (
	"fmt"
	"testing"
)

// g292's 6861 (LKML 2020): a host OOM kill whose own Mem-Info line holds a third of the
// memory or more in unreclaimable slab, the victims' RSS under a megabyte: the slab is what
// the workload lacked, the root of the kill. A small slab share, or a kill inside a memory
// cgroup, keeps the kill its own root.
func TestFix68gSlabShareRootsHostOOM(t *testing.T) {
	report := func(slabPages int64, memcg bool) string {
		constraint := "CONSTRAINT_NONE"
		kill := "[330319.251380] Out of memory: Killed process 541 (dbus-broker) total-vm:4400kB, anon-rss:892kB, file-rss:380kB, shmem-rss:0kB, UID:0 pgtables:44kB oom_score_adj:-900\n"
		if memcg {
			constraint = "CONSTRAINT_MEMCG"
			kill = "[330319.251380] Memory cgroup out of memory: Killed process 541 (dbus-broker) total-vm:4400kB, anon-rss:892kB, file-rss:380kB, shmem-rss:0kB, UID:0 pgtables:44kB oom_score_adj:-900\n"
		}
		return "[330319.200000] systemd invoked oom-killer: gfp_mask=0x40cc0(GFP_KERNEL|__GFP_COMP), order=1, oom_score_adj=0\n" +
			"[330319.210000] Mem-Info:\n" +
			"[330319.210001] active_anon:2224 inactive_anon:38 isolated_anon:0\n" +
			"                  active_file:160 inactive_file:185 isolated_file:0\n" +
			"                  unevictable:0 dirty:0 writeback:0 unstable:0\n" +
			fmt.Sprintf("                  slab_reclaimable:34660 slab_unreclaimable:%d\n", slabPages) +
			"                  mapped:93 shmem:84 pagetables:425 bounce:0\n" +
			"                  free:372311 free_pcp:103 free_cma:0\n" +
			"[330319.240000] 2097152 pages RAM\n" +
			fmt.Sprintf("[330319.250000] oom-kill:constraint=%s,nodemask=(null),cpuset=/,mems_allowed=0,global_oom,task_memcg=/,task=dbus-broker,pid=541,uid=0\n", constraint) +
			kill
	}
	// 795718 pages of 2097152: 38%.
	d, root := rootOf(t, report(795718, false))
	if root != "slab-unreclaimable-growth" || findingOf(d, "oom-kill") == nil {
		t.Errorf("38%% of memory in slab at a host OOM: root %q", root)
	}
	if _, root := rootOf(t, report(104857, false)); root != "oom-kill" {
		t.Errorf("5%% of memory in slab: root %q, want oom-kill", root)
	}
}
