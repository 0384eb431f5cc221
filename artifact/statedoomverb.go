package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix40c (corpus 3395): OOM used as a verb, the way people who run containers and
// services say a process ran out of memory and was killed: "`kube-teleport-agent` OOMs
// frequently after a few days of usage", "omega-0005 OOMed on Fri Mar 3", "it OOM'd",
// "cloud-hypervisor is OOMing", "keeps OOMing". The inflected forms (OOMed, OOM'd, OOMing)
// are the verb wherever they stand; "OOMs" is the verb only before how often, when or where
// it happens (else a plural noun: "Frequent OOMs", "How to avoid OOMs?"). The bare "OOM"
// ("should not OOM frequently", the expected behaviour) is not read. What ran out (the host
// or a cgroup) and what was killed the words do not say: a stated out-of-memory, as
// reStatedOOM's.
var reStatedOOMVerb = lazyre.New(`(?i)\bOOM(?:ed|'d|’d|-ed|ing)\b` +
	// fix48b (corpus 4022, 4023, 4027, 4036): the same verb told three more ways. "OOMKills"
	// intransitive ("the new pod OOMKills immediately under the 512Mi limit"), kubelet's
	// reason OOMKilled made a verb, read where "OOMs" is (a plural noun otherwise: "8
	// OOMKills"); OOM as the state a thing is in or goes into ("the container goes OOM,
	// due to ...", "because the server is oom."), only at the clause's end or before its
	// cause or when (never "is OOM killer", "goes OOM-free", "is OOM a problem?"); and the
	// bare verb after a plural subject of processes ("random processes OOM (usually
	// tasks...)"), never before a noun it modifies ("processes OOM killer", "pods OOM
	// score").
	`|\b(?:goes|went|going|gone|is|was|were|are|been)\s+OOM(?:\s*(?:[.,;:!)]|$)|\s+(?:due|because|again|every|after|when|within|during|frequently|often|daily|regularly|sometimes|randomly|immediately|quickly|under)\b)` +
	`|\b(?:random|some|several|many|other|all|the|our|my|its|their)\s+(?:processes|pods|containers|workers|tasks|jobs|services)\s+OOM(?:\s*(?:[.,;:!(]|$)|\s+(?:due|because|again|every|after|when|within|during|frequently|often|daily|regularly|sometimes|randomly|immediately|quickly|under)\b)` +
	`|\bOOM[- ]?kills\s+(?:(?:very\s+|quite\s+|pretty\s+)?(?:frequently|often|constantly|regularly|repeatedly|periodically|occasionally|sometimes|randomly|daily|nightly|again|immediately|quickly)|every\b|after\b|within\b|on\s+(?:start|startup|boot|launch)|at\s+(?:around\s+|about\s+)?\d|during\b|when\b|while\b|under\s+(?:load|the|a|its|\d))` +
	`|\bOOMs\s+(?:(?:very\s+|quite\s+|pretty\s+)?(?:frequently|often|constantly|regularly|repeatedly|periodically|occasionally|sometimes|randomly|daily|nightly|again|immediately|quickly)|every\b|after\b|within\b|on\s+(?:start|startup|boot|launch)|at\s+(?:around\s+|about\s+)?\d|during\b|when\b|while\b|under\s+load)`)

// A verb form led by what prevents or avoids it ("to avoid OOMing the Nomad process",
// "prevent it from OOMing", "stop OOMing") is a goal, not an event.
var reOOMVerbAvoided = lazyre.New(`(?i)\b(?:avoid|avoids|avoiding|prevent|prevents|preventing|stop|stops|keep\s+\w+\s+from|from|without|not|never|no\s+longer|won't|wouldn't|doesn't|didn't|don't|isn't|wasn't|aren't|weren't)\s+(?:\w+\s+){0,2}$`)

// A plural noun's lead before "OOMs" ("fewer OOMs after the upgrade", "frequent OOMs
// during builds", "the OOMs at 3am"): a determiner, a quantifier or an adjective of how
// often, not a subject.
var reOOMsNounLead = lazyre.New(`(?i)(?:^|\W)(?:a|an|the|these|those|some|any|no|many|more|most|fewer|less|few|several|multiple|frequent|repeated|random|occasional|constant|regular|periodic|recurring|recurrent|of|with|see|saw|seeing|get|got|getting|had|have|having|cause|causes|caused|causing|prevent|avoid|reduce|two|three|\d+)\s+$`)

// oomVerbMatch: the match at para[i:j] is the verb, not "OOMs" as a plural noun.
func oomVerbMatch(para string, i, j int) bool {
	w := strings.ToLower(para[i:j])
	if !strings.HasPrefix(w, "ooms") && !strings.HasPrefix(strings.NewReplacer("-", "", " ", "").Replace(w), "oomkills") {
		return true // an inflected form (OOMed, OOM'd, OOMing), the state, a subject's verb
	}
	return !reOOMsNounLead.MatchString(para[max(0, i-24):i])
}

// reOOMVerbSubject: the subject of the fix48b subject form ("random processes" in "random
// processes OOM (usually tasks...)").
var reOOMVerbSubject = lazyre.New(`(?i)^(?:random|some|several|many|other|all|the|our|my|its|their)\s+(?:processes|pods|containers|workers|tasks|jobs|services)\s+`)

// oomVerbSentence: the sentence genericStatement judges for a verb match. The subject form's
// own subject ("random processes") is the event's subject, not the general "processes" of
// documentation's voice (reGenericMarker), so it stands as "it" there; a "when memory runs
// out" elsewhere in the sentence is still general.
func oomVerbSentence(sentence, match string) (string, string) {
	loc := reOOMVerbSubject.FindStringIndex(match)
	if loc == nil {
		return sentence, match
	}
	m := "it " + match[loc[1]:]
	out := strings.Replace(sentence, match, m, 1)
	if strings.HasSuffix(m, "(") {
		// The aside after the verb names which processes ("(usually tasks because celery
		// creates and deletes workers)"): who, not a general statement.
		at := strings.Index(out, m) + len(m)
		if k := strings.IndexByte(out[at:], ')'); k >= 0 {
			out = out[:at] + out[at+k:]
		}
	}
	return out, m
}
