package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// ev49a: one reader of a stated event by its event word, its subject and its tense, beside
// the ~35 readers of one surface form each. Held-out operators state an OOM kill or swapping
// in wordings no surface form foresaw ("OOMKills under the 512Mi limit", "the task getting
// killed by the OS" after "we ran out of memory on our worker PODs", "causing a lot of
// swapping", "takes all the memory of the server (like 15 GB and even the swap file)"); the
// sentence still has the three parts that make it a statement of this host's event:
//
//   - an event word (statedEventWords): an OOM kill (OOM-kill(ed), OOMKill(s), "goes OOM",
//     "OOMed", "reaped by the OOM killer"), a kill with memory as its cause or its moment
//     (killed/reaped/terminated after "ran out of memory", "killed for exceeding 2GB",
//     "being killed (way too high memory usage)"), or swapping (a lot of / heavy swapping,
//     swap full or exhausted, all the memory "and even the swap", thrashing the swap);
//   - a subject that is this host or the author's: the sentence's clause holding the event
//     does not put it on another machine ("on my laptop", "your server", reEventElsewhere);
//   - a tense and mood of a fact: past, progressive or the habitual present of the author's
//     system; a future, a modal, a condition, a question, a negation, advice, the voice of
//     documentation and a program's own out-of-memory message quoted are not (the one guard,
//     notTheHostsEvent, and reEventMood on the clause before the event).
//
// What it emits is what the older readers emit for the same finding: model.RateStatedOOM
// (oom-kill, stated: warning, host or cgroup undecided, so a pod's or a container's kill is
// not called a host-wide OOM) and model.RateStatedSwapping (swap-under-load, stated).

// eventKind: the finding a stated event supports.
type eventKind int

const (
	eventOOMKill eventKind = iota
	eventSwapping
)

// statedEventWord: an event word of one kind.
type statedEventWord struct {
	kind eventKind
	re   *lazyre.Regexp
}

