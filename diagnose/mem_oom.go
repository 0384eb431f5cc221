package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// oom-kill: the OOM killer ran (mm/oom_kill.c out_of_memory → select_bad_process →
// oom_kill_process). Globally when an allocation that may reclaim found nothing to reclaim
// (__alloc_pages_may_oom; never for costly orders above PAGE_ALLOC_COSTLY_ORDER, nor for
// requests without __GFP_FS), or inside a memory cgroup whose limit was reached
// (mem_cgroup_out_of_memory; the report says "Memory cgroup out of memory" and, since 4.19,
// "oom-kill:constraint=CONSTRAINT_MEMCG"). vmstat counts kills in oom_kill since 4.13
// (commit 8e675f7af507).
func init() {
	Register(Rule{
		ID:     "oom-kill",
		Title:  "the OOM killer killed a process (global or memory cgroup)",
		Family: FamilyMemory,
		Check:  checkOOMKillBeancounters,
	})
}

var oomLogNeedles = []string{"invoked oom-killer", "Out of memory: Kill", "Out of memory: Killed process", "Memory cgroup out of memory", "Killed process"}

func checkOOMKill(tl *model.Timeline) Result {
	var kills []*model.Event
	for i := range tl.Events {
		if tl.Events[i].Kind == model.EventOOMKill && tl.Events[i].OOMKill != nil {
			kills = append(kills, &tl.Events[i])
		}
	}
	counter := counterGrowth(tl, "/proc/vmstat", func(s *model.Sample) (int64, bool) { return s.VM("oom_kill") })
	logOK, logWhy := memLogAvailable(tl)
	cgRead, cgKilled := cgroupOOMKills(tl)
	atLimit := cgroupsAtLimit(tl)
	stated := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedOOM] > 0 })
	runtime := tl.RuntimeOOMs
	if stated != nil && len(kills) == 0 && len(runtime) == 0 && len(tl.FrameworkKills) == 0 && len(tl.AddressSpaceKills) == 0 && len(cgRead) == 0 && len(atLimit) == 0 && !(counter.hasLast && counter.last > 0) &&
		len(logMatches(tl, slices.Concat(oomLogNeedles, kernel.MsgOOMNoKillable, kernel.MsgOOMVendorNoKill)...)) == 0 {
		// Only words: the author says the host ran out of memory or the killer killed
		// ("crashes frequently from OOM"), and no report of it is in the input.
		// Whether the host or a cgroup ran out is not said (OOMUndecided): the sentence
		// explains no allocation failure of the host's (edges.go).
		return Fired(Finding{Severity: Warning, Title: "memory ran out (no OOM report in the input)", Facts: Facts{OOM: OOMUndecided},
			Evidence: []Evidence{{What: "out of memory", Value: statedBy(stated) + "; no kernel OOM report, oom_kill counter or memory.events in the input says what was killed, or whether the host or a memory cgroup ran out", Source: sampleSource(stated, "the text")}},
			Explanation: "An OOM kill means an allocation that was allowed to reclaim found nothing left to reclaim, on the whole host or " +
				"inside a memory cgroup at its limit; the kernel's report (\"invoked oom-killer\", the Mem-Info and the task table, " +
				"\"Killed process\") says which, who held the memory and what was killed.",
			Changes: []model.Change{{Kind: model.ChangeOther, Key: "memory budget",
				Recommended: "find the kernel's report first (dmesg -T | grep -iE 'oom|killed process', journalctl -k); then size the workload to its peak, or cap what grows",
				Why:         "the text names the out-of-memory but not what used the memory"}}})
	}
	if len(kills) == 0 && !counter.hasLast && !logOK && len(cgRead) == 0 && len(atLimit) == 0 && len(runtime) == 0 {
		if r, ok := oomStatedNone(tl); ok {
			return r // the author read the log and found no kill (mem_oom_stated.go)
		}
		if sk := sigkillNoticesWhy(tl.SigkillNotices); sk != "" {
			return NotChecked("%s; %s, no oom_kill counter in /proc/vmstat (4.13+) and no memory cgroup's memory.events", sk, logWhy)
		}
		if fk := frameworkKillsWhy(tl.FrameworkKills); fk != "" {
			return NotChecked("%s; %s, no oom_kill counter in /proc/vmstat (4.13+) and no memory cgroup's memory.events", fk, logWhy)
		}
		if ak := addressSpaceKillsWhy(tl.AddressSpaceKills); ak != "" {
			return NotChecked("%s; %s, no oom_kill counter in /proc/vmstat (4.13+) and no memory cgroup's memory.events", ak, logWhy)
		}
		return NotChecked("%s, no oom_kill counter in /proc/vmstat (4.13+) and no memory cgroup's memory.events", logWhy)
	}
	recs := logMatches(tl, oomLogNeedles...)
	noVictim := logMatches(tl, kernel.MsgOOMNoKillable...)
	// A vendor kernel that reports the shortage and reboots instead of killing: a global
	// out-of-memory as final as a panic without a victim.
	vendorNoKill := logMatches(tl, kernel.MsgOOMVendorNoKill...)
	if len(kills) == 0 && len(recs) == 0 && len(noVictim) == 0 && len(vendorNoKill) == 0 && !(counter.hasLast && counter.last > 0) && len(cgKilled) == 0 && len(runtime) == 0 && len(atLimit) > 0 {
		return Fired(cgroupAtLimitFinding(atLimit))
	}
	if len(kills) == 0 && len(recs) == 0 && len(noVictim) == 0 && len(vendorNoKill) == 0 && !(counter.hasLast && counter.last > 0) && len(cgKilled) == 0 && len(runtime) == 0 {
		if d, why := dumpOOM(tl); d != nil {
			return Fired(dumpOOMFinding(d, why)) // mem_oom_dump.go
		}
		parts := []string{}
		if logOK {
			parts = append(parts, fmt.Sprintf("no OOM report among %d kernel log records", tl.Log.Len()))
		}
		if counter.hasLast {
			parts = append(parts, "vmstat oom_kill "+counter.describe())
		}
		for _, c := range cgRead {
			parts = append(parts, fmt.Sprintf("%s oom_kill 0 (%s)", cgroupFile(c), c.Source))
		}
		return Healthy("%s", strings.Join(parts, "; "))
	}

	var ev []Evidence
	sev := Warning
	global, memcg, unknown := 0, 0, 0
	for _, e := range kills {
		o := e.OOMKill
		isMemcg := o.Constraint == "CONSTRAINT_MEMCG" || o.Memcg != ""
		what := oomWhat(o, isMemcg)
		switch {
		case isMemcg:
			memcg++
		case o.Invoker == "" && o.Mode == "" && o.KilledComm == "" && o.Constraint == "" && showMemBefore(tl, e) == nil:
			// Only the task table (dump_tasks) or the killer's call trace without
			// mem_cgroup_out_of_memory survived the paste, no header ("oom-killer:
			// gfp_mask=0xd2" on 2.6.12, before memory cgroups, is global): an OOM kill happened, but
			// neither the invoking line nor the constraint says whether the host or a cgroup
			// ran out, so it is not called a host-wide shortage.
			unknown++
			what = "OOM kill (its report header is not in the text: host or memory cgroup not said)"
		case o.Invoker == "" && o.Mode == "" && o.KilledComm == "" && o.Constraint == "":
			// The header is cut but the report's show_mem dump ends where its task table
			// begins: dump_header prints the host's memory only for an OOM that is not a
			// memory cgroup's (mm/oom_kill.c, 3.10+; a cgroup's prints its counters instead),
			// so the host ran out (g268's 5906: a 32 MB camera's syslog, Normal below min).
			global++
			sev = Critical
			md := showMemBefore(tl, e)
			what = fmt.Sprintf("OOM kill, its header cut; the host's memory dump before its task table (lines %d-%d) is printed only for an OOM that is not a memory cgroup's", md.FirstLine, md.LastLine)
		default:
			global++
			sev = Critical
		}
		ev = append(ev, Evidence{What: what, Value: oomValue(o), Source: memEventSource(e)})
		for _, c := range o.MemcgCounters {
			if c.Name != "memory" || c.LimitKB <= 0 || c.LimitKB >= cgroupNoLimit>>10 {
				continue // kmem's and memory+swap's "no limit" say nothing
			}
			ev = append(ev, Evidence{What: "the cgroup's memory counter at the kill",
				Value:  fmt.Sprintf("usage %s of limit %s (%.0f%%), %d charges failed at the limit", memKB(c.UsageKB), memKB(c.LimitKB), 100*float64(c.UsageKB)/float64(c.LimitKB), c.Failcnt),
				Source: memEventSource(e)})
		}
	}
	if len(kills) == 0 && len(recs) > 0 {
		// Log lines the artifact parser did not turn into reports: cite them, and read the
		// kind from the text ("Memory cgroup out of memory" is the memcg path's printk).
		ev = append(ev, logEvidence("OOM lines in the kernel log", recs))
		if len(logMatches(tl, "Memory cgroup out of memory")) < len(logMatches(tl, "Killed process", "Out of memory: Kill")) {
			sev = Critical
		}
	}
	if len(vendorNoKill) > 0 {
		ev = append(ev, logEvidence("the kernel reported out of memory without calling the OOM killer (a vendor kernel's message) and rebooted", vendorNoKill))
		sev = Critical
		global = max(global, 1)
	}
	if len(noVictim) > 0 {
		// out_of_memory chose no victim (every task unkillable, exiting, or none yet at
		// boot) and panicked: the host itself ran out of memory, nothing was freed.
		ev = append(ev, logEvidence("the OOM killer found no process to kill and the kernel panicked", noVictim))
		sev = Critical
		global = max(global, 1)
	}
	for _, c := range cgKilled {
		// A cgroup's own count: kills inside it, at its limit (mem_cgroup_out_of_memory),
		// never the host's; the host's vmstat oom_kill counts them too.
		n, _ := c.Events.Get("oom_kill")
		memcg += int(n)
		ev = append(ev, Evidence{What: "memory-cgroup OOM kills (" + cgroupFile(c) + " oom_kill)", Value: fmt.Sprintf("%d in %s", n, memOr(c.Path, "the cgroup pasted")), Source: c.Source})
		if st := cgroupPair(tl, c, true); st != nil {
			if what := cgroupCharged(*st); what != "" {
				ev = append(ev, Evidence{What: "what the cgroup's memory held (memory.stat)", Value: what, Source: st.Source})
			}
		}
	}
	lowMem, lowMemCached, jobLimit := 0, 0, 0
	var lowMemBy []string
	for _, o := range runtime {
		if o.Scope == model.OOMScopeJobLimit {
			// A batch scheduler's kill of a job over its requested memory: the job's limit,
			// never the host's memory, and not the kernel's OOM killer.
			lowMem += o.Count
			jobLimit += o.Count
			if !slices.Contains(lowMemBy, o.Reporter) {
				lowMemBy = append(lowMemBy, o.Reporter)
			}
			ev = append(ev, Evidence{What: "kill at a batch job's memory limit by " + o.Reporter + " (not the kernel's OOM killer)", Value: lowMemKillValue(o), Source: o.Source})
			continue
		}
		if o.Scope == model.OOMScopeLowMemKiller {
			// A kill by another killer (Android's lowmemorykiller or lmkd, systemd-oomd,
			// earlyoom), before the kernel's OOM killer ran: memory ran low by its measure.
			// Never the kernel's kill, so never counted as one.
			lowMem += o.Count
			if o.OOMScoreAdj != nil && *o.OOMScoreAdj >= androidCachedAppMinAdj {
				lowMemCached += o.Count
			}
			if !slices.Contains(lowMemBy, o.Reporter) {
				lowMemBy = append(lowMemBy, o.Reporter)
			}
			ev = append(ev, Evidence{What: "kill for low memory by " + o.Reporter + " (not the kernel's OOM killer)", Value: lowMemKillValue(o), Source: o.Source})
			continue
		}
		// Kubernetes' or a runtime's word for a kill the kernel reported: counted only when
		// the kernel's own report is not in the input (it would be the same kill).
		if len(kills) == 0 && len(recs) == 0 && len(cgKilled) == 0 {
			switch o.Scope {
			case model.OOMScopeHost:
				global += o.Count
				sev = Critical
			case model.OOMScopeCgroup:
				memcg += o.Count
			default:
				unknown += o.Count
			}
		}
		ev = append(ev, Evidence{What: runtimeOOMWhat(o), Value: runtimeOOMValue(o), Source: o.Source})
	}
	if counter.hasLast && counter.last > 0 {
		ev = append(ev, Evidence{What: "vmstat oom_kill", Value: counter.describe(), Source: counter.source})
		if counter.rising() {
			sev = Critical
		}
	}
	title := "the OOM killer killed processes"
	switch {
	case global > 0 && memcg > 0:
		title = fmt.Sprintf("the OOM killer ran %d× for the whole host and %d× inside memory cgroups", global, memcg)
	case global > 0 && len(vendorNoKill) > 0 && len(noVictim) == 0 && len(kills) == 0:
		title = "the host ran out of memory: the kernel did not call the OOM killer and rebooted"
	case global > 0 && len(noVictim) > 0 && len(kills) == 0:
		title = "the host ran out of memory and the OOM killer found no process to kill: the kernel panicked"
	case global > 0:
		title = fmt.Sprintf("the host ran out of memory: the OOM killer ran %d×", global)
	case memcg > 0:
		title = fmt.Sprintf("a memory cgroup hit its limit: the OOM killer ran %d× inside it", memcg)
	case unknown > 0:
		title = fmt.Sprintf("the OOM killer ran %d× (whether for the whole host or a memory cgroup is not in the text)", unknown)
	case jobLimit > 0 && jobLimit == lowMem && len(kills) == 0 && len(recs) == 0 && len(cgKilled) == 0 && len(noVictim) == 0 && len(vendorNoKill) == 0 && !(counter.hasLast && counter.last > 0):
		title = fmt.Sprintf("a batch job went over its memory limit: %s killed it %d× (the job's limit, not the host's memory; not the kernel's OOM killer)", strings.Join(lowMemBy, " and "), jobLimit)
	case lowMem > 0 && len(kills) == 0 && len(recs) == 0 && len(cgKilled) == 0 && len(noVictim) == 0 && len(vendorNoKill) == 0 && !(counter.hasLast && counter.last > 0):
		title = fmt.Sprintf("memory ran low: %s killed %d× (not the kernel's OOM killer)", strings.Join(lowMemBy, " and "), lowMem)
	case len(kills) == 0 && len(recs) == 0 && len(cgKilled) == 0 && counter.hasLast && !counter.rising():
		// Only the since-boot count: when, and whether for the host or a cgroup, is not in
		// the input; the title must not read as a kill seen now.
		title = fmt.Sprintf("the OOM killer killed %d× since boot (when, and whether in a memory cgroup, is not in the input)", counter.last)
		if counter.hasDelta {
			title = fmt.Sprintf("the OOM killer killed %d× since boot, none while sampled (when, and whether in a memory cgroup, is not in the input)", counter.last)
		}
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Explanation: "A global OOM kill means an allocation that was allowed to reclaim found nothing left to reclaim: every zone it " +
			"could use stayed below its watermarks after direct reclaim and compaction, and the kernel killed the task with the " +
			"highest oom_badness (RSS + swap + page tables, adjusted by oom_score_adj) to free memory (mm/oom_kill.c). Socket " +
			"buffers are kernel memory the killer cannot free: a host whose TCP buffers grew to tcp_mem kills applications while " +
			"the network holds the memory (Fermilab). A memory-cgroup kill means the group reached memory.max (v2) or " +
			"memory.limit_in_bytes (v1); the host itself may have plenty free, and since 4.5 (v2) and 3.x kmem accounting the " +
			"group's own socket buffers count against it.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "memory budget",
			Recommended: "size the killed workload's memory (or its cgroup limit) to its peak, or cap what grows: socket buffers (`headroom plan`), caches, heaps",
			Why:         "the OOM killer is the kernel's last resort; raising min_free_kbytes or swappiness does not create memory"}},
	}
	// Where the killer ran, for the story (edges.go: a cgroup's kill starves no atomic
	// allocation of the host). Kills known only from vmstat's counter or unparsed log lines
	// leave it unsaid.
	switch {
	case global > 0 && memcg > 0:
		f.Facts.OOM = OOMHostAndCgroup
	case global > 0:
		f.Facts.OOM = OOMHost
	case memcg > 0:
		f.Facts.OOM = OOMCgroup
	case unknown > 0:
		f.Facts.OOM = OOMUndecided
	}
	if lowMem > 0 && global == 0 && memcg == 0 && unknown == 0 && len(kills) == 0 && len(recs) == 0 && len(cgKilled) == 0 && !(counter.hasLast && counter.last > 0) {
		// Only another killer's kills: it acted on its own measure (free memory, PSI,
		// MemAvailable) before the kernel's OOM killer would have. Android's killers kill
		// cached apps (oom_score_adj ≥ 900) by design to keep memory free: that alone is the
		// phone working as meant, not a fault.
		f.Explanation = "A low-memory killer kills before the kernel's OOM killer would: Android's lowmemorykiller (drivers/staging/android/lowmemorykiller.c) and lmkd " +
			"when free memory or pressure passes the limit for a victim's oom_score_adj, systemd-oomd when a cgroup's memory pressure (PSI) or swap use passes " +
			"its limit, earlyoom when MemAvailable and SwapFree fall below theirs. The kernel printed no OOM report, so the kernel's view of the memory at the " +
			"kill (zones, RSS, what held it) is not in the input."
		f.Changes[0].Recommended = "find what grew (the killer names the victim; its memory or the cgroup's), then size it or its limit to its peak; raising the killer's thresholds only moves the kill"
		f.Changes[0].Why = "the killer acted on low memory; memory settings of the kernel do not create memory"
		if jobLimit == lowMem {
			f.Explanation = "A batch scheduler kills a job whose memory, as it samples it, passes the limit the job requested: PBS's MoM (-l mem, vmem), " +
				"LSF (-M, TERM_MEMLIMIT), Grid Engine's execd (h_vmem, h_rss), HTCondor's periodic hold (request_memory), Slurm's jobacct_gather (--mem). " +
				"The limit is the job's, not the host's: the node may have had plenty free, and the kernel printed no OOM report."
			f.Changes[0].Recommended = "request the job's peak memory (the figure the scheduler printed) in its submission (-l mem, -M, h_vmem, request_memory, --mem), or reduce what the job holds"
			f.Changes[0].Why = "the scheduler killed the job at its own requested limit; no setting of the host's kernel changes that"
		}
		if lowMemCached == lowMem {
			f.Severity = Info
			f.Title = fmt.Sprintf("%s killed %d cached app(s) (oom_score_adj ≥ %d): Android frees memory so by design", strings.Join(lowMemBy, " and "), lowMem, androidCachedAppMinAdj)
		}
	}
	if global > 0 || unknown > 0 {
		zfsARCAtKill(tl, &f)
	}
	if memcg > 0 && global == 0 {
		f.Changes[0].Recommended = "raise the cgroup's memory.max / memory.limit_in_bytes to the workload's peak, or reduce the workload; the host is not short"
	}
	f.When = memEventTimes(kills)
	return Fired(f)
}

