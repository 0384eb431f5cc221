package artifact

import "headroom/internal/lazyre"

// An OOM with no victim stated in words (fix30b, corpus 2630): "the task is not killed, as
// the OOM killer is unable to kill any process due to the OOMScoreAdjust", "the oom killer
// could not find any process to kill". The kernel's own line for it is "Out of memory and no
// killable processes..." (mm/oom_kill.c out_of_memory; kernel.MsgOOMNoKillable), and inside a
// memory cgroup whose every task has oom_score_adj -1000 the charge keeps failing and the
// killer keeps reporting: an out-of-memory the author states, whose victim there is none.
// Not a statement: a condition ("if the OOM killer is unable to kill any process, ..."), a
// rule about which tasks it spares ("cannot kill any process with/whose oom_score_adj ..."),
// a question, a negation of the failure ("it is not unable ...").
var reStatedOOMNoVictim = lazyre.New(`(?i)\boom[- _]?killer\s+(?:(?:is|was|were|has\s+been)\s+(?:unable|not\s+able)\s+to|can(?:not|'t|’t)|could(?:n't|n’t|\s+not)|fail(?:s|ed)\s+to)\s+(?:kill|find)\s+(?:any|a\s+single)\s+(?:killable\s+|other\s+)?(?:process(?:es)?|tasks?|victims?)\b`)

// reNoVictimRule: words right after the match that make it a rule about some processes
// ("... any process with oom_score_adj -1000", "... whose score is -1000").
var reNoVictimRule = lazyre.New(`(?i)^\s*(?:with|whose|that|which|having|unless|if)\b`)

// reNoVictimCondition: a condition or a question word in the clause before the match.
var reNoVictimCondition = lazyre.New(`(?i)\b(?:if|when|whenever|unless|whether|once|in\s+case)\b`)

// statedOOMNoVictim: the offsets of the first such statement in para; ok false for none.
// The clause before it (back to a comma or a sentence's end) carries no negation or
// condition: "the task is not killed, as the OOM killer is unable ..." negates the task's
// kill, not the killer's failure.
func statedOOMNoVictim(para string) (int, int, bool) {
	for _, m := range reStatedOOMNoVictim.FindAllStringIndex(para, -1) {
		clause := para[max(0, m[0]-60):m[0]]
		for k := len(clause) - 1; k >= 0; k-- {
			if c := clause[k]; c == ',' || c == '.' || c == ';' || c == '!' || c == '?' || c == '\n' || c == ':' {
				clause = clause[k+1:]
				break
			}
		}
		if reNegated.MatchString(clause) || reNoVictimCondition.MatchString(clause) || reNoVictimRule.MatchString(para[m[1]:]) || questionEndsAt(para, m[1]) {
			continue
		}
		return m[0], m[1], true
	}
	return 0, 0, false
}

// reKillerCannot: a modal or a negation between the killer and its verb in
// reStatedOOMKill's match ("the OOM killer cannot kill", "couldn't kill", "is unable to
// kill", "did not kill"): the kill did not happen; statedOOMNoVictim reads the event forms.
var reKillerCannot = lazyre.New(`(?i)\b(?:cannot|can't|can’t|couldn't|couldn’t|could\s+not|unable|not\s+able|fail(?:s|ed)?\s+to|won't|doesn't|didn't|did\s+not|does\s+not|never)\b`)
