package diagnose

import (
	"testing"

	"headroom/artifact"
)

// Three readings of a 32-bit kernel's lowmem, each from a corpus case:
//   - 6102: an atomic RX refill failed with the lowmem zone below min and HighMem beside it:
//     alloc-fail-lowmem alone, the more specific cause (one cause a report, as seed 004's).
//   - fix70d (6783): i915's GFP_USER|GFP_DMA32 on an i386 kernel, which has no ZONE_DMA32:
//     the mode means ZONE_NORMAL, and Normal was below min with HighMem free.
//   - fix70e/f (6780): a 2.6.24 i386 OOM report whose frames are printed as symbols in
//     brackets, with the NVIDIA driver's own "failed to allocate a page" beside it.
func TestLowmemReadingsOf32BitKernels(t *testing.T) {
	const zones6783 = `[28756.498769] DMA free:4116kB min:788kB low:984kB high:1180kB active_anon:0kB inactive_anon:0kB active_file:1568kB inactive_file:0kB unevictable:0kB writepending:0kB present:15984kB managed:15908kB mlocked:0kB slab_reclaimable:9848kB slab_unreclaimable:376kB kernel_stack:0kB pagetables:0kB bounce:0kB free_pcp:0kB local_pcp:0kB free_cma:0kB
[28756.498770] lowmem_reserve[]: 0 833 3008 3008
[28756.498782] Normal free:42404kB min:42416kB low:53020kB high:63624kB active_anon:1316kB inactive_anon:20540kB active_file:548376kB inactive_file:60kB unevictable:0kB writepending:260kB present:892920kB managed:854328kB mlocked:0kB slab_reclaimable:184192kB slab_unreclaimable:47020kB kernel_stack:2728kB pagetables:0kB bounce:0kB free_pcp:936kB local_pcp:216kB free_cma:0kB
[28756.498783] lowmem_reserve[]: 0 0 17397 17397
[28756.498795] HighMem free:120916kB min:512kB low:28168kB high:55824kB active_anon:408672kB inactive_anon:213052kB active_file:722404kB inactive_file:720724kB unevictable:27744kB writepending:4396kB present:2226888kB managed:2226888kB mlocked:27744kB slab_reclaimable:0kB slab_unreclaimable:0kB kernel_stack:0kB pagetables:3064kB bounce:0kB free_pcp:868kB local_pcp:220kB free_cma:0kB
[28756.498796] lowmem_reserve[]: 0 0 0 0
`
	for _, tc := range []struct {
		name, text string
		want, not  []string
	}{
		{"6102 atomic RX refill in lowmem", `kworker/u9:1: page allocation failure: order:0, mode:0x820(GFP_ATOMIC), nodemask=(null),cpuset=/,mems_allowed=0
CPU: 1 PID: 2210 Comm: kworker/u9:1 Not tainted 6.9.0-rc4-PMacG4-dirty #10
Hardware name: PowerMac3,6 7455 0x80010303 PowerMac
Call Trace:
[f1a25c20] [c0a1e8d4] dump_stack_lvl+0x80/0xac (unreliable)
[f1a25c40] [c02a0640] warn_alloc+0x100/0x178
[f1a25ca0] [c02a0a54] __alloc_pages+0x3a0/0x8e0
[f1a25d60] [c08a4b30] __netdev_alloc_skb+0xb4/0x17c
[f1a25d90] [be8d4a3c] setup_rx_descbuffer+0x5c/0x258 [b43legacy]
Mem-Info:
active_anon:142209 inactive_anon:137909 isolated_anon:0
 free:2873 free_pcp:33 free_cma:0
DMA free:0kB boost:7564kB min:10928kB low:11768kB high:12608kB reserved_highatomic:0KB active_anon:568836kB inactive_anon:92340kB active_file:12kB inactive_file:1248kB unevictable:0kB writepending:0kB present:786432kB managed:746928kB mlocked:0kB bounce:0kB free_pcp:132kB local_pcp:0kB free_cma:0kB
lowmem_reserve[]: 0 0 1280 1280
DMA: 0*4kB 0*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 0kB
524288 pages RAM
327680 pages HighMem/MovableOnly
`, []string{"alloc-fail-lowmem"}, []string{"alloc-fail-reserve"}},
		{"6783 GFP_DMA32 on i386", "[28756.498366] Xorg invoked oom-killer: gfp_mask=0x24200d4(GFP_USER|GFP_DMA32|__GFP_RECLAIMABLE), nodemask=0, order=0, oom_score_adj=0\n" +
			"[28756.498382] CPU: 1 PID: 2746 Comm: Xorg Tainted: G     U     O    4.9.0 #1\n[28756.498400] Mem-Info:\n" + zones6783 +
			"[28756.499000] Out of memory: Kill process 15515 (firefox.real) score 224 or sacrifice child\n", []string{"alloc-fail-lowmem"}, nil},
		{"6780 bracketed symbols and a driver's line", `kernel: [430837.193448] Xorg invoked oom-killer: gfp_mask=0x2d0, order=0, oomkilladj=0
kernel: [430837.193458] Pid: 6186, comm: Xorg Tainted: P        2.6.24-19-generic #1
kernel: [430837.193484]  [oom_kill_process+0x10a/0x120] oom_kill_process+0x10a/0x120
kernel: [430837.193514]  [out_of_memory+0x167/0x1a0] out_of_memory+0x167/0x1a0
kernel: [430837.193538]  [agpgart:__alloc_pages+0x36c/0x3a0] __alloc_pages+0x36c/0x3a0
kernel: [430837.193619]  [<f97102f9>] nv_vm_malloc_pages+0x109/0x310 [nvidia]
kernel: [430837.196256]  =======================
kernel: [430837.196260] Mem-info:
kernel: [430837.196335] DMA free:3536kB min:68kB low:84kB high:100kB active:0kB inactive:0kB present:16256kB pages_scanned:0 all_unreclaimable? yes
kernel: [430837.196340] lowmem_reserve[]: 0 873 4048 4048
kernel: [430837.196353] Normal free:3732kB min:3744kB low:4680kB high:5616kB active:0kB inactive:152kB present:894080kB pages_scanned:287 all_unreclaimable? yes
kernel: [430837.196357] lowmem_reserve[]: 0 0 25400 25400
kernel: [430837.196369] HighMem free:113132kB min:512kB low:3916kB high:7324kB active:1500112kB inactive:804356kB present:3251200kB pages_scanned:0 all_unreclaimable? no
kernel: [430837.196374] lowmem_reserve[]: 0 0 0 0
kernel: [430837.196500] Out of memory: kill process 6186 (Xorg) score 71530 or a child
kernel: [430838.100000] NVRM: VM: nv_vm_malloc_pages: failed to allocate a page
`, []string{"alloc-fail-lowmem"}, nil},
		// The same failure on a 64-bit kernel's DMA32 is the reserve alone.
		{"64-bit reserve", `swapper/0: page allocation failure: order:0, mode:0x20
Mem-Info:
Node 0 DMA32 free:2044kB min:2064kB low:2580kB high:3096kB active_anon:0kB inactive_anon:0kB present:3915776kB managed:3915776kB
lowmem_reserve[]: 0 0 0 0
`, []string{"alloc-fail-reserve"}, []string{"alloc-fail-lowmem"}},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		d := Run(tl, nil)
		got := map[string]bool{}
		for _, f := range d.Findings {
			got[f.ID] = true
		}
		for _, id := range tc.want {
			if !got[id] {
				t.Errorf("%s: no %s among %v", tc.name, id, ids(d))
			}
		}
		for _, id := range tc.not {
			if got[id] {
				t.Errorf("%s: %s among %v", tc.name, id, ids(d))
			}
		}
	}
}
