package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Slurm's reports of a job step's memory (h19c, written from Slurm's sources, blind to round
// 19's batches). slurmstepd's task/cgroup plugin reads the step's memory cgroup when the step
// ends (src/plugins/task/cgroup/task_cgroup_memory.c task_cgroup_memory_check_oom) and logs
// to the job's stderr and slurmd's log:
//
//	17.11–20.02: "Detected %u oom-kill event(s) in %ps. Some of your processes may have been
//	             killed by the cgroup out-of-memory handler." (older: "in step %u.%u cgroup.")
//	20.11 on:    "Detected %lu oom_kill event%s in %ps. Some of the step tasks have been OOM
//	             Killed."
//	up to 17.02: "Exceeded step memory limit at some point." / "Exceeded job memory limit at
//	             some point." (the cgroup's memory.failcnt; the era's only word of a kill)
//
// The count is the cgroup's oom_kill events (memory.events, or v1's eventfd on
// memory.oom_control): kills by the kernel's OOM killer inside the step's memory cgroup at its
// limit, a memory-cgroup OOM (oom-kill, warning), never the host's. srun relays the same state
// per task ("srun: error: NODE: task N: Out Of Memory", the step's OOM exit state): counted only
// when no task/cgroup line already did.
//
// jobacct_gather's own enforcement (src/common/slurm_jobacct_gather.c, JobAcctGatherParams
// OverMemoryKill): "%ps exceeded memory limit (%"PRIu64" > %"PRIu64"), being killed" (older
// "Step %u.%u ..." and "Job %u ..."): Slurm's sampled RSS over the requested memory, the step
// killed by slurmstepd itself, not by the kernel: a kill for memory by another killer (scope
// low-memory killer), as systemd-oomd's.
//
// 20.11's "%ps hit memory limit at least once during execution. This may or may not result
// in some failure." is failcnt without a kill event: named, no kill.
//
// Prefixes: "slurmstepd: error: ", "slurmstepd-NODE: error: " (multiple-slurmd builds), the
// job log's "[2024-03-14T17:14:38.784] error: ", or syslog's slurmstepd/slurmd tag. A
// sentence that only names the message ("if you see Detected 1 oom-kill event ...") has
// another start and stays prose.
// reSlurmStepID: a step named the way slurmstepd names it ("step 3756240.batch cgroup",
// "StepId=191.batch cgroup", "JobId=5 StepId=5.0", a het or array job's "+0"/"_3"), for the
// message's first sentence quoted alone: users cut the second sentence, and without it only
// the step's shape tells Slurm's line from a sentence about "oom-kill events in my job".
const reSlurmStepID = `(?:step \d+(?:[_+]\d+)?\.(?:\d+|batch|extern|interactive)(?: cgroup)?|(?:JobId=\d+\S* )?StepId=\d+(?:[_+]\d+)?\.(?:\d+|batch|extern|interactive)(?: cgroup)?)`

var (
	reSlurmPrefix    = `^\s*(?:\[\d{4}-\d\d-\d\dT[\d:.]+\]\s+)?(?:slurmstepd(?:-[\w.-]+)?(?:\[\d+\])?:\s+)?(?:error:\s+)?(?:task/cgroup:\s+(?:task_cgroup_memory_check_oom:\s+)?)?`
	reSlurmOOMEvents = lazyre.New(reSlurmPrefix + `Detected (\d{1,9}) oom[-_]kill events?(?:\(s\))? in (?:(\S+(?: \S+)?(?: cgroup)?)\.\s+Some of (?:your processes may have been killed by the cgroup out-of-memory handler|the step tasks have been OOM Killed)\.?|(` + reSlurmStepID + `)\.?)["'”]?\s*$`)
	reSlurmLowMem    = lazyre.New(`^\s*(?:\[\d{4}-\d\d-\d\dT[\d:.]+\]\s+)?(?:slurmctld(?:\[\d+\])?:\s+)?(?:(?:error|debug\d?):\s+)?Node (\S+) has low real_memory size (?:(\d{1,20})|\((\d{1,20}) < (\d{1,20})\)|\((\d{1,20}) / (\d{1,20})\) < [\d.]+%)\s*$`)
	reSlurmExceeded  = lazyre.New(reSlurmPrefix + `Exceeded (step|job) memory limit at some point\.?\s*$`)
	reSlurmOverKill  = lazyre.New(reSlurmPrefix + `((?:Job|Step) \S+|(?:JobId|StepId)=\S+) exceeded memory limit \((\d{1,20}) > (\d{1,20})\), being killed\s*$`)
	reSlurmHitLimit  = lazyre.New(reSlurmPrefix + `(?:\S+: )?(?:JobId|StepId)=\S+ hit memory limit at least once during execution\. This may or may not result in some failure\.\s*$`)
	reSrunTaskOOM    = lazyre.New(`^\s*srun: error: (\S+): tasks? ([\d,\-]{1,64}): Out Of Memory\s*$`)
)

// slurmHitLimitWhy names 20.11's limit-reached line.
const slurmHitLimitWhy = "Slurm's task/cgroup note that the step's memory cgroup reached its limit (memory.failcnt above zero) with no oom_kill event: reclaim ran at the limit, no process was killed; the step's requested memory (--mem), not the host's"

// slurmLowMemWhy names slurmctld's registration check (src/slurmctld/node_mgr.c
// validate_node_specs): the node's slurmd reported less real memory than slurm.conf's
// RealMemory ("Node %s has low real_memory size %u", later "(%u < %u)", 22.05 on "(%lu / %lu)
// < %.2f%%"), and slurmctld drains the node ("Low RealMemory"). The figure is the node's
// MemTotal in MiB against a configured figure: a configuration mismatch, not a shortage.
const slurmLowMemWhy = "slurmctld's registration check: the node's slurmd reported less real memory (MiB, its MemTotal) than slurm.conf's RealMemory, so slurmctld drains it (\"Low RealMemory\"): a configured figure above the node's own, not memory in use or short; no rule applies"

// isSlurmTag: slurmstepd's, slurmd's and slurmctld's syslog tags.
func isSlurmTag(tag string) bool {
	return tag == "slurmstepd" || tag == "slurmd" || tag == "slurmctld" || strings.HasPrefix(tag, "slurmstepd-")
}

// slurmLine reads line i as one of Slurm's memory lines above.
func (d *doc) slurmLine(i int) bool {
	t := d.ls[i].Text
	if !strings.Contains(t, "emory") && !strings.Contains(t, "oom") {
		return false
	}
	src := fmt.Sprintf("line %d", d.ls[i].No)
	switch {
	case strings.Contains(t, "Detected ") && strings.Contains(t, " oom"):
		m := reSlurmOOMEvents.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		n, err := strconv.Atoi(m[1])
		if err != nil || n < 1 {
			return false
		}
		step := m[2]
		if step == "" {
			step = m[3] // the first sentence alone (reSlurmStepID)
		}
		d.used[i] = true
		d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: "slurmstepd task/cgroup (oom_kill events in " + step + "'s memory cgroup)",
			Container: step, Count: n, Source: src})
		return true
	case strings.Contains(t, "Exceeded ") && strings.Contains(t, " at some point"):
		m := reSlurmExceeded.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.used[i] = true
		if n := len(d.tl.RuntimeOOMs); n > 0 && strings.HasPrefix(d.tl.RuntimeOOMs[n-1].Reporter, "slurmstepd task/cgroup (the ") {
			return true // the step's and the job's line after one kill: the job's cgroup holds the step's
		}
		d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: "slurmstepd task/cgroup (the " + m[1] + "'s memory cgroup reached its limit: Exceeded " + m[1] + " memory limit, Slurm ≤17.02's report of the kill)",
			Count: 1, Source: src})
		return true
	case strings.Contains(t, " being killed"):
		m := reSlurmOverKill.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.used[i] = true
		d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeJobLimit, Reporter: "slurmstepd jobacct_gather (" + m[1] + "'s sampled memory " + m[2] + " over its limit " + m[3] + ", killed by Slurm)",
			Container: m[1], Count: 1, Source: src})
		return true
	case strings.Contains(t, " low real_memory size "):
		if !reSlurmLowMem.MatchString(t) {
			return false
		}
		d.unparsedUnread(i, slurmLowMemWhy)
		return true
	case strings.Contains(t, " hit memory limit "):
		if !reSlurmHitLimit.MatchString(t) {
			return false
		}
		d.unparsedUnread(i, slurmHitLimitWhy)
		return true
	case strings.Contains(t, ": Out Of Memory"):
		m := reSrunTaskOOM.FindStringSubmatch(t)
		if m == nil {
			return false
		}
		d.used[i] = true
		if n := len(d.tl.RuntimeOOMs); n > 0 && strings.HasPrefix(d.tl.RuntimeOOMs[n-1].Reporter, "slurmstepd task/cgroup") {
			return true // the step's own line counted the kills
		}
		d.addRuntimeOOM(model.RuntimeOOM{Scope: model.OOMScopeCgroup, Reporter: "srun (task " + m[2] + " on " + m[1] + ": Out Of Memory, the step's memory cgroup)",
			Count: 1, Source: src})
		return true
	}
	return false
}
