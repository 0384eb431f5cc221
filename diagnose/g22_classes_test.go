package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// The allocator's WARNING for a request above its largest order (a driver asking one
// buddy block of 1 GiB) is an impossible-size failure: alloc-fail-not-physical, read by
// the warning's site. Before: the line was a plain log record and nothing fired.
// Counter-cases: another WARN of mm/page_alloc.c (the slow path's) and the entry function
// as a trace frame are no such failure, and fragmentation is not called on it.
func TestAllocOrderWarnIsNotPhysical(t *testing.T) {
	tl := memTextTimeline()
	tl.Log = model.NewLog([]model.LogRecord{
		model.LogRecord{Message: "------------[ cut here ]------------"}.WithSource("line 1"),
		model.LogRecord{Message: "WARNING: CPU: 3 PID: 42 at mm/page_alloc.c:4724 __alloc_pages_nodemask+0x1ee/0x320"}.WithSource("line 2"),
	})
	f := mustFire(t, run(t, classNotPhysical, tl), Warning)
	if !evidenceHas(f, "order above its largest", "__alloc_pages_nodemask") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	mustBeHealthy(t, run(t, classFragmented, tl))

	for _, msg := range []string{
		"WARNING: CPU: 3 PID: 42 at mm/page_alloc.c:4180 __alloc_pages_slowpath+0xa1/0xd20",
		" __alloc_pages_nodemask+0x1ee/0x320",
	} {
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: msg}.WithSource("line 1")})
		mustBeHealthy(t, run(t, classNotPhysical, tl))
	}
}

// The story asks for no zone dump to decide an impossible-order failure: no free memory
// serves it. Before: "reserve too small and fragmentation fit alike" was left undecided.
// Counter-case: a fragmentation finding without zones still asks.
func TestNotPhysicalLeavesNoZoneQuestion(t *testing.T) {
	asks := func(id string) bool {
		for _, u := range Tell([]Finding{{ID: id, Severity: Warning}}).Undecided {
			if strings.Contains(u, "no zone state") {
				return true
			}
		}
		return false
	}
	if asks(classNotPhysical) {
		t.Error("an impossible-order failure asked for the zones")
	}
	if !asks(classFragmented) {
		t.Error("a fragmentation failure without zones stopped asking")
	}
}
