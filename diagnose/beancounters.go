package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/model"
)

// OpenVZ/Virtuozzo user beancounters (pre-round 15, h15d; artifact/beancounters.go): a
// container's own limits, one row per resource, whose failcnt counts the charges that
// limit refused (OpenVZ kernel/bc/beancounter.c __charge_beancounter_locked). They are the
// container's limits, not the host's, as a memory cgroup's are:
//   - tcpsndbuf, tcprcvbuf, othersockbuf, dgramrcvbuf: socket buffer memory charged to the
//     container (kernel/bc/net.c ub_sock_charge / ub_sock_tcp_chargesend); a refusal fails
//     the socket's send or drops the received packet, as tcp_mem's hard limit would, while
//     the host's tcp_mem and sockstat look fine; numtcpsock and numothersock refuse a new
//     socket. These reach cgroup-tcp-limit.
//   - physpages (its RAM under VSwap: reclaim, then the container's OOM killer),
//     oomguarpages (failcnt counts the container's OOM kills), swappages (VSwap's swap:
//     full, the OOM killer is next), LVE's PMEM: the container's OOM killer. These reach
//     oom-kill, scoped to the container (a cgroup's OOM, warning).
//   - privvmpages (its private virtual memory: OpenVZ's commit accounting, mmap and brk
//     refused with ENOMEM), vmguarpages, lockedpages, shmpages, LVE's VMEM: allocations the
//     container's commit limit refused, no kill. These reach overcommit-exposed (the
//     container's own CommitLimit, reached).
//   - kmemsize, dcachesize: the container's kernel memory (slabs, dentries, socket
//     structures) refused, so kernel allocations on its behalf fail. These reach
//     slab-alloc-failure. (fix20c's dispute of h15d's first mapping: a refused charge of
//     privvmpages or kmemsize kills nothing; 1821, 1837 and 1838 are labelled so.)
//   - numproc, numfile, numflock, numpty, numsiginfo, numiptent: counts of the container's
//     processes, files, locks, ptys, queued signals and iptables rules, no memory and no
//     network buffer: named in the healthy text when they fail, no finding.

// beancounterSocketRes: the rows that are the container's socket memory or socket count.
var beancounterSocketRes = map[string]string{
	"tcpsndbuf":    "TCP send buffers",
	"tcprcvbuf":    "TCP receive buffers",
	"othersockbuf": "other (UDP, unix, netlink) sockets' send buffers and TCP's small control buffers",
	"dgramrcvbuf":  "datagram sockets' receive buffers",
	"numtcpsock":   "TCP sockets (count)",
	"numothersock": "other sockets (count)",
}

// beancounterMemRes: the rows that are the container's memory.
var beancounterMemRes = map[string]string{
	"kmemsize":     "kernel memory",
	"privvmpages":  "private virtual memory (pages)",
	"physpages":    "resident memory (pages; the container's RAM under VSwap)",
	"oomguarpages": "memory guaranteed against the OOM killer (pages; failcnt counts the container's OOM kills)",
	"lockedpages":  "mlock()ed memory (pages)",
	"shmpages":     "IPC shared memory (pages)",
	"swappages":    "swap (pages)",
	"vmguarpages":  "guaranteed allocations (pages)",
	"dcachesize":   "dentry and inode cache (bytes)",
	// CloudLinux's LVE faults (lveinfo's fPMEM, fVMEM): the user's LVE at its own limit.
	"lve_pmem": "physical memory faults (the LVE's PMEM limit refused pages: reclaim, then its OOM killer)",
	"lve_vmem": "virtual memory faults (the LVE's VMEM limit refused an allocation: ENOMEM)",
}

// bcUnlimited: LONG_MAX on 64-bit kernels, LONG_MAX of 32-bit ones; either is "unlimited".
func bcLimit(v int64) string {
	if v >= 1<<62 || v == 1<<31-1 {
		return "unlimited"
	}
	return strconv.FormatInt(v, 10)
}