// androidCachedAppMinAdj is CACHED_APP_MIN_ADJ (frameworks/base services/core/java/com/
// android/server/am/ProcessList.java): the oom_score_adj of apps kept only as a cache, which
// Android's low-memory killers kill first by design.
const androidCachedAppMinAdj = 900

// lowMemKillValue says what a low-memory killer killed, as it said.
func lowMemKillValue(o model.RuntimeOOM) string {
	out := oomVictim(o)
	if o.OOMScoreAdj != nil {
		out += fmt.Sprintf(", oom_score_adj %d", *o.OOMScoreAdj)
	}
	if o.Count > 1 {
		out += fmt.Sprintf(", %d×", o.Count)
	}
	return out
}

// oomVictim: "killed NAME (pid N)" as a report named the victim, or that it did not.
func oomVictim(o model.RuntimeOOM) string {
	if o.Victim == "" {
		return "victim not named"
	}
	if o.PID > 0 {
		return fmt.Sprintf("killed %s (pid %d)", o.Victim, o.PID)
	}
	return "killed " + o.Victim
}

// runtimeOOMWhat says what reported an OOM kill and where, as it said.
func runtimeOOMWhat(o model.RuntimeOOM) string {
	switch o.Scope {
	case model.OOMScopeHost:
		return "global OOM kill reported by " + o.Reporter
	case model.OOMScopeCgroup:
		return "memory-cgroup OOM kill reported by " + o.Reporter
	}
	return "OOM kill reported by " + o.Reporter + " (host or memory cgroup not said)"
}

