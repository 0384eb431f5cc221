package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Kills for memory by killers other than the kernel's OOM killer (pre-round 6, errno9 class
// b). Each acts before the kernel's killer would, on its own measure, and logs the kill in
// its own words; none prints the kernel's OOM report, so no reader took the lines and a
// phone's or a desktop's log of them held "no OOM". They are kept as Timeline.RuntimeOOMs of
// scope model.OOMScopeLowMemKiller, apart from the kernel's kills as the kubelet's and the
// runtimes' are:
//
//	Android's in-kernel lowmemorykiller (drivers/staging/android/lowmemorykiller.c
//	  lowmem_scan, 3.x-4.x, removed in 4.12): "lowmemorykiller: Killing '%s' (%d), adj %hd,"
//	  with "(tgid %d)" after the pid on later trees, then "to free %ldkB on behalf of ...";
//	  older trees "send sigkill to %d (%s), adj %d, size %d"
//	Android's lmkd (system/memory/lmkd/lmkd.cpp kill_one_process, log tag "lowmemorykiller"):
//	  "Kill '%s' (%d), uid %d, oom_score_adj %d to free %ldkB rss, %ldkB swap; reason: ...",
//	  "oom_adj" on older releases
//	systemd-oomd (src/oom/oomd-manager.c): "Killed %s due to memory pressure for %s being
//	  %lu.%02lu%% > %lu.%02lu%% for > %s with reclaim activity", "Killed %s due to swap used
//	  (...) / total (...) being more than ..." (v248), "Killed %s due to memory used (%lu) /
//	  total (%lu) and swap used (%lu) / total (%lu) being more than %s" (v249-v255); since
//	  v256 the handlers queue the kill (oomd_cgroup_kill_mark) and log "Marked %s for killing
//	  due to memory pressure for ..." / "... due to memory used (...)", and the kill itself
//	  is then done without a reason: a bare "Killed %s" is kept as the kill too
//	earlyoom (kill.c kill_process): "sending %s to process %d uid %d \"%s\": badness %d,
//	  VmRSS %lld MiB" (1.3 on; later "oom_score %d, ..."; no uid in 1.3); before 1.3 (h25c,
//	  from the tags v0.12-v1.2 of rfjakob/earlyoom): "Killing process '%s' with signal %d,
//	  pid: %d, badness: %d, VmRSS: %lu MiB" (1.2), "Killing process: %s, pid: %d, badness:
//	  %d, VmRSS: %lu MiB" (1.1), "Killing process %d %s" (0.12-1.0, only under earlyoom's tag:
//	  the words are any supervisor's)
//	Talos Linux's runtime.OOMController (internal/app/machined/pkg/controllers/runtime/oom.go
//	  reapCg: logger.Warn("Sending SIGKILL to cgroup", zap.String("cgroup", path)), written to
//	  /dev/kmsg by machined under the user facility as "[talos] Sending SIGKILL to cgroup
//	  {...\"cgroup\": \"/sys/fs/cgroup/kubepods/...\"}": it kills a whole cgroup on its own
//	  memory-pressure trigger, before the kernel's OOM killer would

