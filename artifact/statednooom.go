package artifact

import (
	"headroom/internal/lazyre"
)

// The author's own reading of the kernel's log, stated as no OOM kill (fix19a): "Nothing's
// getting oom killed according to syslog or kernel.log", "no OOM kills in dmesg", "the
// journal shows no oom-killer". The words of an OOM kill (reStatedOOM, reStatedOOMKill)
// under a negation (reNegated, right before them), in a sentence that names the log looked
// at. A possibility ("if nothing gets OOM killed"), a question, advice and a sentence that
// names no log state no reading.

// reLogLookedAt: a kernel log or syslog named as where the author looked.
var reLogLookedAt = lazyre.New(`(?i)\b(?:syslog|kern\.log|kernel\s+logs?|dmesg|journalctl|journal|/var/log/messages|system\s+logs?)\b`)

// reNoOOMWord (h31b): the negation and the OOM in one phrase, with no verb of a kill: "there
// is no OOM in dmesg", "no oom killer messages in the logs", "no sign of the OOM killer in
// the journal".
var reNoOOMWord = lazyre.New(`(?i)\bno\s+(?:sign\s+of\s+|trace\s+of\s+|evidence\s+of\s+|mention\s+of\s+)?(?:an?\s+|the\s+|any\s+)?(?:oom|out[ -]of[ -]memory)(?:[- ]?kill(?:er|s|ing)?)?(?:\s+(?:messages?|entries|events?|lines?|kills?|errors?|reports?))?\b`)

// statedNoOOMKill returns the line and sentence of the paragraph's first negated OOM kill
// that names the log it was looked for in.
func statedNoOOMKill(para string, lineAt func(int) int, hasOOM bool) (int, string, bool) {
	if !hasOOM {
		return 0, "", false
	}
	for _, re := range []*lazyre.Regexp{reStatedOOM, reStatedOOMKill} {
		for _, m := range re.FindAllStringIndex(para, 4) {
			if !reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
				continue
			}
			sentence := sentenceAround(para, m[0], m[1])
			if !reLogLookedAt.MatchString(sentence) || questionAt(para, m[0], m[1]) ||
				hypotheticalUpTo(sentence, para[m[0]:m[1]]) {
				continue
			}
			return lineAt(m[0]), sentence, true
		}
	}
	for _, m := range reNoOOMWord.FindAllStringIndex(para, 4) {
		sentence := sentenceAround(para, m[0], m[1])
		if reLogLookedAt.MatchString(sentence) && !questionAt(para, m[0], m[1]) && !hypotheticalUpTo(sentence, para[m[0]:m[1]]) {
			return lineAt(m[0]), sentence, true
		}
	}
	return 0, "", false
}
