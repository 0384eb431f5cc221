package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix23b (corpus 2063): an OOM kill told without the word OOM: "the OS always killed MySQL to
// regain its memory", "the kernel killed mysqld to free memory", "java was killed by the
// system to reclaim memory". The kernel kills a process to get memory back only in its
// out-of-memory path (mm/oom_kill.c), so a past kill by the OS, the kernel or the system with
// memory as its purpose states one. Past tense only, with a victim and the purpose in the
// same clause: "if the OS kills mysqld", "to avoid the OS killing MySQL, set ...", "the
// OOM killer will kill the biggest process" state nothing, nor does a kill whose reason is
// not memory ("the OS killed the process? no, it exited").
var reStatedOSKill = lazyre.New(`(?i)(?:\b(?:the\s+)?(?:os|kernel|system|linux)\s+(?:\w+\s+)?(?:killed|kept\s+killing|had\s+killed|has\s+killed)\s+(?:the\s+|my\s+|our\s+|its\s+)?[\w.-]+(?:\s+(?:process|server|daemon|service))?` +
	`|\b(?:was|were|got|kept\s+getting)\s+killed\s+by\s+(?:the\s+)?(?:os|kernel|system|linux)` +
	`)\s+(?:(?:in\s+order\s+)?to\s+(?:regain|free(?:\s+up)?|reclaim|recover|release|get\s+back)\s+(?:some\s+|more\s+)?(?:of\s+)?(?:its\s+|the\s+|their\s+)?(?:memory|ram)\b|(?:due\s+to|because\s+of|for\s+lack\s+of)\s+(?:low|insufficient|lack\s+of|no)?\s*(?:free\s+)?(?:memory|ram)\b)`)

