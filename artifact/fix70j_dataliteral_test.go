package artifact

import "testing"

// fix70j (corpus 7216, 6825): a /proc file held as a multi-line string literal whose first
// line shares the assignment's line. The first line is read as the file's; an assignment
// of a one-line value, or an open literal that holds no /proc lines, stays as it is.
func TestDataLiteralOpeners(t *testing.T) {
	for _, tc := range []struct {
		name, text, want string
	}{
		{"rust byte string", "    let meminfo = b\"MemTotal:       58603192 kB\nMemFree:         5298784 kB\n\";\n",
			"MemTotal:       58603192 kB\nMemFree:         5298784 kB\n\";\n"},
		{"go raw string", "const vmStatFileFull = `nr_free_pages 78730\nnr_inactive_anon 426259\n`\n",
			"nr_free_pages 78730\nnr_inactive_anon 426259\n`\n"},
		{"one-line value", "queue.maxdiskspace = \"10G\"\nMemFree:         5298784 kB\n", "queue.maxdiskspace = \"10G\"\nMemFree:         5298784 kB\n"},
		{"open literal of prose", "msg = \"the box has 4 GB\nand it swaps\"\n", "msg = \"the box has 4 GB\nand it swaps\"\n"},
	} {
		if got := openDataLiterals(tc.text); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
	tl := ParseString("    let meminfo = b\"MemTotal:       58603192 kB\nMemFree:         5298784 kB\nMemAvailable:   48603448 kB\n\";\n", "t", Options{})
	found := false
	for _, s := range tl.Samples {
		if v, ok := s.MemInfo.Get("MemTotal"); ok && v == 58603192 {
			found = true
		}
	}
	if !found {
		t.Errorf("MemTotal of the literal's first line not read")
	}
}
