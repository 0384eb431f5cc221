package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// fix50b (corpus 4200): the kernel's OOM report named by the one who read it in the kernel's
// log, with a determiner that says the entries are there: "Looking closely at the oom dmesg
// entries again", "went through the OOM entries in kern.log", "those oom-killer messages in
// syslog". The kernel writes its OOM killer's report (mm/oom_kill.c dump_header and
// __oom_kill_process: "Out of memory: Killed process N") to its ring buffer, which dmesg,
// kern.log, syslog and journalctl -k show; "the OOM entries in dmesg" are that report, so the
// OOM killer ran on the host the sentence is about. The kill lines are not pasted: a stated
// OOM kill (model.RateStatedOOM), cited at the sentence.
//
// Only with "the", "these" or "those" (the entries exist): "check dmesg for oom entries",
// "are there any OOM messages in dmesg?", "no oom entries in dmesg", advice in the
// imperative ("Look at the OOM entries in dmesg") and a question state nothing; nor does a
// program's own "out of memory" log (no kernel log named).
var reStatedOOMEntries = lazyre.New(`(?i)\b(?:the|these|those)\s+(?:oom|oom[- _]?killer(?:'s|’s)?|out[ -]of[ -]memory)\s+(?:dmesg|kern\.log|kernel(?:\s+log)?|syslog|console|journal)\s+(?:entries|messages|lines|records|reports?|output)\b` +
	`|\b(?:the|these|those)\s+(?:oom|oom[- _]?killer|out[ -]of[ -]memory)\s+(?:entries|messages|lines|records|reports?)\s+in\s+(?:the\s+)?(?:dmesg|kern\.log|kernel(?:'s|’s)?\s+log|syslog|console|journal)\b`)

// reImperativeLead: the sentence opens with a request or advice to the reader.
var reImperativeLead = lazyre.New(`(?i)^\W*(?:please\s+|pls\s+|just\s+|also\s+|first(?:ly)?,?\s+|then\s+)?(?:look|check|read|see|grep|search|inspect|examine|review|compare|paste|post|share|send|attach|run|try|show|find|verify|confirm|provide)\b`)

// statedOOMEntries: the offsets of reStatedOOMEntries stated as the host's event.
func statedOOMEntries(para string) [][]int {
	if !containsFoldASCII(para, "oom") && !containsFoldASCII(para, "out of memory") && !containsFoldASCII(para, "out-of-memory") {
		return nil
	}
	var out [][]int
	g := guardOOMGot
	g.qmark = true
	for _, m := range reStatedOOMEntries.FindAllStringIndex(para, -1) {
		sentence := sentenceAround(para, m[0], m[1])
		if reImperativeLead.MatchString(sentence) || reNegatedJustBefore.MatchString(para[max(0, m[0]-40):m[0]]) || notTheHostsEvent(para, m, g) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// fix50b (corpus 4199): a launcher's report of its process killed by SIGKILL (Open MPI's
// "mpirun noticed that process rank 0 with PID 21183 on node host01 exited on signal 9
// (Killed).", buildKilledLine) and the author's statement that the process needs more memory
// than the machine it ran on has: "every rank requires atleast 98GB per rank. Whereas i have
// 64GB per node." A process whose stated need is over the machine's stated RAM cannot run in
// it; the kernel's OOM killer ends such a process with SIGKILL, and the SIGKILL line says it
// was ended so. Read as a stated out-of-memory (model.RateStatedOOM), cited at the sentences,
// as statedRAMCuredKill's: both are needed (a need over the RAM without a kill says nothing
// happened yet, a SIGKILL alone names no sender), and the need must be larger.
//
// The need: "requires/needs (at least) N GB", "N GB per rank/process is required". The have:
// the author's own machine in the first person ("I have 64GB per node", "my nodes have
// 64 GB", "our machine has 16GB of RAM"), in the same or the next sentence. A question, a
// condition or advice (reNotAStatement) states neither.
var (
	reMemNeed = lazyre.New(`(?i)\b(?:requires?|required|needs?|needed|needing|requiring|takes?|uses?|using|consumes?)\s+(?:at\s*least\s+|a\s+minimum\s+of\s+|about\s+|around\s+|roughly\s+|over\s+|more\s+than\s+)?(\d+(?:\.\d+)?)\s*(GB|GiB|G|TB|TiB|MB|MiB)\b`)
	reMemHave = lazyre.New(`(?i)\b(?:i|we)\s+(?:only\s+)?(?:have|had|got)\s+(?:only\s+)?(\d+(?:\.\d+)?)\s*(GB|GiB|G|TB|TiB|MB|MiB)\b(?:\s+(?:of\s+)?(?:ram|memory))?(?:\s+(?:per|on\s+each|in\s+each|on\s+every)\s+(?:node|machine|host|server|box))?` +
		`|\b(?:my|our)\s+(?:\w+\s+)?(?:nodes?|machines?|hosts?|servers?|boxes|box|vms?)\s+(?:only\s+)?(?:have|has|had)\s+(?:only\s+)?(\d+(?:\.\d+)?)\s*(GB|GiB|G|TB|TiB|MB|MiB)\b`)
)

// memGB: a size and its unit in GB.
func memGB(n, unit string) float64 {
	v, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return 0
	}
	switch strings.ToUpper(unit)[0] {
	case 'M':
		return v / 1024
	case 'T':
		return v * 1024
	}
	return v
}

// statedNeedOverRAMKill: the offsets of the need's sentence in para when the text holds a
// launcher's or a build's SIGKILL line (hasKill) and the author's machine has less.
func statedNeedOverRAMKill(para string, hasKill bool) [][]int {
	if !hasKill || !containsFoldASCII(para, "gb") && !containsFoldASCII(para, "mb") && !containsFoldASCII(para, "tb") && !containsFoldASCII(para, "gib") {
		return nil
	}
	for _, n := range reMemNeed.FindAllStringSubmatchIndex(para, -1) {
		ns := sentenceAround(para, n[0], n[1])
		if reNotAStatement.MatchString(ns) {
			continue
		}
		need := memGB(para[n[2]:n[3]], para[n[4]:n[5]])
		// The have in the need's sentence or the next one.
		next := sentenceEndAt(para, n[1])
		if next < len(para) {
			next = sentenceEndAt(para, next)
		}
		for _, h := range reMemHave.FindAllStringSubmatchIndex(para[:next], -1) {
			if h[0] < n[1] || h[1] > next {
				continue
			}
			if reNotAStatement.MatchString(sentenceAround(para, h[0], h[1])) {
				continue
			}
			a, b := 2, 4
			if h[2] < 0 {
				a, b = 6, 8
			}
			have := memGB(para[h[a]:h[a+1]], para[h[b]:h[b+1]])
			if have > 0 && need > have {
				return [][]int{{n[0], n[1]}}
			}
		}
	}
	return nil
}
