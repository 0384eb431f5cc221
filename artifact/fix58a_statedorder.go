package artifact

import (
	"strconv"

	"headroom/internal/lazyre"
)

// Stated failures of a mail thread (fix58a). A reply's subject ("Subject: Re: [Bug #N]
// order 2 page allocation failures") is the thread's title, written by whoever opened it:
// the order it names is another author's (fix57c reads a subject only when it is not a
// reply). The body states this host's own order as "order-N allocations" beside the
// failures counted ("As order-5 allocations are required to succeed, I'm surprised ...
// that there are only 5 failures"), and whether they were atomic ("High-order atomic
// allocations of the type you are trying"): an atomic request cannot reclaim or compact.
var (
	reReplySubjectBefore = lazyre.New(`(?i)\bsubject:\s*(?:re|fwd?|aw|sv|antw)\s*:[^\n:]*$`)
	reOrderAllocs        = lazyre.New(`(?i)\border[-\s]([0-9]{1,2})\s+(?:(?:GFP_)?atomic\s+)?allocations\b`)
	reFailCount          = lazyre.New(`(?i)\bfail(?:ures|ed|ing|s)?\b`)
	reAddressesReader    = lazyre.New(`(?i)\b(?:you|your)\b`)
	reStatedAtomic       = lazyre.New(`(?i)\bhigh[- ]order\s+(?:GFP_)?atomic\s+allocations?\b|\border[-\s][0-9]{1,2}\s+(?:GFP_)?atomic\s+allocations?\b`)
)

// inReplySubject: the text of para just before offset i is a reply's Subject header (a
// header paragraph may be joined into one line, so the subject's own words are what count).
func inReplySubject(para string, i int) bool {
	return reReplySubjectBefore.MatchString(para[max(0, i-160):i])
}

// statedOrderAllocs finds "order-N allocations" in a sentence that counts or names their
// failures: the order, its line and the sentence. A possibility or another machine's is none.
func statedOrderAllocs(para string, lineAt func(int) int, sub *subjects) (order, no int, sentence string, ok bool) {
	for _, m := range reOrderAllocs.FindAllStringSubmatchIndex(para, -1) {
		s := sentenceAround(para, m[0], m[1])
		if !reFailCount.MatchString(s) || hypotheticalUpTo(s, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
			continue
		}
		// A quoted paragraph is another message's, but one that addresses the reader ("Can
		// you think of what happens ...") is the answer to this author about his host.
		if subj, why := sub.subjectAt(lineAt(m[0]), s); subj != "" && (why != quotedWhy || !reAddressesReader.MatchString(para)) {
			continue
		}
		v, err := strconv.Atoi(para[m[2]:m[3]])
		if err != nil || v > 10 {
			continue
		}
		return v, lineAt(m[0]), s, true
	}
	return 0, 0, "", false
}

// statedAtomicAllocs: the prose names the failing requests as high-order atomic ones, not
// as a possibility.
func (d *doc) statedAtomicAllocs() bool {
	for _, p := range d.proseLines {
		for _, m := range reStatedAtomic.FindAllStringIndex(p.text, -1) {
			s := sentenceAround(p.text, m[0], m[1])
			if !hypotheticalUpTo(s, p.text[m[0]:m[1]]) && !reNegated.MatchString(p.text[max(0, m[0]-24):m[0]]) {
				return true
			}
		}
	}
	return false
}

// atomicStated: true when the prose says the requests were atomic, else unknown (nil).
func (d *doc) atomicStated() *bool {
	if !d.statedAtomicAllocs() {
		return nil
	}
	t := true
	return &t
}
