package diagnose

import (
	"strings"
	"testing"
)

// fix62e: a high-order atomic failure on a pre-4.4 kernel whose zone had the pages but failed
// the per-order watermark check is fragmented too (the kernel's own test: too few free pages
// in blocks of the order's size above the halved min), and the caller is the first confirmed
// frame outside the allocators, not a stale "? printk".

func fix62eReport(freeKB, normalBuddy string) string {
	return `foo_wq/0: page allocation failure. order:5, mode:0x8020
Pid: 945, comm: foo_wq/0 Not tainted 2.6.30 #1
Call Trace:
 [<c039505f>] ? printk+0xf/0x18
 [<c016abc7>] __alloc_pages_nodemask+0x400/0x442
 [<c01068b5>] dma_generic_alloc_coherent+0x53/0xc2
 [<e12c409b>] foo_load_firmware+0x8f/0x4fb [foo]
 [<c0139694>] worker_thread+0x15e/0x240
Mem-Info:
Normal free:` + freeKB + `kB min:2000kB low:2500kB high:3000kB active_anon:1000kB inactive_anon:1000kB active_file:1000kB inactive_file:1000kB unevictable:0kB present:500000kB pages_scanned:0 all_unreclaimable? no
lowmem_reserve[]: 0 0 0
` + normalBuddy + `131056 pages RAM
`
}

func TestFix62eHighOrderAtomicPre44Fragmented(t *testing.T) {
	// 31456 kB free, one 128 kB block: 33 pages left above order 2, not above min/8 = 62.
	d, _ := rootOf(t, fix62eReport("31456", "Normal: 2000*4kB 1500*8kB 700*16kB 4*32kB 0*64kB 1*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 31456kB\n"))
	hoa := findingOf(d, "alloc-fail-high-order-atomic")
	if hoa == nil || findingOf(d, "alloc-fail-fragmented") == nil {
		t.Fatalf("want both high-order-atomic and fragmented: %v", d.Findings)
	}
	if !evidenceHas(*hoa, "caller", "foo_load_firmware") {
		t.Errorf("caller: %+v", hoa.Evidence)
	}
	// Counter-case: the same request with plenty of large blocks above the halved min is the
	// caller's alone.
	d, _ = rootOf(t, fix62eReport("17184", "Normal: 100*4kB 50*8kB 20*16kB 10*32kB 10*64kB 10*128kB 10*256kB 10*512kB 6*1024kB 0*2048kB 0*4096kB = 17184kB\n"))
	if findingOf(d, "alloc-fail-fragmented") != nil {
		t.Errorf("large blocks free, yet fragmented: %v", d.Findings)
	}
}

func TestFix62eCallerSkipsUnconfirmedFrames(t *testing.T) {
	fn, mod := memCallerOf([]string{"? printk+0xf/0x18", "__alloc_pages_nodemask+0x400/0x442", "dma_generic_alloc_coherent+0x53/0xc2", "? dma_generic_alloc_coherent+0x0/0xc2", "foo_load_firmware+0x8f/0x4fb [foo]"})
	if fn != "foo_load_firmware" || mod != "foo" {
		t.Errorf("caller %q [%q]", fn, mod)
	}
	// Only unconfirmed frames: the first of them outside the allocators still names it.
	if fn, _ := memCallerOf([]string{"? __alloc_pages_nodemask+0x1/0x2", "? e1000_alloc_rx_buffers+0x1c/0x2f0 [e1000]"}); !strings.HasPrefix(fn, "e1000_alloc_rx_buffers") {
		t.Errorf("all-unreliable trace: caller %q", fn)
	}
}
