package diagnose

import (
	"strings"
	"testing"
)

// fix55c: the contiguous block size a text says its driver needs sets the order
// memory-fragmented judges the buddy lists at (corpus 4601: 2 MiB slabs, Normal with no
// order-9 block); without it the lists are judged at order 3 and found healthy.
func TestFix55cFragmentedAtStatedOrder(t *testing.T) {
	const buddy = "cat /proc/buddyinfo\nNode 0, zone DMA 2 1 0 1 3 2 2 1 2 0 0 0\nNode 0, zone DMA32 3721 455 163 120 41 15 7 3 2 7 5 1\nNode 0, zone Normal 273 237 187 128 66 32 28 5 4 0 0 0\n"
	const need = "\"The failures you are seeing in your log are from not being able to allocate a 2MB slab of contiguous memory from the kernel.\"\n\n"
	d, _ := rootOf(t, need+buddy)
	f := findingOf(d, "memory-fragmented")
	if f == nil || !strings.Contains(f.Title, "order-9") {
		t.Fatalf("stated 2 MiB need: memory-fragmented %+v, want a finding at order 9", f)
	}
	// counter-cases: no stated need (order 3: plenty), and a stated need the lists serve
	if f := findingOf(mustRoot(t, buddy), "memory-fragmented"); f != nil {
		t.Errorf("no stated need: memory-fragmented %+v, want none", f)
	}
	plenty := "Node 0, zone Normal 273 237 187 128 66 32 28 5 4 300 400\n"
	if f := findingOf(mustRoot(t, need+plenty), "memory-fragmented"); f != nil {
		t.Errorf("2 MiB blocks plentiful: memory-fragmented %+v, want none", f)
	}
}

func mustRoot(t *testing.T, text string) Diagnosis {
	t.Helper()
	d, _ := rootOf(t, text)
	return d
}
