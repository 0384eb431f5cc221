package diagnose

import (
	"strings"
	"testing"
)

// fix22bE100Report: an order-5 atomic report of 2.6.31 (corpus 1963, linux-mm 2009: e100's
// command blocks through dma_generic_alloc_coherent when ifconfig brings eth0 up). Normal
// is above its high watermark with no free block of order 5 or more.
const fix22bE100Report = `ifconfig: page allocation failure. order:5, mode:0x8020
Pid: 5151, comm: ifconfig Not tainted 2.6.31 #2
Call Trace:
 [<c015c4e1>] ? __alloc_pages_nodemask+0x423/0x468
 [<c0104de7>] ? dma_generic_alloc_coherent+0x4a/0xab
 [<d1614b6f>] ? e100_alloc_cbs+0xc7/0x174 [e100]
Mem-Info:
DMA per-cpu:
CPU    0: hi:    0, btch:   1 usd:   0
Normal per-cpu:
CPU    0: hi:   90, btch:  15 usd:  35
Active_anon:14778 active_file:10836 inactive_anon:22033
 inactive_file:11854 unevictable:0 dirty:6 writeback:0 unstable:0
 free:1031 slab:2083 mapped:6193 pagetables:417 bounce:0
DMA free:1096kB min:124kB low:152kB high:184kB active_anon:528kB inactive_anon:3440kB active_file:1076kB inactive_file:5580kB unevictable:0kB present:15868kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 238 238
Normal free:3028kB min:1908kB low:2384kB high:2860kB active_anon:58584kB inactive_anon:84692kB active_file:42268kB inactive_file:41836kB unevictable:0kB present:243776kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0 0
DMA: 46*4kB 0*8kB 5*16kB 0*32kB 1*64kB 0*128kB 1*256kB 1*512kB 0*1024kB 0*2048kB 0*4096kB = 1096kB
Normal: 135*4kB 213*8kB 21*16kB 4*32kB 5*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 3028kB
25927 total pagecache pages
65520 pages RAM
1663 pages reserved
`

// An atomic request of order ≥ 4 is the caller's (alloc-fail-high-order-atomic, critical,
// the root); when an eligible zone was above min + lowmem_reserve with no free block of the
// order, the dump also shows fragmentation: alloc-fail-fragmented, a warning beside it.
func TestFix22bHighOrderAtomicAlsoFragmented(t *testing.T) {
	tl := pasteTimeline(t, fix22bE100Report)
	mustFire(t, run(t, "alloc-fail-high-order-atomic", tl), Critical)
	f := mustFire(t, run(t, "alloc-fail-fragmented", tl), Warning)
	if !evidenceHas(f, "zone Normal", "free 3028 kB") || !strings.Contains(f.Explanation, "condition they met") {
		t.Errorf("evidence %+v\nexplanation %s", f.Evidence, f.Explanation)
	}
	d := Run(tl, nil)
	if len(d.Story.Causes) == 0 {
		t.Fatal("no root cause")
	}
	if root := d.Story.Causes[0].ID; root != "alloc-fail-high-order-atomic" {
		t.Errorf("root %q, want alloc-fail-high-order-atomic", root)
	}
}

// Counter-cases: the same report with four free 128 kB blocks in Normal that pass the
// kernel's per-order check (the blocks were there), and with Normal at its min (short, not
// fragmented). Only alloc-fail-high-order-atomic fires. (Before fix62e the first case was one
// 128 kB block with Normal's free unchanged: the pre-4.4 per-order check fails it, the
// kernel's own test that too few free pages sit in blocks of the order's size, which fix62e
// reads as fragmentation too; fix62e_test.go.)
func TestFix22bHighOrderAtomicNotFragmented(t *testing.T) {
	for name, text := range map[string]string{
		"blocks of the order": strings.Replace(strings.Replace(fix22bE100Report, "5*64kB 0*128kB", "5*64kB 4*128kB", 1),
			"Normal free:3028kB", "Normal free:3540kB", 1),
		"Normal at min": strings.Replace(fix22bE100Report, "Normal free:3028kB min:1908kB", "Normal free:3028kB min:3100kB", 1),
	} {
		t.Run(name, func(t *testing.T) {
			tl := pasteTimeline(t, text)
			mustFire(t, run(t, "alloc-fail-high-order-atomic", tl), Critical)
			if r := run(t, "alloc-fail-fragmented", tl); len(r.Findings) > 0 {
				t.Errorf("fragmented fired: %s", r.Findings[0].Title)
			}
		})
	}
}

// fix22bDst: the ip_dst_cache row and the route cache's counts of corpus 1967 (LKML 2005,
// a 2.6.10 router logging "dst cache overflow").
const fix22bDst = "user@somemachine:~$ cat /proc/slabinfo | grep ip_dst_cache; \\\n" +
	" > cat /proc/net/rt_cache | wc -l; \\\n" +
	" > /sbin/ip ro sh cache | grep cache | wc -l;\n" +
	"ip_dst_cache      153870 154530    256   15    1 : tunables  120   60 \n" +
	"  8 : slabdata  10302  10302      0\n" +
	"2159\n2247\n"

// ip_dst_cache objects 68 times the entries the route cache lists: entries held beyond the
// cache, unreclaimable slab (a warning).
func TestFix22bRouteCacheLeak(t *testing.T) {
	f := mustFire(t, run(t, "slab-unreclaimable-growth", pasteTimeline(t, fix22bDst)), Warning)
	if !evidenceHas(f, "ip_dst_cache", "154530 objects") || !evidenceHas(f, "route cache entries", "2247") {
		t.Errorf("evidence %+v", f.Evidence)
	}
}

// Counter-cases: the route cache listing most of the objects (a busy router, not a leak),
// a small ip_dst_cache, and the slab row without any count of the cache: no route-cache
// finding.
func TestFix22bRouteCacheNoLeak(t *testing.T) {
	for name, text := range map[string]string{
		"cache lists them": strings.Replace(fix22bDst, "2247\n", "151000\n", 1),
		"small slab":       strings.Replace(strings.Replace(fix22bDst, "153870 154530", "15387 15453", 1), "10302  10302", "1031  1031", 1),
		"no count":         "$ grep ip_dst_cache /proc/slabinfo\nip_dst_cache      153870 154530    256   15    1 : tunables  120   60    8 : slabdata  10302  10302      0\n",
	} {
		t.Run(name, func(t *testing.T) {
			r := run(t, "slab-unreclaimable-growth", pasteTimeline(t, text))
			for _, f := range r.Findings {
				if strings.Contains(f.Title, "route cache") {
					t.Errorf("fired: %s", f.Title)
				}
			}
		})
	}
}