var statedEventWords = []statedEventWord{
	// The OOM kill named: the participle after an auxiliary ("was OOM-killed", not the
	// name in "oomkilled container"), OOM as a state entered or a verb, the killer as the
	// agent. "The pod OOMKills under the 512Mi limit" is statedoomverb.go's; the plural noun
	// ("we saw 8 OOMKills") is left to it too (fix48b's counter-case).
	{eventOOMKill, lazyre.New(`(?i)\b(?:(?:was|were|got|gets|get|getting|been|being|is|are)\s+(?:\w+\s+)?oom[- _]?killed|(?:goes|went|gone|going)\s+oom|oom(?:ed|'d)|(?:killed|reaped|terminated|shot|taken\s+out)\s+(?:again\s+)?by\s+(?:the\s+)?(?:linux\s+|kernel(?:['’]s)?\s+)?oom[- _]?killer)\b`)},
	// fix49c (corpora 4118, 4124): the kill as the outcome of what was done, "start a single
	// reposilite instance on k8s results in a OOMKilled", "running any commands resulted in
	// OOMKilled again" (the container runtime's reason, OOMKilled, as the result); and the
	// killer as what the host is getting, "we are getting oom-killer" (the kernel's OOM
	// killer running on the author's host, no victim named; not "hitting OOM killer", a
	// test's name in a title: TestFix30aStatedOOMHitting).
	{eventOOMKill, lazyre.New(`(?i)\b(?:result(?:s|ed|ing)?\s+in|end(?:s|ed)?\s+(?:up\s+)?(?:in|with))\s+(?:an?\s+|the\s+)?oom[- _]?kill(?:ed|s)?\b`)},
	{eventOOMKill, lazyre.New(`(?i)\b(?:am|are|is|was|were|['’]re|keep|kept|started|start|began)\s+getting\s+(?:the\s+)?oom[- _]?killer\b`)},
	// fix49c (corpora 4106, 4088): the end told by its cause, "brokers start to die due to
	// an OOM situation"; and the machine itself out of memory, "the logs on the instance
	// indicated that the instance was out of memory" (what the rule's stated finding says:
	// memory ran out, host or cgroup not said). A program's own "out of memory" has a
	// program as its subject, not the machine. The match runs to the clause's end so that
	// the reader sees what followed: "the machine went out of RAM and began using
	// swapspace" (corpus 3464) is RAM full and swap in use, no out-of-memory; and "RAM" is
	// left out, as operators say it of a full RAM with swap to spare.
	{eventOOMKill, lazyre.New(`(?i)\b(?:die|dies|died|dying)\s+(?:due\s+to|because\s+of|from|of)\s+(?:an?\s+|the\s+)?(?:OOM|out[ -]of[ -]memory)\b`)},
	{eventOOMKill, lazyre.New(`(?i)\b(?:the|our|this|that)\s+(?:whole\s+|entire\s+)?(?:instance|server|host|machine|node|vm|vps|box)\s+(?:was|were|had\s+run|ran|went|had\s+gone)\s+(?:completely\s+|totally\s+)?out\s+of\s+memory\b[^.;!?\n]*`)},
	// A kill after running out of memory in the same sentence: "we ran out of memory on our
	// worker PODs and the task getting killed by the OS".
	{eventOOMKill, lazyre.New(`(?i)\b(?:ran|run|running|runs)\s+out\s+of\s+(?:memory|ram)\b[^.;!?\n]{0,80}?\b(?:and|so|then)\s+(?:then\s+)?(?:[\w-]+\s+){0,3}(?:(?:was|were|got|gets|getting|is\s+getting|was\s+getting|were\s+getting|being)\s+)?(?:killed|reaped|terminated)\b`)},
	// A kill with memory as its cause: "killed for exceeding 2GB", "terminated for using more
	// than its memory", "being killed (way to high memory usage)".
	{eventOOMKill, lazyre.New(`(?i)\b(?:was|were|got|gets|getting|being|been|is\s+being)\s+(?:\w+\s+)?(?:killed|reaped|terminated)\s+(?:(?:for|after|because\s+of|due\s+to)\s+(?:exceeding|using\s+(?:too\s+much|more\s+than)|running\s+out\s+of)\s+(?:its\s+|the\s+|their\s+)?(?:\d+(?:\.\d+)?\s*[MGT]i?B\b|memory\b|ram\b)|\(\s*(?:[\w-]+\s+){0,3}(?:memory|ram)\s+(?:usage|use|consumption)\b)`)},
	// Swapping told as what the load did: "causing a lot of swapping", "heavy swapping",
	// "it was swapping like crazy".
	{eventSwapping, lazyre.New(`(?i)\b(?:(?:a\s+lot\s+of|lots\s+of|heavy|excessive|constant|continuous|massive|severe|non-?stop)\s+swapping|swapping\s+(?:like\s+crazy|a\s+lot|heavily|constantly|badly))\b`)},
	// The swap used up: "swap is full", "the swap file got exhausted".
	{eventSwapping, lazyre.New(`(?i)\bswap\s*(?:file|space|partition)?\s+(?:is|was|got|gets|became|were)\s+(?:completely\s+|totally\s+|fully\s+)?(?:full|filled|exhausted|used\s+up)\b`)},
	// All the memory taken and the swap with it: "takes all the memory of the server (like
	// 15 GB and even the swap file)".
	{eventSwapping, lazyre.New(`(?i)\b(?:take|takes|took|taking|eat|eats|ate|eating|fill|fills|filled|filling|use|uses|used|using|consume[sd]?|consuming)\s+(?:up\s+)?all\s+(?:of\s+)?(?:the\s+|its\s+|my\s+|our\s+)?(?:memory|ram)\b[^.;!?\n]{0,60}?\beven\s+(?:all\s+)?(?:the\s+)?swap(?:\s*(?:file|space|partition))?\b`)},
	// The swap thrashed: "thrashing the swap", "thrashes swap".
	{eventSwapping, lazyre.New(`(?i)\bthrash(?:es|ed|ing)?\s+(?:the\s+|its\s+)?swap\b`)},
}

// reEventElsewhere: the clause puts the event on another machine or on the reader's.
var reEventElsewhere = lazyre.New(`(?i)\b(?:on|in|with)\s+(?:my|his|her|their|a|another|the\s+other)\s+(?:laptop|desktop|pc|mac|macbook|workstation|dev\s+(?:box|machine)|local\s+machine|other\s+(?:machine|server|box|host))\b|\byour\s+(?:machine|server|system|host|box|container|pod|node|vm|laptop)\b|\b(?:you|your)\b`)

// reEventMood: a future, a modal, a condition or a purpose before the event in its clause.
var reEventMood = lazyre.New(`(?i)\b(?:if|unless|whether|will|would|could|might|may|can|should|shall|must|avoid\w*|prevent\w*|to\s+not|not\s+to|risk\w*|likel\w*|probab\w*|possibl\w*|potential\w*|expect\w*|in\s+case)\b|['’]ll\b|n['’]t\b`)

// reEventKey: the event word is a field's key ("OOMKilled": false, OOMKilled=false), not a
// statement.
var reEventKey = lazyre.New("^[\"'`]?\\s*[:=]")

// reEventNot: a negation inside the match ("was not OOM-killed", "never got OOM-killed").
var reEventNot = lazyre.New(`(?i)\b(?:not|never|no)\b|n['’]t\b`)

// reEventAuxTail: the auxiliary just before the event word, dropped so that the relative
// clause before it is seen ("a system that is swapping heavily": reSwappingIndefinite).
var reEventAuxTail = lazyre.New(`(?i)\b(?:is|was|are|were|has\s+been|have\s+been|keeps|kept)\s+$`)

