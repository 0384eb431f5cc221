package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// A memory cgroup whose watermark reached its limit (corpus 501: cgroup v1 files read with
// cat, max_usage 524292096 ≥ limit 524288000) is where the memcg OOM killer runs. Before,
// oom-kill was not checked ("no oom_kill counter ... and no memory cgroup's memory.events").
func TestOOMKillCgroupAtItsLimit(t *testing.T) {
	cg := func(peak, limit int64) *model.Timeline {
		tl := timeline(0)
		var f kernel.Counters
		f.Set("memory.usage_in_bytes", 501346304)
		f.Set("memory.max_usage_in_bytes", peak)
		f.Set("memory.limit_in_bytes", limit)
		tl.CgroupMemory = []model.CgroupMemory{{Version: 1, Files: &f, Source: "lines 17-26"}}
		return tl
	}
	f := mustFire(t, run(t, "oom-kill", cg(524292096, 524288000)), Info)
	if !evidenceHas(f, "memory.max_usage_in_bytes", "500 MiB") || !evidenceHas(f, "memory.limit_in_bytes", "500 MiB") || !evidenceHas(f, "usage now", "95.6% of the limit") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	// Below its limit, or without one (v1's PAGE_COUNTER_MAX in bytes), nothing to say.
	if r := run(t, "oom-kill", cg(400000000, 524288000)); len(r.Findings) > 0 {
		t.Errorf("fired below the limit: %+v", r)
	}
	if r := run(t, "oom-kill", cg(524292096, 9223372036854771712)); len(r.Findings) > 0 {
		t.Errorf("fired without a limit: %+v", r)
	}
}

// The memcg OOM's own counter is cited: usage at the limit and the failed charges (corpus 506).
func TestOOMKillCitesMemcgCounter(t *testing.T) {
	tl := timeline(0)
	tl.Events = []model.Event{{Kind: model.EventOOMKill, Source: "lines 3-9", OOMKill: &model.OOMKill{Constraint: "CONSTRAINT_MEMCG", Memcg: "/a",
		MemcgCounters: []model.MemcgCounter{{Name: "memory", UsageKB: 1048576, LimitKB: 1048576, Failcnt: 189}, {Name: "kmem", LimitKB: 9007199254740988}}}}}
	f := mustFire(t, run(t, "oom-kill", tl), Warning)
	if !evidenceHas(f, "memory counter at the kill", "usage 1 GiB of limit 1 GiB (100%), 189 charges failed") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	for _, e := range f.Evidence {
		if strings.Contains(e.Value, "8 EiB") || strings.Contains(e.Value, "9007199254740988") {
			t.Errorf("kmem's no-limit cited: %+v", e)
		}
	}
}
