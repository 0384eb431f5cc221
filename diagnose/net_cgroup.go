package diagnose

import (
	"fmt"
	"headroom/units"
	"strconv"
	"strings"

	"headroom/kernel"
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
		Check:  checkCgroupTCPBeancounters,
	})
}

// checkCgroupTCP judges the live v1 TCP limits (tl.Cgroups) and the pasted v2 files
// (tl.CgroupMemory): a v2 cgroup whose memory.events say it reached memory.max or
// memory.high while its memory.stat charges it socket memory.
func checkCgroupTCP(tl *model.Timeline) Result {
	pf, pOK, pMissing := pastedCgroupSock(tl)
	if len(tl.Cgroups) == 0 {
		switch {
		case len(pf) > 0:
			return Fired(pf...)
		case len(pOK) > 0:
			return Healthy("%s", strings.Join(pOK, "; "))
		case len(pMissing) > 0:
			return NotChecked("%s", strings.Join(pMissing, "; "))
		}
		return NotChecked("no cgroup with socket memory read (live hosts with the memory controller, or a pasted cgroup v2 memory.stat with its memory.events)")
	}
	res := checkCgroupTCPLimit(tl)
	if len(pf) > 0 {
		res.Findings = append(res.Findings, pf...)
		res.Checked = ""
	} else if res.Checked != "" && len(pOK) > 0 {
		res.Checked += "; " + strings.Join(pOK, "; ")
	}
	return res
}

// cgroupV2PressureEvents are the memory.events keys that count the cgroup at its limits:
// over memory.high (allocations throttled and reclaimed) and at memory.max (reclaim at the
// limit; Documentation/admin-guide/cgroup-v2.rst "memory.events").
var cgroupV2PressureEvents = []string{"max", "high"}

// pastedCgroupSock pairs each pasted memory.stat that charges socket memory ("sock", v2)
// with the memory.events of the same cgroup (same path, or the only two files of a paste
// that names neither) and judges them. It returns findings, healthy and not-judged messages.
func pastedCgroupSock(tl *model.Timeline) (findings []Finding, ok, missing []string) {
	for _, st := range tl.CgroupMemory {
		if st.Stat == nil {
			continue
		}
		sock, has := st.Stat.Get("sock")
		if !has {
			continue
		}
		name := memOr(st.Path, "the pasted cgroup")
		evs := cgroupPair(tl, st, false)
		if evs != nil && evs.Version != 2 {
			evs = nil
		}
		attrib := cgroupCharged(st)
		if evs == nil {
			missing = append(missing, fmt.Sprintf("memory.stat of %s read (%s, %s) but not its memory.events: whether it reached its limit is not in the input", name, attrib, st.Source))
			continue
		}
		var hit []string
		for _, k := range cgroupV2PressureEvents {
			if v, ok := evs.Events.Get(k); ok && v > 0 {
				hit = append(hit, fmt.Sprintf("%s %d", k, v))
			}
		}
		if len(hit) == 0 || sock == 0 {
			ok = append(ok, fmt.Sprintf("%s: %s; memory.events %s (%s)", name, attrib, cgroupEventsList(evs.Events), evs.Source))
			continue
		}
		findings = append(findings, Finding{
			ID:       "cgroup-tcp-limit",
			Severity: Warning,
			Title:    fmt.Sprintf("cgroup %s reached its memory limit while charged %s of socket memory: its TCP is throttled", name, units.FormatBytes(sock)),
			Evidence: []Evidence{
				{What: "memory charged to " + name + " (memory.stat)", Value: attrib, Source: st.Source},
				{What: "times at its limits since it was created (memory.events)", Value: strings.Join(hit, ", "), Source: evs.Source},
			},
			Explanation: "cgroup v2 charges a container's socket buffers to its memory (mm/memcontrol.c mem_cgroup_charge_skmem, " +
				"\"sock\" in memory.stat). At memory.max the charge is forced but reported as failed, so the socket is under " +
				"memory pressure, and reclaim struggling at the limit marks the cgroup's sockets as under pressure for a second " +
				"at a time (vmpressure sets memcg->socket_pressure, mm/vmpressure.c; mem_cgroup_under_socket_pressure): TCP " +
				"then stops growing its windows and buffers for this cgroup's connections only, while the host's tcp_mem and " +
				"sockstat show nothing wrong.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "cgroup " + name + " memory.max",
				Recommended: "raise memory.max (and memory.high) by what the workload's connections need in socket buffers, or bound the buffers (tcp_rmem/tcp_wmem maxima in its network namespace)",
				Rule:        "cgroup-tcp-limit",
				Why:         "the socket memory counts against the same limit as the workload's anon and file memory"}},
		})
	}
	return findings, ok, missing
}

// cgroupPair returns the other file of the same cgroup as c: its memory.events (or
// oom_control) for a memory.stat, or its memory.stat when wantStat. Files pair when the
// commands above them name the same directory, or when the paste holds one of each and names
// neither.
func cgroupPair(tl *model.Timeline, c model.CgroupMemory, wantStat bool) *model.CgroupMemory {
	var cands []*model.CgroupMemory
	for i := range tl.CgroupMemory {
		o := &tl.CgroupMemory[i]
		if wantStat && o.Stat != nil || !wantStat && o.Events != nil {
			cands = append(cands, o)
		}
	}
	for _, o := range cands {
		if c.Path != "" && o.Path == c.Path {
			return o
		}
	}
	if c.Path == "" && len(cands) == 1 && cands[0].Path == "" && len(tl.CgroupMemory) == 2 {
		return cands[0]
	}
	return nil
}

// cgroupCharged says what a memory.stat charges the cgroup: its socket buffers, anonymous
// and file memory, as printed.
func cgroupCharged(st model.CgroupMemory) string {
	var parts []string
	for _, k := range []string{"sock", "anon", "file"} {
		if v, ok := st.Stat.Get(k); ok {
			parts = append(parts, fmt.Sprintf("%s %s", k, units.FormatBytes(v)))
		}
	}
	return strings.Join(parts, ", ")
}

// cgroupEventsList prints memory.events' counters in the file's order.
func cgroupEventsList(c *kernel.Counters) string {
	var parts []string
	for i := 0; i < c.Len(); i++ {
		k, v := c.At(i)
		parts = append(parts, fmt.Sprintf("%s %d", k, v))
	}
	return strings.Join(parts, ", ")
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
			{What: "TCP memory charged to cgroup " + c.Path, Value: fmt.Sprintf("%s (%.0f%% of its limit)", units.FormatBytes(c.Bytes), 100*share), Source: src + "/memory.kmem.tcp.usage_in_bytes"},
			{What: "its TCP limit", Value: units.FormatBytes(c.LimitBytes), Source: src + "/memory.kmem.tcp.limit_in_bytes"},
		}
		if c.HasFailcnt {
			ev = append(ev, Evidence{What: "charges refused at the limit since the cgroup was created", Value: strconv.FormatInt(c.Failcnt, 10), Source: src + "/memory.kmem.tcp.failcnt"})
		}
		if c.MaxUsageBytes > 0 {
			ev = append(ev, Evidence{What: "highest TCP memory it reached", Value: units.FormatBytes(c.MaxUsageBytes), Source: src + "/memory.kmem.tcp.max_usage_in_bytes"})
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
		len(tl.Cgroups), limited, top.Path, units.FormatBytes(top.Bytes), top.Version)
}