// bcRowValue: the row's failcnt and the figures printed beside it (vzlist prints only the
// columns asked for; -1 is one not printed).
func bcRowValue(b model.Beancounter) string {
	var parts []string
	for k, v := range [4]int64{b.Held, b.MaxHeld, b.Barrier, b.Limit} {
		if v < 0 {
			continue
		}
		s := strconv.FormatInt(v, 10)
		if k >= 2 {
			s = bcLimit(v)
		}
		parts = append(parts, [4]string{"held", "maxheld", "barrier", "limit"}[k]+" "+s)
	}
	if len(parts) == 0 {
		if strings.HasPrefix(b.Resource, "lve_") {
			return fmt.Sprintf("%d faults (lveinfo)", b.Failcnt)
		}
		return fmt.Sprintf("failcnt %d", b.Failcnt)
	}
	return fmt.Sprintf("failcnt %d (%s)", b.Failcnt, strings.Join(parts, ", "))
}

// beancountersOf splits the pasted rows with a refused charge into the rows of one kind
// (res), and says how many rows of that kind were read.
func beancountersOf(tl *model.Timeline, res map[string]string) (failed []model.Beancounter, read int) {
	for _, b := range tl.Beancounters {
		if _, ok := res[b.Resource]; !ok || b.Failcnt < 0 {
			continue // vzlist without the resource's .F column: whether it failed is not printed
		}
		read++
		if b.Failcnt > 0 {
			failed = append(failed, b)
		}
	}
	return failed, read
}

// bcContainers names the containers of the rows: "OpenVZ container 101, 102", or
// "CloudLinux LVE user1" for lveinfo's rows.
func bcContainers(bs []model.Beancounter) string {
	var ids []string
	lve := len(bs) > 0 && strings.HasPrefix(bs[0].Resource, "lve_")
	for _, b := range bs {
		if len(ids) == 0 || ids[len(ids)-1] != b.Container {
			ids = append(ids, b.Container)
		}
	}
	if lve {
		return "CloudLinux LVE " + strings.Join(ids, ", ")
	}
	return "OpenVZ container " + strings.Join(ids, ", ")
}

// bcWho: the container word for one row ("container 101", "LVE user1").
func bcWho(b model.Beancounter) string {
	if strings.HasPrefix(b.Resource, "lve_") {
		return "LVE " + b.Container + " " + strings.TrimPrefix(b.Resource, "lve_")
	}
	return "container " + b.Container + " " + b.Resource
}

// beancounterSocketResult: cgroup-tcp-limit on the pasted beancounters; fired is empty and
// checked says what was read when no socket row refused a charge, both empty without rows.
func beancounterSocketResult(tl *model.Timeline) (fired []Finding, checked string) {
	failed, read := beancountersOf(tl, beancounterSocketRes)
	if read == 0 {
		return nil, ""
	}
	if len(failed) == 0 {
		return nil, fmt.Sprintf("%s's beancounters: no socket buffer or socket charge refused (tcpsndbuf, tcprcvbuf, othersockbuf, dgramrcvbuf failcnt 0)", bcContainers(tl.Beancounters))
	}
	var ev []Evidence
	sev := Warning
	for _, b := range failed {
		ev = append(ev, Evidence{What: bcWho(b) + ": " + beancounterSocketRes[b.Resource] + " refused at the container's limit", Value: bcRowValue(b), Source: b.Source})
		if !strings.HasPrefix(b.Resource, "num") && b.Barrier > 0 && b.MaxHeld*10 >= b.Barrier*9 {
			sev = Critical // it reached its barrier and charges were refused
		}
	}
	return []Finding{{
		ID:       "cgroup-tcp-limit",
		Severity: sev,
		Title:    fmt.Sprintf("%s: socket buffer memory refused at the container's own beancounter limit", bcContainers(failed)),
		Evidence: ev,
		Explanation: "An OpenVZ/Virtuozzo container's socket buffers are charged to its user beancounter (tcpsndbuf, tcprcvbuf, " +
			"othersockbuf, dgramrcvbuf; kernel/bc/net.c), and a charge past the container's barrier or limit is refused and counted " +
			"in failcnt: sends stall or fail, received packets are dropped and connections can be reset, for this container's " +
			"sockets only, while the host's tcp_mem and sockstat show nothing wrong. numtcpsock and numothersock refuse new sockets.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "container beancounters (" + failed[0].Resource + ")",
			Current: bcBarrierLimit(failed[0]), Rule: "cgroup-tcp-limit",
			Recommended: "raise the failing resources' barrier:limit on the host node (vzctl set CTID --" + failed[0].Resource + " B:L --save), or move to a plan with more",
			Why:         "the container's limit, not the host's tcp_mem, refuses the buffers; only the host node's administrator can change it"}},
	}}, ""
}