var (
	reLMKKernel    = lazyre.New(`^lowmemorykiller: Killing '([^']*)' \((\d+)\)(?: \(tgid \d+\))?, adj (-?\d+)`)
	reLMKKernelOld = lazyre.New(`^lowmemorykiller: send sigkill to (\d+) \(([^)]*)\), adj (-?\d+)`)
	reLMKD         = lazyre.New(`^(?:lowmemorykiller: |lmkd: )?Kill(?:ing)? '([^']*)' \((\d+)\), uid \d+, (?:oom_score_adj|oom_adj|adj) (-?\d+)`)
	reOomdKill     = lazyre.New(`^(?:Killed (/\S*)(?: due to (memory pressure|memory used|swap used)|\s*$)|Marked (/\S*) for killing due to (memory pressure|memory used|swap used))`)
	reEarlyoomKill = lazyre.New(`^sending (SIGTERM|SIGKILL) to process (\d+)(?: uid \d+)? "(.*)": `)
	reEarlyoomOld  = lazyre.New(`^Killing process(?: '(.*)' with signal (\d+), pid: (\d+)|: (.*), pid: (\d+)), badness: -?\d+, VmRSS: \d+ MiB`)
	reEarlyoom010  = lazyre.New(`^Killing process (\d+) (\S.*)$`)
	// reEarlyoom010Comm: 0.x-1.0's name is the second field of /proc/PID/stat (kill.c
	// handle_oom: fscanf(stat, "%*d %s", name)), the comm in its parentheses: "Killing
	// process 26967 (chrome)"; patched builds add their own words after it (fix46c).
	reEarlyoom010Comm = lazyre.New(`^Killing process (\d+) \(([^()\s]*)\)(?:\s|$)`)
	// reEarlyoomBadness: a score printed without VmRSS (a patched 0.x build's "with
	// badness 337"), read only on a line already earlyoom's kill.
	reEarlyoomBadness = lazyre.New(`\b(?:badness|oom_score):? (-?\d+)\b`)
	// reEarlyoomSize: the victim's score and VmRSS at the end of earlyoom's kill line, in
	// each version's words ("badness: 367, VmRSS: 719 MiB" 1.1-1.2, "badness 757, VmRSS 637
	// MiB" 1.3-1.6, "oom_score 757, VmRSS 637 MiB" since 1.7; kill.c kill_process).
	reEarlyoomSize = lazyre.New(`(?:badness|oom_score):? (-?\d+), VmRSS:? (\d+) MiB`)
	reTalosOOMKill = lazyre.New(`^\[talos\] Sending SIGKILL to cgroup \{.*"cgroup": "([^"]*)"`)
	// reLogcat: logcat's threadtime ("11-29 10:00:00.123  345  345 I lowmemorykiller: ...",
	// a year in front with -v year, the uid or its name before the pid with -v uid), brief
	// ("I/lowmemorykiller(  345): ...") and time (brief's after the date and time: "11-29
	// 10:00:00.123 I/lowmemorykiller(  345): ...") prefixes (liblog logprint's formats).
	reLogcat = lazyre.New(`^(?:(?:\d{4}-)?\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d+\s+(?:\w{1,8}:?\s+)?\d+\s+\d+\s+[VDIWEF]\s+([\w.-]+)\s*:\s|(?:(?:\d{4}-)?\d\d-\d\d\s+\d\d:\d\d:\d\d\.\d+\s+)?([VDIWEF])/([\w.-]+)\s*\(\s*\d+\):\s)`)
)

// lmkKernelReporter is the reporter of the in-kernel lowmemorykiller's kills.
const lmkKernelReporter = "Android's in-kernel lowmemorykiller"