func runtimeOOMValue(o model.RuntimeOOM) string {
	out := oomVictim(o)
	if o.Container != "" {
		if o.Victim == "" {
			out += ","
		}
		out += " in container " + o.Container
	}
	if o.Count > 1 {
		out += fmt.Sprintf(", %d×", o.Count)
	}
	return out + "; the kernel's report (order, mode, RSS) is not in the input"
}

// cgroupOOMKills returns the pasted memory cgroup event files that count OOM kills (v2
// memory.events, v1 memory.oom_control since 4.13), and those whose count is not zero.
func cgroupOOMKills(tl *model.Timeline) (read, killed []model.CgroupMemory) {
	for _, c := range tl.CgroupMemory {
		if c.Events == nil {
			continue
		}
		n, ok := c.Events.Get("oom_kill")
		if !ok {
			continue
		}
		read = append(read, c)
		if n > 0 {
			killed = append(killed, c)
		}
	}
	return read, killed
}

// cgroupFile names a pasted cgroup events file by its version.
func cgroupFile(c model.CgroupMemory) string {
	if c.Version == 1 {
		return "memory.oom_control"
	}
	return "memory.events"
}

func oomWhat(o *model.OOMKill, memcg bool) string {
	kind := "global OOM kill"
	if memcg {
		kind = "memory-cgroup OOM kill"
		if o.Memcg != "" {
			kind += " in " + o.Memcg
		}
	}
	return kind
}

