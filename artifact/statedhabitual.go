package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// An operator's account of kills that recur on his machines (fix36c, round 31's corpus 3054):
// "With the slower computers, sometimes too many attempts to connect to the ORPort can
// eventually cause Tor to consume more physmem than available and cause the oom-killer to
// kill Tor." reHypothetical takes "can ... cause" and "eventually" for a possibility, and a
// manual's "a leak can eventually cause the OOM killer to kill a process" is one; but with
// a frequency adverb ("sometimes", "occasionally", "at times") before it and a named victim
// after "kill", "can" reports what has happened at times, not what might: the kill is
// stated. Any other hypothetical word in the sentence (if, when, will, would, could, might,
// may, unless) keeps it a possibility, and so does a generic victim ("a process", "any
// process", "processes", "something").

// reHypotheticalStrict: reHypothetical without "eventually" and "can cause/lead/...".
var reHypotheticalStrict = lazyre.New(`(?i)\b(?:will|would|could|might|may|if|unless|otherwise|when\s+you|you(?:'ll|\s+can))\b|如果|可能|将会|就会`)

var reSometimes = lazyre.New(`(?i)\b(?:sometimes|occasionally|at\s+times|from\s+time\s+to\s+time|every\s+now\s+and\s+then)\b`)

// habitualOOMKill: the OOM-kill match para[a:b] in sentence is a recurring kill reported
// with "sometimes ... can", its victim named right after the match.
func habitualOOMKill(para, sentence string, a, b int) bool {
	i := strings.Index(sentence, para[a:b])
	if i < 0 {
		return false
	}
	head := sentence[:i]
	if !reSometimes.MatchString(head) || reHypotheticalStrict.MatchString(head) {
		return false
	}
	w, _, _ := nextField(para[b:])
	w = strings.TrimRight(w, ".,;:!")
	if w == "" || strings.ContainsAny(w, "?") {
		return false
	}
	switch strings.ToLower(w) {
	case "a", "an", "any", "some", "random", "the", "a process", "process", "processes", "other", "others",
		"your", "its", "their", "all", "everything", "programs", "applications", "something", "whatever",
		"them", "it", "one", "tasks", "things", "stuff", "off":
		return false
	}
	return true
}
