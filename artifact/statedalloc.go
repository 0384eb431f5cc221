package artifact

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/kernel"
	"headroom/model"
	"headroom/units"
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
		if hypotheticalUpTo(s, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || inReplySubject(para, m[0]) {
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
func (d *doc) statedAllocFailure(order, no int, sentence, how string) {
	if how == "" {
		how = "as stated"
	}
	af := &model.AllocFailure{Order: order,
		Atomic:  d.atomicStated(),
		GFPNote: fmt.Sprintf("not printed: page allocation failures stated in the text at line %d (%q), order %d %s; no report of them in the input", no, clip(strings.TrimSpace(sentence), 120), order, how)}
	d.addArtifact(KindStated, no, no, map[string]any{"page_allocation_failure_order": order})
	d.tl.Events = append(d.tl.Events, model.Event{Kind: model.EventAllocFailure, Source: spanSource(no, no) + " (" + StatedMark + ")", FirstLine: no, LastLine: no, AllocFailure: af})
}

// A failed request stated by its size (pre-round 6, errno9 class c): "kmalloc of 8 MB
// fails", "the kzalloc() of 6 MiB returned NULL", "allocation of 4194304 bytes failed" in a
// text about a kernel allocator. kmalloc above KMALLOC_MAX_CACHE_SIZE (SLUB: two pages) and
// the page allocator's own callers ask for get_order(size) pages (mm/slub.c kmalloc_large,
// include/asm-generic/getorder.h; kernel.GetOrder), so the size is the order: above
// MAX_PAGE_ORDER (10: 4 MiB with 4 KiB pages) no free memory can serve it. A size that fits a
// kmalloc cache gives no order (its slab's), nor does a size with no kernel allocator named
// in the paragraph (a program's malloc is no page allocation).
var (
	reStatedAllocSize = lazyre.New(`(?i)\b(k[mzc]?alloc(?:_array|_node)?|kzalloc|kcalloc|__get_free_pages|alloc_pages(?:_exact)?|dma_alloc_coherent|allocation|allocating|request)(?:\(\))?\s+(?:call\s+)?(?:of|for)\s+(?:about\s+|over\s+|more\s+than\s+|just\s+)?(\d+(?:\.\d+)?)\s*(bytes|KiB|KB|K|MiB|MB|M|GiB|GB|G)\b[^.\n]{0,48}?\b(?:fail(?:s|ed|ing|ure)?|returns?\s+NULL|returned\s+NULL|error)\b|\b(?:fail(?:s|ed)?\s+to|could\s*n[o']t|cannot|can't|unable\s+to)\s+(?:k[mz]?alloc|allocate)\s+(\d+(?:\.\d+)?)\s*(bytes|KiB|KB|K|MiB|MB|M|GiB|GB|G)\b`)
	reFailedPast      = lazyre.New(`(?i)\b(?:failed|returned|could\s*n[o']t)\b`)
	reAboveSize       = lazyre.New(`(?i)\b(?:over|more\s+than)\s+\d`)
	reKernelAllocator = lazyre.New(`\b(?:k[mzc]alloc\w*|kmalloc|kzalloc|kcalloc|__get_free_pages|alloc_pages\w*|dma_alloc_coherent|GFP_\w+|MAX_ORDER|MAX_PAGE_ORDER|buddy)\b`)
)

// statedAllocSize finds a failed request stated by its size in para: its order, line and
// sentence, and how the order was had. pageBytes is the host's page size (0: 4 KiB assumed).
func statedAllocSize(para string, lineAt func(int) int, sub *subjects, pageBytes int64) (order, no int, sentence, how string, ok bool) {
	if !reKernelAllocator.MatchString(para) {
		return 0, 0, "", "", false
	}
	assumed := ""
	if pageBytes <= 0 {
		pageBytes, assumed = 4096, ", 4 KiB pages assumed"
	}
	for _, m := range reStatedAllocSize.FindAllStringSubmatchIndex(para, -1) {
		s := sentenceAround(para, m[0], m[1])
		if hypotheticalUpTo(s, para[m[0]:m[1]]) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || genericStatement(s, para[m[0]:m[1]]) {
			continue
		}
		// A condition anywhere in the sentence ("... fails otherwise", "unless ..."): a
		// counterfactual, not a failure ("could not" is the past of "cannot", a fact).
		if reConditional.MatchString(reCouldNot.ReplaceAllString(s, "")) {
			continue
		}
		// An event has a voice of its own: the first person, or the past ("failed",
		// "returned NULL"). A reference page's present ("a kmalloc of more than 4 MB fails
		// on kernels built with ...") states none.
		if !reFirstPerson.MatchString(s) && !rePastOrEvent.MatchString(s) && !reFailedPast.MatchString(para[m[0]:m[1]]) {
			continue
		}
		if subj, _ := sub.subjectAt(lineAt(m[0]), s); subj != "" {
			continue // another machine's, advice, or an outcome
		}
		num, unit := subOr(para, m[4], m[5]), subOr(para, m[6], m[7])
		if num == "" {
			num, unit = subOr(para, m[8], m[9]), subOr(para, m[10], m[11])
		}
		var bytes float64
		if strings.EqualFold(unit, "bytes") {
			v, err := strconv.ParseFloat(num, 64)
			if err != nil {
				continue
			}
			bytes = v
		} else {
			kb, ok := statedKB(num, unit[:1])
			if !ok {
				continue
			}
			bytes = kb * 1024
		}
		if reAboveSize.MatchString(para[m[0]:m[1]]) {
			bytes++ // "over 4 MB", "more than 4 MB": above the size named
		}
		if bytes <= float64(2*pageBytes) || bytes > 1<<40 {
			continue // a kmalloc cache's size: the order is its slab's
		}
		o, ok := kernel.GetOrder(int64(bytes), pageBytes)
		if !ok {
			continue
		}
		return o, lineAt(m[0]), s, fmt.Sprintf("is get_order(%s) of the request as stated%s", units.FormatBytes(int64(bytes)), assumed), true
	}
	return 0, 0, "", "", false
}