func oomValue(o *model.OOMKill) string {
	var parts []string
	if o.KilledComm != "" || o.KilledPID != 0 {
		parts = append(parts, oomKilled(o))
	}
	if o.Invoker != "" {
		parts = append(parts, fmt.Sprintf("invoked by %s (order %d, mode %s)", o.Invoker, o.Order, o.Mode))
	}
	if o.Constraint != "" {
		parts = append(parts, "constraint "+o.Constraint)
	}
	if len(parts) == 0 {
		return "OOM report"
	}
	return strings.Join(parts, "; ")
}

// oomKilled says which task was killed with only what the kernel printed. "Killed process %d
// (%s)" carried no sizes before 2.6.3x, total-vm/anon-rss/file-rss came with 3.x, shmem-rss
// with 4.x and oom_score_adj with 5.x (mm/oom_kill.c __oom_kill_process); 2.4's "VM: killing
// process watchdog" names no pid at all. A zero field is therefore most often one the text
// lacks: no task is pid 0 or has a total-vm of 0 kB, so those mean "not printed", and a zero
// shmem-rss or oom_score_adj is left out rather than asserted.
func oomKilled(o *model.OOMKill) string {
	out := "killed " + memOr(o.KilledComm, "?")
	if o.KilledPID > 0 {
		out += fmt.Sprintf(" (pid %d)", o.KilledPID)
	}
	var sizes []string
	if o.TotalVMKB > 0 {
		sizes = append(sizes, fmt.Sprintf("anon-rss %d kB", o.AnonRSSKB), fmt.Sprintf("file-rss %d kB", o.FileRSSKB))
		if o.ShmemRSSKB > 0 {
			sizes = append(sizes, fmt.Sprintf("shmem-rss %d kB", o.ShmemRSSKB))
		}
		sizes = append(sizes, fmt.Sprintf("total-vm %d kB", o.TotalVMKB))
	}
	if o.OOMScoreAdj != 0 {
		sizes = append(sizes, fmt.Sprintf("oom_score_adj %d", o.OOMScoreAdj))
	}
	if len(sizes) > 0 {
		out += ": " + strings.Join(sizes, ", ")
	}
	return out
}

