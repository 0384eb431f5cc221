package artifact

import (
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
)

// fix59b: a kernel message quoted in a sentence as the name of the author's own problem:
// "... will help our `TCP: out of memory -- consider tuning tcp_mem` issue", "my
// \"nf_conntrack: table full, dropping packet\" problem is back". The owner (our, my) stands
// right before the quotation and a word for a problem (issue, problem, error, ...) right
// after it: the message is one this host (or the author's fleet) logs. The same words
// owned by the reader ("your ... issue"), by nobody ("the ... error is common"), or in a
// condition ("if our ... issue comes back") state nothing of this host.

// reOwnerBefore: the owner right before the quotation (its opening mark taken off).
var reOwnerBefore = lazyre.New(`(?i)(?:^|[^\w])(?:our|my)\s*$`)

// reProblemAfter: the word for a problem right after the quotation (its closing mark taken off).
var reProblemAfter = lazyre.New(`(?i)^\s*(?:issues?|problems?|errors?|bugs?|crash(?:es)?|warnings?|troubles?|messages?)\b`)

// reOwnedCondition: a condition or a might-be in the sentence before the owner.
var reOwnedCondition = lazyre.New(`(?i)\b(?:if|unless|whether|would|could|might|in\s+case)\b|如果|假如`)

// quoteClose pairs each opening quotation mark with its closing one.
var quoteClose = map[string]string{"`": "`", "'": "'", "\"": "\"", "“": "”", "‘": "’", "「": "」"}

// messageOwned is the kernel message prose line t quotes as the author's own problem
// (above); ok is false otherwise.
func messageOwned(t string) (msg string, ok bool) {
	m, i, j, found := kernel.FindMessage(t)
	if !found {
		return "", false
	}
	before := strings.TrimRight(t[:i], " \t")
	if strings.HasSuffix(before, ":") {
		// The message's prefix as the kernel prints it ("nf_conntrack: ", "TCP: ").
		if k := strings.LastIndexAny(before, " \t\"'`“‘「"); k >= 0 {
			before = strings.TrimRight(before[:k+1], " \t")
		}
	}
	after := t[j:]
	for open, closing := range quoteClose {
		if strings.HasSuffix(before, open) {
			k := strings.Index(after, closing)
			if k < 0 {
				return "", false
			}
			before, after = before[:len(before)-len(open)], after[k+len(closing):]
			break
		}
	}
	clause := before
	if k := strings.LastIndexAny(clause, ".!?;。！？；"); k >= 0 {
		clause = clause[k+1:]
	}
	if !reOwnerBefore.MatchString(before) || !reProblemAfter.MatchString(after) || reOwnedCondition.MatchString(clause) {
		return "", false
	}
	return m, true
}
