package artifact

import (
	"fmt"
	"testing"
)

// A ticket's first log line that lost the '[' of its dmesg stamp (corpus case 365):
// printk's "[%5lu.%06lu] " (kernel/printk/printk.c print_time) is left as "    4.795291] ".
// The header must still be read, with the comm as warn_alloc printed it (mm/page_alloc.c:
// "%s: %pV, mode:%#x(%pGg), nodemask=%*pbl"), and the stamp must give the uptime.
func TestAllocHeaderLostBracket(t *testing.T) {
	text := "**ISSUE:**\n" +
		"    4.795291] swapper/0: page allocation failure: order:0, mode:0xcc4(GFP_KERNEL|GFP_DMA32), nodemask=(null)\n" +
		"[    4.805112] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 5.15.68 #1\n"
	af, err := ParseAllocFailure(text, "")
	if err != nil {
		t.Fatal(err)
	}
	if af.Process != "swapper/0" || af.Order != 0 || af.Mode != "0xcc4(GFP_KERNEL|GFP_DMA32)" {
		t.Fatalf("process %q order %d mode %q", af.Process, af.Order, af.Mode)
	}
	ls := SplitLines(text)
	if ls[1].UptimeUsec != 4_795_291 || !ls[1].Kernel {
		t.Fatalf("stamp not read: %+v", ls[1])
	}
	// Not a stamp: five decimals, no closing bracket, text right after the bracket.
	for _, s := range []string{" 4.79529] x", "4.795291 x", "12.000000]x", "v4.795291] x"} {
		if l := SplitLines(s)[0]; l.UptimeUsec >= 0 || l.Text != s {
			t.Errorf("%q read as a stamp: %+v", s, l)
		}
	}
}

// A header whose comm follows a stamp-like prefix keeps no blank of it.
func TestAllocHeaderProcessTrimmed(t *testing.T) {
	af, ok := parseAllocHeader("x] swapper/0: page allocation failure: order:0, mode:0x20")
	if !ok || af.Process != "swapper/0" {
		t.Fatalf("%+v", af)
	}
}

// Buddy lines whose '*' a Markdown renderer turned into '_' (corpus case 364): show_free_areas
// prints "%lu*%lukB " per order (mm/page_alloc.c). The dump after them (the swap and page
// cache footer of show_swap_cache_info / show_mem) must be read too.
func TestBuddyLineMarkdownUnderscores(t *testing.T) {
	text := "swapper: page allocation failure. order:0, mode:0x4020\n" +
		"[49212.456173] Node 0 DMA: 1_4kB 1_8kB 0_16kB 0_32kB 2_64kB 1_128kB 1_256kB 0_512kB 1_1024kB 1_2048kB 3_4096kB = 15884kB\n" +
		"[49212.456183] Node 0 Normal: 486_4kB 46*8kB 2_16kB 0_32kB 0_64kB 0_128kB 0_256kB 0_512kB 0_1024kB 0_2048kB 0_4096kB = 2344kB\n" +
		"[49212.456188] 927178 total pagecache pages\n" +
		"[49212.456208] Free swap  = 7812092kB\n" +
		"[49212.456209] Total swap = 7812092kB\n"
	af, err := ParseAllocFailure(text, "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, z := range af.Zones {
		got[z.Zone] = fmt.Sprint(z.FreeBlocks)
	}
	if got["DMA"] != "[1 1 0 0 2 1 1 0 1 1 3]" || got["Normal"] != "[486 46 2 0 0 0 0 0 0 0 0]" {
		t.Fatalf("buddy counts %v", got)
	}
	if af.FreeSwapKB == nil || *af.FreeSwapKB != 7812092 {
		t.Fatalf("free swap %v", af.FreeSwapKB)
	}
	// One token is no buddy line: a name stays as it is.
	for _, s := range []string{"file_4kB here", "page_size 4_4kB", "slab_kmalloc_4kB 1_2kB"} {
		if got := SplitLines(s)[0].Text; got != s {
			t.Errorf("%q rewritten to %q", s, got)
		}
	}
}

// Markdown bold around a header line: the closing '**' is not part of the mode.
func TestAllocHeaderMarkdownBold(t *testing.T) {
	af, ok := parseAllocHeader("**[2685596.666280] insmod: page allocation failure: order:8, mode:0xc0d0**")
	if !ok || af.Mode != "0xc0d0" || af.ModeValue != 0xc0d0 || af.Order != 8 {
		t.Fatalf("%v %+v", ok, af)
	}
}
