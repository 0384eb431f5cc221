package artifact

import (
	"headroom/internal/lazyre"
)

// fix35a (corpora 2975, 2984, 2998, 3027): an OOM kill the author states in one of three
// forms no other stated reader takes:
//
//   - the container runtime's reason OOMKilled told in prose as the container's outcome: "the
//     container is terminated with reason `OOMKilled`", "hit the 2Gi cgroup limit →
//     **OOMKilled (exit 137)**". Kubernetes sets the reason OOMKilled (and docker its
//     State.OOMKilled) only when the container's memory cgroup reported an OOM kill
//     (kube_pod.go reads the same reason from kubectl's own output);
//     fix39a (corpus 3285): the outcome as a crash, "the pod crashes with a OOMKilled and
//     error code 137": the reason after "crashes with", an article allowed;
//   - docker's State.OOMKilled flag told as having turned true: "the `OOMKilled` snapshot
//     changed from false ... to true", "oomkilled (false → true)" (kube_runner.go reads the
//     flag in docker inspect's JSON);
//   - the OOM killer's repeated kills in the present or past progressive: "oom-killer keeps
//     killing squid or httpd processes", "the OOM killer kept killing mysqld".
//
// A question ("is it terminated with reason OOMKilled?"), a condition or advice ("if it gets
// terminated with reason OOMKilled", "to avoid the OOM killer killing ..."), a negation ("was
// not terminated with OOMKilled", "OOMKilled changed from true to false") and a general
// statement ("the OOM killer keeps killing the process with the highest score") state
// nothing.
var reStatedOOMKilledReason = lazyre.New("(?i)\\b(?:terminated|killed|exited|restarted|stopped|died|ended|crash(?:es|ed)?)\\s+(?:with\\s+(?:an?\\s+)?|by\\s+)?(?:(?:the\\s+)?(?:reason|status|state)\\s*:?\\s*)?[`*\"'_]*OOMKilled\\b" +
	"|(?:→|->|=>)\\s*[`*\"'_]*OOMKilled\\b" +
	// fix44a (corpus 3698): the exit code with more of the state in the same parentheses,
	// "**OOMKilled** (exit 137, `reason: OOMKilled`)".
	"|\\bOOMKilled[`*\"'_]*\\s*(?:error\\s*)?\\((?:exit|error)(?:\\s+code)?\\s*:?\\s*137(?:\\)|[,;]\\s[^()\\n]{0,40}\\))" +
	// fix44a (corpus 3698): the reason as the passive participle of the container it killed,
	// in markdown's emphasis or code: "`ollama-0` was being **OOMKilled**", "got `OOMKilled`"
	// (the plain "was OOMKilled" is read already).
	"|\\b(?:was|were|got|gets|getting|been|being)\\s+(?:being\\s+|repeatedly\\s+|constantly\\s+|again\\s+)?(?:\\*\\*|__|[`*_])OOMKilled\\b" +
	// fix41a (corpus 3444): the reason as the cause or the manner of a restart or an exit,
	// "restart every now and then due to an OOMKilled error", "exiting w/ the same
	// OOMKilled error (error 137)": the container's outcome, as above.
	"|\\b(?:restart(?:s|ed|ing)?|terminat(?:es|ed|ing)|exit(?:s|ed|ing)?|die[sd]|dying|crash(?:es|ed|ing)?|fail(?:s|ed|ing)?)\\b[^.;?!\\n]{0,40}?\\b(?:due\\s+to|because\\s+of|with|w/)\\s+(?:an?\\s+|the\\s+(?:same\\s+)?)?[`*\"'_]*OOMKilled\\b" +
	// fix42a (corpus 3573): the reason as the status a pod or container shows, the way
	// kubectl get pods prints it in its STATUS column: "with hub pod showing OOMKilled
	// status", "the hub pod shows OOMKilled status", "its status was OOMKilled".
	"|\\b(?:show(?:s|ed|ing|n)?|display(?:s|ed|ing)?|report(?:s|ed|ing)?|(?:is|was|were|went|goes|got)\\s+(?:in|into))\\s+(?:an?\\s+|the\\s+)?[`*\"'_]*OOMKilled[`*\"'_]*\\s+(?:status|state)\\b" +
	"|\\b(?:status|state)\\s+(?:is|was|were|shows|showed|became|turned\\s+to)\\s+[`*\"'_]*OOMKilled\\b" +
	// fix48a (corpus 4002): the orchestrator's OOMKilled told as an act it does to a pod or
	// container: "Kubernetes issues OOMKilled operation on elasticsearch pod", "k8s triggered
	// an OOMKilled on the api container". The object after "on" must be a pod or container.
	"|\\b(?:issues|issued|issuing|triggers|triggered|performs|performed|does|did|applies|applied)\\s+(?:an?\\s+|the\\s+)?[`*\"'_]*OOMKilled[`*\"'_]*\\s+(?:(?:operation|action|event|kill|status)\\s+)?(?:on|to|against)\\s+(?:the\\s+|an?\\s+|its\\s+|our\\s+|my\\s+)?[\\w.-]+\\s+(?:pods?|containers?)\\b")

