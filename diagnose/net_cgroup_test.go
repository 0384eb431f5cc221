package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestCgroupTCPLimit(t *testing.T) {
	run := func(cs ...kernel.CgroupSock) Result { return checkCgroupTCPLimit(&model.Timeline{Cgroups: cs}) }

	r := run(kernel.CgroupSock{Path: "/", Version: 1, Bytes: 5 << 20},
		kernel.CgroupSock{Path: "/pod1", Version: 1, Bytes: 1000 << 10, LimitBytes: 1 << 20, Failcnt: 42, HasFailcnt: true, MaxUsageBytes: 1 << 20})
	if len(r.Findings) != 1 || r.Findings[0].Severity != Critical || !strings.Contains(r.Findings[0].Title, "/pod1") {
		t.Fatalf("at the limit with failures: %+v", r)
	}
	if c := r.Findings[0].Changes[0]; c.Kind != model.ChangeOther || c.Recommended != "2097152" {
		t.Errorf("change %+v", c)
	}
	// Failures in the past, well under the limit now: a warning.
	if r = run(kernel.CgroupSock{Path: "/pod1", Version: 1, Bytes: 10 << 10, LimitBytes: 1 << 20, Failcnt: 3, HasFailcnt: true}); len(r.Findings) != 1 || r.Findings[0].Severity != Warning {
		t.Errorf("past failures: %+v", r)
	}
	// Over the limit without refusals (charges forced past it): critical.
	if r = run(kernel.CgroupSock{Path: "/pod1", Version: 1, Bytes: 296 << 10, LimitBytes: 256 << 10, HasFailcnt: true}); len(r.Findings) != 1 || r.Findings[0].Severity != Critical {
		t.Errorf("over: %+v", r)
	}
	// Near the limit without failures: a warning.
	if r = run(kernel.CgroupSock{Path: "/pod1", Version: 1, Bytes: 950 << 10, LimitBytes: 1 << 20, HasFailcnt: true}); len(r.Findings) != 1 || r.Findings[0].Severity != Warning {
		t.Errorf("near: %+v", r)
	}
	// Under the limit, no failures; v2 (no TCP limit of its own): healthy, naming the largest.
	r = run(kernel.CgroupSock{Path: "/kubepods/pod2", Version: 2, Bytes: 64 << 20, LimitBytes: 80 << 20},
		kernel.CgroupSock{Path: "/pod1", Version: 1, Bytes: 10 << 10, LimitBytes: 1 << 20, HasFailcnt: true})
	if len(r.Findings) != 0 || !strings.Contains(r.Checked, "largest /kubepods/pod2") {
		t.Errorf("healthy: %+v", r)
	}
	if r = run(); r.NotChecked == "" {
		t.Errorf("no data: %+v", r)
	}
}
