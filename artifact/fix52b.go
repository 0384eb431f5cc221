package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// fix52b (round 47, batch g202: Android and ChromeOS devices).
//
// Android's in-kernel lowmemorykiller before its lines had a prefix: the trees of Android
// 1.x-2.3 (goldfish 2.6.29, msm 2.6.32-2.6.35; drivers/staging/android/lowmemorykiller.c)
// print with a bare printk through lowmem_print, without the pr_fmt(KBUILD_MODNAME ": ")
// that 3.x trees added, so a console or dmesg holds only
//
//	lowmem_print(2, "select %d (%s), adj %d, size %d, to kill\n", p->pid, p->comm, oom_adj, tasksize)
//	lowmem_print(1, "send sigkill to %d (%s), adj %d, size %d\n", selected->pid, selected->comm, selected_oom_adj, selected_tasksize)
//
// The "send sigkill" line is the kill; a "select" line is a candidate the scan chose at that
// moment (a later candidate with a higher adj or a larger size replaces it, so a select line
// without its send line is no kill). adj is the task's oom_adj (-17..15) on those trees, not
// oom_score_adj, and size is the task's RSS in pages (get_mm_rss), not kB: both kept as
// printed, in their own fields. The whole line must have the printed shape: a question about
// the message, its format string in a guide or another program's "sending SIGKILL to ..." is
// not it.
var (
	reLMKBareKill   = lazyre.New(`^(?:lowmemorykiller: )?send sigkill to (\d+) \(([^()]*)\), adj (-?\d+), size (\d+)\s*$`)
	reLMKBareSelect = lazyre.New(`^(?:lowmemorykiller: )?select (\d+) \(([^()]*)\), adj (-?\d+), size (\d+), to kill\s*$`)
)

// lmkBareKillWords: the words a kernel log record holds when it may be the old kill line
// (appendLog's gate of lowMemKillsInLog).
const lmkBareKillWords = "send sigkill to "

// lmkBareKill is the artifact of one such kill: the kill as every low-memory killer's, and
// the two figures the old line printed in their own units.
type lmkBareKill struct {
	model.RuntimeOOM
	OOMAdj    int   `json:"oom_adj"`
	SizePages int64 `json:"size_pages"`
}

// lmkBareWhy names a select line (read, not a kill).
const lmkBareWhy = "Android's in-kernel lowmemorykiller's candidate (lowmemorykiller.c lowmem_print \"select %d (%s), adj %d, size %d, to kill\": the task its scan chose, oom_adj and RSS in pages): named, not read as a kill; the kill is its \"send sigkill to\" line"

// lowMemKillBareLine reads line i (not a syslog line) when it is the old lowmemorykiller's
// bare kill or candidate line.
func (d *doc) lowMemKillBareLine(i int, t string) bool {
	t = strings.TrimSpace(t)
	switch {
	case strings.HasPrefix(t, "send sigkill to ") || strings.HasPrefix(t, "lowmemorykiller: send sigkill to "):
		o, adj, size, ok := lmkBareKillOf(t)
		if !ok {
			return false
		}
		d.used[i] = true
		d.addLowMemKillBare(o, adj, size, d.ls[i].No)
		return true
	case strings.HasPrefix(t, "select ") || strings.HasPrefix(t, "lowmemorykiller: select "):
		if !reLMKBareSelect.MatchString(t) {
			return false
		}
		d.unparsedUnread(i, lmkBareWhy)
		return true
	}
	return false
}

// lmkBareKillOf reads the old kill line.
func lmkBareKillOf(t string) (model.RuntimeOOM, int, int64, bool) {
	m := reLMKBareKill.FindStringSubmatch(t)
	if m == nil {
		return model.RuntimeOOM{}, 0, 0, false
	}
	pid, _ := strconv.Atoi(m[1])
	adj, err1 := strconv.Atoi(m[3])
	size, err2 := strconv.ParseInt(m[4], 10, 64)
	if err1 != nil || err2 != nil {
		return model.RuntimeOOM{}, 0, 0, false
	}
	return model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1, Victim: m[2], PID: pid,
		Reporter: "Android's in-kernel lowmemorykiller"}, adj, size, true
}

func (d *doc) addLowMemKillBare(o model.RuntimeOOM, adj int, size int64, no int) {
	d.segSeq++
	o.Source = fmt.Sprintf("line %d", no)
	d.addArtifact(KindLowMemKill, no, no, lmkBareKill{RuntimeOOM: o, OOMAdj: adj, SizePages: size})
	d.addRuntimeOOM(o)
}

