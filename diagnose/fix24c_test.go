package diagnose

import (
	"strings"
	"testing"
)

// fix24c (corpus 2153, 1115): from 2.6.38 to 4.11 warn_alloc_failed printed vmalloc's
// "vmalloc: allocation failure: N bytes" on the line above its "page allocation failure:
// order:0" header: the report is the vmalloc's failure of address space, and the zones, far
// above min, do not make it a reserve exhaustion. Before: alloc-fail-reserve led.
const fix24cVmallocReport = `EXT4-fs (mmcblk0p2): re-mounted. Opts: (null)
vmalloc: allocation failure: 0 bytes
modprobe: page allocation failure: order:0, mode:0xd0
Backtrace:
Function entered at [<c0011738>] from [<c03019b8>]
Mem-info:
Normal per-cpu:
CPU    0: hi:   90, btch:  15 usd:  38
active_anon:438 inactive_anon:30 isolated_anon:0
 active_file:1295 inactive_file:1934 isolated_file:0
 unevictable:405 dirty:0 writeback:0 unstable:0
 free:50315 slab_reclaimable:305 slab_unreclaimable:635
 mapped:472 shmem:32 pagetables:78 bounce:0
Normal free:201260kB min:1908kB low:2384kB high:2860kB active_anon:1752kB inactive_anon:120kB active_file:5180kB inactive_file:7736kB unevictable:1620kB isolated(anon):0kB isolated(file):0kB present:227584kB mlocked:1620kB dirty:0kB writeback:0kB mapped:1888kB shmem:128kB slab_reclaimable:1220kB slab_unreclaimable:2540kB kernel_stack:512kB pagetables:312kB unstable:0kB bounce:0kB writeback_tmp:0kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0
Normal: 1*4kB 1*8kB 1*16kB 1*32kB 1*64kB 1*128kB 2*256kB 1*512kB 3*1024kB 2*2048kB 47*4096kB = 201260kB
`

func TestFix24cVmallocMessageAboveHeader(t *testing.T) {
	d, root := rootOf(t, fix24cVmallocReport)
	if root != "alloc-fail-not-physical" {
		t.Errorf("root = %q, want alloc-fail-not-physical (%v)", root, ids(d))
	}
	if findingOf(d, "alloc-fail-reserve") != nil {
		t.Errorf("alloc-fail-reserve fired for vmalloc's report: %v", ids(d))
	}
	// Counter-cases: vmalloc's failure of pages ("allocated N of M bytes") above the
	// header is a failure of pages, and a vmalloc line elsewhere in the log leaves a later
	// report its own: neither report is taken as address space.
	for _, text := range []string{
		strings.Replace(fix24cVmallocReport, "vmalloc: allocation failure: 0 bytes", "vmalloc: allocation failure, allocated 4096 of 8192 bytes", 1),
		strings.Replace(fix24cVmallocReport, "EXT4-fs (mmcblk0p2): re-mounted. Opts: (null)\nvmalloc: allocation failure: 0 bytes\n", "vmalloc: allocation failure: 0 bytes\nEXT4-fs (mmcblk0p2): re-mounted. Opts: (null)\n", 1),
	} {
		d, root := rootOf(t, text)
		if root == "alloc-fail-not-physical" || findingOf(d, "alloc-fail-reserve") == nil {
			t.Errorf("root = %q (%v), want the page failure's own class", root, ids(d))
		}
	}
}
