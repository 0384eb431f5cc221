package diagnose

import "testing"

// Round 16's classes fixed by fix21a (issue 29), judged end to end; each snippet failed
// before its change.

// A failed cma_alloc followed by the buddy allocator's WARN for an order above its largest
// (corpus 1860: the CMA fallback asked alloc_pages for order 11): the WARN is the cause's
// evidence although a dedicated pool's line stands beside it. Before: every rule of the
// family was "not checked" for the pool line. Counter-cases: the pool line alone (no
// not-physical finding), and a WARN at another page_alloc.c function (the slow path's).
func TestCMAFailThenOrderWarnNotPhysical(t *testing.T) {
	cma := "[  338.128731] cma: cma_alloc: alloc failed, req-size: 1231 pages, ret: -12\n"
	warn := "[  338.128790] ------------[ cut here ]------------\n[  338.128793] WARNING: CPU: 1 PID: 1452 at mm/page_alloc.c:4979 __alloc_pages_nodemask+0x62c/0xc60\n"
	if d, _ := rootOf(t, cma+warn); findingOf(d, "alloc-fail-not-physical") == nil {
		t.Errorf("cma + order WARN: findings %+v", d.Findings)
	}
	if d, _ := rootOf(t, cma); findingOf(d, "alloc-fail-not-physical") != nil {
		t.Errorf("cma alone: findings %+v", d.Findings)
	}
	slow := "[  338.128793] WARNING: CPU: 1 PID: 1452 at mm/page_alloc.c:3811 __alloc_pages_slowpath+0x62c/0xc60\n"
	if d, _ := rootOf(t, cma+slow); findingOf(d, "alloc-fail-not-physical") != nil {
		t.Errorf("cma + slow path WARN: findings %+v", d.Findings)
	}
}
