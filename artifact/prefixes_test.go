package artifact

import "testing"

// Each log prefix of issue 16's list leaves the kernel's text and says it came from the
// kernel.
func TestLogPrefixes(t *testing.T) {
	const msg = "swapper/0: page allocation failure: order:0, mode:0x20"
	for _, raw := range []string{
		"    [  624.862777] " + msg,
		"\t<4>[  624.862777] " + msg,
		"[Mon Jan  2 03:04:05 2024] " + msg,
		"Mon Jan  2 03:04:05 2024 kern.warn kernel: [  624.862777] " + msg,
		"Tue 2024-01-02 03:04:05 UTC host1 kernel: " + msg,
		"2024-01-02 03:04:05 host1 kernel: " + msg,
		"2024-01-02T03:04:05+0000 host1 kernel: " + msg,
		"Jan 02 03:04:05.123456 host1 kernel: " + msg,
		"Jan  2 03:04:05 kernel: " + msg,
		"07-13 08:41:51.341 <4>[309805.658142s][pid:1361,cpu5,swapper/0]" + msg,
		"<4>[309805.658142s][pid:1361,cpu5,swapper/0]" + msg,
		"> > [  624.862777] " + msg,
	} {
		ls := SplitLines(raw)
		if len(ls) != 1 {
			t.Fatalf("%q: %d lines", raw, len(ls))
		}
		if ls[0].Text != msg {
			t.Errorf("%q: text %q, want %q", raw, ls[0].Text, msg)
		}
		tl := ParseString(raw, "t", Options{})
		if len(tl.Events) != 1 || tl.Events[0].AllocFailure == nil || tl.Events[0].AllocFailure.Process != "swapper/0" {
			t.Errorf("%q: events %+v", raw, tl.Events)
		}
	}
	// Indentation in front of command output is kept: it is the output's own.
	if ls := SplitLines("          RX packets:7657 errors:0 dropped:228"); ls[0].Text[0] != ' ' {
		t.Errorf("indentation of ifconfig was stripped: %q", ls[0].Text)
	}
}
