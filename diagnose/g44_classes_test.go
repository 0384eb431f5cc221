package diagnose

import (
	"testing"
)

// Classes of the held-out batch g44 (corpus 1161-1180: 0-day/LKP, syzbot, LKFT and CKI
// reports) fixed by class; each test is a minimal snippet written for its class, not a
// case's text, and failed before its change.

// The page allocator's own WARN for a request above its largest order (mm/page_alloc.c
// __alloc_pages*: `if (WARN_ON_ONCE_GFP(order > MAX_PAGE_ORDER, gfp)) return NULL;`, earlier
// `order >= MAX_ORDER`): no "page allocation failure" report follows it, and no amount of free
// memory serves the request, so it is alloc-fail-not-physical. Read in the forms kernel test
// bots mail it: unstamped console text with the site's function moved to the next line by a
// format=flowed soft break (syzbot), decode_stacktrace.sh's "func (file:line)" form (0-day),
// and quoted in a reply. Counter-cases raise nothing: another WARN of page_alloc.c in another
// function, a lockdep splat whose frames are in the allocator, a patch mail quoting the WARN
// (the author's reproduction), and a soft break before another function.
func TestAllocOrderWarnInBotReportForms(t *testing.T) {
	flowed := "Hello,\n\nbot found the following crash on:\n\n" +
		"WARNING: CPU: 1 PID: 4242 at mm/page_alloc.c:4512  \n" +
		"__alloc_pages_nodemask+0x2a1/0x6c0 mm/page_alloc.c:4512\n" +
		"Kernel panic - not syncing: panic_on_warn set ...\n" +
		"Call Trace:\n" +
		"  alloc_pages_current+0xa1/0x150 mm/mempolicy.c:2100\n" +
		"  kmalloc_order+0x1a/0x60 mm/slab_common.c:1240\n" +
		"  foo_ioctl+0x55/0x90 drivers/misc/foo.c:88\n"
	decoded := "[   12.000001][ T1] ------------[ cut here ]------------\n" +
		"[   12.000002][ T1] WARNING: CPU: 3 PID: 1 at mm/page_alloc.c:4401 __alloc_pages_noprof (mm/page_alloc.c:4401 (discriminator 3)) \n" +
		"[   12.000003][ T1] Call Trace:\n" +
		"[   12.000004][ T1] __kmalloc_large_node (mm/slub.c:4100)\n" +
		"[   12.000005][ T1] bar_setup (drivers/bar/bar.c:10)\n"
	quoted := "On Mon, the robot wrote:\n> WARNING: CPU: 0 PID: 77 at mm/page_alloc.c:5301 __alloc_pages+0x2f5/0x350\n\n" +
		"Somebody asks for an order above MAX_ORDER without __GFP_NOWARN.\n"
	for name, text := range map[string]string{"flowed": flowed, "decoded": decoded, "quoted": quoted} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, classNotPhysical); f == nil {
			t.Errorf("%s: no %s finding (findings %+v)", name, classNotPhysical, d.Findings)
		}
	}

	freeWarn := "[   12.000002][ T1] WARNING: CPU: 3 PID: 1 at mm/page_alloc.c:1190 __free_pages_ok (mm/page_alloc.c:1190)\n" +
		"WARNING: CPU: 3 PID: 1 at mm/page_alloc.c:1190 __free_pages_ok+0x3c/0x90\n"
	lockdep := "[   40.1] WARNING: possible circular locking dependency detected\n" +
		"[   40.2] __alloc_pages_noprof (mm/page_alloc.c:4401)\n" +
		"[   40.3] __alloc_pages+0x2f5/0x350\n"
	patch := "Subject: [PATCH] foo: cap the buffer size\n\nThe ioctl asks for too large a buffer:\n\n" +
		"WARNING: CPU: 0 PID: 77 at mm/page_alloc.c:5301 __alloc_pages+0x2f5/0x350\n" +
		"[  9.1] WARNING: CPU: 0 PID: 77 at mm/page_alloc.c:5301 __alloc_pages (mm/page_alloc.c:5301)\n\n" +
		"Signed-off-by: A Developer <dev@example.org>\n"
	otherFn := "WARNING: CPU: 1 PID: 4242 at mm/page_alloc.c:3012  \nrmqueue+0x61/0x9a0 mm/page_alloc.c:3012\n"
	for name, text := range map[string]string{"free warn": freeWarn, "lockdep": lockdep, "patch mail": patch, "other function after a soft break": otherFn} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, classNotPhysical); f != nil {
			t.Errorf("%s: %s fired: %+v", name, classNotPhysical, f)
		}
	}
}

