package artifact

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

// Issue 30 item 6: one line of 64 MiB of numbers took 199 s and 1.79 GB, each parser that
// looked at it (command, tryProfile, tryNetstatSGrep) splitting or matching the whole line.
// A line above maxLineBytes is skipped and named; the text around it is still read, and the
// parse allocates less than four times the text.
func TestOverlongLineIsSkipped(t *testing.T) {
	var b strings.Builder
	for b.Len() < 8<<20 {
		b.WriteString("12345 ")
	}
	text := "Linux version 5.10.0 (x@y) #1 SMP\n" + b.String() + "\n" +
		"[ 12.000000] eth0: page allocation failure: order:2, mode:0x4020(GFP_ATOMIC|__GFP_HIGHMEM)\n"
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	start := time.Now()
	tl := ParseString(text, "x", Options{})
	el := time.Since(start)
	runtime.ReadMemStats(&m1)
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 4*uint64(len(text)) {
		t.Errorf("allocated %d MiB for %d MiB of text", a>>20, len(text)>>20)
	}
	found := false
	for _, u := range tl.NotAvailable {
		found = found || u.What == "line 2" && strings.Contains(u.Why, "longer than any line headroom reads")
	}
	if !found {
		t.Errorf("the long line is not named: %+v", tl.NotAvailable)
	}
	if len(tl.Events) == 0 || tl.Host.Kernel == "" {
		t.Errorf("the lines around it were not read: %d events, kernel %q", len(tl.Events), tl.Host.Kernel)
	}
	t.Logf("%d MiB line skipped in %v", len(text)>>20, el)
}
