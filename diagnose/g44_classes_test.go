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