// The memory rows by what a refused charge does (see the package comment above).
var (
	bcKillRes   = resSubset(beancounterMemRes, "physpages", "oomguarpages", "swappages", "lve_pmem")
	bcCommitRes = resSubset(beancounterMemRes, "privvmpages", "vmguarpages", "lockedpages", "shmpages", "lve_vmem")
	bcKernelRes = resSubset(beancounterMemRes, "kmemsize", "dcachesize")
)

func resSubset(all map[string]string, keys ...string) map[string]string {
	m := make(map[string]string, len(keys))
	for _, k := range keys {
		m[k] = all[k]
	}
	return m
}

// beancounterMemoryFinding: oom-kill on the pasted beancounters' rows whose refusal is the
// container's OOM killer; ok is false without memory rows, and the finding's Severity is
// zero when none of them refused a charge.
func beancounterMemoryFinding(tl *model.Timeline) (f Finding, checked string, ok bool) {
	if _, read := beancountersOf(tl, beancounterMemRes); read == 0 {
		return Finding{}, "", false
	}
	failed, read := beancountersOf(tl, bcKillRes)
	if len(failed) == 0 {
		what := "no charge of its RAM or swap refused at its own limit (failcnt or faults 0)"
		if read == 0 {
			what = "no row of its RAM, swap or OOM guarantee (physpages, oomguarpages, swappages) in the text"
		}
		return Finding{}, fmt.Sprintf("%s: %s", bcContainers(tl.Beancounters), what), true
	}
	var ev []Evidence
	for _, b := range failed {
		ev = append(ev, Evidence{What: bcWho(b) + ": " + beancounterMemRes[b.Resource] + " refused at its limit", Value: bcRowValue(b), Source: b.Source})
	}
	change := model.Change{Kind: model.ChangeOther, Key: "container beancounters (" + failed[0].Resource + ")",
		Current: bcBarrierLimit(failed[0]), Rule: "oom-kill",
		Recommended: "reduce the container's memory use (fewer or smaller workers), or have the host node raise the failing resources' barrier:limit (vzctl set CTID --" + failed[0].Resource + " B:L --save; a larger plan)",
		Why:         "the container's own limit, not the host, ends the workload's memory"}
	if strings.HasPrefix(failed[0].Resource, "lve_") {
		change.Key = "LVE limit (" + strings.ToUpper(strings.TrimPrefix(failed[0].Resource, "lve_")) + ")"
		change.Recommended = "reduce the site's memory use (PHP workers, caches), or have the server's administrator raise the user's LVE limit (lvectl set-user USER --pmem=...; a larger package)"
		change.Why = "the LVE's own limit, not the host, ends the site's memory"
	}
	return Finding{
		ID:       "oom-kill",
		Severity: Warning,
		Title:    fmt.Sprintf("%s ran out of memory at its own limit", bcContainers(failed)),
		Facts:    Facts{OOM: OOMCgroup},
		Evidence: ev,
		Explanation: "An OpenVZ/Virtuozzo container's memory is charged to its user beancounter, and failcnt counts the charges " +
			"its barrier or limit refused (kernel/bc/beancounter.c): privvmpages refuses mmap and brk (the program sees ENOMEM), " +
			"kmemsize the container's kernel memory, physpages its RAM under VSwap (reclaim, then the container's OOM killer), " +
			"and oomguarpages' failcnt counts the container's OOM kills. The container's limit ran out, not the host's memory; " +
			"free and /proc/meminfo inside the container show the container's limit as their total. CloudLinux's LVE is the same " +
			"kind of limit per hosting user: lveinfo's fPMEM counts pages its PMEM limit refused, fVMEM allocations its VMEM limit refused.",
		Changes: []model.Change{change},
	}, "", true
}

