package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// fix42b: two forms of prose whose "out of memory" or "OOM" beside a crash or a kill word is
// no statement that the kernel ran out of memory on this host.
//
// A runtime's own error named by its message's words (corpus 3531, 3600): the title
// "process killed or JavaScript heap out of memory" names V8's fatal message ("Allocation
// failed - JavaScript heap out of memory", src/api/api.cc ReportOOMFailure: the old space
// reached --max-old-space-size and node aborted itself); "Sonarr crashes with an out of
// memory exception" names .NET's System.OutOfMemoryException (the GC could not commit more
// heap within its own limit, or the process's address space was full). The out-of-memory
// is the runtime's own, so a crash or a kill word near it does not make it the kernel's:
// the kernel's OOM killer has its own words ("OOM killer", "oom-killed", "Killed process").
//
// An OOM feared, not had (corpus 3553): "potential OOM kills cascading across services
// waiting to happen", "the risk of an OOM kill", "an OOM crash is imminent": the author
// says the out-of-memory may come, not that it came.

// reRuntimeOOMNoun: an out-of-memory named as a runtime's own error: V8's "JavaScript heap
// out of memory" (any "heap out of memory"), and an "out of memory exception" (.NET's
// OutOfMemoryException, Java's OutOfMemoryError told in words as an exception).
//
// fix49c (corpus 4099): an "out of memory (OOM) error" a program crashed with, "Confluence
// crashes with out of memory (OOM) error during flushQueue": the kernel reports no error to
// a process it kills (mm/oom_kill.c sends SIGKILL and logs "Killed process"); an "error" is
// what a program raises or prints on its own failed allocation (Java's OutOfMemoryError,
// PostgreSQL's "ERROR:  out of memory"), one error named as its type is named. The plural,
// "started to crash with out of memory errors", stays the author's statement of the host's
// (TestFix30bRuntimeOOMTitle), and the machine as the crash's subject keeps the host's
// reading (hostCrashedOOM).
var reRuntimeOOMNoun = lazyre.New(`(?i)\bheap\s+out[ -]of[ -]memory\b|\bout[ -]of[ -]memory\s+exceptions?\b|\bout[ -]of[ -]memory\s+(?:\(\s*oom\s*\)\s+)?error\b`)

// reOOMWordIn: the words reStatedOOM pairs with a crash or a kill.
var reOOMWordIn = lazyre.New(`(?i)\bOOM\b|\bout[ -]of[ -]memory\b|\boom[- ]?killer\b`)

// runtimeOOMNounOnly: every out-of-memory word of the match para[i:j] belongs to a
// runtime's own error's name (reRuntimeOOMNoun) in para. A match that also names the OOM
// killer, or an "OOM" of its own, keeps its kernel words.
func runtimeOOMNounOnly(para string, i, j int) bool {
	if !containsFoldASCII(para[i:j], "out of memory") && !containsFoldASCII(para[i:j], "out-of-memory") {
		return false
	}
	lo, hi := max(0, i-40), min(len(para), j+40)
	window := para[lo:hi]
	nouns := reRuntimeOOMNoun.FindAllStringIndex(window, -1)
	if len(nouns) == 0 {
		return false
	}
	words := reOOMWordIn.FindAllStringIndex(para[i:j], -1)
	if len(words) == 0 {
		return false
	}
	for _, w := range words {
		ws, we := i+w[0]-lo, i+w[1]-lo
		inside := false
		for _, n := range nouns {
			if n[0] <= ws && we <= n[1] {
				inside = true
				break
			}
		}
		if !inside {
			return false
		}
	}
	return true
}

// reOOMFearedBefore: a possibility right before the OOM word: "potential OOM kills", "a
// possible OOM", "the risk of an OOM kill", "in danger of OOM".
var reOOMFearedBefore = lazyre.New(`(?i)\b(?:(?:potential|possible|likely|imminent|impending|looming|eventual|future)\s+(?:for\s+)?|(?:risk|danger|threat|chance|possibility|potential)\s+(?:of|for)\s+)(?:an?\s+|the\s+|more\s+)?$`)

// reOOMFearedAfter: the sentence says the event is still to come: "... waiting to happen",
// "... is imminent", "about to happen", "only a matter of time".
var reOOMFearedAfter = lazyre.New(`(?i)\b(?:waiting|about|bound|going)\s+to\s+happen\b|\b(?:is|are|seemed|seems|looked|looks)\s+(?:\w+\s+)?(?:imminent|inevitable|likely)\b|\bmatter\s+of\s+time\b`)

// oomFeared: the OOM of the match para[i:j] is one the author fears or expects: a
// possibility's word right before the match's first OOM word, or the rest of its sentence
// says the event is still to come.
func oomFeared(para string, i, j int) bool {
	w := reOOMWordIn.FindStringIndex(para[i:j])
	if w == nil {
		return false
	}
	if reOOMFearedBefore.MatchString(para[max(0, i+w[0]-40) : i+w[0]]) {
		return true
	}
	end := sentenceEndAt(para, j)
	if end < j || end > len(para) {
		end = len(para)
	}
	rest := para[j:end]
	if k := strings.IndexAny(rest, ".;!?"); k >= 0 {
		rest = rest[:k]
	}
	return reOOMFearedAfter.MatchString(rest)
}
