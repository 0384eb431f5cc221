package main

import "testing"

// fix53a: a warn_alloc stall header read as an alloc_stall artifact is the header a label
// writes as {"process", "order", "mode"} (corpus 4411, 4412); other artifacts that name a
// process and an order (an OOM kill's invoker) are not headers.
func TestFix53aStallHeaderCounts(t *testing.T) {
	arts := []any{
		map[string]any{"kind": "alloc_stall", "data": map[string]any{"stall_ms": 10273.0, "process": "khugepaged", "order": 10.0,
			"mode": "0x4340ca(__GFP_HIGHMEM|__GFP_IO|__GFP_FS|__GFP_COMP|__GFP_NOMEMALLOC|__GFP_HARDWALL|__GFP_MOVABLE|__GFP_DIRECT_RECLAIM)"}},
		map[string]any{"kind": "oom_kill", "data": map[string]any{"invoker": "systemd", "process": "systemd", "order": 0.0, "mode": "0x200da"}},
	}
	out := outputHeaders(arts)
	if len(out) != 1 || out[0] != (header{"khugepaged", 10, "0x4340ca"}) {
		t.Fatalf("outputHeaders = %+v, want only the stall's khugepaged order 10 0x4340ca", out)
	}
	truth := truthHeaders(map[string]any{"stall": map[string]any{"process": "khugepaged", "pid": 3936.0, "stall_ms": 10273.0, "order": 10.0, "mode": "0x4340ca"}})
	if got := matchHeaders(truth, out); got != 1 {
		t.Errorf("stall header matched %d of %d", got, len(truth))
	}
	if got := matchHeaders([]header{{"systemd", 0, "0x200da"}}, out); got != 0 {
		t.Errorf("the OOM invoker matched a header")
	}
}
