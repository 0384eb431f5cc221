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
	if j-i < 4 || !strings.EqualFold(para[i:i+4], "ooms") {
		return true // an inflected form (OOMed, OOM'd, OOMing) is the verb
	}
	return !reOOMsNounLead.MatchString(para[max(0, i-24):i])
}