// lowMemKillBareInLog reads a kernel log record (a dmesg line with its stamp) that is the
// old lowmemorykiller's kill; it reports whether it was one.
func (d *doc) lowMemKillBareInLog(msg string, no int) bool {
	if !strings.HasPrefix(strings.TrimSpace(msg), lmkBareKillWords) {
		return false
	}
	o, adj, size, ok := lmkBareKillOf(strings.TrimSpace(msg))
	if ok {
		d.addLowMemKillBare(o, adj, size, no)
	}
	return ok
}

// kswapd's CPU share told in the sentence after the one that names it, with a pronoun for
// the thread (corpus 4330, a crouton issue): "next to the normally running software it showed
// kswapd0. It went up to 70%." The first sentence ends on the thread's name (top's COMMAND
// column, the reporter's observation); the next one opens with the pronoun and a verb of the
// figure's level. kswapd is a kernel thread with no memory of its own (kswapdShareUsed), so
// a share of it in top is its %CPU; a share with a memory word ("It is 70% of the RAM") or a
// likelihood ("it is 90% likely") is not. A general statement, a question and a condition
// state nothing of this host, as for the share in one sentence.
var (
	reKswapdThenShare = lazyre.New(`(?i)\bkswap\w*\b[` + "`" + `'"*]*\s*[.!]\s+(?:it|that|this)\s+(?:then\s+|even\s+|quickly\s+|sometimes\s+|often\s+)?(?:went|goes|rose|rises|climbed|climbs|jumped|jumps|spiked|spikes|peaked|peaks|reached|reaches|hit|hits|got|gets|was|is|sat|sits|stayed|stays|ran|runs)\s+(?:up\s+)?(?:to\s+|at\s+)?(?:about\s+|around\s+|almost\s+|nearly\s+|over\s+|~\s*)?(\d{1,3}(?:\.\d+)?)\s*%`)
	reShareNotCPU     = lazyre.New(`(?i)^\s*(?:likely|chance|probab|sure|certain|of\s+(?:the\s+|my\s+|its\s+)?(?:ram|memory|mem|swap|disk|storage|space)\b)`)
)

// statedKswapdShareNext returns the share, its offset in para and the two sentences.
func statedKswapdShareNext(para string) (float64, int, string, bool) {
	for _, m := range reKswapdThenShare.FindAllStringSubmatchIndex(para, -1) {
		if reShareNotCPU.MatchString(para[m[1]:min(len(para), m[1]+24)]) {
			continue
		}
		first := sentenceAround(para, m[0], m[0]+1)
		next := sentenceAround(para, m[2], m[3])
		name := para[m[0] : strings.IndexAny(para[m[0]:], ".!")+m[0]]
		if reKswapdMemWord.MatchString(next) || genericStatement(first, name) || hypotheticalUpTo(first, name) ||
			questionAt(para, m[0], m[0]+len(name)) || questionAt(para, m[2], m[3]) || hypotheticalUpTo(next, para[m[2]:m[1]]) {
			continue
		}
		pct, err := strconv.ParseFloat(para[m[2]:m[3]], 64)
		if err != nil || pct <= 0 || pct > 100 {
			continue
		}
		return pct, m[0], strings.TrimSpace(first) + ". " + strings.TrimSpace(next), true
	}
	return 0, 0, "", false
}

// RAM filled and then swap taken into use, told in the present tense as a monitor showed it
// (corpus 4333, a crouton issue): "According to `htop` it uses all the ram and then starts
// using swap", "htop shows it uses all the RAM and then starts using swap". The present alone
// is how a guide tells the mechanism (statedSwapping leaves "runs out of memory and starts
// using swap" unread); the monitor that showed it (top, htop, free, vmstat, a system monitor)
// makes it the author's observation of this host. Advice, a question, a negation and a
// condition state nothing, as for statedSwapping's forms.
var reMonitorSwapping = lazyre.New(`(?i)(?:\baccording\s+to\s+|\b)[` + "`" + `'"*]*(?:htop|top|btop|atop|glances|free\s+-[hmg]|vmstat|(?:the\s+|my\s+)?(?:system\s+monitor|task\s+manager|resource\s+monitor))[` + "`" + `'"*]*\s*(?:,\s*|\s+(?:shows?|showed|says|said)\s+(?:that\s+)?|\s+)` +
	`(?:it|the\s+[\w.-]+|[\w.-]+)\s+(?:uses|used|fills|filled|eats|ate|takes|took|consumes|consumed)\s+(?:up\s+)?all\s+(?:of\s+)?(?:the\s+|my\s+|its\s+)?(?:ram|memory)\s+(?:and\s+)?(?:then\s+)?(?:starts?|started|begins?|began|goes|went)\s+(?:using|to\s+use|eating|filling|into)\s+(?:the\s+|my\s+|its\s+)?swap\b`)