// statedOSKill: the offsets of a kill for memory by the OS stated as the host's event.
func statedOSKill(para string) [][]int {
	if !containsFoldASCII(para, "killed") && !containsFoldASCII(para, "killing") {
		return nil
	}
	var out [][]int
	for _, m := range reStatedOSKill.FindAllStringIndex(para, -1) {
		if notTheHostsEvent(para, m, guardOpts{asked: true, qmark: true, neg: negNear}) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// fix23b (corpus 2061): a condition that the author then says happened. "So if a process
// keeps allocating without limit, everything becomes unresponsive, till that process is
// killed by the OOM-killer" is a general description (reHypothetical, genericStatement) until
// the next sentences tell it of the author's machine: "I just spent an ENTIRE HOUR waiting
// for the process termination", "it happened again", "this happened to me twice". The
// statement must follow in the same paragraph within a few sentences; a question ("has this
// happened to you?") or a hope ("I hope it never happens") states nothing.
var reHappenedToMe = lazyre.New(`(?i)\b(?:it|this|that)\s+(?:just\s+|has\s+|had\s+)?(?:happened|occurred)\s+(?:again|to\s+(?:me|us)|twice|today|yesterday|last\s+(?:night|week)|\d+\s+times)\b` +
	`|\b(?:I|we)\s+(?:just\s+|have\s+just\s+|had\s+to\s+)?(?:spent|waited|sat)\s+(?:for\s+)?(?:an?|one|two|three|half\s+an?|\d+)\s+(?:entire\s+|whole\s+|full\s+)?(?:hours?|minutes?|days?|nights?)\s+(?:waiting|for|until|till)\b`)

// happenedAfter reports whether the paragraph, after offset end (the end of a conditional
// sentence) and within 400 bytes, states that the condition's outcome happened to the
// author (reHappenedToMe) in a sentence that is no question, with no hedge before it.
func happenedAfter(para string, end int) bool {
	rest := para[end:min(len(para), end+400)]
	if !containsFoldASCII(rest, "happened") && !containsFoldASCII(rest, "occurred") && !containsFoldASCII(rest, "spent") && !containsFoldASCII(rest, "waited") && !containsFoldASCII(rest, " sat ") {
		return false
	}
	for _, m := range reHappenedToMe.FindAllStringIndex(rest, -1) {
		s := sentenceAround(rest, m[0], m[1])
		if askedAt(rest, m[1]) {
			continue
		}
		lead := s[:max(0, strings.Index(s, rest[m[0]:m[1]]))] // "I hope it never happened to me" hedges before the statement
		if !strings.ContainsAny(s, "?？") && !reHappenedHope.MatchString(lead) {
			return true
		}
	}
	return false
}

var reHappenedHope = lazyre.New(`(?i)\b(?:hope|wish|if|unless|whether|would|might|could)\b`)

// sentenceEndAt is the offset just past the sentence of text that holds offset b.
func sentenceEndAt(text string, b int) int {
	for i := b; i < len(text); i++ {
		if sentenceEnd(text, i) {
			return i + 1
		}
	}
	return len(text)
}

// askedAt reports whether the sentence of text that holds offset b ends with a question mark.
func askedAt(text string, b int) bool {
	e := sentenceEndAt(text, b)
	return e > 0 && e <= len(text) && text[e-1] == '?'
}

// fix26c (corpus 2291): a kill the author attributes to the OOM killer after the fact: "Turns
// out this was the OOM killer, the CI machines were running out of memory", "it turned out to
// be the OOM killer", "the culprit was the OOM killer" (said of a failure told before: a build
// server that "terminated abruptly", a daemon that vanished). Past tense only: "it's the OOM
// killer when ..." describes. A question ("could it be the OOM killer?", "was it the OOM
// killer?"), a negation ("it was not the OOM killer", "I don't think it was the OOM killer"),
// a condition ("if it was the OOM killer, dmesg shows it"), a hedge ("maybe it was the OOM
// killer") or advice ("check whether it was the OOM killer") states nothing.
var reStatedOOMBlame = lazyre.New(`(?i)\b(?:it|this|that|the\s+(?:cause|culprit|reason|killer))\s+(?:was|(?:turned|turns)\s+out\s+to\s+(?:be|have\s+been))\s+(?:indeed\s+|just\s+|simply\s+)?(?:the\s+|an?\s+)?(?:linux\s+|kernel(?:'s)?\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\b` +
	`|\b(?:the\s+)?(?:oom|out[ -]of[ -]memory)[- _]?killer\s+(?:was|(?:turned|turns)\s+out\s+to\s+be)\s+(?:the\s+|our\s+)?(?:culprit|cause|reason)\b`)

// reBlameHedge: words before the attribution in its sentence that make it a guess, a doubt, a
// denial ("I don't think") or a check to run.
var reBlameHedge = lazyre.New(`(?i)\b(?:maybe|perhaps|probably|possibly|likely|guess|suspect\w*|doubt\w*|assum\w*|wonder\w*|whether|check|verify|see\s+if|find\s+out|determine|sure|think|believe)\b|n['’]t\b`)

// statedOOMBlame: the offsets of an attribution of a kill to the OOM killer stated as the
// host's event.
func statedOOMBlame(para string) [][]int {
	if !containsFoldASCII(para, "killer") {
		return nil
	}
	var out [][]int
	for _, m := range reStatedOOMBlame.FindAllStringIndex(para, -1) {
		if notTheHostsEvent(para, m, guardOpts{asked: true, qmark: true, neg: negLead, hedge: reBlameHedge}) {
			continue
		}
		out = append(out, m)
	}
	return out
}

// fix48a (corpus 4004): the trouble a change is meant to help with, told with the author's
// own sighting in the same clause: "this will assist with workers being reaped by OOMKiller
// and other memory issues we have seen". The "will" is the fix's hope; "we have seen" says
// the kills happened. Only the author's own past sighting right after the match counts, and
// no question or condition between them: "issues we might see", "if we have seen" do not.
var reSeenRightAfter = lazyre.New(`(?i)^[^.;!?\n]{0,50}?\b(?:that\s+|which\s+)?(?:we|I)\s+(?:have\s+|'ve\s+|had\s+|’ve\s+)?(?:(?:repeatedly|often|also|already|frequently)\s+)?(?:seen|saw|experienced|observed|noticed|hit|run\s+into|ran\s+into|been\s+seeing|been\s+hitting)\b`)

var reSeenHedge = lazyre.New(`(?i)\b(?:if|whether|might|may|could|would|will|can|never|not)\b`)

func seenRightAfter(para string, end int) bool {
	rest := para[end:min(len(para), end+80)]
	m := reSeenRightAfter.FindStringIndex(rest)
	return m != nil && !reSeenHedge.MatchString(rest[:m[1]]) && !questionAt(para, end, end+m[1])
}
