package diagnose

import (
	"strings"
	"testing"
)

// g291's 6832 (linux-mm 2016): an order-2 OOM kill whose own dump holds DMA32 and Normal
// above their low watermarks with no free block of order 2 or larger: fragmentation ran the
// killer, the kill's root. A block of the order left (so the zones could serve it), or a
// zone below its watermarks, keeps the kill its own root.
func TestFix68iFragmentationRunsTheOOMKiller(t *testing.T) {
	const report = "[  501.942745] coretemp-sensor invoked oom-killer: gfp_mask=0x27000c0(GFP_KERNEL_ACCOUNT|__GFP_NOTRACK), order=2, oom_score_adj=0\n" +
		"[  501.942796] CPU: 3 PID: 409 Comm: coretemp-sensor Not tainted 4.5.0-rc6-next-20160307 #250\n" +
		"[  501.942850] Mem-Info:\n" +
		"[  501.942853] active_anon:151312 inactive_anon:54791 isolated_anon:0\n" +
		"                active_file:31213 inactive_file:302048 isolated_file:0\n" +
		"                slab_reclaimable:43570 slab_unreclaimable:5651\n" +
		"                free:10884 free_pcp:214 free_cma:0\n" +
		"[  501.942859] DMA free:14896kB min:28kB low:40kB high:52kB present:15984kB managed:15900kB\n" +
		"[  501.942862] lowmem_reserve[]: 0 3031 3855 3855\n" +
		"[  501.942867] DMA32 free:23664kB min:6232kB low:9332kB high:12432kB present:3194880kB managed:3107512kB\n" +
		"[  501.942870] lowmem_reserve[]: 0 0 824 824\n" +
		"[  501.942876] Normal free:4784kB min:1696kB low:2540kB high:3384kB present:917504kB managed:844512kB\n" +
		"[  501.942879] lowmem_reserve[]: 0 0 0 0\n" +
		"[  501.942902] DMA: 6*4kB (UME) 3*8kB (M) 2*16kB (UM) 3*32kB (ME) 2*64kB (ME) 2*128kB (ME) 2*256kB (UE) 3*512kB (UME) 2*1024kB (ME) 1*2048kB (E) 2*4096kB (M) = 14896kB\n" +
		"[  501.942912] DMA32: 564*4kB (UME) 2700*8kB (UM) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 23856kB\n" +
		"[  501.942921] Normal: 959*4kB (ME) 128*8kB (UM) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 4860kB\n" +
		"[  501.942928] 1032092 pages RAM\n" +
		"[  501.943200] Out of memory: Kill process 4331 (firefox) score 59 or sacrifice child\n" +
		"[  501.943210] Killed process 4331 (firefox) total-vm:1149688kB, anon-rss:207844kB, file-rss:48172kB, shmem-rss:516kB\n"
	d, root := rootOf(t, report)
	f := findingOf(d, "memory-fragmented")
	if root != "memory-fragmented" || f == nil || !evidenceHas(*f, "zone Normal (node 0)", "none of order 2 or larger") || evidenceHas(*f, "zone DMA (node 0)", "") {
		t.Fatalf("order-2 OOM with no order-2 block: root %q, %+v", root, f)
	}
	for name, text := range map[string]string{
		// One order-2 block in Normal that the request may use.
		"a block left": strings.Replace(report, "Normal: 959*4kB (ME) 128*8kB (UM) 0*16kB", "Normal: 959*4kB (ME) 128*8kB (UM) 1*16kB (M)", 1),
		// DMA32 at its min: short of pages, not of blocks.
		"below low": strings.Replace(strings.Replace(report, "DMA32 free:23664kB", "DMA32 free:6000kB", 1), "Normal free:4784kB", "Normal free:1700kB", 1),
	} {
		if _, root := rootOf(t, text); root == "memory-fragmented" {
			t.Errorf("%s: root memory-fragmented", name)
		}
	}
	// Blocks of the order only in the highatomic reserve are none this request may use.
	high := strings.Replace(report, "Normal: 959*4kB (ME) 128*8kB (UM) 0*16kB 0*32kB", "Normal: 959*4kB (ME) 128*8kB (UM) 19*16kB (H) 8*32kB (H)", 1)
	if _, root := rootOf(t, high); root != "memory-fragmented" {
		t.Errorf("highatomic blocks only: root %q", root)
	}
}