func statedSwapSeenInMonitor(para string, lineAt func(int) int) (int, string, bool) {
	if !containsFoldASCII(para, "swap") {
		return 0, "", false
	}
	for _, m := range reMonitorSwapping.FindAllStringIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		if notTheHostsEvent(para, m, guardOpts{noQuestion: true, neg: negNear}) || reSwappingAdvice.MatchString(para[max(0, m[0]-60):m[0]]) ||
			askedAt(para, m[1]-1) {
			continue
		}
		return lineAt(m[0]), sentence, true
	}
	return 0, "", false
}

// Two Android reports of the device that carry no memory figure (corpus 4325, 4327), named
// so that what they prove is said, and read as nothing more:
//
//	termux-info (termux-tools, scripts/termux-info.in): "Termux Variables:" then the app's
//	  TERMUX_* variables (TERMUX_APP__PID, TERMUX_APP__UID, TERMUX_APP__TARGET_SDK, the
//	  package manager, the version), "Packages CPU architecture:", "Subscribed repositories:"
//	  (the sources.list lines), "Updatable packages:", "termux-tools version:", "Android
//	  version:", "Device manufacturer:", "Device model:", "Supported ABIs:", "LD Variables:".
//	  "Kernel build information:" is followed by uname -a, left to the host's readers.
//	dumpsys activity's foreground apps (ActiveServices dumpLocked): "Active foreground apps -
//	  user N:", "#N: package", then ActiveForegroundApp's fields ("mNumActive=1 mAppOnTop=false
//	  mShownWhileTop=true ...", "mStartTime=-4h8m25s658ms mStartVisibleTime=..."): an app
//	  holding a foreground service and since when, no kill and no memory figure.
var (
	reTermuxInfoVar     = lazyre.New(`^(?:TERMUX|LD)_\w*=`)
	reTermuxInfoHeading = lazyre.New(`^(?:Termux Variables|Packages CPU architecture|Subscribed repositories|Updatable packages|termux-tools version|Android version|Device manufacturer|Device model|Supported ABIs|LD Variables|Kernel build information):$`)
	reFgAppsHeading     = lazyre.New(`^Active foreground apps - user \d+:$`)
	reFgAppsLine        = lazyre.New(`^(?:#\d+: [\w.]+$|m(?:NumActive|AppOnTop|ShownWhileTop|ShownWhileScreenOn|StartTime|StartVisibleTime|EndTime)=)`)
)

const (
	termuxInfoWhy = "termux-info (termux-tools): the Termux app's variables (its pid, uid, target SDK, version, package manager), the packages' CPU architecture and repositories: this device's app and system, named, not read; no memory, swap or kill figure is in it"
	fgAppsWhy     = "dumpsys activity's foreground apps (ActiveServices: an app holding a foreground service, since mStartTime): this device's app state, named, not read; no kill and no memory figure is in it"
)

// androidInfoRun names the block opened by line i when it is termux-info's or dumpsys's
// foreground apps; it returns the lines taken.
func (d *doc) androidInfoRun(i int) int {
	s := strings.TrimSpace(d.ls[i].Text)
	var why string
	var member func(string) bool
	switch {
	case s == "Termux Variables:":
		why = termuxInfoWhy
		heading := true // the line after a heading is its value ("aarch64", a version)
		member = func(t string) bool {
			switch {
			case reTermuxInfoVar.MatchString(t):
				heading = false
			case reTermuxInfoHeading.MatchString(t):
				if t == "Kernel build information:" {
					return false // uname -a follows: the host's readers read it
				}
				heading = true
			case heading || strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "deb "):
			default:
				return false
			}
			return true
		}
	case reFgAppsHeading.MatchString(s):
		why = fgAppsWhy
		member = func(t string) bool { return reFgAppsLine.MatchString(t) }
	default:
		return 0
	}
	n := 1
	for j := i + 1; j < len(d.ls); j++ {
		t := strings.TrimSpace(d.ls[j].Text)
		if t == "" || d.ls[j].Syslog || d.ls[j].Kernel || !member(t) {
			break
		}
		n++
	}
	for j := i; j < i+n; j++ {
		d.unparsedUnread(j, why)
		d.used[j] = true
	}
	return n
}