// lowMemKillOf reads one kill from a message (the text after any log prefix) whose program
// is tag ("" when unknown).
func lowMemKillOf(tag, t string) (model.RuntimeOOM, bool) {
	t = strings.TrimSpace(t)
	adj := func(s string) *int {
		v, err := strconv.Atoi(s)
		if err != nil {
			return nil
		}
		return &v
	}
	pid := func(s string) int { v, _ := strconv.Atoi(s); return v }
	o := model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1}
	switch {
	case strings.HasPrefix(t, "lowmemorykiller: Killing '") || strings.HasPrefix(t, "lowmemorykiller: send sigkill"):
		if m := reLMKKernel.FindStringSubmatch(t); m != nil {
			o.Victim, o.PID, o.OOMScoreAdj = m[1], pid(m[2]), adj(m[3])
		} else if m := reLMKKernelOld.FindStringSubmatch(t); m != nil {
			o.Victim, o.PID, o.OOMScoreAdj = m[2], pid(m[1]), adj(m[3])
		} else {
			return o, false
		}
		o.Reporter = lmkKernelReporter
	case strings.Contains(t, "Kill") && strings.Contains(t, "), uid "):
		m := reLMKD.FindStringSubmatch(t)
		if m == nil || tag != "" && tag != "lowmemorykiller" && tag != "lmkd" {
			return o, false
		}
		o.Victim, o.PID, o.OOMScoreAdj, o.Reporter = m[1], pid(m[2]), adj(m[3]), "Android's lmkd"
	case strings.HasPrefix(t, "Killed /") || strings.HasPrefix(t, "Marked /"):
		m := reOomdKill.FindStringSubmatch(t)
		if m == nil || tag != "" && tag != "systemd-oomd" {
			return o, false
		}
		switch {
		case m[3] != "":
			o.Victim, o.Reporter = m[3], "systemd-oomd (marked for killing: "+m[4]+")"
		case m[2] != "":
			o.Victim, o.Reporter = m[1], "systemd-oomd ("+m[2]+")"
		default:
			o.Victim, o.Reporter = m[1], "systemd-oomd"
		}
	case strings.HasPrefix(t, talosOOMKill):
		m := reTalosOOMKill.FindStringSubmatch(t)
		if m == nil || tag != "" && tag != "user" {
			return o, false
		}
		o.Victim, o.Reporter = m[1], "Talos's runtime.OOMController"
	case strings.HasPrefix(t, "sending SIG"):
		m := reEarlyoomKill.FindStringSubmatch(t)
		if m == nil || tag != "" && tag != "earlyoom" {
			return o, false
		}
		o.Victim, o.PID, o.Reporter = m[3], pid(m[2]), "earlyoom ("+m[1]+")"
	case strings.HasPrefix(t, "Killing process"):
		if tag != "" && tag != "earlyoom" {
			return o, false
		}
		if m := reEarlyoomOld.FindStringSubmatch(t); m != nil {
			o.Victim, o.PID, o.Reporter = m[1]+m[4], pid(m[3]+m[5]), "earlyoom"
			switch m[2] {
			case "15":
				o.Reporter = "earlyoom (SIGTERM)"
			case "9":
				o.Reporter = "earlyoom (SIGKILL)"
			}
		} else if m := reEarlyoom010Comm.FindStringSubmatch(t); m != nil && tag == "earlyoom" {
			o.Victim, o.PID, o.Reporter = m[2], pid(m[1]), "earlyoom"
		} else if m := reEarlyoom010.FindStringSubmatch(t); m != nil && tag == "earlyoom" {
			o.Victim, o.PID, o.Reporter = m[2], pid(m[1]), "earlyoom"
		} else {
			return o, false
		}
	default:
		return o, false
	}
	if strings.HasPrefix(o.Reporter, "earlyoom") {
		if m := reEarlyoomSize.FindStringSubmatch(t); m != nil {
			o.Badness, o.VmRSSMiB = adj(m[1]), int64(pid(m[2]))
		} else if m := reEarlyoomBadness.FindStringSubmatch(t); m != nil {
			o.Badness = adj(m[1])
		}
	}
	return o, true
}

// oomdLineWhy names a systemd-oomd line that is no kill (lowMemKillOf): its trigger
// ("Memory pressure for %s is greater than %d for more than %d seconds and there was reclaim
// activity", v247-v248 oomd-manager.c; "Memory used (...) / total (...) and swap used ..."),
// the candidates it dumped before choosing (oomd-util.c dump_kill_candidates: "Considered %zu
// cgroups for killing, top candidates were:" then per cgroup "Path:", "Memory Pressure
// Limit:", "Pressure: Avg10: ... Avg60: ... Avg300: ... Total: ...", "Current Memory Usage:",
// "Memory Min:", "Memory Low:", "Pgscan:", "Last Pgscan:", "Swap Usage:") and its other
// notices. None is read as the host's state: the pressure is a cgroup's memory.pressure "full"
// line as oomd sampled it, and the usages are the cgroups', not /proc's counters.
func oomdLineWhy(t string) string {
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "Memory pressure for ") || strings.HasPrefix(t, "Memory used ("):
		return "systemd-oomd's trigger (a cgroup's memory.pressure or the memory and swap used it compares with its limit): named, not read as /proc/pressure or /proc/meminfo; no kill is in the line"
	case strings.HasPrefix(t, "Considered ") || strings.HasPrefix(t, "Path: ") || strings.HasPrefix(t, "Pressure: ") ||
		strings.HasPrefix(t, "Memory ") || strings.HasPrefix(t, "Current Memory Usage") || strings.HasPrefix(t, "Swap Usage") ||
		strings.HasPrefix(t, "Pgscan") || strings.HasPrefix(t, "Last Pgscan"):
		return "systemd-oomd's kill candidates (dump_kill_candidates: each cgroup's memory.pressure avg10/60/300, usage, pgscan as oomd sampled them): named, not read as the host's state"
	}
	return "systemd-oomd's notice (not a kill): named, not read"
}

