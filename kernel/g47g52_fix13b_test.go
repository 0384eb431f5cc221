package kernel

import "testing"

// cma_alloc's failure (mm/cma.c) quoted without pr_fmt's "cma: " is the kernel's message; a
// sentence that names its words is not.
func TestFix13bCMAMessageQuoted(t *testing.T) {
	for _, q := range []string{
		"cma_alloc: alloc failed, req-size: 4096 pages, ret: -12",
		"cma: cma_alloc: alloc failed, req-size: 4096 pages, ret: -16",
		"cma: cma_alloc: reserved: alloc failed, req-size: 8 pages, ret: -12",
		"`cma_alloc: alloc failed, req-size: 4096 pages, ret: -12`",
	} {
		if !IsQuotedMessage(q) {
			t.Errorf("%q: not read as the quoted message", q)
		}
		if f, ok := ParseSubsysAllocFailure(q); !ok || f.Pool != PoolCMA || f.Pages <= 0 || f.Ret >= 0 {
			t.Errorf("%q: %+v %v, want a CMA pool failure with its pages and errno", q, f, ok)
		}
	}
	for _, p := range []string{
		"what does alloc failed, req-size: mean",
		"I grepped for \"alloc failed, req-size: \" and found nothing there",
	} {
		if IsQuotedMessage(p) {
			t.Errorf("%q: read as the quoted message", p)
		}
	}
}

func TestFix13bCMARequest(t *testing.T) {
	for in, want := range map[string][2]int64{
		"cma: cma_alloc: alloc failed, req-size: 2048 pages, ret: -16": {2048, -16},
		"cma_alloc: alloc failed, req-size: 2048 pages, ret: -12 (x)":  {2048, -12},
		"cma_alloc: alloc failed, req-size: %lu pages, ret: %d":        {0, 0},
		"cma_alloc: alloc failed, req-size: 2048 pages, ret: 0":        {0, 0},
		"cma_alloc: alloc failed, req-size: 2048":                      {0, 0},
	} {
		if p, r := cmaRequest(in); p != want[0] || int64(r) != want[1] {
			t.Errorf("cmaRequest(%q) = %d, %d; want %v", in, p, r, want)
		}
	}
}