func memEventTimes(es []*model.Event) *Interval {
	var iv *Interval
	for _, e := range es {
		if e.Time.IsZero() {
			continue
		}
		if iv == nil {
			iv = &Interval{From: e.Time, To: e.Time}
		}
		if e.Time.Before(iv.From) {
			iv.From = e.Time
		}
		if e.Time.After(iv.To) {
			iv.To = e.Time
		}
	}
	return iv
}

// networkSlabCaches are slab caches the network stack allocates per packet or per socket:
// sk_buff heads (skbuff_head_cache; skbuff_small_head since 6.3 for small linear parts),
// fast-clone heads for TCP send (skbuff_fclone_cache), sockets and request socks.
var networkSlabCaches = []string{"skbuff", "sock_inode_cache", "TCP", "UDP", "request_sock", "tw_sock", "RAW", "PING", "net_namespace", "nf_conntrack"}

// isNetworkCache says whether a cache belongs to the network, or may (kmalloc-N holds skb
// data: __alloc_skb's kmalloc_reserve takes the linear buffer from the kmalloc caches).
func isNetworkCache(name string) (network, maybe bool) {
	for _, n := range networkSlabCaches {
		if strings.HasPrefix(name, n) || strings.Contains(name, n) {
			return true, false
		}
	}
	if strings.HasPrefix(name, "kmalloc-") || strings.HasPrefix(name, "size-") || strings.HasPrefix(name, "dma-kmalloc") {
		return false, true
	}
	return false, false
}

