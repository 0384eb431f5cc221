package diagnose

import (
	"strings"
	"testing"
)

// g295's 6983 (linux-mm 2016): no zoneinfo, but the host OOM report's own dump prints each
// node's "all_unreclaimable? yes" (4.8+): reclaim had given up when the killer ran. A node
// printed "no" says so too (healthy); a memory cgroup's OOM prints no host dump.
func TestFix68mNodeUnreclaimableAtOOM(t *testing.T) {
	report := func(mark string) string {
		return "[ 9000.100000] snmpd invoked oom-killer: gfp_mask=0x24201ca(GFP_HIGHUSER_MOVABLE|__GFP_COLD), order=0, oom_score_adj=0\n" +
			"[ 9000.100100] Mem-Info:\n" +
			"[ 9000.100200] active_anon:3262 inactive_anon:4024 isolated_anon:0\n" +
			" active_file:6920154 inactive_file:20183 isolated_file:0\n" +
			" free:39883 free_pcp:0 free_cma:0\n" +
			"[ 9000.100300] Node 0 active_anon:5916kB inactive_anon:7900kB active_file:13840308kB inactive_file:40336kB unevictable:0kB isolated(anon):0kB isolated(file):0kB mapped:6400kB dirty:0kB writeback:0kB shmem:0kB writeback_tmp:0kB unstable:0kB pages_scanned:23557303 all_unreclaimable? " + mark + "\n" +
			"[ 9000.100400] Node 0 Normal free:66236kB min:45108kB low:61352kB high:77596kB active_anon:5916kB inactive_anon:7900kB active_file:13840308kB inactive_file:40336kB unevictable:0kB writepending:0kB present:16777216kB managed:16497100kB mlocked:0kB\n" +
			"[ 9000.100500] lowmem_reserve[]: 0 0 0 0\n" +
			"[ 9000.100600] Out of memory: Kill process 2071 (snmpd) score 0 or sacrifice child\n" +
			"[ 9000.100700] Killed process 2071 (snmpd) total-vm:100000kB, anon-rss:5000kB, file-rss:0kB, shmem-rss:0kB\n"
	}
	d, _ := rootOf(t, report("yes"))
	if f := findingOf(d, "node-unreclaimable"); f == nil || f.Severity != Warning || !evidenceHas(*f, "reclaim gave up on node 0", "OOM report") {
		t.Fatalf("node marked at the OOM: %+v", f)
	}
	d, _ = rootOf(t, report("no"))
	if f := findingOf(d, "node-unreclaimable"); f != nil {
		t.Errorf("node not marked: %+v", f)
	}
	if c := checkOf(d, "node-unreclaimable"); c == nil || c.Status != StatusOK || !strings.Contains(c.Why, "OOM report") {
		t.Errorf("node not marked: check %+v", c)
	}
}
