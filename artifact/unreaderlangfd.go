package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// Round 22's mail and chat servers (fix27a): three forms of evidence that exited 3 because no
// reader takes them and statesDomainFigure saw no figure beside a domain word. Each is listed
// as unread, with what it holds, when nothing else was read (statedFiguresUnread); no rule
// fires from them.
//
//   - Erlang's allocator figures: recon_alloc:memory/fragmentation and erlang:memory() results
//     printed by an Erlang shell, "{binary_alloc,1245712}", "{mbcs_carriers_size,13631648}",
//     "{total,52903272}": the VM's own carriers, not the kernel's pages.
//   - a sentence stating a program ran out of file descriptors ("the daemon consumes all
//     descriptors", "ran out of file descriptors"): RLIMIT_NOFILE, no memory or network rule.
//   - a sentence stating a program failed because of OOM ("clamd fails to start due to OOM"):
//     the author's finding, with no kernel line to prove a kill. fix41a (corpus 3458): the
//     kill told as the failure, "fail with the error message `signal killed`, which is
//     caused by out-of-memory".
//   - fix41a (corpus 3479): a sentence stating a program used up the memory and then
//     crashed ("the process starts to consume all the memory of the server and crashes"):
//     the host's memory exhausted, in words, with no kernel line to say whether the kernel
//     killed it or the program died of its own failed allocation (a Python MemoryError).

const (
	whyErlangAllocOut    = "an Erlang shell's allocator figures (recon_alloc or erlang:memory(): bytes held in the VM's own carriers, not the kernel's pages); headroom has no reader for them and no rule judges them"
	whyStatedFDExhausted = "a sentence states a program ran out of file descriptors (RLIMIT_NOFILE or fs.file-max): a descriptor limit, not memory or the network; no rule of headroom judges it"
	whyStatedOOMCause    = "a sentence states a program failed because of out-of-memory; no kernel or cgroup line here proves a kill or gives a figure"
	whyStatedUsedUpCrash = "a sentence states a program used up the memory and crashed; no kernel or cgroup line here says whether it was killed, or gives a figure"
)

// erlangAllocOut: a term of an Erlang shell's allocator output, an atom of an allocator or of
// its figures paired with a number inside braces ("{ll_alloc,19399136}", " {mbcs_usage,0.83}",
// "[{{ll_alloc,0},"), or the shell's call of recon_alloc/erlang:memory at its "N> " prompt.
func erlangAllocOut(t string) bool {
	if strings.IndexByte(t, '{') < 0 && strings.IndexByte(t, '>') < 0 {
		return false
	}
	if strings.Contains(t, "recon_alloc:") || strings.Contains(t, "erlang:memory(") {
		return reErlangAllocCall.MatchString(t) // at the prompt "(node@host)N>"
	}
	return reErlangAllocTerm.MatchString(t)
}

var reErlangAllocCall = lazyre.New(`\)\d+>\s+(?:recon_alloc:\w+\(|erlang:memory\()`)

var reErlangAllocTerm = lazyre.New(`^\s*(?:>\s*)?\[?\{\{?(?:[a-z]+_alloc|(?:mbcs|sbcs)_(?:usage|block_size|carriers_size)|total|processes(?:_used)?|system|atom(?:_used)?|binary|code|ets),(?:\d+(?:\.\d+)?\}|\d+\},)`)

// statedFDExhausted: a sentence (not a question, a condition or a recommendation) that says a
// program used up its file descriptors.
func statedFDExhausted(t string) bool {
	l := strings.ToLower(t)
	if !strings.Contains(l, "descriptors") && !strings.Contains(l, "fds") {
		return false
	}
	return reStatedFDExhausted.MatchString(l) && !reNotAStatement.MatchString(l)
}

var reStatedFDExhausted = lazyre.New(`\b(?:consum\w*|exhaust\w*|use[sd]?\s+up|(?:ran|runs?|running)\s+out\s+of)\s+(?:all\s+)?(?:the\s+|its\s+|their\s+|available\s+)*(?:file\s+)?(?:descriptors|fds)\b`)

// statedOOMCause: a sentence that gives out-of-memory as why a program failed ("fails to start
// properly due to OOM (out of memory)").
func statedOOMCause(t string) bool {
	l := strings.ToLower(t)
	if !strings.Contains(l, "oom") && !strings.Contains(l, "out of memory") && !strings.Contains(l, "out-of-memory") {
		return false
	}
	return reStatedOOMCause.MatchString(l) && !reNotAStatement.MatchString(l)
}

var reStatedOOMCause = lazyre.New(`\b(?:fail\w*|crash\w*|die[sd]?|exit\w*|stop\w*|abort\w*|killed)\b[^.;!?]{0,40}?\b(?:due\s+to|because\s+of|caused\s+by)\s+(?:an?\s+|the\s+)?(?:oom|out[ -]of[ -]memory)\b`)

// statedUsedUpCrash: a sentence (not a question, a condition or advice) that says a program
// used up all the memory and then crashed or died.
func statedUsedUpCrash(t string) bool {
	l := strings.ToLower(t)
	if !strings.Contains(l, "memory") && !strings.Contains(l, "ram") {
		return false
	}
	return reStatedUsedUpCrash.MatchString(l) && !reNotAStatement.MatchString(l)
}

var reStatedUsedUpCrash = lazyre.New(`\b(?:consum\w*|eat(?:s|ing)?|ate|us(?:es|ed|ing)\s+up|fill(?:s|ed|ing)?\s+up)\s+(?:all|the\s+whole|the\s+entire)\s+(?:of\s+)?(?:the\s+|its\s+)?(?:available\s+|free\s+)?(?:memory|ram)\b[^.;!?]{0,40}?\b(?:and|then|before|until)\s+(?:then\s+)?(?:finally\s+|eventually\s+)?(?:crash(?:es|ed|ing)?|die[sd]|dying|(?:gets?|got|was|is)\s+killed)\b`)

// reNotAStatement: a question, a condition or advice, which states nothing that happened.
var reNotAStatement = lazyre.New(`\?|\b(?:if|when(?:ever)?|should|could|would|might|may|can|avoid\w*|prevent\w*|not|never|doesn't|don't|won't|can't)\b`)