var reStatedOOMKilledFlag = lazyre.New("(?i)\\bOOMKilled\\b[`*\"'_]*[^.;\\n]{0,60}?\\b(?:changed|went|flipped|turned|switched)\\s+from\\s+[`\"']?false[`\"']?[^.;\\n]{0,60}?\\bto\\s+[`\"']?true\\b" +
	"|\\bOOMKilled[`*\"'_]*\\s*\\(\\s*false\\s*(?:→|->|=>|to)\\s*true\\b")

var reStatedOOMKillerKeeps = lazyre.New(`(?i)\b(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:keeps|kept|is|was|were|has\s+been|had\s+been|started|starts|began)\s+(?:on\s+)?killing\s+(?:the\s+|my\s+|our\s+|its\s+)?[\w.-]+`)

// fix42a (corpora 3555, 3559): a platform's or an orchestrator's kill of a container or a task
// at its memory limit, told in prose without the word OOM: "my server is constantly
// restarting after hitting a memory limit" (Railway), "ECS repeatedly kept shutting down and
// restarting that specific instance due to it running out of memory". ECS says it in its own
// stopped reason, "OutOfMemoryError: Container killed due to memory usage" (the ECS
// developer guide's out-of-memory page): the container's memory cgroup reached the task's
// limit. The kill, stop or restart comes first, then why: running out of memory, hitting (or
// exceeding) a memory limit, or the memory used. A condition, advice, a question, a
// negation, a possibility ("might get restarted for exceeding its memory limit") and a
// general statement ("containers are killed when they exceed their memory limit") state
// nothing (statedOOMKilledStated's guards).
var reStatedKilledForMemory = lazyre.New(`(?i)\b(?:kill(?:s|ed|ing)?|restart(?:s|ed|ing)?|reboot(?:s|ed|ing)?|shut(?:s|ting)?\s+(?:it\s+)?down|stop(?:s|ped|ping)|terminat(?:es|ed|ing)|recycl(?:es|ed|ing))\b[^.;?!\n]{0,60}?\b(?:due\s+to|because\s+of|after|for|from|on|upon)\s+(?:it\s+|its\s+|them\s+|their\s+|the\s+|a\s+)?` +
	`(?:(?:running|ran)\s+out\s+of\s+(?:memory|ram)\b|(?:hitting|reaching|exceeding|hit|reached|exceeded|going\s+over|overrunning)\s+(?:its\s+|the\s+|a\s+|their\s+|my\s+|our\s+)?(?:container\s+|task\s+|pod\s+)?(?:memory|mem|ram)\s+(?:limit|quota|cap|ceiling)\b|memory\s+usage\b)`)

// A kill the killer "keeps" doing is no reference page's voice: its generic test is the
// victim named by kind (reKillerKindVictim) and a habitual adverb, not genericStatement's
// markers (which take "squid or httpd processes" for a kind).
//
// reKillerKindVictim: the OOM killer's victim named by kind, as a reference page does ("keeps
// killing the process with the highest score", "kept killing a process", "killing processes").
var reKillerKindVictim = lazyre.New(`(?i)\bkilling\s+(?:the\s+(?:process|task)\s+with\b|the\s+(?:largest|biggest|heaviest|worst)\b|an?\s+(?:random\s+)?(?:process|task|victim)\b|(?:random\s+)?(?:processes|tasks)\b|whatever\b|whichever\b)`)

