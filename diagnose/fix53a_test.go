package diagnose

import (
	"strings"
	"testing"
)

// An allocation-failure report's zone lines (warn_alloc's show_free_areas, mm/page_alloc.c)
// are the failure's own evidence, judged by the alloc-fail-* rules; zone-reserve-low does not
// read them as a reading of its own (fix53a did; its second finding was told as a separate
// problem beside seed 004's lowmem failure, and an edge either way broke that story). The
// snippet is corpus 4404's report (5.3.0-rc7), the quoted-printable wraps undone, the rest cut.
const fix53aFailure = `gnome-shell: page allocation failure: order:0, mode:0x400d0(__GFP_IO|__GFP_FS|__GFP_COMP|__GFP_RECLAIMABLE), nodemask=(null),cpuset=/,mems_allowed=0
CPU: 2 PID: 1022 Comm: gnome-shell Not tainted 5.3.0-rc7-1-ARCH #1
Mem-Info:
active_anon:505791 inactive_anon:137312 isolated_anon:53
 active_file:7074 inactive_file:8072 isolated_file:32
 unevictable:2125 dirty:56 writeback:0 unstable:0
 slab_reclaimable:14348 slab_unreclaimable:31867
 mapped:5631 shmem:10740 pagetables:5907 bounce:0
 free:45505 free_pcp:908 free_cma:0
Node 0 DMA free:15456kB min:272kB low:340kB high:408kB active_anon:160kB inactive_anon:68kB active_file:0kB inactive_file:16kB unevictable:0kB writepending:0kB present:15912kB managed:15872kB mlocked:0kB kernel_stack:0kB pagetables:20kB bounce:0kB free_pcp:0kB local_pcp:0kB free_cma:0kB
lowmem_reserve[]: 0 3137 3801 3801 3801
Node 0 DMA32 free:160740kB min:157952kB low:171840kB high:185728kB active_anon:1861456kB inactive_anon:523796kB active_file:27964kB inactive_file:32576kB unevictable:8240kB writepending:224kB present:3322892kB managed:3234336kB mlocked:48kB kernel_stack:7092kB pagetables:19796kB bounce:0kB free_pcp:3176kB local_pcp:120kB free_cma:0kB
lowmem_reserve[]: 0 0 663 663 663
Node 0 Normal free:NORMALkB min:38188kB low:41124kB high:44060kB active_anon:162152kB inactive_anon:25216kB active_file:68kB inactive_file:276kB unevictable:260kB writepending:0kB present:753664kB managed:679748kB mlocked:16kB kernel_stack:3692kB pagetables:3812kB bounce:0kB free_pcp:296kB local_pcp:0kB free_cma:0kB
lowmem_reserve[]: 0 0 0 0 0
1023117 pages RAM
`

func fix53aReport(normalFreeKB string) string {
	return strings.Replace(fix53aFailure, "NORMAL", normalFreeKB, 1)
}

func TestFix53aFailureZonesStayTheFailures(t *testing.T) {
	// Normal free 5824 kB against min 38188 kB at the failure: the failure's fact, not a
	// zoneinfo reading.
	res := run(t, "zone-reserve-low", parseText19b(t, fix53aReport("5824")))
	if len(res.Findings) > 0 {
		t.Fatalf("fired %q on a failure report's zones", res.Findings[0].Title)
	}
	if !strings.Contains(res.NotChecked, "no /proc/zoneinfo") {
		t.Errorf("not checked %q, want it to name the zoneinfo it lacked", res.NotChecked)
	}
}

// What is not a failure's zone state: a question quoting the figures, the failure header
// alone (no Mem-Info), and an OOM report's zones (they stay the OOM's; fix53a reads only
// failure reports).
func TestFix53aZoneReserveNotRead(t *testing.T) {
	notRead := map[string]string{
		"question":    "Why would the Normal zone show free:5824kB min:38188kB low:41124kB after a page allocation failure? Is that below the watermark?\n",
		"header only": "gnome-shell: page allocation failure: order:0, mode:0x400d0(__GFP_IO|__GFP_FS|__GFP_COMP|__GFP_RECLAIMABLE), nodemask=(null),cpuset=/,mems_allowed=0\n",
		"oom report": strings.Replace(fix53aReport("5824"),
			"gnome-shell: page allocation failure: order:0, mode:0x400d0(__GFP_IO|__GFP_FS|__GFP_COMP|__GFP_RECLAIMABLE), nodemask=(null),cpuset=/,mems_allowed=0",
			"gnome-shell invoked oom-killer: gfp_mask=0x100cca(GFP_HIGHUSER_MOVABLE), order=0, oom_score_adj=0", 1),
	}
	for name, text := range notRead {
		res := run(t, "zone-reserve-low", parseText19b(t, text))
		if len(res.Findings) > 0 {
			t.Errorf("%s: fired %q %+v", name, res.Findings[0].Title, res.Findings[0].Evidence)
		}
	}
}

