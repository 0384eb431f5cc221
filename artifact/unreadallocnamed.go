package artifact

import (
	"strings"

	"headroom/model"
)

// The kernel's allocation-failure message named in prose, with no report (issue 29, round
// 13: corpus 1672, a Japanese blog explaining that e1000 and tg3 print "page allocation
// failure" under load because netdev_alloc_skb does not set __GFP_NOWARN). Such a text names
// evidence of this domain that no rule can judge without the report itself (the header with
// process, order and mode, the Mem-Info after it); before, it exited 3 as if it held
// nothing. Its lines are listed as unread with what they name, and nothing is diagnosed from
// them: a sentence about the message proves no failure on any host.
//
// Gated as namedNetLoss: once, after everything else is read, only when nothing was read
// and no line was listed; a substring search over the prose lines already kept. "No page
// allocation failure in dmesg" is an expectation, not listed.

const allocNamedWhy = "the kernel's \"page allocation failure\" message named in prose, with no report: its header (process, order, mode), call trace and the Mem-Info after it are not in the text (`dmesg | grep -A 60 'page allocation failure'` prints them); headroom judges the report, not the sentence"

// allocNamedWords are the message's own words, as the kernel prints them (mm/page_alloc.c
// warn_alloc: "%s: page allocation failure: order:%u", "page allocation stalls for" since
// 4.9), in the lower case a sentence may write them.
var allocNamedWords = []string{"page allocation failure", "page allocation stall"}

// maxAllocNamedLines bounds the lines listed.
const maxAllocNamedLines = 6

// namedAllocFailure lists the prose lines that name the allocation-failure message when the
// text holds nothing else headroom reads.
func (d *doc) namedAllocFailure() {
	if !NothingRead(d.tl) || len(d.tl.Unparsed) > 0 {
		return
	}
	listed := 0
	for _, p := range d.proseLines {
		if listed >= maxAllocNamedLines {
			break
		}
		if !allocNamedLine(p.text) {
			continue
		}
		d.tl.Unparsed = append(d.tl.Unparsed, model.Unparsed{FirstLine: p.no, LastLine: p.no, Why: allocNamedWhy})
		if d.tl.Lines != nil {
			d.tl.Lines.Prose-- // counted as prose when it was kept; now it is listed instead
			d.tl.Lines.Unparsed++
		}
		listed++
	}
}

// allocNamedLine: prose line t names the message, with no negation right before it.
func allocNamedLine(t string) bool {
	if len(t) > maxErrnoLineBytes || strings.IndexByte(t, 'l') < 0 {
		return false
	}
	l := strings.ToLower(t)
	for _, w := range allocNamedWords {
		k := strings.Index(l, w)
		if k < 0 {
			continue
		}
		return !reNegated.MatchString(l[max(0, k-16):k])
	}
	return false
}
