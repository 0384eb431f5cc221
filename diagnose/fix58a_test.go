package diagnose

import "testing"

// An atomic order-0 failure on a 32-bit kernel with every zone, HighMem too, below min is
// reserve exhaustion; with HighMem above its watermarks it stays lowmem.
func TestFix58aHighMemAtMin(t *testing.T) {
	const head = "swapper: page allocation failure. order:0, mode:0x20\nLinux version 2.6.9 (x) #1 SMP\nFree pages:        1604kB (112kB HighMem)\n" +
		"DMA free:28kB min:72kB low:88kB high:108kB active:1048kB inactive:10324kB present:16384kB pages_scanned:0 all_unreclaimable? no\nprotections[]: 0 0 0\n" +
		"Normal free:1464kB min:4020kB low:5024kB high:6028kB active:81152kB inactive:771468kB present:901120kB pages_scanned:0 all_unreclaimable? no\nprotections[]: 0 0 0\n"
	for hm, want := range map[string]string{
		"HighMem free:112kB min:128kB low:160kB high:192kB active:31896kB inactive:96640kB present:131008kB pages_scanned:0 all_unreclaimable? no\n":   "alloc-fail-reserve",
		"HighMem free:90112kB min:128kB low:160kB high:192kB active:31896kB inactive:96640kB present:131008kB pages_scanned:0 all_unreclaimable? no\n": "alloc-fail-lowmem",
	} {
		for _, id := range []string{"alloc-fail-reserve", "alloc-fail-lowmem"} {
			res := fired(t, id, head+hm)
			if got := len(res.Findings) > 0 && res.Findings[0].Severity >= Warning; got != (id == want) {
				t.Errorf("%s with %q: %+v", id, hm, res.Findings)
			}
		}
	}
}
