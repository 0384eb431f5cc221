package artifact

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
)

// Numbers in prose are evidence too (issue 16, point 6). A report often states what the
// reporter measured without pasting the tool's output: "2 kswapd process eating 100% of cpu",
// "~1.5 Millions reclaims/s", "900K interrupts/second", "over GBit ethernet", "this value was
// something like 2000". Such statements become one sample marked as stated (its Source says
// "stated in the text"), so the rules read them as they read any sample, and the registry
// keeps a finding that rests on them alone below critical: a sentence is weaker evidence than
// a counter.
//
// The patterns are for classes of statement, each tied to the quantity a rule reads; a
// sentence that matches none is left alone.

// statedMaxLines bounds the prose kept for this: a 200 MB text of prose must not be held
// twice.
const statedMaxLines = 20000

// statedMaxLineBytes: a longer line is no sentence that states a number (the longest line of
// the corpus, seeds and fixtures has 2195 bytes); sixty lines of 1 MiB of numbers were read
// as one paragraph by every stated regexp (issue 30 item 6).
const statedMaxLineBytes = 16 << 10

type proseLine struct {
	no    int
	text  string
	quote int // mail quoting depth removed from the line (Line.Quote)
}

const numRe = `(\d+(?:[.,]\d+)?)\s*(k|K|m|M|[Mm]illions?|[Tt]housands?)?`

var (
	// "2 kswapd (...) process eating 100% of cpu", "kswapd0 at 99% CPU", "kswapd is using 100% of a core",
	// "the kswap process is utilizing 100% of cpu" (the thread's name shortened)
	reStatedKswapd = lazyre.New(`(?i)(?:\b(\d+)\s+)?kswap\w*\b[^.%]{0,100}?(\d{1,3}(?:\.\d+)?)\s*%`)
	// kswapd busy without a figure: "the kswapd0 process is consuming a large amount of CPU
	// resources", "kswapd0 high CPU", "kswapd winds up in a continuous cycle of trying to free
	// pages ... forever", "kswapd spinning", "kswapd0 进程占用大量CPU", "kswapd0 CPU 占用很高";
	// kswapd at the top of top's list for CPU: "kswapd is right up there in the process list
	// for CPU usage", "kswapd0 at the top of htop by CPU" (corpus 940).
	// An out-of-memory the author states happened, without the kernel's report: "the box
	// crashes frequently from OOM", "mysqld was killed by the OOM killer", "频繁因为OOM导致
	// crash", "偶爾,OOM-killer 會殺死一些程序". Who was killed and why is not said.
	reStatedOOM = lazyre.New(`(?i)(?:\bOOM\b|\bout[ -]of[ -]memory\b|\boom[- ]?killer\b)[^.;!?。！？；]{0,40}?(?:\bcrash\w*|\breboot\w*|\bkilled\b|\bkills\b|\bkilling\b|\bpanic\w*|崩溃|崩潰|重启|重啟|死机|死機|杀死|殺死|杀掉|殺掉|被杀|被殺|crash)|(?:\bcrash\w*|\breboot\w*|\bkilled\b|\breaped\s+by\b|\bpanic\w*|崩溃|崩潰|重启|重啟|死机|死機|被杀|被殺)[^.;!?。！？；]{0,40}?(?:\bOOM\b|\bout[ -]of[ -]memory\b|\boom[- ]?killer\b)` +
		// h31b: the killer's other verbs, after the killer only ("the kernel's OOM killer
		// terminated the backup job", "the oom killer chose otelcol-contrib"): a program's
		// own out-of-memory ("out of memory, terminating") is no kill by the kernel.
		// fix45a (corpus 3761): the killer's phrasal verbs of pursuit, "the oom-killer went
		// after ffmpeg", "the OOM killer came for postgres", "it targeted mysqld".
		`|\boom[- ]?killer\b[^.;!?。！？；]{0,30}?\b(?:terminat(?:es|ed|ing)|chose|picks|picked|selects|selected|reap(?:s|ed)|sacrific(?:es|ed)|took\s+out|takes\s+out|shot|(?:went|goes|came|comes)\s+after|(?:came|comes)\s+for|targeted|targets` +
		// fix65m (g256's 5423, a reporter quoted on linux-mm): the killer's arrival, "the OOM
		// killer gets involved", "kicked in", "stepped in": the guards below leave a general
		// description ("the OOM killer kicks in when ...") out. The passive "was invoked" is
		// not among them: "why the OOM-killer was invoked" is a guide's (fix21c).
		`|(?:gets|got|getting)\s+involved|kick(?:s|ed|ing)?\s+in|st(?:epped|eps)\s+in)\b` +
		// fix46b (corpus 3885): the kill told by its signal with the OOM as its cause, "cron job
		// receiving SIGKILL due to OOM", "got a SIGKILL from the OOM killer": the kernel's OOM
		// killer kills with SIGKILL (mm/oom_kill.c __oom_kill_process, do_send_sig_info(SIGKILL,
		// ...)). The signal alone ("exit 137, SIGKILL") names no cause; "SIGKILL, maybe OOM?"
		// is a question (oomAskedAt), "would receive SIGKILL due to OOM" a possibility.
		`|\b(?:SIGKILL(?:ed)?|signal\s+9|kill\s+-9)\s+(?:\(?9\)?\s+)?(?:due\s+to|because\s+of|from|by|caused\s+by)\s+(?:the\s+|an?\s+|the\s+kernel(?:'s)?\s+)?(?:OOM|out[ -]of[ -]memory)(?:[- _]?killer)?\b`)
	// A retransmitted share the author states: "a lot of (30%) TCP retransmission in tcpdump",
	// "retransmission rate is about 12%", "12% of the segments are retransmitted", "重传率高达30%".
	reStatedRetrans    = lazyre.New(`(?i)\b(\d{1,2}(?:\.\d+)?)\s*%\)?\s*(?:of\s+(?:the\s+|all\s+)?(?:tcp\s+)?(?:segments|packets)\s+(?:are\s+|were\s+|get\s+|got\s+|being\s+)?|(?:tcp\s+)?(?:packet\s+)?)retrans\w*|\bretrans\w*\s+(?:rate|ratio|share|percentage)\s+(?:of\s+|is\s+|was\s+|at\s+|around\s+|about\s+|reaches\s+|reached\s+|=\s*|:\s*|~\s*)*(\d{1,2}(?:\.\d+)?)\s*%|\bretransmi(?:ssions|ts)\s+(?:are|were|run|ran|sit|sat|hover|hovered|stay|stayed)\s+(?:at\s+|around\s+|about\s+|roughly\s+|approximately\s+|near\s+|~\s*)*(\d{1,2}(?:\.\d+)?)\s*%|(?:重传|重傳)率?[^0-9%。，,]{0,6}(\d{1,2}(?:\.\d+)?)\s*%`)
	reNotBusy          = lazyre.New(`(?i)\b(?:not|no|never|isn't|wasn't|without|nor)\b|不|没`)
	reStatedKswapdBusy = lazyre.New(`(?i)\bkswap\w*\b[^.;!?。！？]{0,80}?(?:\bhigh\s+(?:cpu|load)\b|\bcpu\s+(?:usage\s+|load\s+|utili[sz]ation\s+)?(?:is\s+|was\s+|stays?\s+|goes\s+)?(?:very\s+|extremely\s+|so\s+)?high\b|\b(?:large|huge|big)\s+(?:amount|share|portion|part)\s+of\s+(?:the\s+)?cpu|\b(?:a\s+lot|lots|most|all)\s+of\s+(?:the\s+|my\s+|our\s+)?cpu|\bhog(?:s|ging)?\b|\bspin(?:s|ning)?\b|\b(?:eats?|eating|ate|uses?|using|used|takes?|taking|took|burns?|burning|burned|pins?|pinning|pinned|saturates?|saturating|saturated|occup(?:ies|ying|ied)|max(?:es|ed|ing)\s+out)\s+(?:up\s+)?(?:one|a|an\s+entire|a\s+(?:whole|full|single)|the\s+whole|\d+)\s+(?:whole\s+|full\s+|entire\s+)?(?:cpu\s+)?(?:cores?|cpus?|vcpus?)\b|(?:\b(?:at|near)\s+(?:the\s+)?(?:very\s+)?top\s+of|\bup\s+there\s+in|\btops?)\s+(?:the\s+|my\s+)?(?:top\b|htop\b|(?:process|task)(?:es)?\s+list|list\s+of\s+(?:processes|tasks))[^.;!?]{0,30}?\bcpu|\bloop(?:s|ing)?\s+(?:forever|endlessly|constantly|continuously)|\bin\s+(?:a\s+)?(?:tight|busy)\s+loop\b|\bbusy[- ]loop(?:s|ing)?\b|\b(?:continuous|endless|infinite)\s+(?:cycle|loop)|占用(?:了)?(?:大量|很多|很高|极高)?的?\s*cpu|cpu\s*(?:占用|使用)率?(?:很|非常|极)?高|cpu\s*(?:占用|使用)率?\s*(?:高达|达到|100))` +
		// fix42a (corpus 3557): kswapd's work told with an adverb of how hard, either side of
		// the thread's name: "it usually extensively used `kswapd0`, a few minutes before
		// shutting down", "kswapd0 was running constantly", "heavily using kswapd". No
		// figure: 1, as above.
		`|\b(?:extensively|heavily|intensively|intensely|massively|constantly|continuously|non-?stop)\s+(?:us(?:ed|es|ing)|runn?(?:s|ing)?|ran|work(?:s|ed|ing)?|active|busy)\s+(?:the\s+)?[` + "`" + `'"*]*kswap\w*\b` +
		`|\bkswap\w*\b[` + "`" + `'"*]*\s+(?:(?:is|was|were|being|been|kept|keeps|got)\s+)?(?:used|running|working|active|busy)\s+(?:extensively|heavily|intensively|intensely|massively|constantly|continuously|non-?stop|like\s+crazy|all\s+the\s+time)\b` +
		// fix71i (corpus 7292): the thread's own name for it, the thread right after the
		// name ("hit by kswapd0 loop again", "kswapd craziness in 3.7", "kswapd0 spinning").
		`|\bkswapd\d*[` + "`" + `'"*]*\s+(?:loop(?:s|ing)?|spinning|craziness|madness|storms?|going\s+(?:crazy|nuts|mad|wild))\b` + kswapdCPUClimbs + kswapdTakesCPU)
	// "~1.5 Millions reclaims/s", "200k pages scanned per second"
	reStatedReclaim = lazyre.New(`(?i)` + numRe + `\s*(?:page\s+)?(reclaims?|pages?\s+reclaimed|page\s+scans?|pages?\s+scanned)\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?)`)
	// Swap traffic stated as a rate: "swapping to my SSD at about 20MB/sec in each
	// direction", "swap-out runs at 15 MB/s", "kswapd swaps in 3000 KB/s". The swap word
	// comes first in the sentence; a device's rating ("rated at", "up to", "capable of") is
	// no traffic.
	reStatedSwapRate = lazyre.New(`(?i)\bswap\w*\b[^.;!?]{0,120}?\b(\d+(?:\.\d+)?)\s*([kmg])i?b(?:ytes)?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b)([^.;!?]{0,30})`)
	// fix67h: the amount over a span the author read off vmstat: "swapping like mad (about
	// 10 megs every 2 seconds according to vmstat)" (LKML 2002, g288's 6710), "swaps 50 MB
	// each minute". The rate is the amount over the span.
	reStatedSwapOver = lazyre.New(`(?i)\bswap\w*\b[^.;!?]{0,120}?\b(\d+(?:\.\d+)?)\s*([kmg])(?:i?b(?:ytes)?|egs?|egabytes?|igs?|igabytes?|ilobytes?)\s+(?:every|each|per|in|a)\s+(?:(\d+(?:\.\d+)?)\s*)?(sec(?:ond)?s?|s|min(?:ute)?s?)\b([^.;!?]{0,30})`)
	reSwapRated      = lazyre.New(`(?i)\b(?:rated|capable|up\s+to|max(?:imum)?|spec\w*|benchmark\w*|can\s+(?:do|reach|write|read))\b`)
	reSwapBothWays   = lazyre.New(`(?i)\b(?:each|either|both)\s+(?:direction|way)s?\b|\bin\s+and\s+out\b`)
	// A receive drop rate stated in packets per second: "190 micropackets per second on
	// average" (Munin graphs a counter's growth per second with SI prefixes), "rx_dropped
	// grows by 40 packets/s". The sentence must name drops, or the paragraph must and the
	// rate carry Munin's milli/micro prefix.
	reStatedPktRate = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*(micro|milli|µ|m)?\s*packets?\s*(?:/\s*s(?:ec)?\b|per\s+sec(?:ond)?\b|a\s+second\b)`)
	reDropWord      = lazyre.New(`(?i)\brx_dropped\b|\bdrop(?:s|ped|ping)?\b`)
	reNoneWord      = lazyre.New(`(?i)\bnone\b|\bzero\b`)
	reSwapInWord    = lazyre.New(`(?i)\bswap(?:ping|ped|s)?[- ]?in\b|\bsi\b`)
	// "900K interrupts/second", "1.2M TLB shootdowns per second", "50K IPIs/s"
	reStatedIntr = lazyre.New(`(?i)` + numRe + `\s*(tlb[- ]?(?:shootdowns?|flush(?:es)?)|ipis?|interrupts?)\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?)`)
	// "GBit ethernet", "gigabit", "10GbE", "2*40G ethernet", "25 Gbps NIC"
	// "2 × 1Gbps (bonded) network interface": a parenthesis between the speed and the noun.
	reStatedLink = lazyre.New(`(?i)(?:\b(\d+)\s*[*x×]\s*)?\b(\d+(?:\.\d+)?)?\s*(g|m|giga|mega)(?:bit|b|bps|be)?(?:/s)?\s*(?:\([^)]{1,20}\)\s*)?(?:ethernet|nics?|links?|ports?|(?:network\s+)?interfaces?|network\s+cards?)\b|\b(gigabit|gbe)\b`)
	// "this value was something like 2000", "the current value is 65536"
	// reValueUnit: a unit right after a stated value: kilo-, mega-, giga-, tera- bytes or
	// bits, a share.
	reValueUnit   = lazyre.New(`^\s*(?:[kKMGT](?:i?B|b|bytes?)?\b|%|percent\b)`)
	reStatedValue = lazyre.New(`(?i)\b(?:this|the|its|current|default)\s+(?:current\s+)?value\s+(?:was|is)\s+(?:something\s+like\s+|about\s+|around\s+|approximately\s+|roughly\s+|~\s*)?(\d+)\b`)
)

// shellSearchLine reports whether t is a shell command line that searches logs or reads
// them ("$ grep -iE 'oom|killed process' /var/log/syslog", "sudo journalctl -k | grep -i
// oom", "  | egrep -i 'out of memory|killed process'", "dmesg -T | tail"): the words in it
// are the pattern searched for, not a statement of what happened, so stated.go never reads
// it. A prompt ("$ ", "# ", "user@host:~$ "), "sudo" and a leading pipe are skipped; the
// command must then look like one: grep and its kin with anything after them, journalctl,
// dmesg, cat, tail and the like followed by an option, a path, a pipe or nothing ("dmesg
// shows the OOM killer killed mysqld" is a sentence).
func shellSearchLine(t string) bool {
	if !strings.Contains(t, "grep") && !strings.Contains(t, "journalctl") && !strings.Contains(t, "dmesg") && !strings.Contains(t, "|") {
		return false // cheap byte test first: most prose names none of them
	}
	fs := fields(t)
	k := 0
	for k < len(fs) {
		f := fs[k]
		if f == "$" || f == "#" || f == "%" || f == "|" || f == "sudo" || len(f) > 1 && (strings.HasSuffix(f, "$") || strings.HasSuffix(f, "#")) && strings.ContainsAny(f, "@:~]") {
			k++
			continue
		}
		break
	}
	if k >= len(fs) {
		return false
	}
	cmd := strings.TrimPrefix(fs[k], "|")
	switch cmd {
	case "grep", "egrep", "zgrep", "fgrep", "rg", "ag":
		return k+1 < len(fs)
	case "journalctl", "dmesg", "cat", "zcat", "tail", "head", "less", "awk", "sed":
		if k+1 == len(fs) {
			return true
		}
		next := fs[k+1]
		return next[0] == '-' || next[0] == '/' || next[0] == '|' || next[0] == '\'' || next[0] == '"'
	}
	return false
}

var (
	reKswapdUses    = lazyre.New(`(?i)\bkswap\w*\s+(?:\w+\s+){0,2}?(?:using|uses|eat(?:s|ing)|consum(?:es|ing)|tak(?:es|ing)|hog(?:s|ging)|at|runs\s+at|running\s+at)\b`)
	reKswapdMemWord = lazyre.New(`(?i)\b(?:ram|memory|mem|swap|disk|i/?o|zram|full|free|used)\b`)
)

// kswapdShareUsed: a share kswapd "uses" with no resource named ("kswapd0 starts using one
// kernel up to 100%", "kswapd0 at 99%", "kswapd eating 100%") is its CPU: kswapd is a kernel
// thread with no address space of its own (mm/vmscan.c kswapd_run starts it with
// kthread_run), so top's only share for it is %CPU; its %MEM is 0. A share next to a memory
// word ("kswapd runs when memory is 95% used") is memory's, not kswapd's.
func kswapdShareUsed(match string) bool {
	return reKswapdUses.MatchString(match) && !reKswapdMemWord.MatchString(match)
}

var (
	reDeltaBefore = lazyre.New(`(?i)(?:\bdelta|Δ|\bdiff|\bincrease)\W*$`)
	reWindow      = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|min|mins|minutes?)\b`)
)

// statedWindow: the last time window stated in text ("60s", "over 5 minutes"), in seconds.
func statedWindow(text string) (float64, bool) {
	ms := reWindow.FindAllStringSubmatch(text, -1)
	if len(ms) == 0 {
		return 0, false
	}
	m := ms[len(ms)-1]
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	if strings.HasPrefix(strings.ToLower(m[2]), "m") {
		v *= 60
	}
	return v, true
}

// acrossCells: a match that spans a Markdown table's cell boundary ("| OOM killer messages
// in logs | System killing processes |", a symptom and its meaning) joins two cells' words,
// not one statement.
func acrossCells(m string) bool { return strings.Contains(m, " | ") || strings.Contains(m, "\t|") }

// keepProse remembers a prose line for stated.
func (d *doc) keepProse(i int) {
	d.acct.Prose++
	if len(d.proseLines) < statedMaxLines && len(d.ls[i].Text) <= statedMaxLineBytes && !shellSearchLine(d.ls[i].Text) {
		d.proseLines = append(d.proseLines, proseLine{no: d.ls[i].No, text: d.ls[i].Text, quote: d.ls[i].Quote})
		// The line below is in the window when a reader has looked ahead past this one.
		if i+1 < len(d.ls) && d.ls[i+1].No == d.ls[i].No+1 && columnHeaderRow(d.ls[i].Text, d.ls[i+1].Text) {
			if d.headerRows == nil {
				d.headerRows = map[int]bool{}
			}
			d.headerRows[d.ls[i].No] = true
		}
	}
}

// scale reads "1.5" "M" as 1.5e6.
func scale(num, unit string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.Replace(num, ",", ".", 1), 64)
	if err != nil {
		return 0, false
	}
	switch strings.ToLower(strings.TrimSuffix(strings.ToLower(unit), "s")) {
	case "k", "thousand":
		v *= 1e3
	case "m", "million":
		v *= 1e6
	}
	return v, true
}