// talosOOMKill opens the kill line of Talos's OOM controller (machined's user-facility kmsg).
const talosOOMKill = "[talos] Sending SIGKILL to cgroup "

// talosOOMKillLine: a user-facility record of talosctl dmesg (stripTalosKmsg) that is Talos's
// OOM controller's kill.
func talosOOMKillLine(l *Line) bool {
	return l.Syslog && l.Tag == "user" && strings.HasPrefix(l.Text, talosOOMKill)
}

// lowMemKillLine reads line i when it is a low-memory killer's kill: a syslog line of the
// killer's program, a logcat line, or the killer's message bare.
func (d *doc) lowMemKillLine(i int) bool {
	l := &d.ls[i]
	if l.Kernel {
		return false // the kernel's lowmemorykiller is a log record (lowMemKillsInLog)
	}
	tag, t := "", l.Text
	switch {
	case l.Syslog:
		switch {
		case l.Tag == "systemd-oomd", l.Tag == "earlyoom", l.Tag == "lmkd", l.Tag == "lowmemorykiller":
			tag = l.Tag
		case talosOOMKillLine(l):
			tag = l.Tag
		default:
			return false
		}
	default:
		if m := reLogcat.FindStringSubmatchIndex(t); m != nil {
			tag = subOr(t, m[2], m[3]) + subOr(t, m[6], m[7])
			t = t[m[1]:]
		} else if d.lowMemKillBareLine(i, t) {
			return true // the old lowmemorykiller's line without its prefix (fix52b.go)
		} else if strings.HasPrefix(strings.TrimSpace(t), "Killing process ") && d.earlyoomLowSeen() {
			// earlyoom 0.x-1.0 on a terminal: its kill line has no tag, and its words are
			// any supervisor's; the same paste's "Out of memory! avail: N MiB < min: N
			// MiB" (earlyoom.go) says whose they are.
			tag = "earlyoom"
		}
	}
	o, ok := lowMemKillOf(tag, t)
	if !ok && tag == "lowmemorykiller" {
		// logcat -b kernel: logd's klogd makes the kernel's "lowmemorykiller: " prefix the
		// tag, so the in-kernel killer's "Killing '%s' (%d), adj %hd," stands after it.
		o, ok = lowMemKillOf("", "lowmemorykiller: "+strings.TrimSpace(t))
	}
	if !ok {
		o, ok = lmkdReclaimOf(tag, t) // Samsung's lmkd: "Reclaim '%s' (%d), uid ..." (fix52b.go)
	}
	if !ok {
		if !l.Syslog && (tag == "lowmemorykiller" || tag == "lmkd") {
			// lmkd's other logcat lines: its start-up ("Using psi monitors for memory
			// pressure detection", "Process polling is supported", "lmkd data connection
			// established"), a kill's second line on Android 8-9 ("   to free %ldkB because
			// system is under %s memory pressure"), its decisions and errors. None is the
			// device's memory state, and none is a kill: named, so that a healthy lmkd log is
			// read (no finding) rather than nothing.
			d.unparsedUnread(i, "Android's low memory killer's notice (lmkd's start-up, a kill's continued line, a decision or an error; logcat tag "+tag+"): named, not read as the device's memory state; no kill is in the line")
			return true
		}
		return false
	}
	d.used[i] = true
	if v, ok := oomdKillPressure(t); ok && strings.HasPrefix(o.Reporter, "systemd-oomd") {
		d.addDaemonPSI(i, v, "systemd-oomd's kill: the monitored cgroup's memory.pressure full avg10 it compared with its limit")
	}
	if unit := o.Victim[strings.LastIndexByte(o.Victim, '/')+1:]; strings.HasPrefix(o.Reporter, "systemd-oomd") {
		d.dropUnitResultOOM(unit) // the unit's result 'oom-kill' is this kill's (systemdoomdkill.go)
		if d.oomdKilledUnit(unit) {
			return true // systemd's line of the same kill came first
		}
	}
	if o.Reporter == lmkKernelReporter {
		// Its continued lines follow, bare or with the same prefix .
		n := d.addLMKKernelKill(o, l.No, func(k int) (string, int, bool) {
			j := i + k
			if j >= len(d.ls) || d.used[j] || d.ls[j].Syslog != l.Syslog {
				return "", 0, false
			}
			t := d.ls[j].Text
			if m := reLogcat.FindStringSubmatchIndex(t); m != nil {
				t = t[m[1]:]
			}
			return t, d.ls[j].No, true
		})
		for j := i + 1; j <= i+n; j++ {
			d.used[j] = true
		}
		return true
	}
	d.addLowMemKillText(o, t, l.No) // with lmkd's figures (fix52b.go)
	return true
}