// lmkd's kill line carries the victim's figures and its reason (system/memory/lmkd/lmkd.cpp
// kill_one_process): "Kill '%s' (%d), uid %d, oom_score_adj %d to free %ldkB rss, %ldkB
// swap; reason: %s" (Android 12 on; "to free %ldkB; reason: %s" on 10-11), the reason one
// of find_and_kill_process's descriptions, among them "%s watermark is breached and swap is
// low (%ldkB < %ldkB)" (the free swap, then the threshold it was compared with). Samsung's
// lmkd prints the same kill as "Reclaim '%s' (%d), uid %d, oom_score_adj %d, state %d to free
// ..." and reaps the victim after it (its "process_mrelease PID failed: No such process" is
// of the same pid), so it is a kill too. The figures are kept as printed on the kill's
// artifact (the victim's RSS and swap, lmkd's free-swap and threshold): they are lmkd's
// words about its decision, not a reading of /proc/meminfo, and the swap figure is no swap
// exhausted (Samsung's builds print it with a free swap far above the threshold).
var (
	reLmkdReclaim  = lazyre.New(`^Reclaim '([^']*)' \((\d+)\), uid \d+, oom_score_adj (-?\d+), state \d+ to free \d+kB`)
	reLmkdFree     = lazyre.New(` to free (\d+)kB(?: rss, (\d+)kB swap)?[;,]`)
	reLmkdSwapLow  = lazyre.New(`\bswap is low \((\d+)kB < (\d+)kB\)`)
	reLmkdReasonAt = lazyre.New(`; reason: (.*)$`)
)

// lmkdKill is the artifact of an lmkd kill with the figures its line printed.
type lmkdKill struct {
	model.RuntimeOOM
	RSSKB           int64  `json:"rss_kb,omitempty"`
	SwapKB          int64  `json:"swap_kb,omitempty"`
	Reason          string `json:"reason,omitempty"`
	SwapFreeKB      int64  `json:"reason_swap_free_kb,omitempty"`
	SwapThresholdKB int64  `json:"reason_swap_low_kb,omitempty"`
}

// lmkdReclaimOf reads Samsung's form of lmkd's kill (tag lmkd or lowmemorykiller).
func lmkdReclaimOf(tag, t string) (model.RuntimeOOM, bool) {
	t = strings.TrimSpace(t)
	if tag != "lmkd" && tag != "lowmemorykiller" || !strings.HasPrefix(t, "Reclaim '") {
		return model.RuntimeOOM{}, false
	}
	m := reLmkdReclaim.FindStringSubmatch(t)
	if m == nil {
		return model.RuntimeOOM{}, false
	}
	pid, _ := strconv.Atoi(m[2])
	adj, err := strconv.Atoi(m[3])
	if err != nil {
		return model.RuntimeOOM{}, false
	}
	return model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: 1, Victim: m[1], PID: pid, OOMScoreAdj: &adj,
		Reporter: "Android's lmkd"}, true
}

// addLowMemKillText adds the kill o read from t, with lmkd's figures when t is lmkd's.
func (d *doc) addLowMemKillText(o model.RuntimeOOM, t string, no int) {
	if o.Reporter != "Android's lmkd" {
		d.addLowMemKill(o, no)
		return
	}
	k := lmkdKill{}
	num := func(s string) int64 { v, _ := strconv.ParseInt(s, 10, 64); return v }
	if m := reLmkdFree.FindStringSubmatch(t); m != nil {
		k.RSSKB, k.SwapKB = num(m[1]), num(m[2])
	}
	if m := reLmkdReasonAt.FindStringSubmatch(t); m != nil {
		k.Reason = strings.TrimSpace(m[1])
		if s := reLmkdSwapLow.FindStringSubmatch(m[1]); s != nil {
			k.SwapFreeKB, k.SwapThresholdKB = num(s[1]), num(s[2])
		}
	}
	if k == (lmkdKill{}) {
		d.addLowMemKill(o, no)
		return
	}
	d.segSeq++
	o.Source = fmt.Sprintf("line %d", no)
	k.RuntimeOOM = o
	d.addArtifact(KindLowMemKill, no, no, k)
	d.addRuntimeOOM(o)
}