// reClauseBreak: where a clause that may have another subject begins.
var reClauseBreak = lazyre.New(`(?i)(?:[,;:]\s*)?\b(?:but|whereas|while|although|though)\b`)

// guardEvent: the one guard with the OOM readers' extras (statedguard.go).
var guardEvent = guardOpts{mechanism: true, asked: true, qmark: true, neg: negLead, programOOM: true, framework: true}

// statedEvent: one event the author states, its kind and offsets in the paragraph.
type statedEvent struct {
	kind eventKind
	at   []int
}

// statedEvents: the events para states of this host by event word, subject and tense.
func statedEvents(para string) []statedEvent {
	out, _ := statedEventsFound(para)
	return out
}

// statedEventsFound: statedEvents, and every event word's matches in para (nil when para
// holds none of their words), for statedEventsLines to judge again without a second search.
func statedEventsFound(para string) ([]statedEvent, [][][]int) {
	if !containsFoldASCII(para, "oom") && !containsFoldASCII(para, "kill") && !containsFoldASCII(para, "reaped") && !containsFoldASCII(para, "terminated") && !containsFoldASCII(para, "swap") && !containsFoldASCII(para, "out of memory") {
		return nil, nil
	}
	var out []statedEvent
	found := make([][][]int, len(statedEventWords))
	for i, w := range statedEventWords {
		found[i] = w.re.FindAllStringIndex(para, -1)
		for _, m := range found[i] {
			if w.kind == eventOOMKill && containsFoldASCII(para[m[0]:m[1]], "swap") {
				continue // "went out of memory and began using swapspace" (corpus 3464)
			}
			if statedEventHolds(para, m) {
				out = append(out, statedEvent{w.kind, m})
			}
		}
	}
	return out, found
}

// statedEventHolds: the event at m is this host's, stated as a fact.
func statedEventHolds(para string, m []int) bool {
	if notTheHostsEvent(para, m, guardEvent) || reEventKey.MatchString(para[m[1]:min(len(para), m[1]+4)]) || acrossCells(para[m[0]:m[1]]) || reEventNot.MatchString(para[m[0]:m[1]]) ||
		reSwappingIndefinite.MatchString(reEventAuxTail.ReplaceAllString(para[max(0, m[0]-60):m[0]], "")) {
		return false
	}
	sentence := sentenceAround(para, m[0], m[1])
	clause := sentence[:max(0, strings.Index(sentence, para[m[0]:m[1]]))]
	if ms := reClauseBreak.FindAllStringIndex(clause, -1); len(ms) > 0 {
		clause = clause[ms[len(ms)-1][1]:]
	}
	return !reEventElsewhere.MatchString(clause) && !reEventMood.MatchString(clause)
}

// eventRate: the stated rate an event of kind k gives.
func eventRate(k eventKind) string {
	if k == eventSwapping {
		return model.RateStatedSwapping
	}
	return model.RateStatedOOM
}

// fix49c (corpus 4124): a terse paste of one statement a line, unpunctuated: "we are getting
// oom-killer" / "currently using 3.9% and 3.5% when nothing is going on, do they spike?".
// joinParagraph makes one sentence of the two lines, and the second line's question makes a
// question of the first line's fact. When the event word ends its line with no punctuation
// and the line before it is a subject-first clause (reDeclarativeLead: "we are getting",
// never the question's "are we getting"), the line's end is the sentence's end: the event is
// judged on its own line, by the same guard.
var reDeclarativeLead = lazyre.New(`(?i)^\s*(?:we|i|it|they|he|she|(?:the|our|my)\s+[\w.-]+)\s+(?:(?:still|also|now|constantly|regularly|often|again)\s+)?$`)

// statedEventsLines: statedEvents, and the events that end an unpunctuated declarative line
// of the paragraph (lineAt maps an offset of para to its line, joinParagraph's).
func statedEventsLines(para string, lineAt func(int) int) []statedEvent {
	out, found := statedEventsFound(para)
	if lineAt == nil || !containsFoldASCII(para, "oom") {
		return out
	}
	for i, w := range statedEventWords {
		for _, m := range found[i] {
			if statedEventHolds(para, m) || w.kind == eventOOMKill && containsFoldASCII(para[m[0]:m[1]], "swap") {
				continue // (read above; or swap in use, not an out-of-memory)
			}
			line := lineAt(m[0])
			start, end := m[0], m[1]
			for start > 0 && lineAt(start-1) == line {
				start--
			}
			for end < len(para) && lineAt(end) == line {
				end++
			}
			if end >= len(para) || strings.TrimSpace(para[m[1]:end]) != "" || !reDeclarativeLead.MatchString(para[start:m[0]]) {
				continue
			}
			if statedEventHolds(para[:m[1]]+".", m) {
				out = append(out, statedEvent{w.kind, m})
			}
		}
	}
	return out
}
