package diagnose

import (
	"testing"

	"headroom/artifact"
)

// fix70q, fix70r (corpus 7193, linux-mm 2009): "min_free_kbytes reduced to 100 to reproduce
// the problem" on a 248 MB box. The prose value is read through its verb, and without the
// link's speed the reserve is still judged against the kernel's own default for the memory:
// under half of it is too low for any link. A value at the default is not (the counter-case).
func TestMinFreeUnderHalfTheKernelDefault(t *testing.T) {
	const mem = "MemTotal:         253888 kB\nMemFree:            4096 kB\n\n"
	for _, tc := range []struct {
		name, text string
		fired      bool
	}{
		{"lowered by hand", mem + "Note that this is with min_free_kbytes reduced to 100 to reproduce the problem more easily.\n", true},
		{"the default", mem + "Note that this is with min_free_kbytes set to 2015 as the kernel chose.\n", false},
	} {
		tl := artifact.ParseString(tc.text, "t", artifact.Options{})
		d := Run(tl, nil)
		got := false
		for _, f := range d.Findings {
			got = got || f.ID == "min-free-too-low"
		}
		if got != tc.fired {
			t.Errorf("%s: min-free-too-low %v, want %v (%v)", tc.name, got, tc.fired, ids(d))
		}
	}
}