// lowMemKillsInLog reads the kernel log's records of Android's in-kernel lowmemorykiller, and
// lmkd's kills where they reached the kernel log under lmkd's tag ("lowmemorykiller: Kill 'x'
// (pid), uid N, oom_score_adj N to free ..."; lmkd writes its kills to /dev/kmsg on some
// builds, and a logcat -b kernel or a dmesg paste holds them): a kill by lmkd either way.
func (d *doc) lowMemKillsInLog() {
	if !d.lowMemKillLogged {
		return
	}
	for idx, r := range d.tl.Log.All() {
		i := strings.Index(r.Message, "lowmemorykiller: ")
		if i < 0 {
			d.lowMemKillBareInLog(r.Message, r.Line()) // the old killer's line without its prefix (fix52b.go)
			continue
		}
		o, ok := lowMemKillOf("", r.Message)
		if !ok || o.Reporter != "Android's in-kernel lowmemorykiller" {
			// lmkd's words, "Kill" or its older "Killing '%s' (%d), uid %d, adj %d".
			o, ok = lowMemKillOf("lowmemorykiller", r.Message[i+len("lowmemorykiller: "):])
		}
		if ok && o.Reporter == lmkKernelReporter {
			// Its continued lines are the records after it .
			d.addLMKKernelKill(o, r.Line(), func(k int) (string, int, bool) {
				if idx+k >= d.tl.Log.Len() {
					return "", 0, false
				}
				n := d.tl.Log.At(idx + k)
				return n.Message, n.Line(), true
			})
		} else if ok {
			d.addLowMemKill(o, r.Line())
		}
	}
}

func (d *doc) addLowMemKill(o model.RuntimeOOM, no int) {
	d.segSeq++
	o.Source = fmt.Sprintf("line %d", no)
	d.addArtifact(KindLowMemKill, no, no, o)
	d.addRuntimeOOM(o)
}

