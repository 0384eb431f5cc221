package artifact

import (
	"testing"

	"headroom/model"
)

// Round 17's classes fixed by fix22a (issue 29, g84: LKML 2001-2003); each snippet failed
// before its change.

// allocOrdersModes: the orders of the allocation failures read from text, in order.
func allocOrdersModes(text string) (orders []int, modes []string) {
	for _, e := range ParseString(text, "p", Options{}).Events {
		if e.Kind == model.EventAllocFailure && e.AllocFailure != nil {
			orders = append(orders, e.AllocFailure.Order)
			modes = append(modes, e.AllocFailure.Mode)
		}
	}
	return orders, modes
}

// 2.4.0-2.4.8 printed "__alloc_pages: N-order allocation failed." without the gfp mask
// (corpus 1961 syslog, 1962 bare, 1979 quoted in a reply): each is a failure of that order
// with no mode. Counter-cases: a mail's subject naming the message, a sentence supposing
// it, the printk quoted from the source (a %d, no number), the words in prose without the
// function, and the message followed by more words.
func TestAllocHeader24NoMode(t *testing.T) {
	for _, c := range []struct {
		text  string
		order int
	}{
		{"Jun 23 08:17:41 eru kernel: __alloc_pages: 1-order allocation failed.\n", 1},
		{"__alloc_pages: 1-order allocation failed.\n", 1},
		{"> > Feb 23 21:17:47 coredump kernel: __alloc_pages: 3-order allocation failed.\n", 3},
		{"<4>[  123.456] __alloc_pages: 2-order allocation failed.\n", 2},
		{"I was doing a run with 512M lowmem and found this: __alloc_pages: 1-order allocation failed. __alloc_pages: 1-order allocation failed. # cat /proc/meminfo\n", 1},
	} {
		orders, modes := allocOrdersModes(c.text)
		if len(orders) != 1 || orders[0] != c.order || modes[0] != "" {
			t.Errorf("%q: orders %v modes %q, want [%d] with no mode", c.text, orders, modes, c.order)
		}
	}
	for _, s := range []string{
		"Subject: Re: __alloc_pages: 0-order allocation failed.\n",
		"Date: Fri, 7 Sep 2001 15:06:28 +0200 Subject: Re: __alloc_pages: 0-order allocation failed. In-Reply-To: <x@y>\n",
		"If you see __alloc_pages: 1-order allocation failed. then raise the reserve\n",
		"> printk(\"__alloc_pages: %d-order allocation failed\", ..) in mm/page_alloc.c\n",
		"I keep getting 1-order allocation failed.\n",
		"__alloc_pages: 1-order allocation failed messages fill my log every minute\n",
		"We never saw __alloc_pages: 1-order allocation failed.\n",
	} {
		if orders, _ := allocOrdersModes(s); len(orders) != 0 {
			t.Errorf("%q: read as failures of orders %v", s, orders)
		}
	}
	// The mode-bearing form still gives its mode, also wrapped before the mask in a reply.
	for _, s := range []string{
		"__alloc_pages: 0-order allocation failed (gfp=0x1d2/0)\n",
		"> Feb  5 11:09:39 server1 kernel: __alloc_pages: 0-order allocation failed\n> (gfp=0x1d2/0)\n",
	} {
		if _, modes := allocOrdersModes(s); len(modes) != 1 || modes[0] != "0x1d2" {
			t.Errorf("%q: modes %q", s, modes)
		}
	}
}

// 2.4's /proc/slabinfo ("slabinfo - version: 1.1 (SMP)", corpus 1973): rows of seven
// numbers and, on SMP, " : limit batchcount", read as a slab table. Counter-cases: the same
// rows without their version line (an ordinary table of seven numbers), and 2.1's header
// over its own rows, still read by the 2.1 reader.
func TestSlabinfo24Rows(t *testing.T) {
	const smp = "slabinfo - version: 1.1 (SMP)\n" +
		"kmem_cache            96     96    244    6    6    1 :  252  126\n" +
		"buffer_head       667847 672390    128 22413 22413    1 :  252  126\n" +
		"size-8192           2374   2926   8192 2374 2926    2 :    0    0\n"
	tl := ParseString(smp, "p", Options{})
	if len(tl.SlabTables) != 1 || len(tl.SlabTables[0].Caches) != 3 {
		t.Fatalf("SMP: tables %+v", tl.SlabTables)
	}
	if c := tl.SlabTables[0].Caches[1]; c.Name != "buffer_head" || c.Objs != 672390 || c.SizeKB != 672390*128/1024 {
		t.Errorf("SMP: buffer_head %+v", c)
	}
	up := "slabinfo - version: 1.1\nbuffer_head         6120   7560     96  189  189    1\n"
	if tl := ParseString(up, "p", Options{}); len(tl.SlabTables) != 1 || tl.SlabTables[0].Caches[0].Objs != 7560 {
		t.Errorf("UP: tables %+v", tl.SlabTables)
	}
	bare := "buffer_head       667847 672390    128 22413 22413    1\ninode_cache        84886  92505    512 13214 13215    1\n"
	if tl := ParseString(bare, "p", Options{}); len(tl.SlabTables) != 0 {
		t.Errorf("rows without the version line: tables %+v", tl.SlabTables)
	}
	const v21 = "slabinfo - version: 2.1\n" +
		"# name            <active_objs> <num_objs> <objsize> <objperslab> <pagesperslab> : tunables <limit> <batchcount> <sharedfactor> : slabdata <active_slabs> <num_slabs> <sharedavail>\n" +
		"dentry            2369308 2369325    192   21    1 : tunables    0    0    0 : slabdata 112825 112825      0\n"
	if tl := ParseString(v21, "p", Options{}); len(tl.SlabTables) != 1 || tl.SlabTables[0].Caches[0].Objs != 2369325 {
		t.Errorf("2.1: tables %+v", tl.SlabTables)
	}
}

// The OOM killer stated in 2.4-era mail: "the Out Of Memory killer struck", "OOM-killer is
// launched and pop goes the server" (corpus 1973). Counter-cases: the mechanism in general
// ("is launched when memory runs out"), a supposition, a negation.
func TestStatedOOMKillerStruckLaunched(t *testing.T) {
	for _, s := range []string{
		"\"I had 2GB in cache on 2.4.21 and the Out Of Memory killer struck.\"\n",
		"Once there's no more to eat, or I suppose when we fall under some critical line, OOM-killer is launched and pop goes the server.\n",
	} {
		if !statesOOM(s) {
			t.Errorf("%q: no stated OOM", s)
		}
	}
	for _, s := range []string{
		"The OOM killer is launched when memory runs out and no page can be reclaimed.\n",
		"If the OOM killer struck, the log would say which process it killed.\n",
		"No OOM killer struck during the test.\n",
	} {
		if statesOOM(s) {
			t.Errorf("%q: stated OOM", s)
		}
	}
}
