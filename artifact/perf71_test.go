package artifact

import "testing"

// perf71: holdsLiteralOpening is the one search openDataLiterals makes of a text before it
// reads its lines: every opening it reads ("= b\"", "= `", "= \"\"\"", "= r\"", "= \"") is
// found, and "= " before anything else is not one.
func TestHoldsLiteralOpening(t *testing.T) {
	for _, tc := range []struct {
		text string
		want bool
	}{
		{"let meminfo = b\"MemTotal:       58603192 kB\n", true},
		{"const vmStatFileFull = `nr_free_pages 78730\n", true},
		{"x = \"\"\"MemTotal: 1 kB\n", true},
		{"s = r\"MemFree: 2 kB\n", true},
		{"a = 1\nb = c\nkernel: x = y\n", false},
		{"ends with = ", false},
		{"br = b\n", false},
	} {
		if got := holdsLiteralOpening(tc.text); got != tc.want {
			t.Errorf("%q: %v, want %v", tc.text, got, tc.want)
		}
	}
}

// perf71: counterNoteAt finds a note only after a counter line's value, its "kB" or its
// rate, and answers a log line without a search.
func TestCounterNoteAt(t *testing.T) {
	for _, tc := range []struct {
		line string
		want string
	}{
		{"MemFree:          123456 kB   # after the drop", "MemFree:          123456 kB"},
		{"TcpExtListenDrops 12 0.0 <-------- here", "TcpExtListenDrops 12 0.0"},
		{"nr_free_pages 78730 # 所有的", "nr_free_pages 78730"},
		{"Dec  4 12:00:01 host kernel: a # b", "Dec  4 12:00:01 host kernel: a # b"},
		{"rx_dropped: 42 #012", "rx_dropped: 42 #012"},
		{"# nstat -az", "# nstat -az"},
	} {
		if got := stripCounterNote(tc.line); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}
