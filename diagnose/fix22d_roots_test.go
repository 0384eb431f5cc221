package diagnose

import (
	"strings"
	"testing"
)

// fix22d (round 17, g82/g83): which finding leads the story.

// An OOM report's Mem-Info marks the node all_unreclaimable: the mark is the exhausted
// memory the killer answered, so the kill is the root (corpus 1924, 1926: the victim line
// cut, the task table's header kept). Before: node-unreclaimable led.
const fix22dOOMReport = `<4>[ 3117.587337]  slab_reclaimable:159 slab_unreclaimable:3067
<4>[ 3117.587337]  mapped:5 shmem:20 pagetables:9 bounce:0
<4>[ 3117.587337]  free:3346 free_pcp:14 free_cma:0
<4>[ 3117.587358] Node 0 active_anon:212kB inactive_anon:44kB active_file:36kB inactive_file:32kB unevictable:0kB isolated(anon):0kB isolated(file):0kB mapped:20kB dirty:0kB writeback:0kB shmem:80kB writeback_tmp:0kB unstable:0kB all_unreclaimable? yes
<4>[ 3117.587386] Normal free:13384kB min:16384kB low:20480kB high:24576kB active_anon:240kB inactive_anon:44kB active_file:144kB inactive_file:500kB unevictable:0kB writepending:0kB present:131072kB managed:123720kB mlocked:0kB kernel_stack:448kB pagetables:36kB bounce:0kB free_pcp:56kB local_pcp:0kB free_cma:0kB
<4>[ 3117.587390] lowmem_reserve[]: 0 0 0
<4>[ 3117.587410] Normal: 216*4kB (UMEH) 164*8kB (UMEH) 89*16kB (UMH) 28*32kB (UM) 23*64kB (UM) 13*128kB (UM) 9*256kB (M) 6*512kB (UM) 1*1024kB (M) 0*2048kB 0*4096kB = 14032kB
<4>[ 3117.587513] 58 total pagecache pages
<4>[ 3117.587520] 0 pages in swap cache
<4>[ 3117.587528] Swap cache stats: add 0, delete 0, find 0/0
<4>[ 3117.587532] Free swap  = 0kB
<4>[ 3117.587538] Total swap = 0kB
<4>[ 3117.587544] 32768 pages RAM
<4>[ 3117.587549] 0 pages HighMem/MovableOnly
<4>[ 3117.587554] 1838 pages reserved
<6>[ 3117.587560] [ pid ]   uid  tgid total
`

func TestFix22dOOMReportLeadsItsUnreclaimableMark(t *testing.T) {
	d, root := rootOf(t, fix22dOOMReport)
	if findingOf(d, "node-unreclaimable") == nil || findingOf(d, "oom-kill") == nil {
		t.Fatalf("want both node-unreclaimable and oom-kill, got %v", ids(d))
	}
	if root != "oom-kill" {
		t.Errorf("root = %q, want oom-kill", root)
	}
	// Counter-case: the same Mem-Info without the task table (no OOM report): the mark
	// alone leads, as before.
	noOOM := fix22dOOMReport[:strings.Index(fix22dOOMReport, "<6>")]
	d, root = rootOf(t, noOOM)
	if findingOf(d, "oom-kill") != nil {
		t.Fatalf("no OOM report, yet oom-kill fired: %v", ids(d))
	}
	if root == "oom-kill" {
		t.Errorf("root = oom-kill without a kill")
	}
}

func TestFix22dEdgeOOMUnreclaimableNotForCgroupKills(t *testing.T) {
	mark := Finding{ID: "node-unreclaimable", Severity: Critical, Title: "reclaim gave up"}
	for _, c := range []struct {
		scope OOMScope
		want  string
	}{
		{OOMHost, "oom-kill"},
		{OOMUndecided, "oom-kill"},
		{OOMHostAndCgroup, "oom-kill"},
		{OOMCgroup, "node-unreclaimable"}, // a cgroup at its limit: the node's mark is its own story
	} {
		kill := Finding{ID: "oom-kill", Severity: Warning, Title: "the OOM killer ran", Facts: Facts{OOM: c.scope}}
		if got := RootCause([]Finding{mark, kill}); got != c.want {
			t.Errorf("%s kill: root = %q, want %q", c.scope, got, c.want)
		}
	}
}

// /proc/buddyinfo pasted beside a page allocation failure, no NIC in the input:
// memory-fragmented judges the failure's own order, so its lists are the failure's state and
// the failure leads, as when the lists come in its own Mem-Info (corpus 1941). Before:
// memory-fragmented led. A NIC's order (its MTU) keeps fragmentation as the root.
func TestFix22dFailureLeadsBuddyinfoAtItsOrder(t *testing.T) {
	text := "```\nrunc:[1:CHILD]: page allocation failure: order:6, mode:0x10c0d0\n```\n\n" +
		"```\n$ cat /proc/buddyinfo\n" +
		"Node 0, zone      DMA      1      0      1      0      2      1      1      0      1      1      3\n" +
		"Node 0, zone    DMA32   2725    624    489    178      0      0      0      0      0      0      0\n" +
		"Node 0, zone   Normal   1163   1101    932    222      0      0      0      0      0      0      0\n```\n"
	d, root := rootOf(t, text)
	mf, af := findingOf(d, "memory-fragmented"), findingOf(d, "alloc-fail-fragmented")
	if mf == nil || af == nil {
		t.Fatalf("want memory-fragmented and alloc-fail-fragmented, got %v", ids(d))
	}
	if !mf.Facts.OrderOfFailure {
		t.Errorf("memory-fragmented judged order not from the failure: %q", mf.Title)
	}
	if root != "alloc-fail-fragmented" {
		t.Errorf("root = %q, want alloc-fail-fragmented", root)
	}
	// Counter-case: fragmentation judged for a NIC's own buffers explains the failure.
	nic := Finding{ID: "memory-fragmented", Severity: Critical, Title: "order-2 blocks are scarce"}
	fail := Finding{ID: "alloc-fail-fragmented", Severity: Warning, Title: "order-2 allocations failed"}
	if got := RootCause([]Finding{fail, nic}); got != "memory-fragmented" {
		t.Errorf("NIC's order: root = %q, want memory-fragmented", got)
	}
	nic.Facts.OrderOfFailure = true
	if got := RootCause([]Finding{nic, fail}); got != "alloc-fail-fragmented" {
		t.Errorf("failure's order: root = %q, want alloc-fail-fragmented", got)
	}
}
