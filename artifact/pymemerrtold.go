package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Python's MemoryError told in a sentence as what the program did (round 44, fix49d):
// "it hangs for a while and then throws this MemoryError", "the server raised a
// MemoryError". The exception's own line ("MemoryError" last in a traceback) is read by
// pythonMemoryError (unreadserver.go); a paste often cuts the traceback before it and the
// reporter's sentence is then the only place the exception is named. What it proves is the
// same: CPython's allocator got NULL from malloc (PyErr_NoMemory), so the process's address
// space, RLIMIT_AS or the kernel's commit limit refused one request and the program raised
// the exception itself: no kill by the kernel's OOM killer, no figure of the host's memory.
// Named unread (issue 29), no finding. Not read: a question ("does it raise MemoryError?"),
// a condition or general description ("if the file is large it may throw MemoryError"),
// another runtime's OutOfMemoryError (the word boundary excludes it).

// rePyMemoryErrorTold: a verb of raising or getting, an optional article or demonstrative,
// then Python's exception name as written.
var rePyMemoryErrorTold = lazyre.New(`\b(?i:throws?|threw|thrown|throwing|raises?|raised|raising|gets?|got|getting|hits?|hitting)\s+(?i:(?:a|an|the|this|that|same)\s+)?(?:Python\s+)?MemoryError\b`)

// rePyMemoryErrorWhen (fix50b, corpus 4164): the exception named with when it happened, as an
// issue's title or a sentence's subject says it: "MemoryError during a print", "`MemoryError`
// while loading the model", "MemoryError after 3 hours". The name opens the line, a heading,
// or follows a colon or a dash ("Crash: MemoryError during upload"); "A `MemoryError` is
// sadly something outside of the control of OctoPrint" (no time) and "how to avoid
// MemoryError during training?" (a question) are none.
var rePyMemoryErrorWhen = lazyre.New(`(?:^|^#+\s+|[:–—-]\s+)(?:Python\s+)?` + "`?" + `MemoryError` + "`?" + `\s+(?i:during|while|when|after|at|on\s+(?:startup|start|boot|import|load))\s+(?:a|an|the|my|our|its|\d|loading|printing|running|importing|training|processing|startup|upload)`)

const pyMemoryErrorToldWhy = "a Python program's MemoryError told by its reporter (\"throws this MemoryError\"): CPython's allocator got NULL from malloc (PyErr_NoMemory) and the program raised the exception itself: the process's address space, RLIMIT_AS or the kernel's commit limit (vm.overcommit_memory 2, or mode 0 refusing a request larger than RAM and swap) refused one allocation; no kill by the kernel's OOM killer and no figure of the host's memory; overcommit-exposed reads /proc/meminfo's Committed_AS and CommitLimit, which the text does not give"

// pyMemoryErrorTold says whether prose line t tells that a Python program raised
// MemoryError on this host.
func pyMemoryErrorTold(t string) bool {
	if len(t) > 2000 || !strings.Contains(t, "MemoryError") {
		return false
	}
	m := rePyMemoryErrorTold.FindStringIndex(t)
	if m == nil {
		m = rePyMemoryErrorWhen.FindStringIndex(t)
	}
	if m == nil {
		return false
	}
	sentence := sentenceAround(t, m[0], m[1])
	match := t[m[0]:m[1]]
	return !questionAt(t, m[0], m[1]) && !hypotheticalUpTo(sentence, match) && !genericStatement(sentence, match)
}

// pyMemoryErrorToldNamed names prose line i unread when it tells a MemoryError.
func (d *doc) pyMemoryErrorToldNamed(i int) bool {
	if !pyMemoryErrorTold(d.ls[i].Text) || d.exampleLog(i) {
		return false
	}
	d.programOOMNamed = true // the program's own out-of-memory: its "memory" words are no host statement
	d.unparsedUnread(i, pyMemoryErrorToldWhy)
	return true
}