// The in-kernel lowmemorykiller prints a kill as one printk of several lines
// (drivers/staging/android/lowmemorykiller.c lowmem_scan/lowmem_shrink, 3.4-4.9):
//
//	"Killing '%s' (%d), adj %hd,\n"
//	"   to free %ldkB on behalf of '%s' (%d) because\n"
//	"   cache %ldkB is below limit %ldkB for oom_score_adj %hd\n"
//	"   Free memory is %ldkB above reserved\n"
//
// and the vendor trees (msm, Exynos, OPPO's) go on: "Free memory is %ldkB above reserved.\n
// Free CMA is %ldkB\n Total reserve is %ldkB\n Total free pages is %ldkB\n Total file cache
// is %ldkB\n Total zcache is %ldkB\n GFP mask is 0x%x\n", some with "is_kswapd %d priority
// %d", "(decrease %d level" or "to free %ldkB (%ldKB %ldKB) on behalf of" (the victim's RSS
// and swap). Only the first line carries the "lowmemorykiller: " prefix; the others reach a
// paste as lines of their own, bare (dmesg, a mail's quote) or each with the record's
// stamp (a log that splits records at newlines). They are the killer's reasons for the
// kill: the page cache (NR_FILE_PAGES - NR_SHMEM) below the minfree limit for the chosen
// oom_score_adj, and the free memory above totalreserve_pages, negative when below it.
// They are kept, as printed, on the kill's artifact (lmkKernelKill), and their lines are
// read with it.
var (
	reLMKToFree   = lazyre.New(`^to free (\d+)kB(?: \(\d+KB \d+KB\))? on behalf of '([^']*)' \((\d+)\) because\s*$`)
	reLMKCache    = lazyre.New(`^cache (\d+)kB is below limit (\d+)kB for oom_score_adj (-?\d+)\s*$`)
	reLMKFree     = lazyre.New(`^Free memory is (-?\d+)kB above reserved\.?\s*$`)
	reLMKVendorKB = lazyre.New(`^(Free CMA|Total reserve|Total free pages|Total file cache|Total zcache) is (-?\d+)kB\s*$`)
	reLMKGFP      = lazyre.New(`^GFP mask is (0x[0-9a-fA-F]+)\s*$`)
	reLMKOther    = lazyre.New(`^(?:is_kswapd \d+ priority \d+|\(decrease \d+ level)\s*$`)
)

// lmkKernelKill is the artifact of an in-kernel lowmemorykiller kill with the figures of
// its continued lines; a figure not printed is nil.
type lmkKernelKill struct {
	model.RuntimeOOM
	ToFreeKB            *int64 `json:"to_free_kb,omitempty"`
	OnBehalfOf          string `json:"on_behalf_of,omitempty"`
	OnBehalfPID         int    `json:"on_behalf_pid,omitempty"`
	CacheKB             *int64 `json:"cache_kb,omitempty"`
	CacheLimitKB        *int64 `json:"cache_limit_kb,omitempty"`
	MinScoreAdj         *int   `json:"min_oom_score_adj,omitempty"`
	FreeAboveReservedKB *int64 `json:"free_above_reserved_kb,omitempty"`
	FreeCMAKB           *int64 `json:"free_cma_kb,omitempty"`
	TotalReserveKB      *int64 `json:"total_reserve_kb,omitempty"`
	TotalFreeKB         *int64 `json:"total_free_kb,omitempty"`
	FileCacheKB         *int64 `json:"file_cache_kb,omitempty"`
	ZcacheKB            *int64 `json:"zcache_kb,omitempty"`
	GFPMask             string `json:"gfp_mask,omitempty"`
}

