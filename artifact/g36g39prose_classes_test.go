package artifact

import "testing"

// The prose and report-form classes the held-out batches g36-g39 found (corpus 1009-1080),
// each on a minimal snippet written for the class (not the case's words); every test failed
// before its change.

// An OOM report's "Unreclaimable slab info:" table (mm/slab_common.c
// dump_unreclaimable_slab), pasted alone and with its padding collapsed to single spaces by
// a blog or mail client, is a slab table: the rules see each cache's size (corpus 1049);
// also as a Markdown code block, each "kernel: [stamp]" line indented (prefixes.go).
// Counter-cases: the heading followed by prose, and a row whose used exceeds its total
// (not the kernel's "used total" pair), give no table.
func TestOOMUnreclaimableSlabInfoCollapsed(t *testing.T) {
	table := func(text string) map[string]int64 {
		t.Helper()
		out := map[string]int64{}
		for _, st := range ParseString(text, "p", Options{}).SlabTables {
			for _, c := range st.Caches {
				out[c.Name] = c.SizeKB
			}
		}
		return out
	}
	for name, text := range map[string]string{
		"collapsed, log prefix": "kernel: [500.1] Unreclaimable slab info:\nkernel: [500.1] Name Used Total\nkernel: [500.2] kmalloc-4k 3000000KB 3000100KB\nkernel: [500.2] skbuff_head_cache 2048KB 2100KB\n",
		"indented code block":   "An excerpt:\n\n    kernel: [500.1] Unreclaimable slab info:\n    kernel: [500.1] Name Used Total\n    kernel: [500.2] kmalloc-4k 3000000KB 3000100KB\n    kernel: [500.2] skbuff_head_cache 2048KB 2100KB\n",
		"padded, bare":          "Unreclaimable slab info:\nName                      Used          Total\nkmalloc-4k             3000000KB    3000100KB\nskbuff_head_cache         2048KB       2100KB\n",
	} {
		got := table(text)
		if got["kmalloc-4k"] != 3000100 || got["skbuff_head_cache"] != 2100 {
			t.Errorf("%s: caches %v, want kmalloc-4k 3000100 kB and skbuff_head_cache 2100 kB", name, got)
		}
	}
	for name, text := range map[string]string{
		"heading then prose": "Unreclaimable slab info:\nthe table was cut by the pastebin.\n",
		"used above total":   "Unreclaimable slab info:\nkmalloc-4k 3000100KB 3000000KB\n",
	} {
		if got := table(text); len(got) != 0 {
			t.Errorf("%s: caches %v, want none", name, got)
		}
	}
}

// A report of the event in the reporter's shorthand, with no first person: the kill in the
// active past with its object ("then OOM-killed a victim") after "could not" (the past of
// "cannot", a fact, not a possibility) is a stated OOM kill (corpus 1037). Counter-cases:
// the kill in the present ("OOM-kills a victim when memory runs out", a reference page's
// voice) and a real condition ("if the kernel could not reclaim, it would OOM-kill a
// victim") state none.
func TestStatedOOMKillActivePastAfterCouldNot(t *testing.T) {
	for _, s := range []string{
		"Seen on a 4 GB guest: a worker grew without swap, the box froze for a minute, then OOM-killed a victim.\n",
		"On the 8 GB node the kernel could not reclaim page cache fast enough and OOM-killed the database.\n",
	} {
		if !statesOOM(s) {
			t.Errorf("%q: no stated OOM kill", s)
		}
	}
	for _, s := range []string{
		"Without swap the kernel OOM-kills a victim when memory runs out.\n",
		"If the kernel could not reclaim, it would OOM-kill a victim.\n",
	} {
		if statesOOM(s) {
			t.Errorf("%q: read as a stated OOM kill", s)
		}
	}
}

// Page allocation failures stated in prose with the order written before the word, as a
// number and "order" before what was allocated ("failures for 0 order pages"), are stated
// failures of that order (corpus 1048). Counter-cases: a count of orders ("5 order
// requests") is no order, and a possibility ("if you get ...") states no failure.
func TestStatedAllocFailureNumberBeforeOrder(t *testing.T) {
	orders := func(text string) []int {
		t.Helper()
		var out []int
		for _, e := range ParseString(text, "p", Options{}).Events {
			if e.AllocFailure != nil {
				out = append(out, e.AllocFailure.Order)
			}
		}
		return out
	}
	if got := orders("Since the upgrade the box keeps logging page allocation failures for 0 order pages in the NIC driver.\n"); len(got) != 1 || got[0] != 0 {
		t.Errorf("'for 0 order pages': orders %v, want [0]", got)
	}
	if got := orders("The queue holds 5 order requests and we get page allocation failures in the driver.\n"); len(got) != 0 {
		t.Errorf("'5 order requests': orders %v, want none", got)
	}
	if got := orders("If you get page allocation failures for 2 order pages, raise min_free_kbytes.\n"); len(got) != 0 {
		t.Errorf("a possibility: orders %v, want none", got)
	}
}

// The conntrack allocation failure quoted without a log prefix ("nf_conntrack_alloc:
// Can't alloc conntrack", a question quoting its log line) is a kernel log record, so the
// text is read (corpus 1014 was "nothing headroom reads"). Counter-case: a sentence that
// names it is prose.
func TestQuotedConntrackAllocFailure(t *testing.T) {
	logged := func(text string) int { return ParseString(text, "p", Options{}).Log.Len() }
	if n := logged("Found this in the log of the firewall:\nnf_conntrack_alloc: Can't alloc conntrack\n"); n != 1 {
		t.Errorf("quoted message: %d log records, want 1", n)
	}
	if n := logged("What does the message Can't alloc conntrack mean for my firewall?\n"); n != 0 {
		t.Errorf("a sentence naming it: %d log records, want 0", n)
	}
}
