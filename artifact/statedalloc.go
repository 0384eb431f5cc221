package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Page allocation failures the prose states with their order and no report of them in the
// text ("order:5 の Page Allocation Failure が多数発生", "we get order 3 page allocation
// failures under load"): a vendor note or a post that describes the failures without
// quoting warn_alloc's lines. The order is the kernel's own figure however the sentence
// around it is written (any language); the failure's name is matched as written,
// misspelt by hand too ("Page Allocaton Failure"). The order is written "order:3", "order 3",
// "3-order", or "3 order" before what was allocated ("page allocation failures for 0 order
// pages"; "5 order requests" is a count of orders, not one).
var (
	reStatedAllocFail  = lazyre.New(`(?i)page\s+allocat[a-z]*\s+failure`)
	reStatedAllocOrder = lazyre.New(`(?i)\border[-:=\s]\s*([0-9]{1,2})\b|\b([0-9]{1,2})-order\b|\b([0-9]{1,2})\s+order\s+(?:pages?|allocations?|allocs?|blocks?)\b`)
)

// statedAllocOrder finds a page allocation failure named in para with an order in the same
// paragraph: the order, the line and the sentence naming the failure. A possibility, a
// denial, advice or another machine's failure ("if you see ...", "we never saw ...") is none.
func statedAllocOrder(para string, lineAt func(int) int, sub *subjects) (order, no int, sentence string, ok bool) {
	for _, m := range reStatedAllocFail.FindAllStringIndex(para, -1) {
		s := sentenceAround(para, m[0], m[1])
		if hypotheticalUpTo(s, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) {
			continue
		}
		if subj, _ := sub.subjectAt(lineAt(m[0]), s); subj != "" {
			continue // another machine's, advice, or an outcome
		}
		// The order nearest the failure's name in the paragraph.
		best, bestD := -1, len(para)+1
		for _, o := range reStatedAllocOrder.FindAllStringSubmatchIndex(para, -1) {
			a, b := o[2], o[3]
			for g := 4; a < 0 && g+1 < len(o); g += 2 {
				a, b = o[g], o[g+1]
			}
			v, err := strconv.Atoi(para[a:b])
			if err != nil || v > 10 { // MAX_PAGE_ORDER is 10 on x86 (more only on huge-page arches)
				continue
			}
			d := abs(o[0] - m[0])
			if d < bestD {
				best, bestD = v, d
			}
		}
		if best >= 0 {
			return best, lineAt(m[0]), s, true
		}
	}
	return 0, 0, "", false
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// statedAllocFailure adds the stated failure as an allocation-failure event of that order
// without mode, process or dump (the rules infer what they can; the GFP note says where the
// order came from).
func (d *doc) statedAllocFailure(order, no int, sentence string) {
	af := &model.AllocFailure{Order: order,
		GFPNote: fmt.Sprintf("not printed: page allocation failures stated in the text at line %d (%q), order %d as stated; no report of them in the input", no, clip(strings.TrimSpace(sentence), 120), order)}
	d.addArtifact(KindStated, no, no, map[string]any{"page_allocation_failure_order": order})
	d.tl.Events = append(d.tl.Events, model.Event{Kind: model.EventAllocFailure, Source: spanSource(no, no) + " (" + StatedMark + ")", FirstLine: no, LastLine: no, AllocFailure: af})
}
