package diagnose

import "testing"

// fix22a: 2.4.0-2.4.8's "__alloc_pages: N-order allocation failed." prints no mode. Of
// order 1 or more on a host with HighMem it is a lowmem request (mainline 2.4 asks HighMem
// for single pages only; corpus 1961, 1962); without HighMem, orders 3, 2 and 1 failing
// and none of order 0 is fragmentation (corpus 1979). Counter-case: a mode-less order-0
// failure on the same host may be a HighMem-capable page, so lowmem is not inferred.
func TestFix22aModelessHeader24(t *testing.T) {
	const meminfo = "MemTotal:      1286656 kB\nMemFree:          5356 kB\nHighTotal:      393208 kB\n" +
		"HighFree:         2036 kB\nLowTotal:       893448 kB\nLowFree:          3320 kB\n"
	f := mustFire(t, run(t, classLowmem, parseText19b(t, meminfo+"\nJun 23 08:17:41 eru kernel: __alloc_pages: 1-order allocation failed.\n")), Warning)
	if !evidenceHas(f, "GFP mode", "not printed") || !evidenceHas(f, "GFP mode", "single pages only") {
		t.Errorf("lowmem evidence: %+v", f.Evidence)
	}
	frag := "> > Feb 23 21:17:47 coredump kernel: __alloc_pages: 3-order allocation failed.\n" +
		"> > Feb 23 21:17:47 coredump kernel: __alloc_pages: 2-order allocation failed.\n" +
		"> > Feb 23 21:17:47 coredump kernel: __alloc_pages: 1-order allocation failed.\n"
	tl := parseText19b(t, frag)
	mustFire(t, run(t, classFragmented, tl), Warning)
	if res := run(t, classLowmem, tl); len(res.Findings) > 0 {
		t.Errorf("no HighMem: lowmem fired: %s", res.Findings[0].Title)
	}
	tl = parseText19b(t, meminfo+"\nJun 23 08:17:41 eru kernel: __alloc_pages: 0-order allocation failed.\n")
	if res := run(t, classLowmem, tl); len(res.Findings) > 0 {
		t.Errorf("order 0 without a mode: lowmem fired: %s", res.Findings[0].Title)
	}
	mustFire(t, run(t, classReserve, tl), Critical)
}