// statedOOMKilledStated: the offsets of an OOM kill stated in the forms above.
func statedOOMKilledStated(para string) [][]int {
	hasKilled := containsFoldASCII(para, "oomkilled")
	hasKiller := containsFoldASCII(para, "killer") && containsFoldASCII(para, "killing")
	hasMemory := containsFoldASCII(para, "memory") || containsFoldASCII(para, "ram")
	if !hasKilled && !hasKiller && !hasMemory {
		return nil
	}
	var out [][]int
	keep := func(m []int, byKind bool) bool {
		match := para[m[0]:m[1]]
		act := reOOMKilledAct.MatchString(match)
		if act {
			// Present tense is the orchestrator's act on a pod named by name, not a
			// general statement; a quantifier ("on any pod", "on every container") is one.
			if reActQuant.MatchString(match) {
				return false
			}
			byKind = true
		}
		// The act form's own clause (andClause): "It probably leaves no memory ... and
		// Kubernetes issues OOMKilled operation on elasticsearch pod" hedges the cause, not
		// the kill.
		g := guardOpts{noGeneric: byKind, mechanism: true, asked: true, neg: negLeadTail, hedge: reOOMGotHedge, andClause: act}
		return !(notTheHostsEvent(para, m, g) || acrossCells(match) ||
			reKillerKindVictim.MatchString(match+para[m[1]:min(len(para), m[1]+40)]))
	}
	if hasKilled {
		for _, re := range []*lazyre.Regexp{reStatedOOMKilledReason, reStatedOOMKilledFlag} {
			for _, m := range re.FindAllStringIndex(para, -1) {
				if keep(m, false) {
					out = append(out, m)
				}
			}
		}
	}
	if hasMemory {
		for _, m := range reStatedKilledForMemory.FindAllStringIndex(para, -1) {
			if keep(m, false) {
				out = append(out, m)
			}
		}
		for _, m := range reStatedKilledOverSize.FindAllStringSubmatchIndex(para, -1) {
			// "that" and "it" stand for a memory size only when the sentence names one before
			// the kill ("I started with 2GB ..., but we had a container killed for exceeding that").
			if m[2] < 0 && !reMemSize.MatchString(para[sentenceStartAt(para, m[0]):m[0]]) {
				continue
			}
			if keep(m[:2], false) {
				out = append(out, m[:2])
			}
		}
	}
	if hasKiller {
		for _, m := range reStatedOOMKillerKeeps.FindAllStringIndex(para, -1) {
			if keep(m, true) && !reHabitual.MatchString(sentenceAround(para, m[0], m[1])) {
				out = append(out, m)
			}
		}
	}
	return out
}

// fix48a (corpus 4003): an orchestrator's kill of a container told by the memory size it
// went over, not by the words "memory limit": "we just had a container automatically killed
// for exceeding that" after "I started with 2GB", "the task was killed for exceeding 512 MiB".
// It is ECS's "Container killed due to memory usage" (the task's hard limit is the container's
// memory cgroup limit) and the kubelet's OOMKilled told in words. The size is in the match
// (group 1) or, for "that" and "it", earlier in the same sentence; statedOOMKilledStated's
// guards (question, condition, negation, general statement) apply.
var (
	reStatedKilledOverSize = lazyre.New(`(?i)\b(?:killed|terminated|stopped|restarted|recycled)\s+(?:automatically\s+|again\s+|repeatedly\s+)?(?:for|after|because\s+of|due\s+to)\s+(?:exceeding|going\s+over|overrunning|using\s+more\s+than)\s+(?:(\d+(?:\.\d+)?\s*[KMGT]i?B\b)|that\b|it\b)`)
	reMemSize              = lazyre.New(`(?i)\b\d+(?:\.\d+)?\s*[MGT]i?B\b`)
)

// sentenceStartAt is the offset where the sentence of text holding offset b begins.
func sentenceStartAt(text string, b int) int {
	for i := b - 1; i > 0; i-- {
		if sentenceEnd(text, i) {
			return i + 1
		}
	}
	return 0
}

// reOOMKilledAct: the act form of reStatedOOMKilledReason (fix48a).
var reOOMKilledAct = lazyre.New(`(?i)^(?:issues|issued|issuing|triggers|triggered|performs|performed|does|did|applies|applied)\s`)

var reActQuant = lazyre.New(`(?i)\s(?:on|to|against)\s+(?:any|every|each|some|whichever|whatever|all)\s`)