func init() {
	Register(Rule{
		ID:     "slab-alloc-failure",
		Title:  "a slab cache could not grow (SLUB \"Unable to allocate memory on node\")",
		Family: FamilyMemory,
		Check:  checkSlabAllocFailureBeancounters,
	})
}

// slab-alloc-failure: SLUB reports a cache that could not get a new slab
// (mm/slub.c slab_out_of_memory: "SLUB: Unable to allocate memory on node N, gfp=..." then
// "cache: NAME, object size: ..., buffer size: ..., default order: ..., min order: ...").
// The page allocation beneath it failed first; the report names which cache needed it.
// memcgCacheName reports whether a slab cache is a memory cgroup's copy of a root cache:
// "dentry(100:12G)", "%s(%llu:%s)" of the root cache's name, the cgroup's serial number
// and its name, which memcg_create_kmem_cache (mm/memcontrol.c) gave it before 5.9 merged
// the per-cgroup caches back into the root ones.
func memcgCacheName(name string) bool {
	i := strings.LastIndexByte(name, '(')
	return i > 0 && strings.HasSuffix(name, ")") && strings.Contains(name[i:], ":")
}

func checkSlabAllocFailure(tl *model.Timeline) Result {
	var evs []*model.Event
	for i := range tl.Events {
		if tl.Events[i].Kind == model.EventSlabFailure && tl.Events[i].SlabFailure != nil {
			evs = append(evs, &tl.Events[i])
		}
	}
	recs := logMatches(tl, kernel.MsgSlabFailure...)
	if len(evs) == 0 && len(recs) == 0 {
		if ok, why := memLogAvailable(tl); !ok {
			return NotChecked("%s: slab failures are reported there", why)
		}
		return Healthy("no SLUB allocation failure among %d kernel log records", tl.Log.Len())
	}
	var ev []Evidence
	caches := map[string]int{}
	netCaches, maybeNet := 0, 0
	for _, e := range evs {
		s := e.SlabFailure
		caches[s.Cache]++
		net, maybe := isNetworkCache(s.Cache)
		switch {
		case net:
			netCaches++
		case maybe:
			maybeNet++
		}
		role := "not a network cache"
		if net {
			role = "a network cache"
		} else if maybe {
			role = "a kmalloc cache (skb data buffers come from these)"
		}
		if s.Cache == "" && s.ObjectSize == 0 {
			// fix55a: a header whose cache line the text does not hold (cut, or quoted alone).
			ev = append(ev, Evidence{What: "SLUB failure", Value: "its cache line is not in the text; " + slabModeNode(s), Source: memEventSource(e)})
			continue
		}
		ev = append(ev, Evidence{What: "cache " + s.Cache,
			Value:  fmt.Sprintf("object %d B, slab buffer %d B, default order %d, min order %d, %s: %s", s.ObjectSize, s.BufferSize, s.DefaultOrder, s.MinOrder, slabModeNode(s), role),
			Source: memEventSource(e)})
	}
	if len(evs) == 0 {
		ev = append(ev, logEvidence("SLUB failure lines (cache line not parsed)", recs))
	}
	var names []string
	for c := range caches {
		if c != "" {
			names = append(names, c)
		}
	}
	sort.Strings(names)
	title := "slab caches could not grow"
	if len(names) > 0 {
		title = "slab cache " + strings.Join(names, ", ") + " could not grow"
	}
	f := Finding{
		Severity: Critical,
		Title:    title,
		Evidence: ev,
		Facts:    Facts{CgroupCache: slices.ContainsFunc(names, memcgCacheName), CacheUnnamed: len(names) == 0},
		Explanation: "A slab cache needed a new slab (a page block of its order) and the page allocator refused: the page " +
			"allocation failure is the cause, the slab report names the consumer. For network caches (skbuff_head_cache, " +
			"skbuff_fclone_cache, kmalloc-N for skb data) each failure is a packet dropped or a socket not created. SLUB first " +
			"tries the cache's default order without retries and falls back to the minimum order (allocate_slab, 2.6.26+), so a " +
			"failure at the minimum order means the zones were at the reserve, and one at a high default order points at " +
			"fragmentation; see the alloc-fail-* findings for the zones.",
	}
	if netCaches+maybeNet > 0 {
		cur, ok := currentSetting(tl, "vm.min_free_kbytes")
		if ch, need := memMinFreeChange(tl, cur, ok); need {
			f.Changes = append(f.Changes, ch)
		}
	}
	f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "slub_max_order (boot parameter)",
		Recommended: "only if the failures are at a high default order: boot with slub_max_order=1 so caches use smaller slabs",
		Why:         "smaller slabs need less contiguous memory at some cost in per-slab overhead; it does not help when order-0 pages are short"})
	f.When = memEventTimes(evs)
	return Fired(f)
}