// fix53a: a host-wide OOM report's Mem-Info ("free:25981 slab_reclaimable:9919
// slab_unreclaimable:1836972", pages; dump_header's show_mem, mm/oom_kill.c) carries the
// kernel's unreclaimable slab when the host ran out, as a failure report's does. The
// snippet is corpus 4409's first OOM report (3.12), its per-cpu lines and trace cut.
func TestFix53aSlabAtOOM(t *testing.T) {
	tl := parseText19b(t, fix53aOOM)
	f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Warning)
	if f.Title != "unreclaimable slab was large at the OOM kill" {
		t.Errorf("title %q", f.Title)
	}
	ev := f.Evidence[0]
	if ev.What != "slab_unreclaimable in the OOM report's memory line" || !strings.HasPrefix(ev.Value, "1836972 pages = 7 GiB, 90.") {
		t.Errorf("evidence %q = %q", ev.What, ev.Value)
	}
	// A small slab at the OOM is healthy, not a finding.
	small := strings.Replace(fix53aOOM, "slab_unreclaimable:1836972", "slab_unreclaimable:18369", 1)
	res := run(t, "slab-unreclaimable-growth", parseText19b(t, small))
	if len(res.Findings) > 0 || !strings.Contains(res.Checked, "at the OOM kill") {
		t.Errorf("small slab: findings %+v, checked %q", res.Findings, res.Checked)
	}
	// The figure in a sentence is no report's.
	prose := "After trinity ran, slab_unreclaimable:1836972 pages stayed; the OOM killer then killed git.\n"
	if res := run(t, "slab-unreclaimable-growth", parseText19b(t, prose)); len(res.Findings) > 0 {
		t.Errorf("prose: fired %+v", res.Findings[0].Evidence)
	}
}

const fix53aOOM = `[61034.176028] systemd invoked oom-killer: gfp_mask=0x200da, order=0, oom_score_adj=0
[61034.176658] systemd cpuset=/ mems_allowed=0
[61034.177580] CPU: 0 PID: 1 Comm: systemd Not tainted 3.12.0+ #8
[61034.204693] Mem-Info:
[61034.219837] active_anon:695 inactive_anon:587 isolated_anon:0
[61034.219837]  active_file:25044 inactive_file:64529 isolated_file:0
[61034.219837]  unevictable:0 dirty:0 writeback:79 unstable:0
[61034.219837]  free:25981 slab_reclaimable:9919 slab_unreclaimable:1836972
[61034.219837]  mapped:5093 shmem:157 pagetables:1065 bounce:0
[61034.219837]  free_cma:0
[61034.225792] Node 0 DMA free:15872kB min:132kB low:164kB high:196kB active_anon:0kB inactive_anon:0kB active_file:0kB inactive_file:0kB unevictable:0kB isolated(anon):0kB isolated(file):0kB present:15972kB managed:15888kB mlocked:0kB dirty:0kB writeback:0kB mapped:0kB shmem:0kB slab_reclaimable:0kB slab_unreclaimable:16kB kernel_stack:0kB pagetables:0kB unstable:0kB bounce:0kB free_cma:0kB writeback_tmp:0kB pages_scanned:0 all_unreclaimable? yes
[61034.228825] lowmem_reserve[]: 0 2549 7749 7749
[61034.230209] Node 0 DMA32 free:42836kB min:22184kB low:27728kB high:33276kB active_anon:0kB inactive_anon:888kB active_file:29896kB inactive_file:88680kB unevictable:0kB isolated(anon):0kB isolated(file):0kB present:2646084kB managed:2610340kB mlocked:0kB dirty:0kB writeback:96kB mapped:4352kB shmem:0kB slab_reclaimable:7728kB slab_unreclaimable:2416668kB kernel_stack:176kB pagetables:1492kB unstable:0kB bounce:0kB free_cma:0kB writeback_tmp:0kB pages_scanned:188530 all_unreclaimable? yes
[61034.232607] lowmem_reserve[]: 0 0 5200 5200
[61034.233297] Node 0 Normal free:45216kB min:45260kB low:56572kB high:67888kB active_anon:2780kB inactive_anon:1460kB active_file:70280kB inactive_file:169436kB unevictable:0kB isolated(anon):0kB isolated(file):0kB present:5478400kB managed:5324908kB mlocked:0kB dirty:0kB writeback:220kB mapped:16020kB shmem:628kB slab_reclaimable:31948kB slab_unreclaimable:4931204kB kernel_stack:888kB pagetables:2768kB unstable:0kB bounce:0kB free_cma:0kB writeback_tmp:0kB pages_scanned:10 all_unreclaimable? no
[61034.236044] lowmem_reserve[]: 0 0 0 0
[61034.236780] Node 0 DMA: 0*4kB 0*8kB 0*16kB 0*32kB 2*64kB (U) 1*128kB (U) 1*256kB (U) 0*512kB 1*1024kB (U) 1*2048kB (R) 3*4096kB (M) = 15872kB
[61034.238257] Node 0 DMA32: 103*4kB (U) 17*8kB (U) 101*16kB (UE) 147*32kB (UE) 77*64kB (UEM) 79*128kB (UEM) 30*256kB (UEM) 14*512kB (UEM) 0*1024kB 1*2048kB (R) 1*4096kB (R) = 42900kB
[61034.239844] Node 0 Normal: 226*4kB (UR) 239*8kB (UEM) 279*16kB (UEM) 340*32kB (UEM) 131*64kB (UEM) 50*128kB (UEM) 9*256kB (E) 14*512kB (UEM) 1*1024kB (M) 1*2048kB (R) 0*4096kB = 45488kB
[61034.241494] Node 0 hugepages_total=0 hugepages_free=0 hugepages_surp=0 hugepages_size=2048kB
[61034.242297] 25925 total pagecache pages
[61034.243097] 700 pages in swap cache
[61034.243867] Swap cache stats: add 2829062, delete 2828362, find 15768380/16225121
[61034.244679] Free swap  = 7971264kB
`
