package diagnose

import (
	"strings"
	"testing"
)

// fix64a: a Mem-Info dump whose report header is cut, showing nothing left to reclaim
// (page cache gone beside the anonymous memory, no swap, the big zone below min), is the
// host's OOM (corpus 1493's dump, trimmed); the zone below min is its end, not the root.
// A dump with cache or swap left, one SysRq-m asked for, or one after an allocation
// failure's header is not read so.
const fix64aDump = `[  180.737626] Node 0 Normal free:52928kB min:53536kB low:66920kB high:80304kB active_anon:11288400kB inactive_anon:8424kB active_file:2320kB inactive_file:848kB unevictable:0kB writepending:24kB present:11954176kB managed:11695584kB mlocked:0kB kernel_stack:5456kB pagetables:32684kB bounce:0kB free_pcp:8608kB local_pcp:696kB free_cma:0kB
[  180.767487] lowmem_reserve[]: 0 0 0 0 0
[  180.771477] Node 0 DMA: 2*4kB (U) 1*8kB (U) 1*16kB (U) 2*32kB (U) 3*64kB (U) 2*128kB (U) 0*256kB 0*512kB 1*1024kB (U) 1*2048kB (M) 3*4096kB (M) = 15904kB
[  180.801544] Node 0 Normal: 477*4kB (UMEH) 380*8kB (UMEH) 355*16kB (UMEH) 270*32kB (UEH) 132*64kB (UME) 67*128kB (UE) 14*256kB (UE) 8*512kB (ME) 9*1024kB (UMH) 0*2048kB 0*4096kB = 53188kB
[  180.837589] 2884 total pagecache pages
[  180.841492] 0 pages in swap cache
[  180.851548] Free swap  = 0kB
[  180.854661] Total swap = 0kB
`

func TestFix64aCutOOMDump(t *testing.T) {
	d, root := rootOf(t, fix64aDump)
	if root != "oom-kill" {
		t.Fatalf("root %q, want oom-kill; findings %+v", root, d.Findings)
	}
	f := findingOf(d, "oom-kill")
	if f.Severity != Critical || f.Facts.OOM != OOMHost {
		t.Errorf("oom-kill %v %v, want critical, host", f.Severity, f.Facts.OOM)
	}
	var all []string
	for _, e := range f.Evidence {
		all = append(all, e.What+": "+e.Value)
	}
	for _, want := range []string{"3.1 MiB of page cache beside 10.8 GiB anonymous", "no swap (Total swap = 0 kB)", "free 51.7 MiB, min 52.3 MiB"} {
		if !strings.Contains(strings.Join(all, "; "), want) {
			t.Errorf("evidence %q lacks %q", all, want)
		}
	}
	if findingOf(d, "zone-reserve-low") == nil {
		t.Errorf("zone-reserve-low gone: the zone is below min, and the story should say so as the OOM's effect")
	}

	for name, text := range map[string]string{
		"swap left":   strings.Replace(fix64aDump, "Free swap  = 0kB", "Free swap  = 2097148kB", 1),
		"cache left":  strings.Replace(fix64aDump, "inactive_file:848kB", "inactive_file:4848000kB", 1),
		"sysrq":       "[  180.700000] sysrq: Show Memory\n[  180.700001] Mem-Info:\n" + fix64aDump,
		"alloc fail":  "[  180.700000] kworker/0:1: page allocation failure: order:0, mode:0x20\n" + fix64aDump,
		"zone above":  strings.Replace(fix64aDump, "free:52928kB", "free:952928kB", 1),
		"no anon cut": strings.Replace(fix64aDump, "active_anon:11288400kB inactive_anon:8424kB ", "", 1),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "oom-kill"); f != nil {
			t.Errorf("%s: oom-kill fired: %s %+v", name, f.Title, f.Evidence)
		}
	}
}
