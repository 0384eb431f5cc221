package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix55c: kernel format variants. An allocation-failure header whose comm the paste lost
// takes it from dump_stack's task line right after it; buddyinfo rows hold as many orders as
// the kernel was built with (up to kernel.MaxBuddyInfoOrders), a longer row is no buddy
// list; the contiguous block size a text says its driver needs is kept beside buddyinfo.

func allocProcesses(text string) []string {
	tl := ParseString(text, "p", Options{})
	var out []string
	for _, e := range tl.Events {
		if e.AllocFailure != nil {
			out = append(out, e.AllocFailure.Process)
		}
	}
	return out
}

func TestFix55cAllocHeaderCommFromTaskLine(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		// corpus 4598's form: 4.4, the header without its comm, space-indented lines
		{"[7730502.783337] page allocation failure: order:5, mode:0x24000c0\n [7730502.783343] CPU: 18 PID: 22411 Comm: ssl_proxy Tainted: G           OE   4.4.0-116-generic #140-Ubuntu\n [7730502.783345] Hardware name: X\n [7730502.783357] Call Trace:\n [7730502.783367]  [<ffffffff813ffc13>] dump_stack+0x63/0x90\n [7730502.783374]  [<ffffffff81198bca>] warn_alloc_failed+0xfa/0x150\n", "ssl_proxy"},
		// 4.9+: pr_warn("%s: ") then pr_cont, the comm left on a line of its own
		{"[  10.1] page allocation failure: order:4, mode:0x14040c0(GFP_KERNEL|__GFP_COMP), nodemask=(null)\n[  10.1] CPU: 2 PID: 881 Comm: Web Content Not tainted 4.14.0 #1\n[  10.1] Call Trace:\n[  10.1]  dump_stack+0x5c/0x80\n", "Web Content"},
		// 2.6's task line
		{"page allocation failure. order:2, mode:0x20\nPid: 4022, comm: afpd Not tainted 2.6.32-5-amd64 #1\nCall Trace:\n [<ffffffff810b8ee2>] ? __alloc_pages_nodemask+0x5f0/0x668\n", "afpd"},
		// counter-case: the header's own comm is kept
		{"[  10.1] kswapd0: page allocation failure: order:4, mode:0x14040c0(GFP_KERNEL|__GFP_COMP), nodemask=(null)\n[  10.1] CPU: 2 PID: 88 Comm: other Not tainted 4.14.0 #1\n[  10.1] Call Trace:\n[  10.1]  dump_stack+0x5c/0x80\n", "kswapd0"},
		// counter-case: a task line after the trace is another report's (a WARNING that followed)
		{"[  10.1] page allocation failure: order:4, mode:0x14040c0(GFP_KERNEL|__GFP_COMP), nodemask=(null)\n[  10.1] Call Trace:\n[  10.1]  dump_stack+0x5c/0x80\n[  10.1]  warn_alloc+0x114/0x1c0\n[  10.2] CPU: 3 PID: 99 Comm: unrelated Not tainted 4.14.0 #1\n", ""},
		// counter-case: headers back to back (CPUs interleaving, corpus 163's form): the task
		// line is any of theirs
		{"[2836069.534658] page allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\npage allocation failure: order:0, mode:0x2080020(GFP_ATOMIC)\n[2836069.534667] CPU: 20 PID: 0 Comm: swapper/20 Not tainted 4.9.0-5-amd64 #1\n[2836069.534694] Call Trace:\n[2836069.534699]  [<ffffffff82929964>] ? dump_stack+0x5c/0x78\n", ""},
		// counter-case: 2.4's header has no task line; an unrelated BUG's stays its own
		{"__alloc_pages: 2-order allocation failed (gfp=0x20/0)\nkernel BUG at mm/slab.c:1234!\nCPU: 0 PID: 7 Comm: bugger Not tainted 4.4.0 #1\n", ""},
	} {
		if got := allocProcesses(c.text); len(got) != 1 || got[0] != c.want {
			t.Errorf("%q: processes %q, want [%q]", c.text, got, c.want)
		}
	}
}

func buddyOrders(text string) []int {
	tl := ParseString(text, "p", Options{})
	var out []int
	for _, s := range tl.Samples {
		for _, z := range s.Buddy {
			out = append(out, len(z.Free))
		}
	}
	return out
}

func TestFix55cBuddyInfoColumns(t *testing.T) {
	row := func(n int) string {
		return "Node 0, zone   Normal " + strings.TrimSpace(strings.Repeat(" 3", n)) + "\n"
	}
	for _, c := range []struct {
		text string
		want int // orders read; 0: no buddy list
	}{
		{row(11), 11},
		{"Node 0, zone Normal 273 237 187 128 66 32 28 5 4 0 0 0\n", 12}, // single spaces, 12 orders
		{row(14), 14}, // arm64 64 KiB pages
		{row(17), 17}, // ia64
		{row(30), 0},  // no kernel prints 30 orders
		{"Node 0   Normal " + strings.Repeat(" 1", 30) + "\n", 0}, // nor a corelens table row
	} {
		got := buddyOrders(c.text)
		if c.want == 0 && len(got) != 0 || c.want > 0 && (len(got) != 1 || got[0] != c.want) {
			t.Errorf("%q: orders %v, want %d", c.text, got, c.want)
		}
	}
}

func statedContig(text string) (float64, bool) {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if v, ok := s.Rates[model.RateStatedContiguousBytes]; ok {
			return v, true
		}
	}
	return 0, false
}

func TestFix55cStatedContiguousNeed(t *testing.T) {
	const buddy = "cat /proc/buddyinfo\nNode 0, zone DMA32 3721 455 163 120 41 15 7 3 2 7 5\nNode 0, zone Normal 273 237 187 128 66 32 28 5 4 0 0\n"
	for _, c := range []struct {
		text string
		want float64 // 0: none
	}{
		// corpus 4601's form: a maintainer's sentence quoted by the reporter
		{"\"The failures you are seeing in your log are from not being able to allocate a 2MB slab of contiguous memory from the kernel.\"\n\n" + buddy, 2 << 20},
		{"Our driver needs 128 KB of physically contiguous memory for each DMA ring.\n\n" + buddy, 128 << 10},
		// counter-cases
		{"Is it caused by failing to allocate a 2MB slab of contiguous memory?\n\n" + buddy, 0},                    // a question
		{"If the driver needed 2MB of contiguous memory it would fail.\n\n" + buddy, 0},                            // a possibility
		{"Transparent huge pages need 2MB of contiguous memory.\n\n" + buddy, 0},                                   // THP falls back
		{"We reserved a 64MB CMA area of contiguous memory for the camera.\n\n" + buddy, 0},                        // CMA
		{"The USDM driver allocates 2MB slabs.\n\n" + buddy, 0},                                                    // no contiguous memory named
		{"Our driver needs 8 KB of contiguous memory.\n\n" + buddy, 0},                                             // two pages: a slab's
		{"The failures are from not being able to allocate a 2MB slab of contiguous memory from the kernel.\n", 0}, // no buddy lists beside it
	} {
		got, ok := statedContig(c.text)
		if c.want == 0 && ok || c.want > 0 && got != c.want {
			t.Errorf("%q: stated contiguous %v (%v), want %v", c.text, got, ok, c.want)
		}
	}
}
