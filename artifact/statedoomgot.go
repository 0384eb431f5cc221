package artifact

import (
	"strings"

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
	`|\b(?:was|were|am|keep|kept|started|start|began)\s+(?:also\s+)?getting\s+(?:OOMs\b|(?:the\s+)?(?:OOM|out[ -]of[ -]memory)(?:[- ]?killer)?\s+(?:messages|kills|errors)\b)`)

// reStatedGotOOM (fix41a, corpus 3463): "got OOM" as the victim's predicate, the way
// operators say a daemon was killed for its memory: "the memory cost went to 12GB and got
// OOM", "gobgpd gets OOM again every few days". Only at a clause's end or before what
// follows the event ("and", "then", "again", "after", "every", "during"): "got OOM errors",
// "got OOM when allocating tensor" (a framework's own message) and "got OOM-killer
// messages" are other forms or none. A program's own out-of-memory in the sentence is that
// program's, not a kill.
var reStatedGotOOM = lazyre.New(`(?i)\b(?:got|gets|getting)\s+(?:an?\s+)?OOM(?:[- ]?killed)?(?:\s*[.;,!)]|\s+(?:and|then|again|after|every|during|twice|several|many|multiple)\b|\s*$)`)

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
	keep := func(m []int) bool {
		sentence := sentenceAround(para, m[0], m[1])
		match := para[m[0]:m[1]]
		lead := sentence[:max(0, strings.Index(sentence, match))]
		return !(hypotheticalUpTo(sentence, match) || genericStatement(sentence, match) || oomMechanism(sentence, match) || questionAt(para, m[0], m[1]) || askedAt(para, m[1]) ||
			reNegated.MatchString(lead) || reOOMGotHedge.MatchString(lead))
	}
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
	if containsFoldASCII(para, "kernel") && containsFoldASCII(para, "memory") {
		for _, m := range reKilledByKernel.FindAllStringIndex(para, -1) {
			if reMemoryClause.MatchString(para[max(0, m[0]-100):m[0]]) && keep(m) {
				out = append(out, m)
			}
		}
	}
	return out
}
