package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
)

// A mail whose own subject is the allocation failure its body says the host printed
// (fix57c): "Subject: __alloc_pages: 2-order allocation failed." over "This error ($subj)
// started appearing today on my machine ... and started printing $subj". The body names the
// message only by pointing at the subject (mutt's and pine's "$subj", "see subject", "the
// subject line"), so the subject's order is the host's failure. A reply's subject ("Re:",
// "Fwd:") is another author's, a body that does not point at its subject, or points at it
// only as a possibility or a denial ("if you get $subj", "I never saw the subject's
// message"), states nothing of this host (the title alone stays prose, as
// parseAllocHeader24Bare rules).
var (
	reSubjectLine    = lazyre.New(`^Subject:\s*(.+)$`)
	reSubjectReply   = lazyre.New(`(?i)^(?:re|fwd?|aw|sv|antw)\s*:`)
	reSubjectPointer = lazyre.New(`(?i)\$subj(?:ect)?\b|\b(?:see|in|from|per)\s+(?:the\s+)?subj(?:ect)?\b|\bthe\s+subject(?:\s+line)?(?:'s\s+(?:message|error))?\b`)
	reSubjectShown   = lazyre.New(`(?i)\b(?:start(?:s|ed)?|began|begun|keeps?|kept)\s+(?:to\s+)?(?:appear(?:ing)?|print(?:ing)?|show(?:ing)?|log(?:ging)?|get(?:ting)?|spew(?:ing)?)\b|\b(?:appear(?:s|ed)|printed|logged|showed|got|getting|seeing|saw)\b`)
)

// subjectAllocOrder finds that mail: the order its subject names, the line of the body's
// sentence and the sentence.
func (d *doc) subjectAllocOrder() (order, no int, sentence string, ok bool) {
	subject := -1
	for _, p := range d.proseLines {
		if p.no > 16 {
			break
		}
		m := reSubjectLine.FindStringSubmatch(strings.TrimSpace(p.text))
		if m == nil {
			continue
		}
		t := strings.TrimSpace(m[1])
		if reSubjectReply.MatchString(t) {
			return 0, 0, "", false
		}
		am := reAllocHeader24Bare.FindStringSubmatch(t)
		if am == nil {
			return 0, 0, "", false
		}
		o, err := strconv.Atoi(am[1])
		if err != nil {
			return 0, 0, "", false
		}
		order = o
		subject = p.no
		break
	}
	if subject < 0 {
		return 0, 0, "", false
	}
	for _, p := range d.proseLines {
		if p.no <= subject || p.quote > 0 {
			continue
		}
		for _, m := range reSubjectPointer.FindAllStringIndex(p.text, -1) {
			s := sentenceAround(p.text, m[0], m[1])
			before := p.text[:m[0]]
			if !reSubjectShown.MatchString(s) || reHypothetical.MatchString(s) || reNegated.MatchString(before[max(0, len(before)-40):]) {
				continue
			}
			return order, p.no, s, true
		}
	}
	return 0, 0, "", false
}