// cgroupLimit is a memory cgroup whose highest charge reached its limit, from its one-value
// files (v1 memory.max_usage_in_bytes and memory.limit_in_bytes, v2 memory.peak and
// memory.max).
type cgroupLimit struct {
	c                   model.CgroupMemory
	peak, limit, usage  int64
	hasUsage            bool
	peakFile, limitFile string
}

// v1's "no limit" is PAGE_COUNTER_MAX pages rounded to bytes (9223372036854771712 with 4 KiB
// pages): any limit from 2^62 up is none.
const cgroupNoLimit = int64(1) << 62

func cgroupsAtLimit(tl *model.Timeline) []cgroupLimit {
	var out []cgroupLimit
	for _, c := range tl.CgroupMemory {
		if c.Files == nil {
			continue
		}
		l := cgroupLimit{c: c, peakFile: "memory.max_usage_in_bytes", limitFile: "memory.limit_in_bytes"}
		usageFile := "memory.usage_in_bytes"
		if c.Version == 2 {
			l.peakFile, l.limitFile, usageFile = "memory.peak", "memory.max", "memory.current"
		}
		var ok1, ok2 bool
		l.peak, ok1 = c.Files.Get(l.peakFile)
		l.limit, ok2 = c.Files.Get(l.limitFile)
		l.usage, l.hasUsage = c.Files.Get(usageFile)
		// The page counter never charges past the limit (mm/page_counter.c
		// page_counter_try_charge), so a watermark at the limit means a charge needed more:
		// the cgroup reclaimed inside itself and, when that freed too little,
		// mem_cgroup_out_of_memory chose a victim in it.
		if ok1 && ok2 && l.limit > 0 && l.limit < cgroupNoLimit && l.peak >= l.limit {
			out = append(out, l)
		}
	}
	return out
}

