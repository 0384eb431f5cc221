package diagnose

import (
	"fmt"
	"headroom/plan"
	"strconv"

	"headroom/model"
)

// cgroup-tcp-limit: cgroup v1 charges a cgroup's TCP buffers to memory.kmem.tcp and refuses
// a charge above memory.kmem.tcp.limit_in_bytes (mm/memcontrol-v1.c
// memcg1_charge_skmem; mem_cgroup_charge_skmem before 6.x): the socket's allocation fails as
// at tcp_mem's hard limit, for that cgroup's sockets only, while the host's tcp_mem and
// sockstat look fine. failcnt counts the refusals since the cgroup was created. v1 turns
// TCP accounting on for a cgroup only once its limit is written, so only limited cgroups
// have usage. cgroup v2 has no TCP limit of its own (sockets count against memory.max
// with everything else); its "sock" is reported as attribution, not judged here.
func init() {
	Register(Rule{
		ID:     "cgroup-tcp-limit",
		Title:  "a memory cgroup's TCP memory at its limit",
		Family: FamilyNetwork,
		Check:  checkCgroupTCPLimit,
	})
}

// cgroupTCPNearShare: at or above this share of its limit a cgroup is at the limit now;
// v1 charges in pages and batches (memcg's per-CPU stock), so usage rarely equals it.
const cgroupTCPNearShare = 0.9

func checkCgroupTCPLimit(tl *model.Timeline) Result {
	if len(tl.Cgroups) == 0 {
		return NotChecked("no cgroup with socket memory read (live hosts with the memory controller only)")
	}
	var findings []Finding
	limited := 0
	for _, c := range tl.Cgroups {
		if c.Version != 1 || c.LimitBytes <= 0 {
			continue
		}
		limited++
		share := float64(c.Bytes) / float64(c.LimitBytes)
		near := share >= cgroupTCPNearShare
		if !near && c.Failcnt == 0 {
			continue
		}
		// At or over the limit the cgroup's sockets are under memory pressure now
		// (memcg1_charge_skmem sets tcpmem_pressure on a refused charge); charges that may
		// not fail (__GFP_NOFAIL, the transmit path's sk_forced_mem_schedule) are forced
		// past it, so usage above the limit with failcnt 0 is what the lab shows.
		sev := Warning
		if share >= 1 || (near && c.Failcnt > 0) {
			sev = Critical
		}
		src := "/sys/fs/cgroup/memory" + c.Path
		if c.Path == "/" {
			src = "/sys/fs/cgroup/memory"
		}
		ev := []Evidence{
			{What: "TCP memory charged to cgroup " + c.Path, Value: fmt.Sprintf("%s (%.0f%% of its limit)", plan.FormatBytes(c.Bytes), 100*share), Source: src + "/memory.kmem.tcp.usage_in_bytes"},
			{What: "its TCP limit", Value: plan.FormatBytes(c.LimitBytes), Source: src + "/memory.kmem.tcp.limit_in_bytes"},
		}
		if c.HasFailcnt {
			ev = append(ev, Evidence{What: "charges refused at the limit since the cgroup was created", Value: strconv.FormatInt(c.Failcnt, 10), Source: src + "/memory.kmem.tcp.failcnt"})
		}
		if c.MaxUsageBytes > 0 {
			ev = append(ev, Evidence{What: "highest TCP memory it reached", Value: plan.FormatBytes(c.MaxUsageBytes), Source: src + "/memory.kmem.tcp.max_usage_in_bytes"})
		}
		findings = append(findings, Finding{
			ID:       "cgroup-tcp-limit",
			Severity: sev,
			Title:    fmt.Sprintf("cgroup %s: TCP memory at its limit", c.Path),
			Evidence: ev,
			Explanation: "This cgroup's TCP buffers are charged against its own limit (cgroup v1 memory.kmem.tcp). At the limit " +
				"the kernel refuses the charge: sends stall, receive queues are pruned and connections can be reset, " +
				"for this cgroup's sockets only, while the host's tcp_mem and sockstat show nothing wrong.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "cgroup " + c.Path + " memory.kmem.tcp.limit_in_bytes",
				Current: strconv.FormatInt(c.LimitBytes, 10), Recommended: strconv.FormatInt(2*max(c.LimitBytes, c.MaxUsageBytes), 10),
				Rule: "cgroup-tcp-limit",
				Why:  "raise it (or remove it: write -1) where the workload's connections need the memory; whoever set it (a container runtime, a unit file) must change it, or it returns with the cgroup"}},
		})
	}
	if len(findings) > 0 {
		return Fired(findings...)
	}
	top := tl.Cgroups[0]
	return Healthy("%d cgroups with socket memory, %d with a TCP limit, none at it; largest %s (%s, cgroup v%d)",
		len(tl.Cgroups), limited, top.Path, plan.FormatBytes(top.Bytes), top.Version)
}
