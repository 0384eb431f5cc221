package artifact

import (
	"headroom/internal/lazyre"
)

// fix27b (corpora 2349, 2351, 2353): an OOM kill the author tells in words no other stated
// reader takes:
//
//   - the victim "reaped", "killed", "taken out" by the OOM killer in the passive: "SoftEther
//     steadily eats more and more memory until it eventually gets reaped by the OOM-killer";
//   - fix39a (corpus 3284): the killer set on its victim, "the kernel triggers the OOM killer
//     on the puma worker" (the kernel, the system or "it" as the subject, the victim after
//     "on" or "against"; without a victim it says no kill happened);
//   - the kill messages received: "I was getting OOM messages on the console", "started
//     getting OOMs" (the kernel's out-of-memory report, mm/oom_kill.c, goes to the console);
//   - "killed by the kernel" in a clause about the victim's memory: "charon's memory usage was
//     high and was killed by the kernel" (the kernel kills a process for its memory only in
//     its out-of-memory path).
//
// A question ("is it getting killed by the OOM killer?"), a condition or advice ("if it gets
// reaped by the OOM killer", "to avoid being killed by the kernel"), a negation and a general
// statement state nothing; a kill by the kernel without memory in its clause (a segfault, a
// signal) is no OOM kill.
var reStatedOOMGot = lazyre.New(`(?i)\b(?:gets?|got|getting|was|were|is|are|being|been|be)\s+(?:eventually\s+|finally\s+|then\s+)?(?:reaped|killed|terminated|taken\s+out|shot(?:\s+down)?)\s+by\s+(?:the\s+)?(?:linux\s+|kernel(?:'s)?\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\b` +
	`|\b(?:kernel|system|os|it)\s+(?:triggers|triggered|invokes|invoked|fires|fired|runs|ran|unleashes|unleashed)\s+(?:the\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:on|against)\s+(?:the\s+|my\s+|our\s+|its\s+|a\s+)?[\w.-]+` +
	`|\b(?:was|were|am|keep|kept|started|start|began)\s+(?:also\s+)?getting\s+(?:OOMs\b|(?:the\s+)?(?:OOM|out[ -]of[ -]memory)(?:[- ]?killer)?\s+(?:messages|kills|errors)\b)` +
	// fix51b (corpus 4280): the author got the OOM killer's report, first person past: "But I
	// got oom-killer error" (a Jetson's engine build). The killer named: a program's own
	// "I got an out of memory error" is its allocator's, not the kernel's.
	`|\b(?:I|we)\s+(?:also\s+|then\s+|still\s+)?got\s+(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)[- _]?killer\s+(?:messages?|errors?|kills?)\b`)

// reStatedGotOOM (fix41a, corpus 3463): "got OOM" as the victim's predicate, the way
// operators say a daemon was killed for its memory: "the memory cost went to 12GB and got
// OOM", "gobgpd gets OOM again every few days". Only at a clause's end or before what
// follows the event ("and", "then", "again", "after", "every", "during"): "got OOM errors",
// "got OOM when allocating tensor" (a framework's own message) and "got OOM-killer
// messages" are other forms or none. A program's own out-of-memory in the sentence is that
// program's, not a kill.
var reStatedGotOOM = lazyre.New(`(?i)\b(?:got|gets|getting)\s+(?:an?\s+)?OOM(?:[- ]?killed)?(?:\s*[.;,!)]|\s+(?:and|then|again|after|every|during|twice|several|many|multiple)\b|\s*$)`)