func cgroupAtLimitFinding(ls []cgroupLimit) Finding {
	var ev []Evidence
	for _, l := range ls {
		where := memOr(l.c.Path, "the cgroup pasted")
		ev = append(ev, Evidence{What: "highest charge of " + where + " (" + l.peakFile + ")", Value: units.FormatBytes(l.peak), Source: l.c.Source},
			Evidence{What: "its limit (" + l.limitFile + ")", Value: units.FormatBytes(l.limit), Source: l.c.Source})
		if l.hasUsage {
			ev = append(ev, Evidence{What: "its usage now", Value: fmt.Sprintf("%s (%.1f%% of the limit)", units.FormatBytes(l.usage), 100*float64(l.usage)/float64(l.limit)), Source: l.c.Source})
		}
	}
	return Finding{
		Severity: Info,
		Title:    "a memory cgroup reached its limit: the kernel reclaims and OOM-kills inside it there (kills not counted in the text)",
		Evidence: ev,
		Explanation: "A memory cgroup's page counter never charges past its limit (mm/page_counter.c page_counter_try_charge): a " +
			"watermark at the limit means an allocation needed more than the limit allowed, so the kernel reclaimed inside the " +
			"cgroup and, when that freed too little, the memory-cgroup OOM killer chose a victim in it " +
			"(mm/memcontrol.c try_charge_memcg, mem_cgroup_out_of_memory). Whether it killed is counted in memory.events " +
			"(v2) or memory.oom_control's oom_kill (v1, 4.13+), which the text does not hold. The host itself may have plenty free.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "memory budget",
			Recommended: "raise the cgroup's memory.max / memory.limit_in_bytes to the workload's peak (page cache included), or reduce the workload; the host is not short",
			Why:         "the limit, not the host, ends the workload's memory"}},
	}
}

// frameworkKillsWhy names a framework's own kills of its workers (Ray's memory monitor,
// dask's nanny, YARN's NodeManager: Timeline.FrameworkKills) for oom-kill's not-checked
// reason: each is that framework's policy at its own threshold, no kill by the kernel's OOM
// killer, and says nothing of whether the kernel's killer ran too.
func frameworkKillsWhy(ks []model.RuntimeOOM) string {
	if len(ks) == 0 {
		return ""
	}
	return fmt.Sprintf("%d kill(s) of a framework's own workers by its own memory policy, no kill by the kernel's OOM killer: %s (%s)", killCount(ks), ks[0].Reporter, ks[0].Source)
}

// killCount: the kills ks stand for, a record without a count being one.
func killCount(ks []model.RuntimeOOM) int {
	n := 0
	for _, k := range ks {
		n += max(k.Count, 1)
	}
	return n
}

// sigkillNoticesWhy: a server's own notices of children killed by SIGKILL (Postfix's,
// Dovecot's, rspamd's masters: Timeline.SigkillNotices) for oom-kill's not-checked reason:
// SIGKILL is the OOM killer's signal and anyone's kill -9, so they prove no kernel OOM.
func sigkillNoticesWhy(ks []model.RuntimeOOM) string {
	if len(ks) == 0 {
		return ""
	}
	return fmt.Sprintf("%d child(ren) killed by SIGKILL as a server reports it (%s, %s), not proven the kernel's OOM killer: SIGKILL is also any kill -9 or a supervisor's stop, and the kernel's own kill line is not in the text", killCount(ks), ks[0].Reporter, ks[0].Source)
}

// addressSpaceKillsWhy names batch schedulers' kills at a job's virtual-memory limit
// (Timeline.AddressSpaceKills: PBS/Torque vmem, Grid Engine h_vmem, Exit_status -26) for
// oom-kill's not-checked reason: the limit counts the job's address space, not resident
// memory, so such a kill is the scheduler's accounting, no OOM kill and no memory shortage.
func addressSpaceKillsWhy(ks []model.RuntimeOOM) string {
	if len(ks) == 0 {
		return ""
	}
	return fmt.Sprintf("%d kill(s) of a batch job at a virtual-memory (address-space) limit, no OOM kill: %s (%s); a vmem limit counts mapped and reserved address space, not resident memory, so it says nothing of the job's or the host's memory in use", killCount(ks), ks[0].Reporter, ks[0].Source)
}

// slabModeNode: the SLUB header's GFP mode and node, or that the header is not in the text
// (fix44b: a report cut to "SLUB:" or quoted newest first, read from its cache line).
func slabModeNode(s *model.SlabFailure) string {
	if s.Mode == "" {
		if s.Node >= 0 {
			return fmt.Sprintf("node %d, mode not in the text (its header is cut)", s.Node)
		}
		return "mode and node not in the text (its header is cut)"
	}
	return fmt.Sprintf("mode %s, node %d", s.Mode, s.Node)
}

// showMemBefore is the stand-alone show_mem dump that ends just before the OOM report e
// begins (three lines at most), with no memory cgroup's counters in the text: the report's
// own dump, its header cut (nil when there is none).
func showMemBefore(tl *model.Timeline, e *model.Event) *model.MemDump {
	if e.FirstLine <= 0 {
		return nil
	}
	for i := range tl.Events {
		if o := tl.Events[i].OOMKill; o != nil && (o.Memcg != "" || len(o.MemcgCounters) > 0 || o.Constraint == "CONSTRAINT_MEMCG") {
			return nil
		}
	}
	for i := range tl.MemDumps {
		d := &tl.MemDumps[i]
		if d.LastLine > 0 && d.LastLine < e.FirstLine && e.FirstLine-d.LastLine <= 3 && len(d.Zones) > 0 {
			return d
		}
	}
	return nil
}