// lmkTail reads the continued lines of an in-kernel lowmemorykiller kill into k: next(n)
// is the n-th line after the kill's and its number (false past the last one). It returns
// how many lines were the kill's and the last one's number; it stops at the first line in
// none of the forms, and a form read twice is the next kill's.
func lmkTail(k *lmkKernelKill, next func(n int) (string, int, bool)) (n, last int) {
	num := func(s string) *int64 { v, _ := strconv.ParseInt(s, 10, 64); return &v }
	seen := map[string]bool{}
	for ; n < 12; n++ {
		t, no, ok := next(n + 1)
		if !ok {
			break
		}
		t = strings.TrimSpace(t)
		form := ""
		switch {
		case strings.HasPrefix(t, "to free "):
			m := reLMKToFree.FindStringSubmatch(t)
			if m == nil {
				return n, last
			}
			form = "to free"
			k.ToFreeKB, k.OnBehalfOf = num(m[1]), m[2]
			k.OnBehalfPID, _ = strconv.Atoi(m[3])
		case strings.HasPrefix(t, "cache "):
			m := reLMKCache.FindStringSubmatch(t)
			if m == nil {
				return n, last
			}
			form = "cache"
			adj, _ := strconv.Atoi(m[3])
			k.CacheKB, k.CacheLimitKB, k.MinScoreAdj = num(m[1]), num(m[2]), &adj
		case strings.HasPrefix(t, "Free memory is "):
			m := reLMKFree.FindStringSubmatch(t)
			if m == nil {
				return n, last
			}
			form = "free"
			k.FreeAboveReservedKB = num(m[1])
		case strings.HasPrefix(t, "GFP mask is "):
			m := reLMKGFP.FindStringSubmatch(t)
			if m == nil {
				return n, last
			}
			form = "gfp"
			k.GFPMask = m[1]
		case reLMKOther.MatchString(t):
			form = t[:3]
		default:
			m := reLMKVendorKB.FindStringSubmatch(t)
			if m == nil {
				return n, last
			}
			form = m[1]
			v := num(m[2])
			switch m[1] {
			case "Free CMA":
				k.FreeCMAKB = v
			case "Total reserve":
				k.TotalReserveKB = v
			case "Total free pages":
				k.TotalFreeKB = v
			case "Total file cache":
				k.FileCacheKB = v
			case "Total zcache":
				k.ZcacheKB = v
			}
		}
		if seen[form] {
			return n, last
		}
		seen[form] = true
		last = no
	}
	return n, last
}

// addLMKKernelKill adds the in-kernel killer's kill o read at line no with the figures of
// its continued lines (lmkTail over next); it returns how many continued lines it read.
func (d *doc) addLMKKernelKill(o model.RuntimeOOM, no int, next func(n int) (string, int, bool)) int {
	k := lmkKernelKill{RuntimeOOM: o}
	n, last := lmkTail(&k, next)
	if t, ok := d.lmkTails[no]; ok && n == 0 {
		// Its lines were read bare after its record (lmkTailLines).
		k, n, last = t.kill, t.n, t.last
		k.RuntimeOOM = o
	}
	if n == 0 {
		d.addLowMemKill(o, no)
		return 0
	}
	d.segSeq++
	k.Source = fmt.Sprintf("line %d", no)
	d.addArtifact(KindLowMemKill, no, last, k)
	d.addRuntimeOOM(k.RuntimeOOM)
	return n
}

// lmkTailRead is what lmkTailLines read after a kill's record: the figures, how many lines
// and the last one's number.
type lmkTailRead struct {
	kill    lmkKernelKill
	n, last int
}

// lmkTailLines reads the in-kernel killer's continued lines after its kernel log line i
// when they have no prefix of their own (dmesg prints a record's later lines bare, under
// its stamped first line): they are not log records, so they are kept by the kill's line
// number for lowMemKillsInLog, and read with it. It reports whether it read any.
func (d *doc) lmkTailLines(i int) bool {
	l := &d.ls[i]
	if !strings.Contains(l.Text, "lowmemorykiller: Killing '") {
		return false
	}
	var k lmkKernelKill
	n, last := lmkTail(&k, func(n int) (string, int, bool) {
		j := i + n
		if j >= len(d.ls) || d.used[j] || d.ls[j].Kernel || d.ls[j].Syslog {
			return "", 0, false
		}
		return d.ls[j].Text, d.ls[j].No, true
	})
	if n == 0 {
		return false
	}
	for j := i + 1; j <= i+n; j++ {
		d.used[j] = true
	}
	if d.lmkTails == nil {
		d.lmkTails = map[int]lmkTailRead{}
	}
	d.lmkTails[l.No] = lmkTailRead{k, n, last}
	return true
}