// beancounterRefusalFinding: the rows of res (bcCommitRes, bcKernelRes) whose limit refused
// a charge, as rule id's finding: the program saw ENOMEM, or the kernel's allocation on the
// container's behalf failed; nothing was killed for it.
func beancounterRefusalFinding(tl *model.Timeline, id string, res map[string]string) (fired []Finding, checked string) {
	failed, read := beancountersOf(tl, res)
	if read == 0 {
		return nil, ""
	}
	if len(failed) == 0 {
		return nil, fmt.Sprintf("%s: no %s refused at its own limit (failcnt or faults 0)", bcContainers(tl.Beancounters), bcResNames(res))
	}
	var ev []Evidence
	for _, b := range failed {
		ev = append(ev, Evidence{What: bcWho(b) + ": " + res[b.Resource] + " refused at its limit", Value: bcRowValue(b), Source: b.Source})
	}
	title, expl := fmt.Sprintf("%s: allocations refused at its own commit limit (ENOMEM, no kill)", bcContainers(failed)),
		"OpenVZ's privvmpages is the container's commit accounting: an mmap or brk past its barrier fails with ENOMEM "+
			"(kernel/bc/vm_pages.c), as vm.overcommit_memory=2 refuses past CommitLimit; vmguarpages, lockedpages and "+
			"shmpages refuse the same way, and CloudLinux's fVMEM counts allocations the LVE's VMEM limit refused. The "+
			"program decides what happens next (most abort); the container's limit, not the host's memory, ran out."
	if id == "slab-alloc-failure" {
		title = fmt.Sprintf("%s: kernel memory refused at its own limit", bcContainers(failed))
		expl = "OpenVZ charges the kernel memory a container causes (slabs, page tables, socket and file structures) to kmemsize, " +
			"and dentries and inodes to dcachesize; a refused charge fails that kernel allocation (a fork, an open, a socket), " +
			"though the host has memory. The container's limit, not the host, refused it."
	}
	return []Finding{{
		ID:          id,
		Severity:    Warning,
		Title:       title,
		Evidence:    ev,
		Explanation: expl,
		Facts:       Facts{RefusedAtLimit: id == "overcommit-exposed"},
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "container beancounters (" + failed[0].Resource + ")",
			Current: bcBarrierLimit(failed[0]), Rule: id,
			Recommended: "have the host node raise the failing resource's barrier:limit (vzctl set CTID --" + failed[0].Resource + " B:L --save; a larger plan), or use less of it",
			Why:         "the container's own limit refuses the memory, not the host"}},
	}}, ""
}

func bcResNames(res map[string]string) string {
	var names []string
	for _, k := range []string{"privvmpages", "vmguarpages", "lockedpages", "shmpages", "lve_vmem", "kmemsize", "dcachesize"} {
		if _, ok := res[k]; ok {
			names = append(names, strings.TrimPrefix(k, "lve_"))
		}
	}
	return strings.Join(names, ", ")
}

func checkOvercommitBeancounters(tl *model.Timeline) Result {
	fired, checked := beancounterRefusalFinding(tl, "overcommit-exposed", bcCommitRes)
	return withBeancounters(checkOvercommit(tl), fired, checked)
}

func checkSlabAllocFailureBeancounters(tl *model.Timeline) Result {
	fired, checked := beancounterRefusalFinding(tl, "slab-alloc-failure", bcKernelRes)
	return withBeancounters(checkSlabAllocFailure(tl), fired, checked)
}

// withBeancounters adds the beancounters' findings, or what they showed healthy, to a rule's
// result from its other evidence. A finding that only says the author stated an
// out-of-memory (OOMUndecided) gives way to the container's counted refusals.
func withBeancounters(res Result, fired []Finding, checked string) Result {
	switch {
	case len(fired) > 0:
		kept := res.Findings[:0:0]
		for _, f := range res.Findings {
			if f.Facts.OOM != OOMUndecided || f.ID != "" && f.ID != "oom-kill" {
				kept = append(kept, f)
			}
		}
		return Result{Findings: append(kept, fired...)}
	case checked == "" || len(res.Findings) > 0:
		return res
	case res.NotChecked != "" || res.Checked == "":
		return Healthy("%s", checked)
	}
	return Healthy("%s; %s", res.Checked, checked)
}

func checkCgroupTCPBeancounters(tl *model.Timeline) Result {
	fired, checked := beancounterSocketResult(tl)
	return withBeancounters(checkCgroupTCP(tl), fired, checked)
}

func checkOOMKillBeancounters(tl *model.Timeline) Result {
	f, checked, ok := beancounterMemoryFinding(tl)
	res := checkOOMKill(tl)
	if !ok {
		return res
	}
	if f.ID != "" {
		return withBeancounters(res, []Finding{f}, "")
	}
	return withBeancounters(res, nil, checked)
}

// bcBarrierLimit: "barrier:limit" as vzctl set takes them, "" when the text did not print them.
func bcBarrierLimit(b model.Beancounter) string {
	if b.Barrier < 0 || b.Limit < 0 {
		return ""
	}
	return bcLimit(b.Barrier) + ":" + bcLimit(b.Limit)
}