// reStatedOOMMessagesSeen (fix48c, corpus 4041): the kernel's out-of-memory report read by
// the author in the kernel's log, in the first person: "when I look at my dmesg log ... I get
// the following out of memory messages", "I see these OOM messages in dmesg". The kernel
// writes its OOM killer's report (mm/oom_kill.c dump_header, oom_kill_process) to its ring
// buffer, which dmesg, the console, kern.log and journalctl -k show; a program's own "out of
// memory" message goes to its own log. So the sentence must name the kernel's log
// (reKernelLogNamed); "out of memory errors" in an app's log, a question and a condition
// state nothing.
var reStatedOOMMessagesSeen = lazyre.New(`(?i)\bI\s+(?:get|got|see|saw|am\s+getting|was\s+getting|keep\s+getting|kept\s+getting|found|find)\s+(?:the\s+following\s+|these\s+|those\s+|some\s+|several\s+|many\s+|lots\s+of\s+|a\s+bunch\s+of\s+)?(?:OOM|out[ -]of[ -]memory)(?:[- ]?killer)?\s+(?:messages|kills|alerts|lines|entries)\b`)

// reNegatedJustBefore (fix48c): a negation in the words just before the subject ("never",
// "I have not seen", "no longer"); reNegated reads a whole lead, where "any" or "few" in an
// earlier clause ("for any errors or alerts", "after a few minutes") negates nothing.
var reNegatedJustBefore = lazyre.New(`(?i)\b(?:no|not|never|without|nor|n't|no\s+longer)\s+(?:\w+\s+){0,2}$`)

// reKernelLogNamed: the kernel's log named in the sentence.
var reKernelLogNamed = lazyre.New(`(?i)\b(?:dmesg|kern\.log|kernel\s+log|journalctl\s+-k|console|syslog)\b`)

// reKilledByKernel: the kernel as the killer, read only with memory in the clause before it.
var reKilledByKernel = lazyre.New(`(?i)\b(?:was|were|got|gets?|be|been|being)\s+killed\s+by\s+(?:the\s+)?(?:linux\s+)?kernel\b`)

// reMemoryClause: the victim's memory named before the kill in the same clause ("memory usage
// was high and", "will occupy more than 6G and then").
var reMemoryClause = lazyre.New(`(?i)\bmemory\b[^.;!?]{0,80}$`)

// reOOMGotHedge: words before the match in its sentence that make it a condition, a fear or
// advice.
var reOOMGotHedge = lazyre.New(`(?i)\b(?:if|unless|whether|avoid\w*|prevent\w*|might|could|would|may|should|to\s+not|not\s+to|risk\w*|chances?|likel\w*|probab\w*|odds|afraid|fear|worr\w*)\b|n['’]t\b`)

// statedOOMGot: the offsets of an OOM kill stated as the host's event in one of the forms
// above.
func statedOOMGot(para string) [][]int {
	if !containsFoldASCII(para, "oom") && !containsFoldASCII(para, "out of memory") && !containsFoldASCII(para, "killed by") {
		return nil
	}
	var out [][]int
	keep := func(m []int) bool { return !notTheHostsEvent(para, m, guardOOMGot) }
	for _, m := range reStatedOOMGot.FindAllStringIndex(para, -1) {
		if keep(m) {
			out = append(out, m)
		}
	}
	for _, m := range reStatedGotOOM.FindAllStringIndex(para, -1) {
		if sentence := sentenceAround(para, m[0], m[1]); keep(m) && !programOOMText(sentence) && !frameworkKillText(sentence) {
			out = append(out, m)
		}
	}
	for _, m := range reStatedOOMMessagesSeen.FindAllStringIndex(para, -1) {
		// A negation just before the author ("never", "no"), not anywhere in the lead: "for any
		// errors or alerts I get the following out of memory messages" is no negation.
		g := guardOOMGot
		g.mechanism, g.qmark, g.neg, g.programOOM = false, true, negJustBefore, true
		if reKernelLogNamed.MatchString(sentenceAround(para, m[0], m[1])) && !notTheHostsEvent(para, m, g) {
			out = append(out, m)
		}
	}
	out = append(out, statedOOMEntries(para)...) // "the oom dmesg entries" (statedoomentries.go, fix50b)
	if containsFoldASCII(para, "kernel") && containsFoldASCII(para, "memory") {
		for _, m := range reKilledByKernel.FindAllStringIndex(para, -1) {
			if reMemoryClause.MatchString(para[max(0, m[0]-100):m[0]]) && keep(m) {
				out = append(out, m)
			}
		}
	}
	return out
}
