package artifact

import (
	"strings"

	"headroom/internal/lazyre"
)

// What an issue form's "Observed behavior" section says happened (fix17b). Bug-report
// templates (GitHub issue forms: NATS's "### Observed behavior", "### Actual behavior",
// "### Current Behavior", "### What happened?") put what the reporter saw under their own
// heading, and reporters write a failure that repeats in the habitual "will": "Server will
// die with a range of symptoms, mostly silently OOM killed". reHypothetical takes any "will"
// or "eventually" for a prediction; under such a heading they state what happens each time,
// as reObserved's "I noticed ..." does for a sentence. A condition or a possibility still
// states nothing there ("if the consumers pull faster it will be OOM killed", "it may be
// OOM killed"), and the same sentence under "Expected behavior", "Steps to reproduce" or no
// heading is read as before.

// reObservedHeading: a Markdown heading of an issue form's section on what happened.
var reObservedHeading = lazyre.New(`(?i)^#{1,4}\s*(?:(?:observed|actual|current)\s+behaviou?r|what\s+happened)\b`)

// reObservedHedge: reHypothetical without the habitual "will" and "eventually".
var reObservedHedge = lazyre.New(`(?i)\b(?:would|could|might|may|if|unless|otherwise|when\s+you|you(?:'ll|\s+can)|can\s+(?:cause|lead|result|trigger))\b|如果|可能`)

// observedSection: line no stands in a section whose heading is an issue form's
// observed-behaviour heading.
func (s *subjects) observedSection(no int) bool {
	if s.observedBareList(no) {
		return true
	}
	start, _ := s.sectionStart(no)
	if start == 0 || start == no {
		return false // before any heading, or the heading itself
	}
	return reObservedHeading.MatchString(strings.TrimSpace(s.text[start]))
}

// fix47b (corpus 3976): the same heading with its Markdown lost, as a forum (Discourse's
// rendered post, a copied web page) gives it: "Observed behavior" alone on a line, the
// section a list of bullets right under it ("•\tEventually the history pod is OOM killed").
// Only a list item counts, and only under a bare line that is the heading's words and
// nothing else (a colon allowed); a sentence that mentions the observed behaviour, a bullet
// list under another heading and a paragraph under the bare words are not the section.
var (
	reObservedBare   = lazyre.New(`(?i)^(?:observed|actual|current)\s+behaviou?r:?$`)
	reObservedBullet = lazyre.New(`^(?:[•·▪◦‣*-]|\d{1,2}[.)])\s`)
)

// observedBareList: line no is an item of a bullet list right under a bare observed-behaviour
// heading (at most one blank line between them).
func (s *subjects) observedBareList(no int) bool {
	t, ok := s.text[no]
	if !ok || !reObservedBullet.MatchString(strings.TrimSpace(t)) {
		return false
	}
	gap := 0
	for k := no - 1; k > 0 && k >= no-60; k-- {
		t, ok := s.text[k]
		if !ok || strings.TrimSpace(t) == "" {
			if gap++; gap > 1 {
				return false
			}
			continue
		}
		gap = 0
		t = strings.TrimSpace(t)
		if reObservedBullet.MatchString(t) {
			continue
		}
		return reObservedBare.MatchString(t)
	}
	return false
}

// hypotheticalIn is hypotheticalUpTo for the sentence at line no, except that in an
// observed-behaviour section only a condition or a possibility anywhere in the sentence
// (reObservedHedge) makes it hypothetical, not "will" or "eventually".
func hypotheticalIn(s *subjects, no int, sentence, match string) bool {
	if !hypotheticalUpTo(sentence, match) {
		return false
	}
	if s == nil || !s.observedSection(no) {
		return true
	}
	// The whole sentence: a condition after the event conditions it too ("the server
	// will crash (out of memory) if using these flags").
	return reObservedHedge.MatchString(reCouldNot.ReplaceAllString(sentence, "")) // "could not" states a failure
}
