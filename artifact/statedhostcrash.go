package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix45b (corpus 3784): an out-of-memory "exception" that crashed the machine, not a
// program. runtimeOOMNounOnly (fix42b) takes "X crashes with an out of memory exception" as
// a runtime's own error (.NET's OutOfMemoryException, a JVM's OutOfMemoryError told in
// words): the program named before the crash threw it, and the host may have memory to
// spare (corpus 3600: "Sonarr crashes with an out of memory exception. The system is not
// out of memory."). When the subject that crashes is the machine itself ("the system
// crashes with an Out of Memory exception", "my server crashed with an out-of-memory
// error", "the whole Pi crashed"), no runtime's exception can crash it: a process's own
// heap limit ends the process, not the host, so the out-of-memory is the host's, as any
// reStatedOOM statement. The subject is the words right before the crash verb, so "Sonarr
// crashes" keeps fix42b's reading.

// reHostCrashSubject: the machine as the subject right before the match's crash verb (the
// end of the text before it): "the system", "my server", "our whole machine", "the Pi",
// "the VPS", "the box", "the host", "the node", "my device", "the computer", "the OS".
var reHostCrashSubject = lazyre.New(`(?i)\b(?:the|my|our|this|that|whole|entire)\s+(?:whole\s+|entire\s+)?(?:system|server|machine|host|box|device|pi|raspberry\s+pi(?:\s+\d)?|vps|vm|node|computer|os)\s+(?:(?:just|then|eventually|finally|always|often|completely|also)\s+)?$`)

// reCrashFirst: the match begins with the crash verb (reStatedOOM's second form).
var reCrashFirst = lazyre.New(`(?i)^(?:crash\w*|reboot\w*|panic\w*)\b`)

// hostCrashedOOM: the match para[i:j] begins with a crash whose subject is the machine.
func hostCrashedOOM(para string, i, j int) bool {
	if !reCrashFirst.MatchString(para[i:j]) {
		return false
	}
	return reHostCrashSubject.MatchString(para[max(0, i-48):i])
}

// fix45b (corpus 3811): the host's shortage of memory given as the cause of crashes, in a
// text with nothing else headroom reads: "The lack of available memory has caused serious
// issues on the server and lots of crashes", "the crashes are caused by a lack of free
// memory". The author states memory ran short and things crashed; no kernel OOM report,
// oom_kill counter or memory figure says what was killed, whether the OOM killer or a
// program's own failed allocation ended it, or how much memory there was. Evidence no rule
// can judge (issue 29): listed unread with what it states, nothing diagnosed. Before, such a
// text exited 3 as if it held nothing. A question, a condition or advice (reNotAStatement)
// states nothing, nor does a negation ("not due to a lack of memory", its "not").
const whyStatedShortageCrash = "a sentence states the host ran short of memory and crashes followed; no kernel OOM report, oom_kill counter or memory figure here says what was killed (the kernel's OOM killer, or a program failing its own allocation) or how much memory there was"

var reStatedShortageCrash = lazyre.New(`\b(?:lack|shortage)\s+of\s+(?:available\s+|free\s+|enough\s+|usable\s+)?(?:memory|ram)\b[^.;!?]{0,30}?\b(?:(?:has|have|had)\s+)?(?:caus(?:ed|es|ing)|led\s+to|leads\s+to|result(?:ed|s)?\s+in)\b[^.;!?]{0,60}?\bcrash(?:es|ed)?\b` +
	`|\bcrash(?:es|ed)?\b[^.;!?]{0,40}?\b(?:due\s+to|because\s+of|caused\s+by)\s+(?:a\s+|the\s+)?(?:lack|shortage)\s+of\s+(?:available\s+|free\s+|usable\s+)?(?:memory|ram)\b` +
	// fix49c (corpus 4132): the crash after the host's memory was used up, "Kamailio will
	// crash after consuming all system memory" (the habitual future of a leak that recurs).
	`|\bcrash(?:es|ed)?\s+after\s+(?:consuming|using|eating|exhausting|taking)\s+(?:up\s+)?all\s+(?:the\s+)?(?:available\s+|free\s+)?(?:system\s+|host\s+|server\s+)?(?:memory|ram)\b`)

// statedShortageCrash: prose line t states the host's memory shortage as why things crashed.
func statedShortageCrash(t string) bool {
	if len(t) > maxErrnoLineBytes || !containsFoldASCII(t, "crash") || !containsFoldASCII(t, " of ") && !containsFoldASCII(t, " all ") {
		return false
	}
	l := strings.ToLower(t)
	for _, m := range reStatedShortageCrash.FindAllStringIndex(l, -1) {
		// The match's own sentence: a line may hold a paragraph, and a "when" in the next
		// sentence makes no condition of this one.
		if !reNotAStatement.MatchString(sentenceAround(l, m[0], m[1])) { // (its "not", "never" are the negations)
			return true
		}
	}
	return false
}