// stated reads the kept prose, paragraph by paragraph (a statement wraps across lines), into
// one stated sample, stated NICs and stated setting values. Each number is the host's only
// when its subject is (subject.go): another machine's rates go to a sample of their own,
// marked as such; a recommendation or an outcome is no rate at all.
func (d *doc) stated() {
	if len(d.proseLines) == 0 {
		if len(d.otherLines) > 0 && d.tl.Host.MemTotalKB == 0 {
			if !d.ollamaHostMemoryLines(d.newSubjects()) { // a log with no prose (hostmemlog.go)
				d.xtraceHostMemory(d.newSubjects()) // a script's xtrace of free (xtracefree.go)
			}
		}
		return
	}
	sub := d.newSubjects()
	tlbText, reclaimText, jvmCrashFile, slabText, slabGrowthSeen := false, false, false, false, false
	for _, p := range d.proseLines {
		if strings.Contains(p.text, "TLB") || strings.Contains(strings.ToLower(p.text), "shootdown") {
			tlbText = true
		}
		if l := strings.ToLower(p.text); strings.Contains(l, "reclaim") || strings.Contains(l, "thrash") {
			// h31b: thrashing is reclaim in the author's word ("the box is thrashing,
			// everything stalls for 10-20 seconds").
			reclaimText = true
		}
		if strings.Contains(p.text, "hs_err") {
			jvmCrashFile = true
		}
		if !slabText && (strings.Contains(p.text, "slab") || strings.Contains(p.text, "_cache")) {
			slabText = true
		}
	}
	d.statedMemory(sub)
	d.statedProcStatus(sub)
	rates, foreign := model.Rates{}, model.Rates{}
	var from, fromForeign []int
	foreignWhy := ""
	linkCount := map[int64]int{}
	var frames []string
	var rings []statedRing
	var ifDrops []statedDrop
	var rises []statedCounterRise
	var statedNet kernel.Groups
	var netFrom []int
	add := func(key string, v float64, no int, sentence string) {
		subj, why := sub.subjectAt(no, sentence)
		switch subj {
		case model.SubjectOther:
			if old, ok := foreign[key]; !ok || v > old {
				foreign[key] = v
			}
			fromForeign = append(fromForeign, no)
			d.cite(no)
			if foreignWhy == "" {
				foreignWhy = why
			}
			return
		case model.SubjectOutcome:
			return // the state after the fix, not the problem's
		}
		if old, ok := rates[key]; !ok || v > old {
			rates[key] = v
		}
		from = append(from, no)
		d.cite(no)
	}
	// A drop count in advice ("you should alert above 10 per second") is a threshold, not
	// what the host dropped.
	addHostDrop := func(key string, v float64, no int, sentence string) {
		if subj, _ := sub.subjectAt(no, sentence); subj == model.SubjectAdvice {
			return
		}
		add(key, v, no, sentence)
	}
	// A vendor knowledge-base article ("Environment" ... "Resolution" sections: a SUSE TID, a
	// Red Hat solution) names a symptom for every system its Environment lists: its title
	// "kswapd is using a lot of CPU cycles" and its Cause are no statement about this host (891).
	kbArticle := vendorKBArticle(d.proseLines)
	// The prose names a listener (somaxconn, a backlog): statedListenRecvQ's context.
	listenerText := proseNamesListener(d.proseLines)
	var rxBufSize int64 // a receive buffer's size stated beside a lack of contiguous memory
	var rxBufLine int
	allocOrder, allocLine, allocSentence, allocHow := -1, 0, "", "" // page allocation failures stated with their order
	// systemd's result line quoted in the title (systemdresult.go, fix44a).
	d.systemdResultInTitle()
	p, ok := d.titleProse()
	if !ok && d.kernelMemDump() && !d.hasAllocFailure() {
		// A Mem-Info dump whose header the paste left out, under a tracker's breadcrumb
		// and a title naming an OOM ("oom during extendRoot-piratebox installation",
		// corpus 2150, fix24c): the title says whose tail the dump is. Without such a dump
		// the breadcrumbed title is not read (a program's own "Raylet out of memory").
		p, ok = d.crumbTitle()
	}
	if !ok {
		// A tracker's title that names the kernel's OOM killer at work ("bazel 0.10.0 too
		// aggressive with memory, causes OOM-killer to be invoked", corpus 2290, fix26c):
		// the killer, not a program's own out-of-memory, so no dump is needed to say whose.
		if c, found := d.crumbTitle(); found && titleKillerAtWork(c.text) {
			p, ok = c, true
		}
	}
	if d.kernelMemDump() && !d.hasAllocFailure() {
		// fix39a (corpus 3318): a Mem-Info dump whose header the paste left out, under a
		// title saying the process was killed by the OS ("Manticore get killed by OS"). The
		// kernel prints Mem-Info (show_mem) for an allocation failure (warn_alloc: its
		// header is absent here), for SysRq-m (no kill) and in the OOM killer's report
		// (mm/oom_kill.c dump_header): a kill by the kernel beside its Mem-Info is that
		// report's, the title tells whose tail the dump is.
		c, found := p, ok
		if !found {
			c, found = d.crumbTitle()
		}
		if found && titleKilledByOS(c.text) && !titleNamesOOM(c.text) { // (one the block below reads already)
			addHostDrop(model.RateStatedOOM, 1, c.no, c.text)
		}
	}
	if d.kernelMemDump() && !d.hasAllocFailure() && !d.hasEvent(model.EventOOMKill) {
		// fix70k (corpus 7124): a Mem-Info dump whose header the paste left out, introduced
		// by the sentence just above it as the OOM killer's output ("Some sample output from
		// an OOM killer invocation:"): the dump is the OOM report's tail.
		if c, found := d.dumpIntroduction(); found && reIntroOOMKiller.MatchString(c.text) {
			addHostDrop(model.RateStatedOOM, 1, c.no, c.text)
		}
	}
	// The Go runtime's own out-of-memory quoted in the author's words, in the title or a
	// line of the text, wrapped or flattened (titleruntimeoom.go, fix30b).
	titleProgramOOM := runtimeOOMQuoted(d.proseLines)
	if ok && titleNamesOOM(p.text) && !titleOOMOnlyBelieved(d.proseLines, p.no) && !frameworkKillText(p.text) && !runtimeOOMNounOnly(p.text, 0, len(p.text)) && !((programOOMText(p.text) || titleProgramOOM || d.programOOMNamed || oomMemoryFree(p.text)) && !reKillWord.MatchString(p.text)) {
		// (A title whose out-of-memory is a program's own message, or that names the
		// out-of-memory of a text whose only such line is a program's own, is that
		// program's, not the host's: unreadappoom.go, unreadserver.go.)
		// The title names the out-of-memory the text is about ("Sui oom-kill", "OOM out
		// of memory errors"), as a title names a kernel message (titleMessage).
		addHostDrop(model.RateStatedOOM, 1, p.no, p.text)
	}
	var ownLogOOM []ownLogStatement  // a program's own log line stating the out-of-memory (fix50a)
	buildKill := d.buildKillInText() // a build's SIGKILL line (statedramcured.go)
	for start := 0; start < len(d.proseLines); {
		end := start + 1
		for end < len(d.proseLines) && d.proseLines[end].no == d.proseLines[end-1].no+1 {
			end++
		}
		para, lineAt := joinParagraph(d.proseLines[start:end])
		// Each regexp below needs a word of its own: the paragraph is searched for it
		// first, in any case (a substring search runs at memchr speed; the
		// regexps backtrack through every position), 16% of a 50 MB paste's parse.
		// (An ASCII paragraph is searched in place: a lower-case copy of a paragraph of
		// 1 MiB lines was another copy of the text.)
		ascii, lower := isASCII(para), ""
		if !ascii {
			lower = strings.ToLower(para)
		}
		has := func(words ...string) bool {
			for _, w := range words {
				if ascii && containsFoldASCII(para, w) || !ascii && strings.Contains(lower, w) {
					return true
				}
			}
			return false
		}
		if allocOrder < 0 && has("allocat") && has("order") {
			if o, no, s, ok := statedAllocOrder(para, lineAt, sub); ok {
				allocOrder, allocLine, allocSentence = o, no, s
			} else if o, no, s, ok := statedOrderAllocs(para, lineAt, sub); ok { // fix58a
				allocOrder, allocLine, allocSentence = o, no, s
			}
		}
		if allocOrder < 0 && has("alloc") {
			if o, no, s, how, ok := statedAllocSize(para, lineAt, sub, int64(d.tl.Host.PageSize)); ok {
				allocOrder, allocLine, allocSentence, allocHow = o, no, s, how
			}
		}
		if rxBufSize == 0 && has("contiguous") {
			rxBufSize, rxBufLine, _ = statedRxBuffer(para, lineAt, sub)
		}
		if has("contiguous") && d.hasBuddyLists() { // fix55c: the block size the text needs
			if b, no, s, ok := statedContiguousNeed(para, lineAt, int64(d.tl.Host.PageSize)); ok {
				add(model.RateStatedContiguousBytes, float64(b), no, s)
			}
		}
		busyKswapd := false
		for _, m := range submatches(has("kswap"), reStatedKswapd, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if !strings.Contains(strings.ToLower(sentence), "cpu") && !strings.Contains(strings.ToLower(sentence), "core") && !kswapdShareUsed(para[m[0]:m[1]]) {
				continue
			}
			if definitionAfter(para, m[1]) || genericStatement(sentence, para[m[0]:m[1]]) {
				continue // "kswapd0 at 100% CPU means the kernel is constantly reclaiming"
			}
			pct, _ := strconv.ParseFloat(para[m[4]:m[5]], 64)
			threads := 1.0
			if m[2] >= 0 {
				if n, err := strconv.Atoi(para[m[2]:m[3]]); err == nil && n > 0 && n <= 64 {
					threads = float64(n)
				}
			}
			if pct > 0 && pct <= 100 {
				add(model.RateKswapdCPUPct, threads*pct, lineAt(m[0]), sentence)
				busyKswapd = true
			}
		}
		if pct, at, sentence, ok := statedKswapdShareNext(para); ok && !busyKswapd && has("kswap") {
			add(model.RateKswapdCPUPct, pct, lineAt(at), sentence) // "it showed kswapd0. It went up to 70%" (fix52b.go)
			busyKswapd = true
		}
		for _, m := range submatches(!busyKswapd && !kbArticle && has("kswap"), reStatedKswapdBusy, para) {
			// The author says kswapd is busy and gives no figure: 1, never a CPU share
			// (the rule says the share is not stated). Advice ("if kswapd is using a lot
			// of CPU, add swap") and a possibility ("kswapd may spin") state nothing.
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reNotBusy.MatchString(para[m[0]:m[1]]) || genericIn(sub, lineAt(m[0]), sentence, para[m[0]:m[1]]) || questionAt(para, m[0], m[1]) {
				continue // h31b: "kswapd0 eats one core? is it normal?" asks
			}
			addHostDrop(model.RateStatedKswapdBusy, 1, lineAt(m[0]), sentence)
		}
		// A match on a section's heading line names the section's topic (subsectionHeading).
		onHeading := func(off int) bool { return headingLineAt(d.proseLines[start:end], lineAt(off)) }
		for _, m := range submatches(has("oom", "out of memory", "out-of-memory"), reStatedOOM, para) {
			if onHeading(m[0]) {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			// A condition or a general description the next sentences say happened to the
			// author is his event (happenedAfter, statedoskill.go).
			general := hypotheticalIn(sub, lineAt(m[0]), sentence, para[m[0]:m[1]]) || genericStatement(sentence, para[m[0]:m[1]])
			if general && !happenedAfter(para, sentenceEndAt(para, m[1])) && !seenRightAfter(para, m[1]) || oomMechanism(sentence, para[m[0]:m[1]]) || oomWordInKey(para[m[0]:m[1]]) || reNotBusy.MatchString(para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || acrossCells(para[m[0]:m[1]]) || comparedOOM(sentence, para[m[0]:m[1]]) {
				continue
			}
			// A program's own out-of-memory line pasted in the text (d.programOOMNamed: a JVM's
			// "java.lang.OutOfMemoryError: Java heap space") says whose memory the author's
			// "crashes with OOM" ran out of, as the title's path does (fix26d).
			if oomAskedAt(para, m[0], m[1]) {
				continue // "Can you check whether it got OOM-killed?" (fix28a)
			}
			if (jvmCrashFile || d.programOOMNamed || titleProgramOOM || programOOMText(sentence) || oomMemoryFree(sentence)) && !reKillWord.MatchString(para[m[0]:m[1]]) || frameworkKillText(sentence) {
				continue // the JVM's own out-of-memory crash (jvmOwnOOM), a runtime's own (programOOMText)
			}
			if runtimeOOMNounOnly(para, m[0], m[1]) && !hostCrashedOOM(para, m[0], m[1]) || oomFeared(para, m[0], m[1]) {
				continue // "JavaScript heap out of memory", "an out of memory exception"; "potential OOM kills" (statedoomnotkernel.go, fix42b)
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
		}
		for _, m := range submatches(has("oom"), reStatedOOMVerb, para) {
			// OOM as the verb ("the agent OOMs frequently", "it OOMed on Friday",
			// statedoomverb.go), with reStatedOOM's guards: a heading's topic, a condition
			// or a general description, a question, a goal ("to avoid OOMing"), a
			// program's own out-of-memory.
			if onHeading(m[0]) || !oomVerbMatch(para, m[0], m[1]) {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			lead := para[max(0, m[0]-40):m[0]]
			gs, gm := oomVerbSentence(sentence, para[m[0]:m[1]])
			general := hypotheticalIn(sub, lineAt(m[0]), sentence, para[m[0]:m[1]]) || genericStatement(gs, gm)
			if general && !happenedAfter(para, sentenceEndAt(para, m[1])) || reOOMVerbAvoided.MatchString(lead) || oomAskedAt(para, m[0], m[1]) || questionAt(para, m[0], m[1]) || acrossCells(para[m[0]:m[1]]) {
				continue
			}
			if jvmCrashFile || d.programOOMNamed || titleProgramOOM || programOOMText(sentence) || oomMemoryFree(sentence) || frameworkKillText(sentence) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
			break
		}
		if no, sentence, ok := statedNoOOMKill(para, lineAt, has("oom", "out of memory", "out-of-memory")); ok {
			addHostDrop(model.RateStatedNoOOMKill, 1, no, sentence) // statednooom.go
		}
		for _, m := range matches(has("oom"), reStatedOOMKillVerb, para) {
			// "oom kill my java process", "the kernel OOM-killed mysqld": OOM-kill as the
			// verb with its victim (reStatedOOMKillVerb).
			sentence := sentenceAround(para, m[0], m[1])
			if notTheHostsEvent(para, m, guardOpts{noQuestion: true, mechanism: true, neg: negNear}) || acrossCells(para[m[0]:m[1]]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
			break
		}
		for _, m := range matches(has("oom"), reStatedOOMKillEvents, para) {
			// "8 lifetime OOMKill restarts" (reStatedOOMKillEvents, fix42a).
			sentence := sentenceAround(para, m[0], m[1])
			if notTheHostsEvent(para, m, guardOpts{neg: negNear}) || acrossCells(para[m[0]:m[1]]) || onHeading(m[0]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
			break
		}
		for _, m := range matches(has("oom"), reStatedOOMKilledCount, para) {
			// "ran at max 20 replicas yesterday with multiple OOMKilled data plane pods":
			// the runtime's reason as an adjective with a count of its victims
			// (reStatedOOMKilledCount), the author's event only in the past or the first
			// person (a question, advice or a plan has neither).
			sentence := sentenceAround(para, m[0], m[1])
			if !reFirstPerson.MatchString(sentence) && !rePastOrEvent.MatchString(sentence) || questionAt(para, m[0], m[1]) || hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || acrossCells(para[m[0]:m[1]]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
			break
		}
		for _, m := range statedOSKill(para) {
			// "the OS always killed MySQL to regain its memory": an OOM kill told without
			// the word (statedoskill.go).
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		for _, m := range statedOOMUntil(para) {
			// "its slower until out of memory kill", "RAM usage grows until OOM is reached",
			// "the kernel is killing the service once all the memory ... is exhausted"
			// (statedoomuntil.go, fix47c).
			if onHeading(m[0]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		seenEvent := map[eventKind]bool{}
		for _, ev := range statedEventsLines(para, lineAt) {
			// An OOM kill or swapping by event word, subject and tense (statedevent.go,
			// ev49a): one of each kind a paragraph.
			if seenEvent[ev.kind] || onHeading(ev.at[0]) {
				continue
			}
			if ev.kind == eventOOMKill && (jvmCrashFile || d.programOOMNamed || titleProgramOOM) && !reKillWord.MatchString(para[ev.at[0]:ev.at[1]]) {
				continue // "worker got OOMed" beside PHP's own "Allowed memory size ... exhausted" (reStatedOOM's test)
			}
			seenEvent[ev.kind] = true
			addHostDrop(eventRate(ev.kind), 1, lineAt(ev.at[0]), sentenceAround(para, ev.at[0], ev.at[1]))
		}
		for _, m := range statedOOMGot(para) {
			// "gets reaped by the OOM-killer", "getting OOM messages on the console",
			// "memory usage was high and was killed by the kernel" (statedoomgot.go).
			if onHeading(m[0]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		for _, m := range statedOOMKilledStated(para) {
			// "terminated with reason `OOMKilled`", "`OOMKilled` changed from false to true",
			// "oom-killer keeps killing squid" (statedkubeoom.go, fix35a); not an
			// orchestrator's guess after a SIGKILL (frameworkKillText, h42a).
			if onHeading(m[0]) || frameworkKillText(sentenceAround(para, m[0], m[1])) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		for _, m := range statedRAMCuredKill(para, buildKill) {
			// "Scaled to 2GB RAM, installation went fine" beside a build's SIGKILL line: the
			// kill went away with more memory only (statedramcured.go, fix45b).
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		for _, m := range statedNeedOverRAMKill(para, buildKill) {
			// "every rank requires atleast 98GB per rank. Whereas i have 64GB per node" beside
			// mpirun's signal 9 line (statedoomentries.go, fix50b).
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		for _, m := range statedOOMBlame(para) {
			// "Turns out this was the OOM killer": a kill attributed to the killer after
			// the fact (statedoskill.go).
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			break
		}
		if has("out of memory condition") {
			for _, pl := range d.proseLines[start:end] {
				if routerOSOOMLine(pl.text) { // RouterOS's record of its kernel's out-of-memory (statedrouteros.go)
					if subj, _ := sub.subjectAt(pl.no, pl.text); subj == "" {
						ownLogOOM = append(ownLogOOM, ownLogStatement{no: pl.no, program: "RouterOS"})
					} else {
						addHostDrop(model.RateStatedOOM, 1, pl.no, pl.text) // quoted, another's: as before
					}
					break
				}
			}
		}
		if has("earlyoom", "oomd", "nohang", "lmkd") {
			// A low-memory killer's kills counted in words (statedlowmemkill.go, fix43c):
			// its kills, never the kernel's.
			for _, k := range statedLowMemKills(para, lineAt, sub) {
				d.addLowMemKill(model.RuntimeOOM{Scope: model.OOMScopeLowMemKiller, Count: k.count,
					Reporter: k.killer + " (counted by the author)"}, lineAt(k.at))
			}
		}
		for _, m := range matches(has("total-vm", "total vm", "total_vm"), reStatedKillFigures, para) {
			// The kill's own figures re-typed (a screenshot's, a pager's): "total-vm:
			// 785284KB, anon rss 19656KB". The kernel prints total-vm beside anon-rss
			// only in the line of the process it kills (mm/oom_kill.c
			// __oom_kill_process, "Killed process %d (%s) total-vm:%lukB,
			// anon-rss:%lukB, file-rss:%lukB"), so the pair states a kill whatever the
			// spacing, case or hyphens; the figures are the victim's, not the host's.
			// Unless the line is quoted as an example of what a kill would look like
			// ("check dmesg for something like `Killed process ...`": exampleBefore).
			sentence := sentenceAround(para, m[0], m[1])
			if exampleBefore(sentence, para[m[0]:m[1]]) || reEgTail.MatchString(para[max(0, m[0]-100):m[0]]) {
				continue
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
		}
		for _, m := range matches(has("conntrack"), reStatedConntrackFull, para) {
			if no, sentence, ok := statedConntrackFull(para, m, lineAt); ok {
				addHostDrop(model.RateStatedConntrackFull, 1, no, sentence)
			}
		}
		for _, st := range statedCTFullMessages(para, lineAt, has) {
			addHostDrop(model.RateStatedConntrackFull, 1, st.no, st.sentence)
		}
		for _, m := range submatches(has("retrans", "重传", "重傳"), reStatedRetrans, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reThreshold.MatchString(para[m[0]:m[1]]) {
				continue // "if retransmissions exceed 1%", "a retransmission rate above 2%"
			}
			for k := 2; k+1 < len(m); k += 2 {
				if m[k] < 0 {
					continue
				}
				if v, err := strconv.ParseFloat(para[m[k]:m[k+1]], 64); err == nil && v > 0 && v < 100 {
					addHostDrop(model.RateStatedRetransPct, v, lineAt(m[0]), sentence)
				}
			}
		}
		for _, m := range submatches(has("reclaim", "scan"), reStatedReclaim, para) {
			v, ok := scale(para[m[2]:m[3]], subOr(para, m[4], m[5]))
			if !ok {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			// A reclaimed page was scanned first, but how many were scanned is not said:
			// a stated reclaim rate is no scan rate (no efficiency can be computed).
			if strings.Contains(strings.ToLower(para[m[6]:m[7]]), "scan") {
				add(model.RatePgscanKswapdPerSec, v, lineAt(m[0]), sentence)
			} else {
				add(model.RatePgstealKswapdPerSec, v, lineAt(m[0]), sentence)
			}
		}
		swapRates := submatches(has("swap"), reStatedSwapRate, para)
		for _, m := range submatches(has("swap"), reStatedSwapOver, para) {
			// Laid out as reStatedSwapRate's match (the amount, its unit, the tail), then the
			// span's count and unit, which make it a per-second figure below.
			swapRates = append(swapRates, []int{m[0], m[1], m[2], m[3], m[4], m[5], m[10], m[11], m[6], m[7], m[8], m[9]})
		}
		for _, m := range swapRates {
			sentence := sentenceAround(para, m[0], m[1])
			match := para[m[0]:m[1]]
			if hypotheticalUpTo(sentence, match) || genericStatement(sentence, match) || reSwapRated.MatchString(match) || reNotBusy.MatchString(para[m[0]:m[2]]) {
				continue
			}
			v, err := strconv.ParseFloat(para[m[2]:m[3]], 64)
			if err != nil {
				continue
			}
			kbs := v * map[byte]float64{'k': 1, 'm': 1024, 'g': 1024 * 1024}[strings.ToLower(para[m[4]:m[5]])[0]]
			if len(m) > 8 { // an amount over a span (reStatedSwapOver)
				span := 1.0
				if m[8] >= 0 {
					if span, err = strconv.ParseFloat(para[m[8]:m[9]], 64); err != nil || span <= 0 {
						continue
					}
				}
				if strings.HasPrefix(strings.ToLower(para[m[10]:m[11]]), "m") {
					span *= 60
				}
				kbs /= span
			}
			switch {
			case reSwapBothWays.MatchString(para[m[6]:m[7]]) || reSwapBothWays.MatchString(para[m[0]:m[2]]):
				add(model.RateSwapInKBPerSec, kbs, lineAt(m[0]), sentence)
				add(model.RateSwapOutKBPerSec, kbs, lineAt(m[0]), sentence)
			case reSwapInWord.MatchString(para[m[0]:m[2]]):
				add(model.RateSwapInKBPerSec, kbs, lineAt(m[0]), sentence)
			default:
				// Swap-out, or the traffic with no direction: counted once.
				add(model.RateSwapOutKBPerSec, kbs, lineAt(m[0]), sentence)
			}
		}
		if has("page") && has("swap", "pswp") {
			for _, r := range statedSwapPages(para, lineAt) { // in pages per second (statedswappages.go)
				add(r.key, r.kbs, r.line, r.sentence)
			}
		}
		if has("retra") {
			if no, sentence, ok := statedRetransMany(para, lineAt); ok {
				addHostDrop(model.RateStatedRetransSeen, 1, no, sentence) // statedretransmany.go
			}
		}
		if !slabGrowthSeen && has("slab", "kmalloc", "unreclaim", "objects") {
			if g, ok := statedSlabGrowth(para, lineAt, sub, slabText); ok {
				slabGrowthSeen = true
				g.rates(add) // statedslabgrowth.go
			}
		}
		if has("psi") {
			if v, no, sentence, ok := statedMemPSI(para, lineAt); ok {
				addHostDrop(model.RateStatedMemPSIPct, v, no, sentence) // fix59b_statedpsi.go
			}
		}
		if has("%commit") {
			if v, no, sentence, ok := statedSarCommit(para, lineAt); ok {
				addHostDrop(model.RateStatedCommitPct, v, no, sentence) // fix61_statedcommit.go
			} else if v, no, sentence, ok := statedSarCommitTable(d.proseLines[start:end]); ok {
				addHostDrop(model.RateStatedCommitPct, v, no, sentence)
			}
		}
		if has("thrash", "reclaim", "回收") {
			if no, sentence, ok := statedThrashing(para, lineAt); ok {
				addHostDrop(model.RateStatedReclaimStall, 1, no, sentence) // statedthrash.go
			}
		}
		if has("swap") {
			lead := ""
			if start > 0 && d.proseLines[start].no-d.proseLines[start-1].no <= 2 {
				lead = d.proseLines[start-1].text
			}
			if no, sentence, ok := statedSwapping(para, lead, lineAt); ok {
				addHostDrop(model.RateStatedSwapping, 1, no, sentence) // statedswapping.go
			} else if no, sentence, ok := statedSwappingEU(para, lineAt); ok {
				addHostDrop(model.RateStatedSwapping, 1, no, sentence) // in a European language's words (statedoomeu.go)
			} else if no, sentence, ok := statedPagedOut(para, lineAt); ok {
				addHostDrop(model.RateStatedSwapping, 1, no, sentence) // "with its memory swapped out" (statedpagedout.go)
			}
		} else if has("paged out", "paginad") {
			if no, sentence, ok := statedPagedOut(para, lineAt); ok {
				addHostDrop(model.RateStatedSwapping, 1, no, sentence) // "memória paginada para fora" (statedpagedout.go)
			}
		}
		for _, m := range submatches(has("drop") && has("packet"), reStatedPktRate, para) {
			sentence := sentenceAround(para, m[0], m[1])
			prefix := strings.ToLower(subOr(para, m[4], m[5]))
			if !reDropWord.MatchString(sentence) && prefix != "micro" && prefix != "milli" && prefix != "µ" {
				continue // a traffic rate, not drops
			}
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reNoneWord.MatchString(sentence) || reNotBusy.MatchString(para[max(0, m[0]-24):m[0]]) {
				continue
			}
			v, err := strconv.ParseFloat(para[m[2]:m[3]], 64)
			if err != nil {
				continue
			}
			switch prefix {
			case "micro", "µ":
				v /= 1e6
			case "milli", "m":
				v /= 1e3
			}
			addHostDrop(model.RateStatedRxDroppedPerSec, v, lineAt(m[0]), sentence)
		}
		for _, m := range append(submatches(has("drop"), reStatedIfaceDrops, para), submatches(has("dropped"), reStatedIfaceDroppedField, para)...) {
			if dr, ok := statedIfaceDrop(para, m, lineAt, sub); ok {
				ifDrops = append(ifDrops, dr)
			}
		}
		for _, m := range submatches(has(" from "), reStatedCounterRise, para) {
			if r, ok := statedCounterRiseAt(para, m, riseFromTo, lineAt, sub); ok {
				rises = append(rises, r)
				if r.swapping() {
					addHostDrop(model.RateStatedSwapping, 1, r.line, sentenceAround(para, m[0], m[1]))
				}
			}
		}
		for _, m := range submatches(has(" at ", " now ", "(now", "reached", "currently"), reStatedCounterNow, para) {
			if r, ok := statedCounterRiseAt(para, m, riseNow, lineAt, sub); ok {
				rises = append(rises, r)
				if key := r.risingKey(); r.rising && key != "" {
					addHostDrop(key, 1, r.line, sentenceAround(para, m[0], m[1]))
				}
			}
		}
		for _, m := range submatches(has("by "), reStatedCounterRate, para) {
			if r, ok := statedCounterRiseAt(para, m, risePerSec, lineAt, sub); ok {
				rises = append(rises, r)
			}
		}
		for _, m := range submatches(has("tlb", "ipi", "interrupt"), reStatedIntr, para) {
			v, ok := scale(para[m[2]:m[3]], subOr(para, m[4], m[5]))
			word := strings.ToLower(para[m[6]:m[7]])
			if !ok || !(strings.HasPrefix(word, "tlb") || strings.HasPrefix(word, "ipi") || tlbText) {
				continue
			}
			add(model.RateTLBShootdownPerSec, v, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
		}
		for _, m := range submatches(has("freez", "stall", "hang", "hung", "lock"), reStatedStall, para) {
			if !reclaimText {
				continue
			}
			v, _ := strconv.ParseFloat(para[m[2]:m[3]], 64)
			if m[4] >= 0 {
				if hi, err := strconv.ParseFloat(para[m[4]:m[5]], 64); err == nil && hi > v {
					v = hi
				}
			}
			if v > 0 && v < 3600 {
				add(model.RateStatedStallSec, v, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			}
		}
		for _, m := range submatches(has("ring"), reStatedRing, para) {
			// The ring before the change is the host's even in a sentence that states the
			// change's outcome ("Changing buffer rings (from default 512) to maximum
			// supported by card (4096) removes issue", corpus 495).
			cur, err1 := strconv.ParseInt(para[m[2]:m[3]], 10, 64)
			top, err2 := strconv.ParseInt(para[m[4]:m[5]], 10, 64)
			if err1 != nil || err2 != nil || cur <= 0 || top <= cur || top > 65536 {
				continue
			}
			if subj, _ := sub.subjectAt(lineAt(m[0]), sentenceAround(para, m[0], m[1])); subj == model.SubjectOther {
				continue
			}
			rings = append(rings, statedRing{Rx: cur, RxMax: top, line: lineAt(m[0])})
		}
		for _, k := range matches(has("ring", "环形缓冲", "環形緩衝", "リングバッファ"), reRingWord, para) {
			if r, ok := statedRingsCompared(para[k[0]:min(len(para), k[1]+200)]); ok {
				if subj, _ := sub.subjectAt(lineAt(k[0]), sentenceAround(para, k[0], k[1])); subj == "" {
					r.line = lineAt(k[0])
					rings = append(rings, r)
					break
				}
			}
		}
		for _, m := range submatches(has("=", ":", " is ", " was "), reStatedTcpExt, para) {
			// "ListenOverflows=0 inside the pod", "TcpExt.TCPBacklogDrop: 12": the
			// counter by its /proc/net/netstat name, the host's unless another machine's
			// or a threshold ("alert when ListenOverflows > 0" has no '=').
			v, ok := statedCount(para[m[4]:m[5]])
			sentence := sentenceAround(para, m[0], m[1])
			if !ok || hypotheticalUpTo(sentence, para[m[0]:m[1]]) {
				continue
			}
			if subj, _ := sub.subjectAt(lineAt(m[0]), sentence); subj != "" {
				continue
			}
			name := para[m[2]:m[3]]
			if _, dup := statedNet.Get("TcpExt", name); !dup {
				statedNet.Set("TcpExt", name, v)
				netFrom = append(netFrom, lineAt(m[0]))
			}
		}
		for _, m := range submatches(has("udp", "rcvbuferr", "sndbuferr"), reStatedUDPCounter, para) {
			// "accumulated 3,205 `UdpRcvbufErrors`", "UdpSndbufErrors remained zero",
			// "Udp6RcvbufErrors: 12": Udp's buffer counters by their nstat names, the value
			// before or after the name (thousands separated or not), the host's unless
			// another machine's, advice, a possibility or a bound ("above 100 UdpRcvbufErrors").
			name, num := subOr(para, m[4], m[5]), subOr(para, m[2], m[3])
			if name == "" {
				name, num = subOr(para, m[6], m[7]), subOr(para, m[8], m[9])
			}
			v, ok := statedCount(num)
			sentence := sentenceAround(para, m[0], m[1])
			if !ok || hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reThreshold.MatchString(para[max(0, m[0]-16):m[1]]) {
				continue
			}
			if subj, _ := sub.subjectAt(lineAt(m[0]), sentence); subj != "" {
				continue
			}
			group, counter, ok := splitNstatName(name)
			if !ok {
				// /proc/net/snmp's own spelling, the group in the row's head ("Udp:
				// ... RcvbufErrors"): only Udp and UdpLite count receive-buffer errors,
				// and UdpLite is Udp's code (net/ipv4/udp.c, __udp_queue_rcv_skb).
				group, counter = "Udp", name
			}
			if group == "Udp6" {
				counter = name // /proc/net/snmp6 spells its counters with the group
			}
			if counter == "RcvbufErrors" && reDeltaBefore.MatchString(para[max(0, m[0]-12):m[0]]) {
				// A counter's change ("DELTA RcvbufErrors=749") over a window the text
				// states ("…, 60s:" above the list) is a rate, not a count since boot.
				prev := ""
				if start > 0 && d.proseLines[start-1].no >= d.proseLines[start].no-2 {
					prev = d.proseLines[start-1].text
				}
				if secs, ok := statedWindow(prev + "\n" + para[:m[0]]); ok {
					if v > 0 {
						addHostDrop(model.RateStatedUDPRcvbufPerSec, float64(v)/secs, lineAt(m[0]), sentence)
					}
					continue
				}
			}
			// Several readings of one counter ("DELTA RcvbufErrors=0" in a quiet window,
			// "=749" in a busy one; a cumulative counter read twice): the largest is the
			// worst window or the newest reading.
			if old, dup := statedNet.Get(group, counter); !dup || v > old {
				statedNet.Set(group, counter, v)
				if !dup {
					netFrom = append(netFrom, lineAt(m[0]))
				}
			}
		}
		for _, m := range submatches(has("rcvbuf", "rcv buf"), reStatedUDPRcvbufRising, para) {
			if no, sentence, ok := statedCounterRose(para, m, lineAt); ok {
				addHostDrop(model.RateStatedUDPRcvbufRising, 1, no, sentence)
			}
		}
		statedUDPBufWords(para, has, lineAt, func(key string, no int, sentence string) {
			addHostDrop(key, 1, no, sentence)
		})
		// netstat -su's share, drops put down to the receive buffer, a UDP errors rate
		// (statedudploss.go, fix32b).
		d.statedUDPLoss(para, has, lineAt, addHostDrop)
		// A KB article's Issue lists the symptoms it resolves on every system its
		// Environment names, not one host's counters (as for kswapd above).
		statedListenRising(para, func(w ...string) bool { return !kbArticle && has(w...) }, lineAt, func(no int, sentence string) {
			addHostDrop(model.RateStatedListenRising, 1, no, sentence)
		})
		// A listener's accept queue stated full by its Recv-Q (statedlisten.go, fix57a).
		statedListenRecvQ(para, func(w ...string) bool { return !kbArticle && has(w...) }, listenerText, lineAt, func(no int, sentence string) {
			addHostDrop(model.RateStatedAcceptQueueFull, 1, no, sentence)
		})
		// dropwatch's line quoted in a code span, its drops at the UDP socket queue (dropwatch.go).
		if has(" drops at ") {
			n, at := inlineDropwatchDrops(para)
			if n == 0 {
				n, at = proseDropwatchDrops(para) // quoted without a code span (dropwatchprose.go)
			}
			if n > 0 {
				if sentence := sentenceAround(para, at, at+1); !reHypothetical.MatchString(sentence) {
					addHostDrop(model.RateStatedUDPDropwatchDrops, float64(n), lineAt(at), sentence)
				}
			}
		}
		// ss -m's socket memory quoted in prose ("`ss -m` shows `d370` against `rb212992`"):
		// skmem's d field is the socket's drop count (sk_drops: SK_MEMINFO_DROPS, net/core/
		// sock.c sk_get_meminfo; iproute2 misc/ss.c print_skmeminfo prints "d%u") beside rb,
		// its receive buffer. A UDP socket drops there when its receive queue is full
		// (net/ipv4/udp.c __udp_enqueue_schedule_skb, counted in Udp RcvbufErrors too). Read
		// only when the sentence quotes rb with it and the text is about a UDP socket.
		if has("skmem", "ss -") && has("rb") {
			for _, m := range submatches(true, reStatedSkmemDrop, para) {
				sentence := sentenceAround(para, m[0], m[1])
				v, err := strconv.ParseInt(para[m[2]:m[3]], 10, 64)
				if err != nil || v <= 0 || !reStatedSkmemRb.MatchString(sentence) || hypotheticalUpTo(sentence, para[m[0]:m[1]]) || !d.proseSaysUDP() {
					continue
				}
				addHostDrop(model.RateStatedUDPSkmemDrops, float64(v), lineAt(m[0]), sentence)
			}
		}
		for _, m := range submatches(has("%") && has("receive", "rcvbuf"), reStatedUDPRcvbufPct, para) {
			sentence := sentenceAround(para, m[0], m[1])
			match := para[m[0]:m[1]]
			if !containsFoldASCII(sentence, "udp") && !containsFoldASCII(match, "rcvbuf") || hypotheticalUpTo(sentence, match) || reThreshold.MatchString(para[max(0, m[0]-16):m[1]]) {
				continue // a TCP receive queue's, or "alert above 1% receive buffer errors"
			}
			for k := 2; k+1 < len(m); k += 2 {
				if m[k] < 0 {
					continue
				}
				if v, err := strconv.ParseFloat(para[m[k]:m[k+1]], 64); err == nil && v > 0 && v <= 100 {
					addHostDrop(model.RateStatedUDPRcvbufDropPct, v, lineAt(m[0]), sentence)
				}
			}
		}
		for _, m := range matches(has("overrun"), reStatedOverrun, para) {
			sentence := sentenceAround(para, m[0], m[1])
			// "no overruns", and a glossary's "RX overruns: the number of ..." state none.
			// fix55a: a glossary's "FIFO overruns (when NIC buffer fills ...)" (glossedAfter).
			if reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || strings.HasPrefix(strings.TrimSpace(para[m[1]:]), ":") || glossedAfter(para, m[1]) {
				continue
			}
			// A table's header row names the counter; its value is the row below
			// ("RX errors:  length  crc  frame  fifo overrun" over "0 0 0 0 0").
			if d.headerRows[lineAt(m[0])] {
				continue
			}
			// A program's own overrun message, not the NIC's counter (fix27c, corpus 2377:
			// 'a lot of fake "RX Overruns" due to way soapysdr-pluto sets ... buffer size').
			if notNICOverrun(para[max(0, m[0]-12):m[0]], sentence) {
				continue
			}
			add(model.RateStatedRxOverrun, 1, lineAt(m[0]), sentence)
		}
		// fix40b: the FTGMAC100's interrupt-status bits named in words ("ftgmac error -
		// NO_RXBUF and RPKT_LOST", the names the driver logs in "[ISR] = 0x%x: NO_RXBUF
		// RPKT_LOST", kernel.IsDriverRxFIFOOverflow): NO_RXBUF is no free receive descriptor
		// (rx_over_errors), RPKT_LOST a frame lost to a full RX FIFO (rx_fifo_errors): the
		// ring overrun nic-rx-overruns defines, stated without the count.
		for _, m := range matches(has("no_rxbuf", "rpkt_lost"), reStatedFtgmacISRBit, para) {
			sentence := sentenceAround(para, m[0], m[1])
			if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
				continue
			}
			add(model.RateStatedRxOverrun, 1, lineAt(m[0]), sentence)
			break
		}
		for _, g := range statedNICGrowth(para, has, lineAt) {
			// An interface's loss counter said to grow (statednicgrow.go, h31c); another
			// machine's (a quote, a test box) is no reading of this host's, as for
			// statedNICRises.
			if subj, _ := sub.subjectAt(g.no, g.sentence); subj == model.SubjectOther {
				continue
			}
			if g.ring {
				add(model.RateStatedRxOverrun, 1, g.no, g.sentence)
			} else {
				addHostDrop(model.RateStatedRxDroppedPerSec, g.perSec, g.no, g.sentence)
			}
		}
		for _, g := range statedNICLossPPS(para, has, lineAt) {
			add(model.RateNICRxRingLossPerSec, g.perSec, g.no, g.sentence) // statednicgrow.go
		}
		if no, sentence, ok := statedNICNamedDrop(para, has, lineAt); ok {
			// The drops named by the NIC's ring or FIFO loss counter (fix55a_nicnamed.go).
			add(model.RateStatedRxOverrun, 1, no, sentence)
		}
		for _, m := range submatches(has("receive buffer errors", "udperrors"), reNetdataUDPAlarm, para) {
			// netdata's alarm on Udp RcvbufErrors (health.d/udp_errors.conf,
			// 1m_ipv4_udp_receive_buffer_errors on chart ipv4.udperrors): it fires on errors
			// counted on this host in the last minute; the value it quotes is that count.
			// Its definition ("alarm: 1m_ipv4_udp_receive_buffer_errors" ... "warn: $this >
			// (...)") is a configuration, not the alarm firing.
			if reNetdataHealthDef.MatchString(para) {
				continue
			}
			v := 1.0
			if m[2] >= 0 {
				if n, ok := scale(para[m[2]:m[3]], subOr(para, m[4], m[5])); ok && n > 0 {
					v = n
				}
			}
			addHostDrop(model.RateStatedUDPRcvbufAlarm, v, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
		}
		if has(counterAlarmWord...) {
			// A Netdata alarm on ListenDrops or softnet_stat dropped that fired
			// (statedalarm.go): the counter grew in the alarm's window.
			for _, a := range counterAlarmsIn(para) {
				sentence := sentenceAround(para, a.pos, a.end)
				addHostDrop(a.alarm.windowKey, a.window, lineAt(a.pos), sentence)
				if a.perSec > 0 {
					addHostDrop(a.alarm.rateKey, a.perSec, lineAt(a.pos), sentence)
				}
			}
		}
		for _, m := range submatches(has("rcvbuf", "rcv buf"), reStatedUDPRcvbufRate, para) {
			if v, ok := scale(para[m[2]:m[3]], subOr(para, m[4], m[5])); ok && v > 0 {
				addHostDrop(model.RateStatedUDPRcvbufPerSec, v, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			}
		}
		for _, m := range submatches(has("connections", "streams", "flows", "sockets"), reStatedDemand, para) {
			n, err := strconv.Atoi(para[m[2]:m[3]])
			kb, ok := statedKB(para[m[4]:m[5]], para[m[6]:m[7]])
			if err != nil || !ok || n <= 0 || n > 1_000_000 {
				continue
			}
			per := kb * 1024
			if m[8] >= 0 {
				f, _ := strconv.Atoi(para[m[8]:m[9]])
				per *= float64(f)
			}
			sentence := sentenceAround(para, m[0], m[1])
			add(model.RateStatedFlows, float64(n), lineAt(m[0]), sentence)
			add(model.RateStatedFlowBufferBytes, per, lineAt(m[0]), sentence)
		}
		for _, m := range submatches(has("line", "circuit", "wan", "path", "uplink", "pipe", "bandwidth", "专线", "带宽", "线路", "链路", "出口"), reStatedPath, para) {
			g := make([]string, len(m)/2)
			for k := range g {
				g[k] = subOr(para, m[2*k], m[2*k+1])
			}
			num, unit := g[1]+g[3]+g[5], g[2]+g[4]+g[6]
			if v, err := strconv.ParseFloat(num, 64); err == nil && v > 0 {
				bps := v * 1e6
				if strings.EqualFold(unit, "G") {
					bps = v * 1e9
				}
				addHostDrop(model.RateStatedPathBps, bps, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			}
		}
		for _, m := range submatches(has("oom", "memory killer"), reStatedOOMKill, para) {
			if onHeading(m[0]) {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			if clause := para[max(0, m[0]-80):m[0]]; reHypothetical.MatchString(clause) && !habitualOOMKill(para, sentence, m[0], m[1]) || reHypothetical.MatchString(para[m[0]:m[1]]) || oomMechanism(sentenceAround(para, m[0], m[1]), para[m[0]:m[1]]) || genericStatement(sentenceAround(para, m[0], m[1]), para[m[0]:m[1]]) {
				continue // "the OOM killer will kill", "if the OOM killer kills"
			}
			if reKillerCannot.MatchString(para[m[0]:m[1]]) {
				continue // "the OOM killer cannot kill ...": no kill (an OOM with no victim: statedoomnovictim.go)
			}
			if reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || acrossCells(para[m[0]:m[1]]) || comparedOOM(sentence, para[m[0]:m[1]]) {
				continue // "No OOM-killer or "killed process" lines found"; a table's two cells; another run's (comparedoom.go)
			}
			if oomAskedAt(para, m[0], m[1]) {
				continue // "Can you check whether it got OOM-killed?": asked, not stated (fix28a)
			}
			if (programOOMText(sentence) || oomMemoryFree(sentence)) && !reKillWord.MatchString(para[m[0]:m[1]]) || frameworkKillText(sentence) {
				continue // a runtime's own out-of-memory message (unreadappoom.go)
			}
			if oomFeared(para, m[0], m[1]) {
				continue // "the risk of the OOM killer killing ..." (statedoomnotkernel.go, fix42b)
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
		}
		if has("oom") {
			// The same statement in a European language's words (statedoomeu.go, h25b).
			if i, j, ok := statedOOMKillEU(para); ok && !onHeading(i) {
				sentence := sentenceAround(para, i, j)
				if !frameworkKillText(sentence) && !comparedOOM(sentence, para[i:j]) {
					addHostDrop(model.RateStatedOOM, 1, lineAt(i), sentence)
				}
			}
		}
		if has("killer") {
			// An OOM with no victim stated: "the OOM killer is unable to kill any process"
			// (statedoomnovictim.go, fix30b).
			if i, j, ok := statedOOMNoVictim(para); ok && !onHeading(i) {
				sentence := sentenceAround(para, i, j)
				if !hypotheticalUpTo(sentence, para[i:j]) && !comparedOOM(sentence, para[i:j]) && !oomAskedAt(para, i, j) {
					addHostDrop(model.RateStatedOOM, 1, lineAt(i), sentence)
				}
			}
		}
		if has("mémoire", "speicher", "ram") {
			// A kill for lack of memory in French or German words (statedoomeu_cause.go, fix30b).
			if i, j, ok := statedKilledNoMemEU(para); ok && !onHeading(i) {
				sentence := sentenceAround(para, i, j)
				if !frameworkKillText(sentence) && !comparedOOM(sentence, para[i:j]) {
					addHostDrop(model.RateStatedOOM, 1, lineAt(i), sentence)
				}
			}
		}
		for _, m := range submatches(has("oom", "out of memory", "out-of-memory", "out of ram"), reStatedOOMOccurred, para) {
			if onHeading(m[0]) {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			if d.kernelMemDump() {
				sentence = seemHedgeOff(sentence)
			}
			if (d.programOOMNamed || titleProgramOOM || programOOMText(sentence) || oomMemoryFree(sentence)) && !reKillWord.MatchString(para[m[0]:m[1]]) || frameworkKillText(sentence) {
				continue // a runtime's own out-of-memory message (unreadappoom.go)
			}
			if oomOccurredNotStated(para, m[0], m[1]) || oomFeared(para, m[0], m[1]) || questionAt(para, m[0], m[1]) || reCanBefore.MatchString(para[max(0, m[0]-40):m[0]]) || hypotheticalUpTo(sentence, para[m[0]:m[1]]) || genericStatement(sentence, para[m[0]:m[1]]) || comparedOOM(sentence, para[m[0]:m[1]]) {
				continue
			}
			if len(para[m[0]:m[1]]) > 6 && strings.EqualFold(para[m[0]:m[0]+6], "kernel") && (reOOMQuotedAdvice.MatchString(para[max(0, m[0]-40):m[0]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || reOOMQuotedMeans.MatchString(para[m[1]:min(len(para), m[1]+40)])) {
				continue // "look for kernel "Out of memory" lines", "no kernel "Out of memory"", "kernel "Out of memory" can mean" (fix46b)
			}
			addHostDrop(model.RateStatedOOM, 1, lineAt(m[0]), sentence)
		}
		for _, m := range submatches(has("rtt", "round", "latency", "ping", "时延", "延时", "延迟"), reStatedRTT, para) {
			if v, err := strconv.ParseFloat(para[m[2]:m[3]], 64); err == nil && v > 0 && v < 10000 {
				addHostDrop(model.RateStatedRTTSec, v/1000, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
			}
		}
		for _, m := range submatches(has("buffersize", "so_sndbuf", "so_rcvbuf"), reStatedAppBuf, para) {
			g := make([]string, len(m)/2)
			for k := range g {
				g[k] = subOr(para, m[2*k], m[2*k+1])
			}
			dir, a, b := g[1]+g[4], g[2]+g[5], g[3]+g[6]
			n, err := strconv.ParseFloat(a, 64)
			if err != nil || n <= 0 {
				continue
			}
			if f, err := strconv.ParseFloat(b, 64); err == nil && f > 0 {
				n *= f
			}
			key := model.RateStatedAppSndBufBytes
			if strings.EqualFold(dir, "Receive") || strings.EqualFold(dir, "RCV") {
				key = model.RateStatedAppRcvBufBytes
			}
			addHostDrop(key, n, lineAt(m[0]), sentenceAround(para, m[0], m[1]))
		}
		for _, m := range submatches(has("ether", "nic", "link", "port", "interface", "card", "gigabit", "gbe"), reStatedLink, para) {
			if subj, _ := sub.subjectAt(lineAt(m[0]), sentenceAround(para, m[0], m[1])); subj != "" {
				continue
			}
			g := make([]string, len(m)/2)
			for k := range g {
				g[k] = subOr(para, m[2*k], m[2*k+1])
			}
			if n, ok := statedLinkMbps(g); ok {
				count := 1
				if g[1] != "" {
					count, _ = strconv.Atoi(g[1])
				}
				// A speed named again is the same link; "2*40G" names two.
				linkCount[n] = max(linkCount[n], min(count, 8))
			}
		}
		for _, m := range submatches(has("value"), reStatedValue, para) {
			if reValueUnit.MatchString(para[m[1]:]) {
				// "The default value is 16 kB" (tcp(7) on tcp_wmem): a size in a unit, not
				// the number the key holds; what the key is in is not said here.
				continue
			}
			no := lineAt(m[0])
			if key, ok := d.lastKeyBefore(no, d.proseLines[start].no); ok {
				v := para[m[2]:m[3]]
				d.tl.Settings = append(d.tl.Settings, model.NewSettingMention(key, v, "prose", no,
					fmt.Sprintf("line %d (stated in the text: the value it had)", no)))
			}
		}
		if has("chang", "setting", "rais", "increas", "bump", "lower", "reduc", "decreas", "putting") {
			d.statedOutcomes(sub, para, lineAt, d.proseLines[start].no)
		}
		for _, m := range matches(has("trace", "トレース", "调用栈", "堆栈"), reTraceSentence, para) {
			for _, f := range reFunctionName.FindAllString(sentenceAround(para, m[0], m[1]), -1) {
				if !slices.Contains(frames, f) {
					frames = append(frames, f)
				}
			}
		}
		start = end
	}
	d.statedSizes(sub)
	d.statedSlab(sub)
	if allocOrder < 0 {
		if o, no, s, ok := d.subjectAllocOrder(); ok { // fix57c_subjectalloc.go
			allocOrder, allocLine, allocSentence, allocHow = o, no, s, "as the mail's subject names it"
		} else if o, no, s, ok := d.proseOrderENOMEM(); ok { // fix57c_orderenomem.go
			allocOrder, allocLine, allocSentence, allocHow = o, no, s, "as stated, failing with ENOMEM until the caches were dropped"
		}
	}
	if allocOrder >= 0 && !d.hasAllocFailure() && rxBufSize == 0 {
		d.statedAllocFailure(allocOrder, allocLine, allocSentence, allocHow)
	}
	d.statedFrames(frames)
	if len(rates) > 0 {
		first, last := spanOf(from)
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (" + StatedMark + ")", Rates: rates})
		d.addArtifact(KindStated, first, last, rates)
	}
	d.ownLogStatements(model.RateStatedOOM, ownLogOOM)
	if rxBufSize > 0 && !d.hasAllocFailure() {
		d.driverRxFailures(rxBufSize, rxBufLine)
	}
	if len(statedNet) > 0 {
		first, last := spanOf(netFrom)
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (" + StatedMark + ")", NetStat: statedNet})
		d.addArtifact(KindStated, first, last, map[string]any{"netstat": statedNet})
	}
	if len(foreign) > 0 {
		first, last := spanOf(fromForeign)
		src := statedForeignSource(spanSource(first, last)+" ("+StatedMark+")", foreignWhy)
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, Rates: foreign})
		d.addArtifact(KindStated, first, last, map[string]any{"subject": model.SubjectOther, "why": foreignWhy, "rates": foreign})
	}
	if len(rings) > 0 {
		r := rings[len(rings)-1]
		name, src := "(stated)", spanSource(r.line, r.line)+" ("+StatedMark+")"
		if r.nic != "" {
			name = "(stated) " + r.nic
			src = spanSource(r.line, r.line) + " (" + StatedMark + ": " + r.maxWhy + ")"
		}
		st := kernel.NICStats{Name: name, Ring: &kernel.Ring{Rx: r.Rx, RxMax: r.RxMax}}
		d.tl.Samples = append(d.tl.Samples, model.Sample{Source: src, NICStats: []kernel.NICStats{st}})
		d.addArtifact(KindStated, r.line, r.line, map[string]any{"ring": st})
	}
	d.statedIfaceDrops(ifDrops)
	d.statedCounterRises(rises)
	var nics []kernel.NIC
	for _, speed := range slices.Sorted(maps.Keys(linkCount)) {
		for k := 0; k < linkCount[speed]; k++ {
			nics = append(nics, kernel.NIC{Name: fmt.Sprintf("(stated %d)", len(nics)+1), SpeedMbps: speed})
		}
	}
	if len(nics) > 0 {
		d.statedNICs(nics)
	}
	d.markSettings(sub)
	d.markSegments(sub)
}

// StatedMark is what a source says when its numbers come from a sentence.
const StatedMark = model.StatedMark

var (
	// "freeze for like 4-5 seconds", "stalls of 2 s": a stall the author timed, read only in a
	// text that speaks of reclaim.
	reStatedStall = lazyre.New(`(?i)\b(?:freez\w*|stall\w*|hangs?|hung|lock(?:s|ed)?\s+up)\b[^.;]{0,30}?\b(\d+(?:\.\d+)?)(?:\s*[-–]\s*(\d+(?:\.\d+)?))?\s*(?:s|secs?|seconds?)\b`)
	// "resulting in packet overruns", "RX overruns", "ring overruns".
	// A ring size and its maximum in a sentence: "rings (from default 512) to maximum
	// supported by card (4096)", "the RX ring from 256 to the maximum of 4096".
	reStatedRing = lazyre.New(`(?i)\brings?\b[^.]{0,40}?\bfrom\s+(?:the\s+)?(?:default\s+)?(?:of\s+)?(\d{2,5})\b[^.]{0,60}?\bmax(?:imum)?\b[^.(]{0,40}?\(?(\d{2,5})\b`)
	// A TcpExt drop counter stated by its /proc/net/netstat name with its value:
	// "ListenOverflows=0", "TcpExt:ListenDrops = 12", "TCPBacklogDrop is 3"
	// (kernel.TcpExtDropCounters).
	reStatedTcpExt = lazyre.New(`\b(?:TcpExt[:.]?\s*)?(` + strings.Join(kernel.TcpExtDropCounters, "|") + `)\b\s*(?:=|:|\bis\b|\bwas\b)\s*(\d{1,3}(?:,\d{3})+|\d+)\b`)
	// Udp's buffer and receive error counters by their nstat names with a count before or
	// after the name: "3,205 `UdpRcvbufErrors`", "UdpRcvbufErrors = 12", "UdpSndbufErrors
	// remained zero" (groups: count, name | name, count | count-before, name-after).
	// /proc/net/snmp's bare names RcvbufErrors and SndbufErrors are Udp's alone (a
	// "DELTA RcvbufErrors=749" list of a counter's change); bare InErrors is also Ip's and
	// Icmp's, so it is not read.
	reStatedUDPCounter   = lazyre.New(`\b(?:(\d{1,3}(?:,\d{3})+|\d+)\s*[` + "`" + `'"]?(Udp6?(?:Rcvbuf|Sndbuf|In)Errors|(?:Rcvbuf|Sndbuf)Errors)\b|(Udp6?(?:Rcvbuf|Sndbuf|In)Errors|(?:Rcvbuf|Sndbuf)Errors)\b[` + "`" + `'"]?\s*(?:=|:|\bis\b|\bwas\b|\bremained\b|\bstayed\b|\breached\b)\s*(\d{1,3}(?:,\d{3})+\b|\d+\b|zero\b))`)
	reStatedFtgmacISRBit = lazyre.New(`\b(?:NO_RXBUF|RPKT_LOST)\b`) // fix40b: ftgmac100's bit names, as it prints them
	reStatedOverrun      = lazyre.New(`(?i)\b(?:packet|rx|receive|ring|fifo)\s+(?:buffer\s+)?overruns?\b`)
	// A negative subject is a negation too: "Nothing's getting oom killed according to syslog"
	// (nothing, none, nobody: no process was killed), in the same clause ("Nothing changed,
	// but mysqld keeps getting OOM killed" states a kill).
	//
	// fix42a (corpus 3595): a negation inside a parenthesis closed before the statement is
	// the aside's ("ran with request == limit == 1G (Guaranteed QoS, no burst headroom) and
	// OOM-killed (exit 137)"): the tail after the negative word may hold whole parenthesised
	// groups and an opening one, never a bare closing parenthesis.
	reNegated = lazyre.New(`(?i)\b(?:no|without|few|never|not|any|avoid(?:s|ed|ing)?|prevent(?:s|ed|ing)?)\b(?:[^.()]|\([^.()]*\)|\()*$|\b(?:nothing|none|nobody)\b(?:[^.,;:()]|\([^.,;:()]*\)|\()*$`)
	// netdata's alarm on UDP receive-buffer errors as an alert, a title or a notification
	// quotes it: "1m ipv4 udp receive buffer errors | 23650 errors", its e-mail and
	// notification text "... receive buffer errors = 12 errors", "1m_ipv4_udp_receive_buffer_errors",
	// its chart "ipv4.udperrors".
	// A netdata health definition: its threshold lines ("warn: $this > 1", "crit: $this >
	// ($status == $CRITICAL) ? (0) : (5)", health.d/*.conf).
	reNetdataHealthDef = lazyre.New(`(?i)\b(?:warn|crit)\s*:\s*\$this\b`)
	reNetdataUDPAlarm  = lazyre.New(`(?i)\b(?:1m[ _])?ipv4[ _]udp[ _]receive[ _]buffer[ _]errors\b(?:\W{0,4}[|=]\s*(\d+(?:[.,]\d+)?)\s*(k)?\s*errors\b)?|\bipv4\.udperrors\b`)
	// "RcvBufErrors and InErrors peak at about 700/events per second": Udp RcvbufErrors at a
	// rate the author read off a graph.
	reStatedUDPRcvbufRate = lazyre.New(`(?i)\brcv ?buf ?errors\b[^.]{0,80}?\b(\d+(?:[.,]\d+)?)\s*(k)?\s*/?\s*(?:events?|errors?|drops?|datagrams?|packets?)?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b)`)
	// A sentence that names a kernel backtrace, and the function names it quotes.
	reTraceSentence = lazyre.New(`(?i)\b(?:back\s?trace|call\s+trace|stack\s+trace)\b|コールトレース|调用栈|堆栈`)
	reFunctionName  = lazyre.New(`\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b`)
	// A path's rate, its round-trip time and an application's socket buffer, stated
	// (corpus 532: "专线100M,时延20ms", a 100 Mbit/s leased line with 20 ms of latency, and
	// "socket.setSendBufferSize(16*1024)"): the three numbers of a bandwidth-delay product.
	reStatedPath = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*([MG])(?:bit/s|bits?/s|bps|b/s|bit|b)?\s+(?:leased\s+line|line|circuit|wan(?:\s+link)?|path|uplink|pipe)\b` +
		`|\b(?:leased\s+line|bandwidth|line\s+speed|circuit|wan\s+link|uplink)\s*(?:of|is|=|:|at)?\s*(\d+(?:\.\d+)?)\s*([MG])(?:bit/s|bits?/s|bps|b/s|bit|b)?\b` +
		`|(?:专线|带宽|线路|链路|出口)\s*(?:为|是|有|只有|仅)?\s*(\d+(?:\.\d+)?)\s*([MG])(?:bps|bit|b)?`)
	reStatedRTT    = lazyre.New(`(?i)(?:\brtt\b|\bround[- ]trip(?:\s+time)?|\blatency\b|\bping\s+time\b|时延|延时|延迟)\s*(?:of|is|was|=|:|~|为|是|大约|约|大概)?\s*(?:about|around|roughly|~)?\s*(\d+(?:\.\d+)?)\s*ms\b`)
	reStatedAppBuf = lazyre.New(`(?i)\bset(Send|Receive)BufferSize\s*\(\s*(\d+)(?:\s*\*\s*(\d+))?\s*\)` +
		`|\bSO_(SND|RCV)BUF\b[^0-9\n]{0,24}?(\d+)(?:\s*\*\s*(\d+))?\s*\)`)
	// The OOM killer stated at work: "the OOM killer killed mysqld", "oom-killer kicks in",
	// "processes get OOM-killed", "偶爾,OOM-killer 會殺死一些程序" (corpus 521: occasionally the
	// OOM killer kills some processes), "被 OOM killer 杀掉".
	// reStatedKillFigures: total-vm then anon-rss, each with a size in kB, as the kill line
	// prints them or as a reporter re-typed them (spaces for the hyphen and the colon,
	// "KB", "kb", a space before the unit).
	reStatedKillFigures = lazyre.New(`(?i)\btotal[- _]?vm\s*[:=]?\s*\d+\s*kb\b[,;]?\s*anon[- _]?rss\s*[:=]?\s*\d+\s*kb\b`)
	// fix32c: the killer at work in a colloquial verb, "the OOM killer zaps some check
	// (fix50b, corpus 4186: "noticed the OOM killer of my media player kicking into action")
	// process", "the oom killer nuked mysqld", "OOM killer shoots down the JVM" (corpus 2778).
	reStatedOOMKill = lazyre.New(`(?i)\boom[- _]?killer\b[^.;。；\n]{0,40}?(?:\bkill(?:s|ed|ing)?\b|\bkick(?:s|ed)?\s+in\b|\bkick(?:s|ed|ing)\s+into\s+action\b|\bstarts?\s+killing\b|\bzap(?:s|ped|ping)?\b|\bnuk(?:es|ed|ing)\b|\b(?:shoots|shot)\s+down\b|殺死|杀死|殺掉|杀掉|幹掉|干掉)` +
		`|\b(?:got|gets?|was|were|are|is|being|been|keeps?\s+getting)\s+(?:(?:repeatedly|constantly|frequently|continuously|regularly|often|always|still|periodically)\s+)?oom[- ]?killed\b|被\s*oom` +
		// The killer's firing as a past event: "recently had OOM-killer fire and take down a
		// blade", "the oom killer fired twice" (not the present "fires when", a mechanism;
		// not "was invoked", which a manual uses: "determine why the OOM-killer was invoked").
		`|\b(?:had|saw)\s+(?:the\s+|an?\s+)?oom[- _]?killer\s+(?:fire|kick\s+in)\b|\boom[- _]?killer\s+fired\b` +
		// 2.4-era mail: "the Out Of Memory killer struck", "OOM-killer is launched and pop goes
		// the server" (a sentence of the host's; a manual's "is launched when memory runs
		// out" is a generic statement, genericStatement).
		`|\b(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:struck|strikes|(?:is|was|got|gets)\s+launched)\b` +
		// fix30a: a job or test "is hitting OOM killer failures", "keeps hitting the OOM
		// killer", "we hit the OOM killer" (corpus 2610): the kills met as an event; "if you
		// hit the OOM killer", "to avoid hitting the OOM killer" are conditions (reHypothetical,
		// reNegated).
		`|\b(?:is|are|was|were|been|keeps?|kept|started|starts|we|I|it|they)\s+(?:consistently\s+|constantly\s+|repeatedly\s+|now\s+|also\s+)?(?:hitting|hit)\s+(?:the\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\b` +
		// fix34c: an admin's account of what the host did next, "I show swap filling and then
		// the OOM picks the largest consumer to kill" (corpus 2943): "then" after what was seen
		// and the killer's choice of a victim; a manual's "if/when memory runs out, the OOM
		// killer picks a process to kill" is a condition (reHypothetical, oomMechanism).
		`|\band\s+then\s+(?:the\s+)?oom(?:[- _]?killer)?\s+(?:picks|picked|chooses|chose|selects|selected)\s+[^.;\n]{0,60}?\bto\s+kill\b`)
	// An out-of-memory stated as an event that happened, in the words of posts that are not
	// English: "最终导致程序 OOM Kill" (in the end it got the program OOM-killed), "发生了OOM",
	// "왜 OOM이 발생한 것일까" (why did the OOM happen), "OOMが発生しました"; and in English as
	// a past cause: "the leak caused an OOM kill", "it ended in OOM", or one under way:
	// "running it twice is causing an out of memory kill of the daemon" (corpus 1142; "out of
	// memory" only with its kill: an application's "out of memory error" is no kernel kill).
	// The Korean and Japanese forms are past tense only: "OOM이 발생하면" (when an OOM
	// happens) states nothing.
	reStatedOOMOccurred = lazyre.New(`(?i)` +
		// fix46b (corpus 3883): the kernel's own message named in quotes as what came, "New
		// overload and kernel "Out of memory" even with memory_limit=128M": the OOM killer's
		// report opens with "Out of memory: Killed process" (mm/oom_kill.c
		// __oom_kill_process; older kernels "Out of memory: Kill process"), and the author
		// names the kernel as its writer. A quoted message is no program's own; "grep the
		// kernel log for "Out of memory"" is advice (reOOMQuotedAdvice).
		`\bkernel(?:'s|’s)?\s+(?:log\s+|message\s+)?["“'\x60](?:out[ -]of[ -]memory)(?::\s*kill(?:ed)?\s+process)?["”'\x60]` +
		// fix47b (corpus 3966): the OOM kill as a noun with its victim in a past relative
		// clause, "the kernel resolved it with a global OOM kill that took the API
		// container's worker": the kill happened (past tense) and took something named. The
		// present ("an OOM kill that kills the largest process") is a reference page's voice.
		`|\b(?:an?|the)\s+(?:(?:global|system-wide|host-wide|host|cgroup|memcg|kernel)\s+)?OOM[- ]?kill\s+(?:that|which)\s+(?:took(?:\s+out|\s+down)?|killed|hit|claimed|reaped)\s+(?:the|my|our|its|their|an?)\b` +
		`|(?:导致|造成|引起|引发|触发|導致|引發|觸發|发生|發生|出现|出現)了?\s*(?:程序|进程|应用|進程|應用|程式|服务|服務)?\s*(?:被\s*)?\bOOM\b` +
		`|\bOOM(?:[- ]?kill(?:er)?)?\s*(?:이|가|が|は)?\s*(?:발생했|발생한|발생하였|일어났|일어난|発生した|発生しました|起きた|起きました|起こった|起こりました)` +
		`|\b(?:caused|causing|led\s+to|leading\s+to|resulted\s+in|resulting\s+in|ended(?:\s+up)?\s+in|triggered|triggering)\s+(?:an?\s+|the\s+)?(?:OOM(?:[- ]kill)?\b|out[ -]of[ -]memory[ -]kill(?:s|ed|ing)?\b)` +
		// fix28b: a small host's out-of-memory during a named activity, as a report's
		// "Actual behavior" states it: a task "was killed while in-progress due to the Droplet
		// running out of memory" (corpus 2444), an image that "loads but goes OOM during boot"
		// (corpus 2456). The kill with its cause, and "goes/went OOM" with when it happened;
		// "can go OOM", "if it goes OOM", "have the potential to run out of memory" are none.
		`|\b(?:was|were|got|gets|been)\s+killed\b[^.;!?]{0,60}?\b(?:due\s+to|because\s+of)\s+(?:the\s+|its\s+|my\s+|our\s+|their\s+)?(?:[\w-]+\s+){0,2}?running\s+out\s+of\s+(?:memory|ram)\b` +
		`|\b(?:goes|went)\s+(?:OOM|out[ -]of[ -]memory)\s+(?:during|while|after|at|on|mid-?way|halfway)\b` +
		// fix36a: a restart told with its cause, "the pod keeps restarting due to OOM", "one
		// ingester repeatedly resetting due to OOM" (corpus 3089); and the OOMs a spike
		// brings on the author's own machines, "causing Out of Memory (OOM) issues on our
		// VMs" (corpus 3091). "restart it to avoid OOM" names no cause, "can cause OOM issues
		// on the nodes" is a possibility (reCanBefore), "OOM issues on VMs with less than
		// 16GB" names no machine of the author's.
		`|\b(?:restart(?:s|ed|ing)?|reset(?:s|ting)?|reboot(?:s|ed|ing)?|crashloop(?:s|ed|ing)?)\s+(?:again\s+|constantly\s+|repeatedly\s+)?(?:due\s+to|because\s+of)\s+(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)\b(?:\s*\(OOM\))?(?:\s+kill(?:s|ed|er)?\b)?` +
		`|\b(?:caused|causing|causes|led\s+to|leading\s+to|resulted\s+in|resulting\s+in|triggered|triggering)\s+(?:OOM|out[ -]of[ -]memory(?:\s*\(OOM\))?)\s+(?:issues|problems|events|kills|crashes)\s+on\s+(?:our|my|all\s+(?:of\s+)?our|several\s+of\s+our)\s+(?:[\w-]+\s+){0,2}?(?:VMs?|hosts?|servers?|nodes?|machines?|boxes|instances|droplets)\b` +
		// fix30a: the shortage and the kill it brings in one clause, "it is running out of RAM
		// and the reaper process kills a critical function" (corpus 2579: the OOM killer and
		// its oom_reaper, mm/oom_kill.c); "could run out of memory and the OOM killer may
		// kill" is a possibility (reCanBefore, hypotheticalUpTo).
		`|\b(?:is|are|was|were|kept|keeps)\s+running\s+out\s+of\s+(?:memory|ram)\s+and\s+(?:then\s+)?(?:the\s+)?(?:(?:oom|out[ -]of[ -]memory)[- _]?(?:killer|reaper)|(?:oom[- _]?)?reaper(?:\s+process)?)\s+(?:eventually\s+|then\s+|finally\s+)?kill(?:s|ed)\b` +
		// Japanese: the killer "started" (起動し/発動し, past or continuing: "OOM キラーが起動し、"),
		// or a task "was/were force-killed" by it (強制終了した/された/して); the plain and
		// conditional forms ("起動すると", "起動しない", "強制終了されることはなく") are none.
		`|\bOOM\s*(?:キラー|killer)\s*(?:が|は)?\s*(?:起動|発動)し(?:た|ました|て|、|,)` +
		`|\bOOM\s*(?:キラー|killer)?[^。！？]{0,60}?強制終了(?:し(?:た|ました|て)|され(?:た|ました|て))`)
	// Words before a stated out-of-memory that make it no event of this host: a possibility
	// ("会导致 OOM", "可能出现OOM"), a prevention ("避免/防止 OOM") or a negation ("没有发生OOM",
	// "不会导致OOM").
	reOOMOccurredNot = lazyre.New(`(?:会|會|可能|容易|避免|防止|预防|預防|没有|沒有|没|沒|不|未|无|無)\s*$`)
	// "20 connections x 16MBytes x 2 = 640MBytes": connections × buffer size (× 2: both
	// directions), the demand an author computes for socket buffers.
	reStatedDemand = lazyre.New(`(?i)\b(\d+)\s*(?:tcp\s+)?(?:connections|streams|flows|sockets)\s*[x×*]\s*(\d+(?:\.\d+)?)\s*([KMG])\s*(?:B|Bytes?|iB)\b(?:\s*[x×*]\s*([1-4])\b)?`)
	// "256 Gb Ram", "8 GByte memory", "16GB of RAM", "I use a 4 gb system", "16+ GB RAM" (the
	// size at least, corpus 938) (not "a 64 GB
	// system disk": statedMemory checks the word after "system").
	// "a 128GB server", "a 64 GB machine" (fix20b): the machine named by its size.
	reStatedRAM = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\+?\s*([MGT])\s*(?:b|bytes?|ib)?\s+(?:of\s+)?(ram|memory|system|server|machine)\b`)
	// A slab field of /proc/meminfo named with a size in prose: "Kernel SUnreclaim is 2.3 GB",
	// "SUnreclaim grows to 13G", "Slab: 5.2 GiB" (in a sentence, with a unit: the file's own
	// "SUnreclaim:  64236 kB" lines are read by the meminfo reader).
	// The size may carry thousands separators ("SUnreclaim:     2,143 MB" in a box-drawing
	// tree of meminfo fields, "├── Kernel Slab:  2,194 MB"): reStatedThousands.
	// h31b: the unreclaimable slab in words ("the unreclaimable slab grows to 18 GB", "kernel
	// slab (unreclaimable) is at 20 GB") is SUnreclaim; the reclaimable one (dentries,
	// inodes) is SReclaimable, never the unreclaimable rule's.
	reStatedSlabField = lazyre.New(`\b(SUnreclaim\b|SReclaimable\b|Slab\b|(?i:un)?reclaimable\s+slab\b|[Ss]lab\s+\((?i:un)?reclaimable\))(?:\s+memory\b)?[^.\d]{0,30}?(` + reStatedThousands + `|\d+(?:\.\d+)?)\s*([KMGT])i?B?\b`)
	// The memory named before its size, in English and the languages of the held-out posts:
	// "RAM: 16GB", "memory is 32 GB", "内存64G" (Chinese), "記憶體 128GB" (Traditional),
	// "メモリは8GB" (Japanese), "ОЗУ 4 ГБ", "оперативной памяти 8 Гб" (Russian).
	reStatedRAMWord = lazyre.New(`(?i)(?:\bram\b|\bmemory\b|内存|記憶體|记忆体|メモリ|ОЗУ|оперативн\S*\s+памят\S*)\s*(?:[:：=]|is|of|为|是|有|共|总共|は|が)?\s*(` + reStatedThousands + `|\d+(?:\.\d+)?)\s*(G|M|T|Г|М|Т)(?:i?B|b|bytes?|Б|б)?(?:[^\pL\d]|$)`)
	// "1.6 GBytes on 32 bit highmem machine": a size stated for a setting the section named.
	reStatedSize = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*([KMG])\s*(?:B|Bytes?|iB)\b(\s*\(?\w*)`)
)

// Udp RcvbufErrors named and said to grow, with no figure: "the UDP "RcvbufErrors"
// skyrocketed when load goes up", "UdpRcvbufErrors keeps increasing", "a spike in
// RcvbufErrors". Group 1 (or 2) is the verb or noun of growth.
// reStatedSkmemDrop is skmem's drop field as a word of its own ("d370", "`d370`", "d370)");
// reStatedSkmemRb its receive buffer ("rb212992").
var (
	reStatedSkmemDrop = lazyre.New("(?:^|[\\s(,`])d(\\d+)(?:[\\s),`]|$)")
	reStatedSkmemRb   = lazyre.New(`\brb\d+\b`)
)

// proseSaysUDP: a prose line of the text names UDP (the socket a quoted skmem is of).
func (d *doc) proseSaysUDP() bool {
	for _, p := range d.proseLines {
		if containsFoldASCII(p.text, "udp") {
			return true
		}
	}
	return false
}

var reStatedUDPRcvbufRising = lazyre.New(`(?i)rcv ?buf ?errors\b[` + "`" + `'"”’)]*\s*(?:counters?\s+)?(?:(?:has|have|had|was|were|is|are|keeps?|kept|started|starts|began|continues|continued)\s+(?:been\s+|to\s+)?)?(skyrocket\w*|soar\w*|spik(?:es|ed|ing)|climb\w*|ris(?:es|ing|en)|rose|grow(?:s|ing|n)?|grew|increas\w*|jump(?:s|ed|ing)|(?:goes|went|going|shot|shoots|shooting)\s+up|explod\w*|balloon\w*)\b` +
	`|\b(spikes?|increases?|rise|surge|growth|jumps?)\s+(?:in|of)\s+(?:the\s+)?(?:udp\s*)?[` + "`" + `'"“‘]?(?:udp)?rcv ?buf ?errors\b` +
	// A signed change of the counter over a run the author measured: "RcvbufErrors
	// +4,655", "UdpRcvbufErrors: +12", "RcvbufErrors delta +300" (a delta, so a rise in a
	// window; a zero or a bare count is not one).
	`|rcv ?buf ?errors\b[` + "`" + `'"”’]*(?:\s+delta)?\s*[:=]?\s*(\+)\s?[1-9]`)

// A share of UDP datagrams dropped at full receive buffers, stated: "**9.4 % UDP receive-
// buffer drop rate**" (a hyphen at a line's end joins the words: "receivebuffer"), "2% of
// datagrams dropped as receive buffer errors", "receive buffer drop rate of 3%",
// "RcvbufErrors at 1.5%".
var reStatedUDPRcvbufPct = lazyre.New(`(?i)\b(\d{1,2}(?:\.\d+)?)\s*%\s*(?:of\s+(?:the\s+|all\s+)?)?(?:udp\s+)?(?:(?:datagrams?|packets?)\s+(?:dropped\s+(?:at|as|by)\s+(?:the\s+|full\s+)?)?)?(?:socket\s+)?(?:receive[- ]?buffer|rcvbuf)\s*(?:drops?|drop\s+rate|errors?|loss(?:es)?)\b` +
	`|\b(?:socket\s+)?receive[- ]?buffer\s+(?:drop|error|loss)(?:es|s)?(?:\s+rate)?\s+(?:of|is|was|at|around|about|reached|~|:|=|\s)*(\d{1,2}(?:\.\d+)?)\s*%` +
	`|rcv ?buf ?errors\b[^.%\d]{0,20}?\b(\d{1,2}(?:\.\d+)?)\s*%`)

// statedCounterRose: the line and sentence of a match m of reStatedUDPRcvbufRising when it
// states that the host's counter grew: not a possibility ("if RcvbufErrors increases"), a
// negation ("RcvbufErrors did not increase", "no increase in RcvbufErrors"), the voice of
// documentation ("the counter increases when the buffer is full": a present-tense verb
// before a condition) or a definition.
func statedCounterRose(para string, m []int, lineAt func(int) int) (int, string, bool) {
	match := para[m[0]:m[1]]
	sentence := sentenceAround(para, m[0], m[1])
	if hypotheticalUpTo(sentence, match) || reNotBusy.MatchString(match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || genericStatement(sentence, match) || definitionAfter(para, m[1]) ||
		questionAt(para, m[0], m[1]) { // h31a: "Is UdpRcvbufErrors increasing?" asks
		return 0, "", false
	}
	if m[2] >= 0 {
		verb := strings.ToLower(para[m[2]:m[3]])
		present := strings.HasSuffix(verb, "s") || strings.HasPrefix(verb, "goes") || strings.HasPrefix(verb, "shoots")
		if present && reConditionAfter.MatchString(para[m[1]:min(len(para), m[1]+24)]) && !reObservedLead.MatchString(para[max(0, m[0]-60):m[0]]) {
			return 0, "", false
		}
	}
	return lineAt(m[0]), sentence, true
}

// reObservedLead: the author reports what they watched on this host ("I'm noticing that X
// always increases when ...", "we observed that X rises whenever ..."; fix61c): the present
// tense with a condition is then their observation, not the documentation's voice.
var reObservedLead = lazyre.New(`(?i)\b(?:I|we)(?:'m|\s+am|'re|\s+are|'ve|\s+have)?\s+(?:notic\w*|observ\w*|see|seeing|saw|seen|watch\w*)\s+(?:that\s+)?[^.;!?]{0,40}$`)

// reConditionAfter: a condition right after a verb ("increases when", "rises if").
var reConditionAfter = lazyre.New(`(?i)^\W*(?:\w+\s+){0,2}?(?:when|whenever|if|once|as\s+soon\s+as)\b`)

// OOM-kill as the verb, with its victim after a determiner: "journalctl tell me out of
// memory and oom kill my java process", "the kernel OOM-killed our mysqld", "oom kills the
// worker" (the victim named; "OOM kills a process" in general is genericStatement's). The
// noun "an OOM kill" is reStatedOOMOccurred's.
// fix51b (corpus 4255): the OOM killer as the subject of a phrasal verb of removal, told
// colloquially: "the OOM killer cleans it up", "shortly before OOM killer took it out".
// fix67i: a count of victims is one or more, and never after /proc/vmstat's counter name:
// "oom_kill 0 numa_pte_updates 0" is the file flattened onto one line (beats' testdata,
// g278's 6301 under the flattened form), no verb and its victims.
var reStatedOOMKillVerb = lazyre.New(`(?i)\boom[- _]?kill(?:s|ed)?\s+(?:my|our|his|her|their|the|its)\s+\w+|\boom[- ]?kill(?:s|ed)?\s+[1-9]\d*\s+\w+|\boom[- _]?killer\s+(?:cleans|cleaned|took|takes|wiped|wipes|knocked|knocks)\s+(?:it|them|(?:my|our|the)\s+\w+)\s+(?:up|out|down)\b`)

// reStatedOOMKilledCount: Kubernetes' and docker's reason OOMKilled as the adjective of a
// counted victim: "multiple OOMKilled data plane pods", "3 OOMKilled containers", "several
// OOM-killed workers", markdown bold around the count ("**multiple OOMKilled** pods"). "no
// OOMKilled pods" and "0 OOMKilled pods" count none; "are pods OOMKilled?" names no count.
//
// fix42a (corpus 3596): the counted events themselves, restarts or kills with the reason
// (kubectl's RESTARTS column beside Last State's reason): "**8 lifetime OOMKill restarts**",
// "3 `OOMKilled` restarts overnight"; a word may stand between the
// count and the reason ("lifetime", "recent"), code quotes around it. Not "N oom-kill
// events": Slurm's own line (slurmOOM) says that, and a sentence shaped like it is not read.
var reStatedOOMKilledCount = lazyre.New(`(?i)\b(?:multiple|several|many|some|numerous|repeated|frequent|two|three|four|five|a\s+few|[1-9]\d*)\s+oom[- _]?killed\b(?:\*\*|__)?\s+(?:[\w-]+\s+){0,3}?(?:pods?|containers?|processes|process|workers?|instances?|replicas?|tasks?|jobs?|brokers?)\b`)

// reStatedOOMKillEvents: the fix42a form above; a count of events is of events that happened,
// so neither the first person nor the past is needed (a condition, a question and a
// negation still state nothing).
var reStatedOOMKillEvents = lazyre.New("(?i)\\b(?:multiple|several|numerous|repeated|two|three|four|five|six|seven|eight|nine|ten|a\\s+few|[1-9]\\d*)\\s+(?:(?:lifetime|recent|total|consecutive|more|further|separate)\\s+)?[`*\"'_]*oom[- _]?kill(?:ed)?[`*\"'_]*\\s+(?:restarts?|terminations?)\\b")

// jvmOwnOOM: a text that names a HotSpot crash file (hs_err_pid<N>.log) calls the JVM's own
// failure an "OOM": the JVM writes the file when its native allocation fails ("Native memory
// allocation (mmap) failed to map N bytes", "There is insufficient memory for the Java
// Runtime Environment to continue"; src/hotspot/share/utilities/vmError.cpp) and aborts
// itself. An mmap refused for vm.max_map_count, overcommit or address space is that too; it
// is no kill by the kernel's OOM killer, which writes no hs_err file (SIGKILL leaves the JVM no
// chance to). So in such a text "each crash is caused by OOM" is read only when it says
// killed (reKillWord).
// reOOMQuotedAdvice: the kernel's quoted "Out of memory" (reStatedOOMOccurred, fix46b) as
// what to look for, not what came: "grep for kernel "Out of memory"", "check the kernel
// "Out of memory" messages".
var reOOMQuotedAdvice = lazyre.New(`(?i)\b(?:look(?:ing)?\s+for|grep\w*|search\w*|check(?:ing)?|find|watch\s+for|see\s+if|whether|if)\s+(?:for\s+)?(?:the\s+|a\s+|any\s+|some\s+)?(?:linux\s+)?$`)

// reOOMQuotedMeans: what follows the quoted message defines it ("kernel "Out of memory"
// means ...", "... messages can appear when"): a guide's, not an event.
var reOOMQuotedMeans = lazyre.New(`(?i)^\s*(?:(?:messages?|lines?|errors?|entries)\s+)?(?:can|could|may|might|would|means?|meant|indicates?|is\s+printed|are\s+printed|appears?\s+when|shows?\s+up\s+when)\b`)

var reKillWord = lazyre.New(`(?i)\b(?:sig)?kill`) // fix46b: a SIGKILL is a kill

// The connection tracking table said to have filled: "managed to fill up the conntrack
// table", "filled the nf_conntrack table", "the conntrack table was full", "conntrack table
// got exhausted" (corpus 668). Not "protect against a full conntrack table" (no verb of the
// host's) nor a possibility ("if the conntrack table fills up").
var reStatedConntrackFull = lazyre.New(`(?i)\b(?:fill(?:s|ed|ing)?(?:\s+up)?|overflow(?:s|ed|ing)?|exhaust(?:s|ed|ing)?|max(?:es|ed|ing)?\s+out)\s+(?:the\s+|our\s+|its\s+|their\s+)?(?:nf_|ip_)?conntrack(?:ion)?\s+table\b` +
	`|\b(?:nf_|ip_)?conntrack\s+table\s+(?:was|is|got|gets|became|becomes|has\s+been|had\s+been|keeps\s+getting)\s+(?:completely\s+|totally\s+)?(?:full|filled(?:\s+up)?|exhausted|overflowing|overflown|overflowed)\b` +
	`|\b(?:nf_|ip_)?conntrack\s+table\s+(?:filled|fills)\s+up\b` +
	// fix28b: the past without "up", "the conntrack table filled under load, silently
	// dropping packets" (corpus 2445); "filled with N entries" only says what it holds
	// (statedConntrackFull).
	`|\b(?:nf_|ip_)?conntrack\s+table\s+(?:filled|overflowed)\b`)

// reFilledWith: "with" right after "filled": what the table holds, not that it is full.
var reFilledWith = lazyre.New(`^\s+with\b`)

// statedConntrackFull: the line and sentence of a match m of reStatedConntrackFull in para
// when it states the host's table filled, not a possibility or a negation ("never filled
// the conntrack table").
func statedConntrackFull(para string, m []int, lineAt func(int) int) (int, string, bool) {
	sentence := sentenceAround(para, m[0], m[1])
	if hypotheticalUpTo(sentence, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || genericStatement(sentence, para[m[0]:m[1]]) {
		return 0, "", false
	}
	if reFilledWith.MatchString(para[m[1]:min(len(para), m[1]+8)]) || questionAt(para, m[0], m[1]) {
		return 0, "", false // "the conntrack table filled with TIME_WAIT entries"; "Was the conntrack table full?"
	}
	if i := strings.Index(sentence, para[m[0]:m[1]]); i >= 0 && reTitleCheckSays.MatchString(sentence[:i]) {
		// "check_conntrack reports that the conntrack table is full even when ...": a
		// monitoring check's verdict, not the host's event (corpus 969).
		return 0, "", false
	}
	return lineAt(m[0]), sentence, true
}

// hypotheticalUpTo: the sentence says what it says up to the end of match as a possibility
// ("if kswapd uses a lot of CPU", "kswapd can spin", "you will see").
// A sentence the author opens with what he saw ("I noticed that when I do eventually get
// screen updates, ... kswapd is right up there", corpus 940) reports an observation: its
// "when" and "eventually" tell the time of it, so only a condition or a modal ("if", "would")
// makes it a possibility.
//
// "could not" ("the kernel could not page out anon memory, then OOM-killed a victim") is
// the past of "cannot": a fact of the event, not a possibility, so it is no modal here.
func hypotheticalUpTo(sentence, match string) bool {
	end := len(sentence)
	if i := strings.Index(sentence, match); i >= 0 {
		end = i + len(match)
		if strings.IndexByte(sentence[:end], ')') > 0 {
			up := dropClosedAsides(sentence[:end])
			sentence, end = up, len(up)
		}
	}
	if strings.Contains(sentence, "ould") {
		up := reCouldNot.ReplaceAllString(sentence[:end], "")
		sentence, end = up, len(up)
	}
	if strings.Contains(sentence, "ventually") {
		up := rePastEventually.ReplaceAllString(sentence[:end], "")
		sentence, end = up, len(up)
	}
	if strings.Contains(sentence, "can see") || strings.Contains(sentence, "can clearly see") {
		up := reYouCanSee.ReplaceAllString(sentence[:end], "") // fix60c: "you can see that ..." points at evidence
		sentence, end = up, len(up)
	}
	if reObserved.MatchString(sentence) {
		return reConditional.MatchString(sentence[:end])
	}
	if m := reReproducedIf.FindStringIndex(sentence[:end]); m != nil {
		return reHypothetical.MatchString(sentence[m[1]:end])
	}
	return reHypothetical.MatchString(sentence[:end])
}

// reReproducedIf (fix51b, corpus 4311): the author's own step told as a condition, then what
// he sees when he takes it: "if i send an UID fetch 1:59029 to the imap server, i can see the
// memory ... increasing until it is killed by the kernel". The condition is his reproduction,
// the main clause his observation, so only the words after the condition can make it a
// possibility. "if you send ..." (advice) and "if I send ..., it would ..." keep the condition.
var reReproducedIf = lazyre.New(`^\W*(?:[Ii]f|[Ww]hen(?:ever)?)\s+(?:I|i|we|We)\s+[^,.;?!]{1,120},\s*(?:I|i|we)\s+(?:can\s+|could\s+)?(?:see|saw|get|got|observe|notice|watch)\b`)

// dropClosedAsides removes the parenthesised asides closed in head (the sentence up to the
// match's end): a condition inside one conditions the aside, not the clause around it ("Rambox
// process is getting killed (if I run it on the command line, I can see the \"Killed\" log
// displayed on stdout) by OOM Killer", h42c, corpus 3917). An aside left open, one that
// opens the sentence or asks a question ("(Or am I reading the stats wrong?) I noticed",
// corpus 2603) keeps its words.
func dropClosedAsides(head string) string {
	var b strings.Builder
	for k := 0; k < len(head); k++ {
		if head[k] == '(' && strings.TrimSpace(b.String()) != "" {
			if e := strings.IndexByte(head[k:], ')'); e > 0 && !strings.ContainsAny(head[k+1:k+e], "(?") {
				k += e // the aside, closed, with no question or nested aside in it
				continue
			}
		}
		b.WriteByte(head[k])
	}
	return b.String()
}

var (
	reObserved    = lazyre.New(`^\W*(?:(?:and|but|then|also|so)\s+)?(?:I|we|We)\s+(?:have\s+|had\s+|also\s+)?(?:noticed|saw|observed|watched|found|see|notice|observe)\b`)
	reConditional = lazyre.New(`(?i)\b(?:would|could|might|if|unless|otherwise)\b`)
	reCouldNot    = lazyre.New(`(?i)\bcould(?:\s+not|n['’]t)\b`)
	// rePastEventually (fix33a, corpus 2853): "eventually" after a past auxiliary ("was
	// eventually killed by the kernel OOM killer", "got eventually killed") or before a
	// past verb ("eventually got killed", "eventually crashed") ends an event that happened,
	// no prediction; "will eventually be killed" keeps its "will".
	rePastEventually = lazyre.New(`(?i)\b(?:(?:was|were|got|had(?:\s+been)?|has\s+been)\s+eventually|eventually\s+(?:was|were|got|had|killed|crashed|died|froze|hung|rebooted|panicked|terminated|reaped|ran\s+out))\b`)
)

// A sentence in the voice of a reference page states how the kernel behaves in general, not
// what happened on a host: "The OOM killer kills the process with the highest oom_score",
// "Linux has an out-of-memory killer that kills processes to free memory", "Containers that
// exceed their memory limit are OOM-killed by the kernel", "Once the conntrack table is
// full, the kernel drops new connections", "kswapd uses a lot of CPU when memory is low",
// "Typically kswapd0 consumes 100% CPU when the system is thrashing". Such a sentence has no
// first person and no past, and has a mark of the general: a habitual adverb, a clause that
// defines its subject by what it does ("that kills", "which exceed"), a condition ("when
// memory is low", "once ... is full"), or a victim named by kind ("the process with the
// highest", "a process", "processes"). A host's event keeps its first person or its past
// ("our java process got OOM killed", "the OOM killer killed mysqld"), or the kill in the
// past with its object ("... then OOM-killed a victim": the active past of a kill, which no
// reference page writes; "are OOM-killed" is its passive present).
var (
	// fix51b (corpus 4311): the pronoun written lower-case by a hurried or non-native author
	// ("i can see the memory consumtion ... is more and more increasing until it is killed"),
	// only before a verb of his own: a loop's "for i in", "i = 0" or "-i" is no person.
	reFirstPerson   = lazyre.New(`\b(?:I|we|We|my|My|our|Our|us|me|mine|ours)\b|(?:^|[\s,;(])i(?:'m|'ve|\s+(?:am|was|can|could|see|saw|have|had|get|got|run|ran|found|noticed|tried|used|restarted|rebooted|started|checked|watched|observed|think)\b)`)
	rePastOrEvent   = lazyre.New(`(?i)\b(?:was|were|got|had|did|has\s+been|have\s+been|yesterday|ago|last\s+(?:night|week|month|year|time|\w+day)|tonight|this\s+(?:morning|week)|again|twice|\d+\s+times)\b|\b(?:oom[- ]?killer|kernel)\s+(?:\w+\s+)?(?:killed|terminated|chose|picked|selected|reaped|sacrificed)\b|\boom[- ]?killed\s+(?:a|an|the|one|its|their|two|three|several|some|\d+)\b`)
	reHabitual      = lazyre.New(`(?i)\b(?:typically|usually|generally|normally|commonly|in\s+general|by\s+default|last\s+resort)\b`)
	reGenericMarker = lazyre.New(`(?i)\b(?:that|which)\s+(?:\w+\s+)?(?:kills?|exceeds?|exceed|uses?|consumes?|drops?|fills?|runs?)\b|\b(?:when|once|whenever|until|as\s+soon\s+as)\s+(?:(?:free|available)\s+)?(?:memory|ram|it|there|(?:the|a|an)\s+(?:system|kernel|host|machine|server|box|node|table|conntrack\s+table|process|container|cgroup|zone|oom[- ]?killer))\b|\b(?:the\s+(?:process|task)\s+with\s+the|the\s+(?:largest|biggest|heaviest)\s+(?:process|task)|an?\s+(?:process|task|victim)|processes|tasks)\b`)
	reIOWord        = lazyre.New(`\bI/O\b`)
)

// subsectionHeading reports whether line is a Markdown heading of level 3 to 6
// ("### OOM 导致被杀", a guide's section on OOM kills, corpus 1943): it names the topic the
// section explains, not what happened to the host; a post's title is read apart
// (titleProse), and a level-1 or level-2 heading may be a report's own title or summary.
func subsectionHeading(line string) bool {
	t := strings.TrimLeft(line, " ")
	n := len(t) - len(strings.TrimLeft(t, "#"))
	return n >= 3 && n <= 6 && len(t) > n && t[n] == ' '
}

// headingLineAt reports whether the prose line numbered no among ps is a subsection heading.
func headingLineAt(ps []proseLine, no int) bool {
	for _, p := range ps {
		if p.no == no {
			return subsectionHeading(p.text)
		}
	}
	return false
}

// genericStatement reports whether a sentence states a general behaviour (the voice of
// documentation) rather than an event on a host. A habitual adverb counts only at the
// statement itself (within 30 bytes before the match, or in it): "(because pages are usually
// allocated from the Normal zone first), and kswapd winds up in a continuous cycle" (corpus
// 578) explains a host's bug.
func genericStatement(sentence, match string) bool {
	if codeMeaning(sentence) { // "Exit code 137 means the container was OOMKilled" (statedcodemeaning.go)
		return true
	}
	if genericCJK(sentence, match) { // "当系统内存……时，OOM Killer会被触发" (statedgenericcjk.go)
		return true
	}
	if reFirstPerson.MatchString(reIOWord.ReplaceAllString(sentence, "")) || rePastOrEvent.MatchString(sentence) || killInProgress(sentence) {
		return false
	}
	if reGenericMarker.MatchString(sentence) {
		return true
	}
	i := strings.Index(sentence, match)
	if i < 0 {
		return false
	}
	return reHabitual.MatchString(sentence[max(0, i-30) : i+len(match)])
}

// reOOMMechanism: the words of a sentence that describes what the OOM killer does in general,
// as reference pages do, rather than an out-of-memory that happened: proc(5) "used to select
// which process should be killed in an out-of-memory (OOM) situation", "increases the
// likelihood of this process being killed by the OOM-killer", "which disables OOM-killing
// altogether", "the risk of getting a process "OOM-killed"". A kill that happened has a
// victim and a time ("the OOM killer killed mysqld last night"), none of these words.
var reOOMMechanism = lazyre.New(`(?i)\b(?:should|likelihood|likely|risk|chances?|probabilit\w*|prefer\w*|which\s+(?:process|task)|disabl\w*|candidates?|badness|whenever|each\s+time|every\s+time|when\s+(?:the\s+|a\s+)?(?:kernel|system|oom[- ]?killer|process|task|memory)\s+(?:performs|kills|runs|selects|invokes|chooses|decides|needs|fails|triggers|reaches|starts|calls|picks)\b|in\s+an?\s+(?:oom|out[ -]of[ -]memory)(?:\s+\(oom\))?\s+(?:situation|condition|case))\b`)

// oomMechanism reports whether the sentence, up to and including the match, describes the
// OOM killer's mechanism (reOOMMechanism) rather than stating that it ran.
func oomMechanism(sentence, match string) bool {
	end := len(sentence)
	if i := strings.Index(sentence, match); i >= 0 {
		end = i + len(match)
	}
	return reOOMMechanism.MatchString(sentence[:end])
}

// vendorKBArticle reports whether the prose has a knowledge-base article's section headings:
// a line "Environment" and a line "Resolution" (SUSE TIDs: Environment, Situation, Resolution,
// Cause; Red Hat solutions: Environment, Issue, Resolution, Root Cause), or a Red Hat
// solution's banner under its title ("Solution Verified - Updated", "Solution In Progress - Updated"),
// which a page whose section headings the copy lost still shows (fix28d, corpus 1788).
func vendorKBArticle(ls []proseLine) bool {
	env, res := false, false
	for _, l := range ls {
		if len(l.text) > 16 {
			if strings.Contains(l.text, "Solution Verified - Updated") || strings.Contains(l.text, "Solution In Progress - Updated") { // a flattened page joins it to the title
				return true
			}
			continue
		}
		switch strings.TrimSpace(l.text) {
		case "Environment":
			env = true
		case "Resolution":
			res = true
		}
	}
	return env && res
}

// statedKB reads a size written as a number and a unit letter ("1.6", "G") in KiB: the
// binary units kernel texts mean by KB, MB, GB and TB.
// reStatedThousands: a size written with thousands separators ("2,143 MB", "4,096 MB"):
// groups of exactly three digits after a comma, so a decimal comma ("2,5 GB") is not one.
const reStatedThousands = `\d{1,3}(?:,\d{3})+(?:\.\d+)?`

func statedKB(num, unit string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	if err != nil || v <= 0 {
		return 0, false
	}
	switch strings.ToUpper(unit) {
	case "K":
	case "M":
		v *= 1024
	case "G":
		v *= 1024 * 1024
	case "T":
		v *= 1024 * 1024 * 1024
	default:
		return 0, false
	}
	return v, true
}

func subOr(s string, a, b int) string {
	if a < 0 {
		return ""
	}
	return s[a:b]
}

func spanOf(nos []int) (first, last int) {
	first, last = nos[0], nos[0]
	for _, n := range nos {
		first, last = min(first, n), max(last, n)
	}
	return first, last
}

// statedMemory reads the host's memory size from prose ("256 Gb Ram") when nothing better
// gave it: a machine's RAM said by its owner, not a quote or another machine's.
func (d *doc) statedMemory(sub *subjects) {
	if d.tl.Host.MemTotalKB > 0 {
		return
	}
	if d.ollamaHostMemoryLines(sub) { // ollama's msg="system memory" (hostmemlog.go)
		return
	}
	if d.xtraceHostMemory(sub) { // a script's xtrace of free's Mem total (xtracefree.go)
		return
	}
	if kb, first, last, ok := rabbitMQMemory(d.proseLines); ok && kb >= 16*1024 && kb <= 1<<36 {
		if subj, _ := sub.subjectAt(first, sub.text[first]); subj == "" {
			d.setHostMemory(sub, kb, first, last, "RabbitMQ's vm_memory_limit ÷ vm_memory_high_watermark: the memory the broker detected (the host's RAM, or its container's limit)")
			return
		}
	}
	for i, p := range d.proseLines {
		// The size and its noun may sit on either side of a line end ("... 16+ GB" /
		// "RAM.", prose wrapped at 72 columns): the next line of the paragraph is read
		// with this one, and only a match that starts on this line is this line's.
		own := len(p.text)
		if i+1 < len(d.proseLines) && d.proseLines[i+1].no == p.no+1 {
			p.text += " " + strings.TrimSpace(d.proseLines[i+1].text)
		}
		if !containsFoldASCII(p.text, "ram") && !containsFoldASCII(p.text, "memory") && !containsFoldASCII(p.text, "system") && !containsFoldASCII(p.text, "server") && !containsFoldASCII(p.text, "machine") {
			continue // reStatedRAM names one of them
		}
		if _, oom, ok := jobWorkerOwnLine(p.text[:own]); ok && oom {
			continue // Overpass's "Query run out of memory using about N MB of RAM" (h38b): its query's limit, no host's size
		}
		for _, m := range reStatedRAM.FindAllStringSubmatchIndex(p.text, -1) {
			if m[0] >= own {
				break
			}
			if subj, _ := sub.subjectAt(p.no, sentenceAround(p.text, m[0], m[1])); subj != "" {
				continue
			}
			if typicalMachineBefore(p.text, m[0]) {
				continue // "A typical switch device have 4 GB memory" (fix41c): a class's budget, no host's
			}
			if memRequirementBefore(p.text, m[0]) || memFreedBefore(p.text, m[0]) || memConsumedBefore(p.text, m[0]) {
				continue // "Appwrite requires at least 2GB of memory" (fix43c): a program's requirement, no host's; "to recover ~233 MB of RAM" (fix54c): an amount freed; "ate over 40GB of memory" (fix65b): one consumer's
			}
			if numberFragment(p.text, m[2]) {
				continue // "3,5 GB RAM" (corpus 3464): the 5 after a decimal comma is no size
			}
			if rangeEnd(p.text[:m[2]]) {
				continue // "10-20 GB RAM of buffers" (corpus 521): an estimate, not the machine's size
			}
			if arithmeticResultBefore(p.text[:m[0]]) {
				continue // "790040kB+253500kB ~= 1GiB of memory on pcp lists" (corpus 5436): a sum worked out, not the machine's size
			}
			if resizeTarget(p.text, m[0], m[1]) {
				continue // "Scaled to 2GB RAM, installation went fine" (fix50a): the size given after, no size at the failure
			}
			if noun := strings.ToLower(p.text[m[6]:m[7]]); (noun == "system" || noun == "server" || noun == "machine") && reSystemStorage.MatchString(p.text[m[7]:]) {
				continue
			} else if (noun == "server" || noun == "machine") && reNotHostMemory.MatchString(sentenceAround(p.text, m[0], m[1])) {
				continue // "the container limit is 8GB server side": not the machine's size
			}
			if m[6] >= own && keyLabelAt(p.text[m[6]:]) {
				continue // a dump's next key ("Current Memory Usage: 21.7M" / "Memory Min: 0B", oomctl): no size of RAM
			}
			if d.setStatedMemory(sub, p, m, p.text[m[4]:m[5]]) {
				return
			}
		}
	}
	for i, p := range d.proseLines {
		if systemctlMemoryField(d.proseLines, i) {
			continue // a unit's memory as systemctl status prints it, not the host's RAM (h31d)
		}
		for _, m := range reStatedRAMWord.FindAllStringSubmatchIndex(p.text, -1) {
			sentence := sentenceAround(p.text, m[0], m[1])
			if subj, _ := sub.subjectAt(p.no, sentence); subj != "" || reNotHostMemory.MatchString(sentence) || typicalMachineBefore(p.text, m[0]) || memRequirementBefore(p.text, m[0]) {
				continue
			}
			unit := map[string]string{"Г": "G", "М": "M", "Т": "T"}[p.text[m[4]:m[5]]]
			if unit == "" {
				unit = p.text[m[4]:m[5]]
			}
			if d.setStatedMemory(sub, p, m, unit) {
				return
			}
		}
	}
}

// systemctlMemoryField: prose line i is systemctl status's "Memory:" field (systemd
// src/systemctl/systemctl-show.c print_status_info: the unit cgroup's memory.current, then
// " (" and its limits and peak: "min:", "low:", "high:", "max:", "swap max:", "available:",
// "peak:"), not the host's RAM: the line holds the limits' parenthesis, or status's other
// fields ("Loaded:", "Active:", "Main PID:", "Tasks:", "CGroup:") sit within four lines, or on
// the same line flattened. An owner's "Memory: 16G" in a list of the machine's specs has none.
func systemctlMemoryField(ps []proseLine, i int) bool {
	t := strings.TrimSpace(ps[i].text)
	k := strings.Index(t, "Memory: ")
	if k < 0 {
		return false
	}
	if k > 0 {
		return strings.Contains(t[:k], " Loaded: ") && strings.Contains(t[:k], " Active: ")
	}
	if _, par, ok := strings.Cut(t, " ("); ok && reSystemctlMemLimit.MatchString(par) {
		return true
	}
	for j := max(0, i-4); j < min(len(ps), i+5); j++ {
		if j == i || ps[j].no-ps[i].no > 4 || ps[i].no-ps[j].no > 4 {
			continue
		}
		u := strings.TrimSpace(ps[j].text)
		for _, f := range [...]string{"Loaded: ", "Active: ", "Main PID: ", "Tasks: ", "CGroup: "} {
			if strings.HasPrefix(u, f) {
				return true
			}
		}
	}
	return false
}

var reSystemctlMemLimit = lazyre.New(`^(?:(?:min|low|high|max|swap max|zswap max|available|peak|swap peak|zswap):\s+[\d.]+[BKMGTPE]?\b\s*)+`)

// keyLabelAt: t starts a key of a "Key Words: value" dump ("Memory Min: 0B"): up to three
// words, then a colon.
func keyLabelAt(t string) bool {
	c := strings.IndexByte(t[:min(len(t), 40)], ':')
	if c <= 0 {
		return false
	}
	words := strings.Fields(t[:c])
	if len(words) == 0 || len(words) > 3 {
		return false
	}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if !isLower(w[i]|0x20) && w[i] != '_' && w[i] != '-' {
				return false
			}
		}
	}
	return true
}

// reTimesBetweenFigures: "2 x 512MB", a product written with a letter x.
var reTimesBetweenFigures = lazyre.New(`\d\s*[xX]\s*\d`)

// arithmeticResultBefore: the text before a size ends in "=", "~=", "≈" or "~" after figures
// summed or multiplied ("790040kB+253500kB ~= 1GiB"): the size is a result worked out of
// other figures, a part of the memory, never the machine's size stated. A sentence's end
// (';', ':', '!', '?') bounds the search; '.' does not, as figures carry decimal points.
func arithmeticResultBefore(before string) bool {
	t := strings.TrimRight(before, " \t")
	for _, op := range []string{"~=", "=", "≈", "~"} {
		if rest, ok := strings.CutSuffix(t, op); ok {
			rest = strings.TrimRight(rest, " \t")
			k := strings.LastIndexAny(rest, ";:!?")
			return strings.ContainsAny(rest[k+1:], "+*×") || reTimesBetweenFigures.MatchString(rest[k+1:])
		}
	}
	return false
}

// numberFragment: the figure at s[i:] continues a number before it, after a decimal comma
// or point ("3,5 GB" read from its 5): the digits alone are no figure (fix41a).
func numberFragment(s string, i int) bool {
	return i >= 2 && (s[i-1] == ',' || s[i-1] == '.') && s[i-2] >= '0' && s[i-2] <= '9'
}

// setStatedMemory takes the size of match m (number in group 1) in unit as the host's
// memory, when it is a machine's size (16 MiB to 64 TiB).
func (d *doc) setStatedMemory(sub *subjects, p proseLine, m []int, unit string) bool {
	kb, ok := statedKB(p.text[m[2]:m[3]], unit)
	if !ok || kb < 16*1024 || kb > 1<<36 {
		return false
	}
	d.setHostMemory(sub, int64(kb), p.no, p.no, strings.TrimSpace(p.text[m[0]:m[1]]))
	return true
}

// setHostMemory takes kb as the host's memory, stated on lines first to last as text: the
// subjects judge later sizes against it.
func (d *doc) setHostMemory(sub *subjects, kb int64, first, last int, text string) {
	d.tl.Host.MemTotalKB = kb
	sub.memKB = kb
	clear(sub.section)
	d.addArtifact(KindStated, first, last, map[string]any{"mem_total_kb": kb, "text": text})
}

// reNotHostMemory: a sentence about a memory size that is not the machine's: a limit, a
// request, what is used or free, a container's or a guest's, a cgroup's in a command
// ("cgexec -g memory:12G", corpus 123) (checked in the sentence).
var reNotHostMemory = lazyre.New(`(?i)\b(?:limits?|requests?|used|usage|free|available|avail|container|pod|vm|guest|cache|buffers?|swap|heap|jvm|xmx|cg\w+|cgroups?|docker|kubectl|systemd-run)\b|--memory|限制|使用|已用|剩余|可用|空闲|容器|虚拟机|缓存|交换|使用量|残り|空き|使用中|свободн|использ|лимит|контейнер`)

// reSystemStorage: "system" followed by what names storage ("64 GB system disk").
var reSystemStorage = lazyre.New(`(?i)^\s*(?:disk|drive|partition|volume|ssd|hdd|image|storage|space)\b`)

// reThreshold: the words between a field and a number that make the number a bound to
// compare with ("SUnreclaim > 5GB", "Slab above 10 GB", "alert when SUnreclaim exceeds 4G").
var reThreshold = lazyre.New(`(?i)[<>≥≤]|\b(?:above|over|exceeds?|exceeding|more\s+than|greater\s+than|less\s+than|below|under|threshold|limit)\b`)

// reProcStatusVm: a memory field of /proc/PID/status as the file prints it ("VmSwap:\t
// 1980 kB", fs/proc/task_mmu.c task_mem), quoted in a sentence or a bare line
// (`grep VmSwap /proc/PID/status`).
var reProcStatusVm = lazyre.New(`\b(Vm(?:Swap|RSS|HWM|Size|Peak|Data|Lck|Pin)):\s*(\d+)\s*kB\b`)

// statedProcStatus keeps the /proc/PID/status memory fields the text quotes (fix20b): one
// process's figures, never the host's (no sample: no rule reads a process's VmSwap as the
// host's swap use).
func (d *doc) statedProcStatus(sub *subjects) {
	fields := map[string]int64{}
	var nos []int
	for _, p := range d.proseLines {
		if !strings.Contains(p.text, "Vm") || !strings.Contains(p.text, "kB") {
			continue
		}
		for _, m := range reProcStatusVm.FindAllStringSubmatchIndex(p.text, -1) {
			if subj, _ := sub.subjectAt(p.no, sentenceAround(p.text, m[0], m[1])); subj != "" {
				continue // another machine's, advice, the state after a fix
			}
			name := p.text[m[2]:m[3]]
			if _, ok := fields[name]; ok {
				continue
			}
			if v, err := strconv.ParseInt(p.text[m[4]:m[5]], 10, 64); err == nil {
				fields[name] = v
				nos = append(nos, p.no)
			}
		}
	}
	if len(nos) == 0 {
		return
	}
	first, last := spanOf(nos)
	d.addArtifact(KindStated, first, last, map[string]any{"process_status_kb": fields})
}

// statedSlab reads the slab fields of /proc/meminfo the text names with a size ("SUnreclaim
// is 2.3 GB") into one stated sample, when no meminfo of the host's gave them.
func (d *doc) statedSlab(sub *subjects) {
	for _, s := range d.tl.Samples {
		if _, ok := s.Mem("SUnreclaim"); ok {
			return
		}
	}
	mi := &kernel.Counters{}
	var nos []int
	for _, p := range d.proseLines {
		if !strings.Contains(p.text, "Slab") && !strings.Contains(p.text, "SUnreclaim") && !strings.Contains(p.text, "SReclaimable") && !strings.Contains(p.text, "slab") {
			continue
		}
		for _, m := range reStatedSlabField.FindAllStringSubmatchIndex(p.text, -1) {
			if subj, _ := sub.subjectAt(p.no, sentenceAround(p.text, m[0], m[1])); subj != "" {
				continue
			}
			name := slabFieldName(p.text[m[2]:m[3]])
			if reThreshold.MatchString(p.text[m[3]:m[4]]) {
				continue // "looking for SUnreclaim > 5GB": a threshold, not the host's value
			}
			if _, ok := mi.Get(name); ok {
				continue
			}
			if kb, ok := statedKB(p.text[m[4]:m[5]], p.text[m[6]:m[7]]); ok && kb >= 1024 {
				mi.Set(name, int64(kb))
				nos = append(nos, p.no)
			}
		}
	}
	if len(nos) == 0 {
		return
	}
	first, last := spanOf(nos)
	d.tl.Samples = append(d.tl.Samples, model.Sample{Source: spanSource(first, last) + " (" + StatedMark + ")", MemInfo: mi})
	d.addArtifact(KindStated, first, last, map[string]any{"meminfo_kb": mi})
}

// slabFieldName is the meminfo field a reStatedSlabField name stands for.
func slabFieldName(name string) string {
	switch l := strings.ToLower(name); {
	case len(name) > len("Slab") && strings.Contains(l, "unreclaimable"):
		return "SUnreclaim"
	case len(name) > len("Slab") && strings.Contains(l, "reclaimable") && name != "SReclaimable":
		return "SReclaimable"
	}
	return name
}

// statedSizes reads a size stated for a setting counted in pages ("default setting for
// tcp_mem ... is too high / - 1.6 GBytes on 32 bit highmem machine") as that setting's
// value in pages: the first size within six lines after the key is named, in its section,
// that is not a memory size ("600 MBytes of kernel memory").
func (d *doc) statedSizes(sub *subjects) {
	psz := int64(d.tl.Host.PageSize)
	if psz <= 0 {
		psz = 4096
	}
	n := len(d.tl.Settings)
	done := map[int]bool{}
	for k := 0; k < n; k++ {
		m := d.tl.Settings[k]
		if m.Form != "prose" || strings.TrimSpace(m.Value) != "" || !kernel.SysctlInPages(m.Names()) || done[m.Line] {
			continue
		}
		_, end := sub.sectionStart(m.Line)
		for _, p := range d.proseLines {
			if p.no <= m.Line || p.no > m.Line+6 || p.no >= end {
				continue
			}
			sm := reStatedSize.FindStringSubmatchIndex(p.text)
			if sm == nil {
				continue
			}
			after := strings.ToLower(strings.TrimSpace(p.text[sm[6]:sm[7]]))
			if strings.HasPrefix(after, "of") || strings.HasPrefix(after, "ram") || strings.HasPrefix(after, "mem") || strings.HasPrefix(after, "(") {
				continue
			}
			kb, ok := statedKB(p.text[sm[2]:sm[3]], p.text[sm[4]:sm[5]])
			if !ok {
				continue
			}
			pages := int64(kb*1024) / psz
			size := strings.TrimSpace(p.text[sm[2]:sm[5]+1]) + p.text[sm[5]+1:sm[6]]
			d.tl.Settings = append(d.tl.Settings, model.NewSettingMention(m.Key, strconv.FormatInt(pages, 10), "prose", p.no,
				fmt.Sprintf("line %d (stated in the text: %s, as pages of %d B)", p.no, strings.TrimSpace(size), psz)))
			done[m.Line] = true
			break
		}
	}
}

// statedFrames gives an allocation failure whose backtrace is not in the input the functions
// the prose says the backtrace holds ("always includes ... mv643xx_eth_poll ... and
// rxq_refill"), so the receive path is recognised.
func (d *doc) statedFrames(frames []string) {
	if len(frames) == 0 {
		return
	}
	for i := range d.tl.Events {
		if af := d.tl.Events[i].AllocFailure; af != nil && len(af.CallTrace) == 0 {
			af.CallTrace = append([]string(nil), frames...)
		}
	}
}

// statedNICs gives the stated link speeds to the physical NICs the input lists without a
// speed ("2 × 1Gbps (bonded)" for eth0 and eth1 of an ifconfig), else lists them as stated
// NICs when the input lists none.
func (d *doc) statedNICs(nics []kernel.NIC) {
	h := &d.tl.Host
	if len(h.NICs) == 0 {
		h.NICs = nics
		d.addArtifact(KindStated, d.proseLines[0].no, d.proseLines[len(d.proseLines)-1].no, map[string]any{"nics": nics})
		return
	}
	var bare []int
	for i, n := range h.NICs {
		if n.SpeedMbps > 0 {
			return
		}
		if !n.Virtual && !kernel.VirtualNICName(n.Name) {
			bare = append(bare, i)
		}
	}
	if len(bare) != len(nics) {
		return
	}
	for k, i := range bare {
		h.NICs[i].SpeedMbps = nics[k].SpeedMbps
	}
	d.addArtifact(KindStated, d.proseLines[0].no, d.proseLines[len(d.proseLines)-1].no, map[string]any{"nic_speeds": h.NICs})
}

// statedLinkMbps reads a link-speed match in Mbit/s.
func statedLinkMbps(m []string) (int64, bool) {
	if m[4] != "" { // "gigabit", "GbE"
		return 1000, true
	}
	unit := strings.ToLower(m[3])
	v := 1.0
	if m[2] != "" {
		var err error
		if v, err = strconv.ParseFloat(m[2], 64); err != nil {
			return 0, false
		}
	}
	switch unit {
	case "g", "giga":
		v *= 1000
	case "m", "mega":
	default:
		return 0, false
	}
	if v < 10 || v > 800_000 {
		return 0, false
	}
	return int64(math.Round(v)), true
}

// joinParagraph joins lines with spaces and returns a function from an offset in the joined
// text to the line it came from.
func joinParagraph(ps []proseLine) (string, func(int) int) {
	var b strings.Builder
	starts := make([]int, len(ps))
	for k, p := range ps {
		t := p.text
		if k > 0 {
			if hyphenatedAtEnd(ps[k-1].text) && startsLower(t) {
				// A word the page hyphenated where the line ends ("the like‐" /
				// "lihood of this process being killed", man(1)'s typesetting): one word.
				cur := b.String()
				b.Reset()
				b.WriteString(strings.TrimSuffix(strings.TrimSuffix(cur, "-"), "‐"))
				t = strings.TrimLeft(t, " \t")
			} else if listItemStart(t) && !sentenceEndsAt(b.String()) {
				// The next row of a list or table ("32  Enable remount read-only" / "64
				// Enable signaling of processes (term, kill, oom-kill)" / "128  Allow
				// reboot/poweroff"): an item of its own, not the previous one's sentence
				// going on, so a sentence end between them.
				b.WriteString(". ")
			} else {
				b.WriteByte(' ')
			}
		}
		starts[k] = b.Len()
		b.WriteString(t)
	}
	return b.String(), func(off int) int {
		k := 0
		for k+1 < len(starts) && starts[k+1] <= off {
			k++
		}
		return ps[k].no
	}
}

// reDefinitionAfter: the words after a figure that make it the subject of a definition, what
// a reader's reading would mean ("kswapd0 at 100% CPU means the kernel is constantly
// reclaiming", "... indicates"), not a reading the author took.
var reDefinitionAfter = lazyre.New(`(?i)^[^.;:!?]{0,24}?\b(?:means|indicates|signals|signifies|suggests|implies|is\s+a\s+(?:sign|symptom|hint))\b`)

// definitionAfter reports whether the figure ending at para[end] is defined rather than
// stated (reDefinitionAfter).
func definitionAfter(para string, end int) bool {
	return reDefinitionAfter.MatchString(para[end:min(len(para), end+80)])
}

// hyphenatedAtEnd reports whether t ends in a word broken by a hyphen ("like-", "like‐"): a
// lower-case letter, then the hyphen, at the end of the line.
func hyphenatedAtEnd(t string) bool {
	var h string
	switch {
	case strings.HasSuffix(t, "‐"):
		h = strings.TrimSuffix(t, "‐")
	case strings.HasSuffix(t, "-"):
		h = strings.TrimSuffix(t, "-")
	default:
		return false
	}
	return h != "" && h[len(h)-1] >= 'a' && h[len(h)-1] <= 'z'
}

// reListItem: the start of a list's or table's row: a number then two spaces or more (a
// table of values and meanings), a bullet, or an enumeration ("1.", "2)").
var reListItem = lazyre.New(`^[ \t]*(?:\d+(?:[ \t]{2,}|\t)\S|[-*•][ \t]+\S|\d{1,2}[.)][ \t]+\S)`)

// listItemStart reports whether t begins a list's or table's row (reListItem).
func listItemStart(t string) bool { return reListItem.MatchString(t) }

// sentenceEndsAt reports whether s, its trailing blanks aside, ends a sentence.
func sentenceEndsAt(s string) bool {
	s = strings.TrimRight(s, " \t")
	return s != "" && strings.ContainsRune(".!?:;", rune(s[len(s)-1]))
}

// startsLower reports whether t begins, after its indentation, with a lower-case letter.
func startsLower(t string) bool {
	t = strings.TrimLeft(t, " \t")
	return t != "" && t[0] >= 'a' && t[0] <= 'z'
}

// sentenceAround returns the sentence holding text[a:b]. A sentence ends at '.', '!' or '?'
// followed by a space or the end: the dots of "vm.min_free_kbytes" or "2.6.30" end none.
func sentenceAround(text string, a, b int) string {
	s := 0
	for i := a - 1; i >= 0; i-- {
		if sentenceEnd(text, i) {
			s = i + 1
			break
		}
	}
	for i := b; i < len(text); i++ {
		if sentenceEnd(text, i) {
			return text[s:i]
		}
	}
	return text[s:]
}

func sentenceEnd(text string, i int) bool {
	switch text[i] {
	case '.', '!', '?':
		return i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\t' || text[i+1] == '\n'
	}
	return false
}

// lastKeyBefore is the sysctl key the text named last at or before line no, within the
// paragraph that starts at line from: "this value" refers to it.
func (d *doc) lastKeyBefore(no, from int) (string, bool) {
	for k := len(d.tl.Settings) - 1; k >= 0; k-- {
		m := d.tl.Settings[k]
		if m.Line <= no && m.Line >= from {
			return m.Key, true
		}
	}
	return "", false
}

// reKernelShaped: a line shaped like a kernel message without a timestamp: a subsystem or
// device, a colon, the message ("EXT3-fs: mounted ...", "skge eth0: Link is up ...",
// "saa7133[0]: gpio: ...", "NET: Registered protocol family 10").
var reKernelShaped = lazyre.New(`^[A-Za-z][\w./\[\]-]{1,30}(?: [\w./\[\]-]{1,30})?: \S`)

// notKernelShaped are the words before a colon that start mail headers and prose labels.
var notKernelShaped = map[string]bool{"From": true, "To": true, "Cc": true, "Subject": true, "Date": true, "Re": true,
	"Note": true, "Update": true, "Edit": true, "Example": true, "Output": true, "Result": true, "Error": true, "Q": true, "A": true}

// unstampedLog reads a kernel log printed without timestamps (kernels without
// CONFIG_PRINTK_TIME, or dmesg -t): a run of at least five prose lines of which half are
// shaped like kernel messages becomes log records, so a healthy boot log reads as one (half:
// the rest are messages such as "kjournald starting.").
func (d *doc) unstampedLog() {
	// A line listed as unread output (unread.go, unreadcmd.go) is counted there, not as
	// prose, and is a command's output, not the kernel's: it ends a run.
	listed := unparsedLines(d.tl.Unparsed)
	for start := 0; start < len(d.proseLines); {
		if listed(d.proseLines[start].no) {
			start++
			continue
		}
		end := start + 1
		for end < len(d.proseLines) && d.proseLines[end].no == d.proseLines[end-1].no+1 && !listed(d.proseLines[end].no) {
			end++
		}
		shaped := 0
		for _, p := range d.proseLines[start:end] {
			if d.exampleLines[p.no] {
				shaped = -end // a guide's example in the run (exampleLog): no log of the host's
				break
			}
			if kernelShaped(p.text) {
				shaped++
			}
		}
		if n := end - start; n >= 5 && shaped*2 >= n {
			for _, p := range d.proseLines[start:end] {
				l := Line{No: p.no, Text: p.text, UptimeUsec: -1, Priority: -1, Kernel: true}
				d.appendPlainLog(&l)
				d.acct.Prose--
				d.markNotProse(p.no)
			}
			d.logOrder = true
		}
		start = end
	}
}

func kernelShaped(t string) bool {
	if !reKernelShaped.MatchString(t) {
		return false
	}
	word, _, _ := strings.Cut(t, ":")
	word, _, _ = strings.Cut(word, " ")
	return !notKernelShaped[word]
}

// statedRing is an RX ring size and its maximum stated in a sentence.
type statedRing struct {
	Rx, RxMax int64
	line      int
	nic       string // the interface, when the text names it
	maxWhy    string // where RxMax comes from when no maximum is stated
}

var (
	// A ring named in prose: "ring buffer settings", "RX ring", "环形缓冲区".
	reRingWord = lazyre.New(`(?i)\bring(?:\s+buffers?|\s+sizes?|\s+settings?)?\b|环形缓冲|環形緩衝|リングバッファ`)
	// An interface with its ring size: "eth0为1020", "eth1: 255", "eth1 is 255", and "1020 for
	// eth0", "255 on eth1".
	reNICRingSize = lazyre.New(`(?i)\b((?:eth|eno|ens|enp|em|bond|p\d+p)\w*)\s*(?:为|為|是|は|:|=|\bis\b|\bwas\b|\bat\b|\bof\b|\bset\s+to\b)?\s*(\d{2,5})\b|\b(\d{2,5})\s+(?:for|on)\s+((?:eth|eno|ens|enp|em|bond|p\d+p)\w*)`)
)

// statedRingsCompared reads ring sizes the text gives for two or more interfaces of the same
// machines that differ ("inconsistent ring buffer settings: 1020 for eth0 and 255 for eth1",
// "环形缓冲区设置不一致:eth0为1020,eth1为255"): the NICs took the larger size, so it is the
// least the smaller ring's maximum can be. The smallest ring is returned with that bound.
func statedRingsCompared(text string) (statedRing, bool) {
	sizes := map[string]int64{}
	var order []string
	for _, m := range reNICRingSize.FindAllStringSubmatch(text, -1) {
		nic, num := m[1], m[2]
		if nic == "" {
			nic, num = m[4], m[3]
		}
		n, err := strconv.ParseInt(num, 10, 64)
		if err != nil || n < 64 || n > 65536 {
			continue
		}
		if _, ok := sizes[nic]; !ok {
			order = append(order, nic)
			sizes[nic] = n
		}
	}
	if len(order) < 2 {
		return statedRing{}, false
	}
	lo, hi := order[0], order[0]
	for _, n := range order {
		if sizes[n] < sizes[lo] {
			lo = n
		}
		if sizes[n] > sizes[hi] {
			hi = n
		}
	}
	if sizes[lo] >= sizes[hi] {
		return statedRing{}, false
	}
	return statedRing{Rx: sizes[lo], RxMax: sizes[hi], nic: lo,
		maxWhy: fmt.Sprintf("%s's ring %d on the same machines, the least its maximum can be; ethtool -g %s gives the maximum", hi, sizes[hi], lo)}, true
}

// submatches is re.FindAllStringSubmatchIndex(s, -1) when ok, the cheap test the regexp's
// matches need (a word each must hold), and nil without running the regexp otherwise.
// titleProse is the text's title when it is prose: its first non-blank line, within the
// first three, set apart from the body by a blank line (or a markdown heading), as
// parse.go's titleAt has it. A reply that quotes the whole post quotes its title too ("> Sui
// oom-kill", then ">"), and a paste fenced whole opens with the fence: a line that is blank
// once its quoting is read is blank, and a fence's opening line above the title stands for
// none (titleBlank).
func (d *doc) titleProse() (proseLine, bool) { return d.titleUnder(false) }

// crumbTitle is the title heading under a tracker's breadcrumb (trackerCrumbs), which
// titleProse does not take: read only where the body says what the title is about (a
// headerless Mem-Info dump under a title naming an OOM, statedTitleOOM).
func (d *doc) crumbTitle() (proseLine, bool) { return d.titleUnder(true) }

func (d *doc) titleUnder(crumbed bool) (proseLine, bool) {
	if len(d.proseLines) == 0 || d.proseLines[0].no > 3 || d.text == "" {
		return proseLine{}, false
	}
	p := d.proseLines[0]
	pasteAuthor := p.no == 1 && pastebinAuthorHeader(d.wholeText())
	if p.no == 1 && len(d.proseLines) > 1 && (chatAuthorLine(p.text) || pasteAuthor) {
		p = d.proseLines[1] // the message under a chat's author line, a paste's title under its author
	}
	crumbs := 0 // the lines of a tracker's breadcrumb above the heading (trackerCrumbs)
	if crumbed {
		n := trackerCrumbs(d.proseLines)
		if n == 0 || !strings.HasPrefix(strings.TrimSpace(d.proseLines[n].text), "# ") {
			return proseLine{}, false
		}
		p, crumbs = d.proseLines[n], n
	}
	t := strings.TrimSpace(p.text)
	heading := strings.HasPrefix(t, "# ") || strings.HasPrefix(t, "## ")
	rest := d.wholeText()
	for no := 1; no <= p.no+1; no++ {
		line, after, found := strings.Cut(rest, "\n")
		line = strings.TrimRight(line, "\r")
		if no < p.no && no > crumbs && !titleBlank(line) && !(no == 1 && (fenceOpener(line) || chatAuthorLine(line) || pasteAuthor)) {
			return proseLine{}, false // a line of another kind stands above it
		}
		if no == p.no+1 {
			// a title stands over a body: a blank line, then more text
			return p, (heading || titleBlank(line)) && strings.TrimSpace(after) != ""
		}
		if !found {
			return p, heading
		}
		rest = after
	}
	return proseLine{}, false
}

// trackerCrumbs: the number of lines, from line 1, of an issue tracker's breadcrumb above
// a page's title heading (fix24c): "owner/repo · issue #10 · closed · Makefile" (the
// repository, the thread's kind and number, its state, fields joined by " · ", as the
// tracker's page heads it), then at most one "labels: ..." line. 0 when line 1 is none: a
// sentence with a middle dot, a heading of its own.
func trackerCrumbs(ps []proseLine) int {
	if len(ps) < 2 || ps[0].no != 1 {
		return 0
	}
	f := strings.Split(strings.TrimSpace(ps[0].text), " · ")
	if len(f) < 3 || len(f) > 6 || strings.Count(f[0], "/") != 1 || strings.ContainsAny(f[0], " \t") || !reTrackerThread.MatchString(f[1]) {
		return 0
	}
	n := 1
	if ps[1].no == 2 && strings.HasPrefix(ps[1].text, "labels: ") && len(ps) > 2 {
		n = 2
	}
	if ps[n].no != n+1 {
		return 0
	}
	return n
}

var reTrackerThread = lazyre.New(`^(?:issue|pull request|pr|discussion|merge request|bug) #?\d+$`)

// titleBlank: a line that holds nothing once its mail quoting (or a page's "<br>") is read
// ("", ">", "> ", ">>", "<br>").
func titleBlank(line string) bool {
	if len(line) >= 4 {
		line = stripHTMLLineTags(line) // a page's source: "<br>" alone is a blank line
	}
	t := strings.TrimLeft(stripHardBreak(line), " \t")
	if len(t) > 0 && t[0] == '|' {
		t = strings.TrimPrefix(t, "|") // "| " quoting's empty line (stripBarQuote)
	}
	t, _ = stripQuote(strings.TrimLeft(t, " \t"))
	return isBlank(t)
}

// chatAuthorLine: the line a chat's copy puts above a message, its author and the time
// ("Jane Doe  12:03 PM", Slack; "jdoe — Today at 12:03 PM", Discord; "Jane Doe  12:03"): the
// message's first line under it is what the person wrote first, a title as in a post.
func chatAuthorLine(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 8 || len(t) > 64 {
		return false
	}
	if strings.HasSuffix(t, " AM") || strings.HasSuffix(t, " PM") {
		t = t[:len(t)-3]
	}
	sp := strings.LastIndexByte(t, ' ')
	if sp < 1 {
		return false
	}
	clock, who := t[sp+1:], strings.TrimSpace(t[:sp])
	c := strings.IndexByte(clock, ':')
	if c < 1 || c > 2 || len(clock) != c+3 || !isDigits(clock[:c]) || !isDigits(clock[c+1:]) {
		return false
	}
	if strings.HasSuffix(who, " at") {
		// Discord: "jdoe — Today at", "jdoe — 11/29/2026 at"
		return strings.Contains(who, " — ")
	}
	// Slack: the author's name, then two blanks before the time.
	return strings.HasSuffix(t[:sp], " ") && who != "" && !strings.ContainsAny(who, ":[]()=<>")
}

// fenceOpener: a Markdown fence's opening line, "```" or "~~~" with at most a language
// word after it ("```text"), quoted or not.
func fenceOpener(line string) bool {
	t, _ := stripQuote(strings.TrimLeft(line, " \t"))
	t = strings.TrimSpace(stripHardBreak(t))
	if blockMarkup(t) || forumCaption(t) {
		return true
	}
	if !strings.HasPrefix(t, "```") && !strings.HasPrefix(t, "~~~") {
		return false
	}
	return !strings.ContainsAny(strings.Trim(t[3:], "`~"), " \t")
}

// titleNamesOOM: a title that names an out-of-memory or an OOM kill as what happened
// ("Sui oom-kill", "OOM out of memory errors", "Out of memory on the worker"), not as a
// question ("How does the OOM killer pick?"), a possibility, a negation ("no OOM kill
// since 2.1") or a piece of work on it ("Add OOM score option", "Document out-of-memory
// handling", "Expose an oom_kill metric").
func titleNamesOOM(t string) bool {
	if len(t) > 160 || !reTitleOOM.MatchString(t) {
		return false
	}
	return !reTitleQuestion.MatchString(t) && !reTitleAsks.MatchString(t) && !reHypothetical.MatchString(t) && !reNotBusy.MatchString(t) && !reTitleWork.MatchString(t)
}

// titleKilledByOS: a title that says a process was killed by the OS, the kernel, the system
// or Linux ("Manticore get killed by OS", "mysqld killed by the kernel"), and is a title of
// what happened (no question, possibility, negation or piece of work). Read only over a
// kernel Mem-Info dump (fix39a): alone, a kill by the OS may be any signal.
func titleKilledByOS(t string) bool {
	if len(t) > 160 || !containsFoldASCII(t, "killed") || !reTitleKilledByOS.MatchString(t) {
		return false
	}
	return !reTitleQuestion.MatchString(t) && !reTitleAsks.MatchString(t) && !reHypothetical.MatchString(t) && !reNotBusy.MatchString(t) && !reTitleWork.MatchString(t) && !reNegated.MatchString(t)
}

var reTitleKilledByOS = lazyre.New(`(?i)\bkilled\s+by\s+(?:the\s+)?(?:os|kernel|system|linux)\b|\b(?:os|kernel|linux)\s+killed\s+\w`)

// titleKillerAtWork: a title that names the kernel's OOM killer invoked, triggered or caused
// ("causes OOM-killer to be invoked", "EPGUpdater invoked oom-killer", "Linux Out of Memory
// Killer Triggered on ..."), and is a title of what happened (titleNamesOOM: no question,
// possibility, negation or piece of work: "Document when the OOM killer is invoked").
func titleKillerAtWork(t string) bool {
	return containsFoldASCII(t, "killer") && reTitleKillerAtWork.MatchString(t) && titleNamesOOM(t)
}

var reTitleKillerAtWork = lazyre.New(`(?i)\b(?:caus(?:es|ed|ing)|trigger(?:s|ed|ing)?|invok(?:es|ed|ing))\s+(?:the\s+|an?\s+)?(?:linux\s+|kernel(?:'s)?\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\b` +
	`|\b(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:(?:is|was|got|gets|being|to\s+be)\s+)?(?:invoked|triggered|kick(?:s|ed)?\s+in|fired|struck)\b`)

// oomMemoryFree: a title or sentence whose out-of-memory came "with lots of free memory" ("Redis OOM
// crash with lots of free memory", "out of memory despite 6 GB free RAM"): the author says
// the host's memory was free, so the failure is the program's own allocation (its address
// space, RLIMIT_AS, overcommit), not the host running out (fix17a). A kill word keeps the
// title a kill: the kernel's OOM killer or a cgroup's can kill with the host's memory free.
func oomMemoryFree(t string) bool {
	if !containsFoldASCII(t, "free") && !containsFoldASCII(t, "available") {
		return false
	}
	return reTitleMemoryFree.MatchString(t)
}

var reTitleMemoryFree = lazyre.New(`(?i)\b(?:with|despite|though|although|but)\s+(?:(?:lots|plenty|a\s+lot)\s+of\s+|enough\s+|much\s+|\d+(?:\.\d+)?\s*[gmkt]i?b?\s+(?:of\s+)?)?(?:free|available)\s+(?:memory|ram)\b|\b(?:memory|ram)\s+(?:is|was)\s+(?:still\s+)?(?:free|available)\b`)

var (
	// A title that asks without a question mark ("Page allocation failure – Am I running
	// out of memory"), or says memory is running low, not that it ran out.
	reTitleAsks = lazyre.New(`(?i)\b(?:am\s+i|are\s+we|is\s+(?:it|this|my|the)|running\s+out|run\s+out|low\s+on)\b`)
	reTitleOOM  = lazyre.New(`(?i)\boom\b|\boom[-_ ]?kill\w*|\bout[ -]of[ -]memory\b|内存溢出|内存不足|メモリ不足`)
	reTitleWork = lazyre.New(`(?i)\b(?:add\w*|support\w*|options?|flags?|features?|expose\w*|metrics?|document\w*|docs?|implement\w*|configur\w*|settings?|handl\w*|detect\w*|monitor\w*|avoid\w*|prevent\w*|protect\w*|scores?|adj|policy|refactor\w*|improve\w*|allow\w*|enable\w*|disable\w*|RFC|proposal|oom_kill|oom_score\w*)\b`)
)

// statedCount reads a count as prose writes it: "3205", "3,205" (thousands separated), "zero".
func statedCount(num string) (int64, bool) {
	if num == "zero" {
		return 0, true
	}
	v, err := strconv.ParseInt(strings.ReplaceAll(num, ",", ""), 10, 64)
	return v, err == nil && v >= 0
}

func submatches(ok bool, re *lazyre.Regexp, s string) [][]int {
	if !ok {
		return nil
	}
	return re.FindAllStringSubmatchIndex(s, -1)
}

// matches is re.FindAllStringIndex(s, -1) when ok (see submatches).
func matches(ok bool, re *lazyre.Regexp, s string) [][]int {
	if !ok {
		return nil
	}
	return re.FindAllStringIndex(s, -1)
}

// containsFoldASCII reports whether s holds word (lower case ASCII letters, none of which
// has a Unicode case fold outside ASCII) in any case, as a (?i) regexp would match it. It
// hops between the first letter's two cases with IndexByte, as strings.Index hops.
func containsFoldASCII(s, word string) bool {
	for _, c := range [2]byte{word[0], word[0] - 'a' + 'A'} {
		for from := 0; from+len(word) <= len(s); {
			i := strings.IndexByte(s[from:len(s)-len(word)+1], c)
			if i < 0 {
				break
			}
			i += from
			k := 1
			for k < len(word) && s[i+k]|0x20 == word[k] {
				k++
			}
			if k == len(word) {
				return true
			}
			from = i + 1
		}
	}
	return false
}

// rangeEnd: the number that follows is the upper end of a range ("10-20", "8–16", "8 to 16"):
// an estimate or a span, not a size the writer read off the machine.
func rangeEnd(before string) bool {
	b := strings.TrimRight(before, " ")
	for _, sep := range []string{"-", "\u2013", "\u2014", "~", " to"} {
		if r, ok := strings.CutSuffix(b, sep); ok {
			r = strings.TrimRight(r, " ")
			return r != "" && r[len(r)-1] >= '0' && r[len(r)-1] <= '9'
		}
	}
	return false
}

// reSeemHedge: "it would seem (that)", "it would appear (that)": the writer's reading of what
// happened, hedged; "would" there is no condition. Taken as the writer's statement about
// this host only where the text holds the kernel's own memory dump beside it (seemHedgeOff).
var reSeemHedge = lazyre.New(`(?i)\b(?:it\s+)?would\s+(?:seem|appear)\s+(?:that\s+|to\s+(?:be\s+)?)?`)

// reCanBefore: "can" right before a stated cause ("a leak can end up causing an OOM kill",
// "it can cause an OOM"): a possibility (reHypothetical has "can" only before a few verbs).
var reCanBefore = lazyre.New(`(?i)\bcan(?:\s+\S+){0,2}\s+$`)

// seemHedgeOff is the sentence without its "it would seem that" hedge (reSeemHedge).
func seemHedgeOff(sentence string) string {
	if !strings.Contains(sentence, "ould") {
		return sentence
	}
	return reSeemHedge.ReplaceAllString(sentence, "")
}

// kernelMemDump reports whether the text holds a show_mem dump ("Mem-Info:" and its
// counters, printed by the OOM killer's dump_header, warn_alloc and SysRq-m): the kernel's
// own record of memory at an event, beside which a hedged statement of an OOM kill is the
// writer's reading of their host. stated runs from finish, once every artifact is read.
func (d *doc) kernelMemDump() bool {
	for _, a := range d.tl.Artifacts {
		if a.Kind == KindShowMem {
			return true
		}
	}
	return false
}

// dumpIntroduction is the prose line that introduces the text's first show_mem dump: the
// last prose line within three lines above it (a fence or a blank between), ending with a
// colon.
func (d *doc) dumpIntroduction() (proseLine, bool) {
	first := 0
	for _, a := range d.tl.Artifacts {
		if a.Kind == KindShowMem {
			first = a.FirstLine
			break
		}
	}
	var intro proseLine
	found := false
	for _, p := range d.proseLines {
		if p.no >= first {
			break
		}
		intro, found = p, first-p.no <= 3
	}
	return intro, found && strings.HasSuffix(strings.TrimSpace(intro.text), ":")
}

// reIntroOOMKiller: the OOM killer named as what printed the output.
var reIntroOOMKiller = lazyre.New(`(?i)\b(?:oom|out[ -]of[ -]memory)[- _]?killer\b`)

// questionAt reports whether the sentence around para[i:j] asks whether it happened: a
// yes/no question, opened by an auxiliary and closed by "?" ("Is the second run causing an
// OOM kill?"). A why-question ("why did the OOM happen?", "왜 OOM이 발생한 것일까?")
// presupposes the event and stays a statement of it.
func questionAt(para string, i, j int) bool {
	for k := j; k < len(para); k++ {
		if strings.HasPrefix(para[k:], "。") || strings.HasPrefix(para[k:], "！") {
			return false
		}
		if sentenceEnd(para, k) {
			if para[k] != '?' {
				return false
			}
			return reYesNoQuestion.MatchString(sentenceAround(para, i, j))
		}
	}
	return false
}

// oomAskedAt: the match at para[i:j] is asked, not stated: in a yes/no question (questionAt)
// or in an embedded question after "whether" in its clause (reWhetherBefore) (fix28a).
func oomAskedAt(para string, i, j int) bool {
	return questionAt(para, i, j) || reWhetherBefore.MatchString(para[max(0, i-48):i]) || cjkAskedBefore(para, i)
}

// cjkAskedBefore (fix37b): the clause before a match opens a Chinese yes/no question in its
// A-not-A form or with 是否, "有没有被 OOM 杀过" (has it been OOM-killed?, a checklist's
// question, corpus 3170), "是否被 OOM killer 杀掉": what follows is asked, not stated. The
// asking words must be close before the match and in its clause (no comma or stop between),
// so "查了有没有日志，结果被 OOM 杀了" still states.
func cjkAskedBefore(para string, i int) bool {
	before := para[max(0, i-24):i]
	if !strings.Contains(before, "有") && !strings.Contains(before, "是") && !strings.Contains(before, "会") && !strings.Contains(before, "會") {
		return false // every asking form opens with one of these
	}
	return reCJKAskBefore.MatchString(before)
}

// reCJKAskBefore: 有没有, 有沒有, 有无, 有無, 是否, 是不是, 会不会, 會不會, 有冇 then at most
// a few characters of the clause (被, a subject) up to the end.
var reCJKAskBefore = lazyre.New(`(?:有没有|有沒有|有无|有無|是否|是不是|会不会|會不會|有冇)[^，,。！？；!?;\n]{0,6}$`)

// reWhetherBefore: the clause before a match is an embedded question, "check whether it",
// "not sure whether the process": what follows is asked, not stated (fix28a).
var reWhetherBefore = lazyre.New(`(?i)\bwhether\b[^.;:!?,\n]{0,40}$`)

// reYesNoQuestion: a sentence opened by an auxiliary verb, the form of a yes/no question.
var reYesNoQuestion = lazyre.New(`(?i)^\W*(?:is|are|was|were|do|does|did|could|can|would|will|has|have|might|may|should)\b`)

// oomOccurredNotStated: the reStatedOOMOccurred match at para[i:j] is a possibility, a
// prevention or a negation (the few characters before its verb say so), or the English
// sentence around it is advice; see reOOMOccurredNot.
func oomOccurredNotStated(para string, i, j int) bool {
	before := para[max(0, i-12):i]
	for len(before) > 0 && !utf8.RuneStart(before[0]) {
		before = before[1:]
	}
	return reOOMOccurredNot.MatchString(before) || reNegated.MatchString(para[max(0, i-24):i]) || koreanPlainPresent(para[i:j], para[j:])
}

// koreanPlainPresent (fix39c, corpus 3337): the match's Korean past adnominal "발생한" or
// "일어난" is the stem of the plain present "발생한다" / "일어난다" (it happens) when "다"
// follows, and of "발생한다면" (if it happens): how a JVM or the kernel behaves in
// general ("여기가 100%차면 OOM이 발생한다", when the old generation fills, an OOM happens),
// not an out-of-memory on this host.
func koreanPlainPresent(match, after string) bool {
	return (strings.HasSuffix(match, "발생한") || strings.HasSuffix(match, "일어난")) && strings.HasPrefix(after, "다")
}

// columnHeaderRow reports whether head is a table's header row over next: after an
// optional label ending in ':' ("RX errors:"), only words, as many as the numbers of next,
// which holds numbers only (iproute2's `ip -s -s link` prints "RX errors: length crc frame
// fifo overrun" over its five counters, ip/iplink.c print_link_stats64). Such a row names
// counters; it states nothing about their values.
func columnHeaderRow(head, next string) bool {
	if k := strings.LastIndexByte(head, ':'); k >= 0 {
		head = head[k+1:]
	}
	names := strings.Fields(head)
	vals := strings.Fields(next)
	if len(names) < 3 || len(names) != len(vals) {
		return false
	}
	for _, w := range names {
		if strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' && r != '-' }) >= 0 {
			return false
		}
	}
	for _, v := range vals {
		if _, err := strconv.ParseFloat(v, 64); err != nil {
			return false
		}
	}
	return true
}