// A 32-bit HighMem kernel (4.4+) fails an order > 0 request that may not use HighMem while
// every lowmem zone holds a block of the order but is at the request's own floor: free less
// the request's 2^order − 1 pages is not above min + lowmem_reserve (__zone_watermark_ok's
// order-0 part, mm/page_alloc.c), though free itself is above min. The watermark stopped it,
// in lowmem, with the memory in HighMem: alloc-fail-lowmem, not fragmentation (corpus 1161).
// Before: the zone was "above its watermarks" and the report fell to fragmented.
// Counter-cases: the same zones with Normal well above the floor are no lowmem exhaustion,
// and the same numbers with no HighMem anywhere are no lowmem finding.
func TestLowmemAtRequestFloorWithBlocks(t *testing.T) {
	dump := func(normalFree string, highmem bool) string {
		s := "[  5.000001] modprobe: page allocation failure: order:4, mode:0xcc0(GFP_KERNEL), nodemask=(null)\n" +
			"[  5.000002] CPU: 0 PID: 88 Comm: modprobe Not tainted 5.15.0 #1\n" +
			"[  5.000003] Mem-Info:\n" +
			"[  5.000004] DMA free:2240kB boost:0kB min:64kB low:80kB high:96kB present:15992kB managed:15360kB free_cma:0kB\n" +
			"[  5.000005] lowmem_reserve[]: 0 560 3000 3000\n" +
			"[  5.000006] Normal free:" + normalFree + "kB boost:0kB min:3000kB low:3750kB high:4500kB present:770000kB managed:700000kB free_cma:0kB\n"
		if highmem {
			s += "[  5.000007] lowmem_reserve[]: 0 0 19000 19000\n" +
				"[  5.000008] HighMem free:1800000kB boost:0kB min:512kB low:3000kB high:6000kB present:2300000kB managed:2300000kB free_cma:0kB\n" +
				"[  5.000009] lowmem_reserve[]: 0 0 0 0\n"
		} else {
			s += "[  5.000007] lowmem_reserve[]: 0 0 0 0\n"
		}
		s += "[  5.000010] DMA: 0*4kB 0*8kB 0*16kB 0*32kB 1*64kB (U) 1*128kB (U) 0*256kB 0*512kB 2*1024kB (U) 0*2048kB 0*4096kB = 2240kB\n"
		return s
	}
	// Normal: 3040 kB free less the order-4 request's own 60 kB (16 − 1 pages) is 2980 kB,
	// not above min 3000 kB: at its floor, with blocks of order 4 and up. DMA: 2240 − 60 kB
	// against min 64 kB + lowmem_reserve 560 pages (2240 kB): at its floor too.
	normalAt := "[  5.000011] Normal: 4*4kB (UM) 2*8kB (U) 0*16kB 0*32kB 1*64kB (M) 1*128kB (M) 1*256kB (M) 1*512kB (M) 2*1024kB (M) 0*2048kB 0*4096kB = 3040kB\n"
	d, root := rootOf(t, dump("3040", true)+normalAt)
	if root != classLowmem {
		t.Errorf("at the floor with HighMem: root %q, want %s (causes %+v)", root, classLowmem, d.Story.Causes)
	}
	if d, _ := rootOf(t, dump("30400", true)+normalAt); findingOf(d, classLowmem) != nil {
		t.Errorf("Normal well above its floor: %s fired", classLowmem)
	}
	if d, _ := rootOf(t, dump("3040", false)+normalAt); findingOf(d, classLowmem) != nil {
		t.Errorf("no HighMem: %s fired", classLowmem)
	}
}
