package diagnose

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/units"
)

// memStatedNeedOrder (fix55c): with no NIC's MTU and no allocation failure's order in the
// input, the contiguous block size the text says this host's driver or program needs
// (model.RateStatedContiguousBytes, artifact/fix55c_contigneed.go) gives the order the free
// lists are judged at: get_order(size), as the page allocator serves the request
// (kernel.GetOrder). A size above the largest buddy block (maxBuddyOrder) is no buddy
// request (CMA, a reserved area) and is not used; another machine's statement neither.
// memStatedNeedWhy opens the reason of an order read from a stated contiguous size.
const memStatedNeedWhy = "no NIC MTU or allocation failure in the input: the text states"

func memStatedNeedOrder(tl *model.Timeline, psz int64) (order int, why string, ok bool) {
	best := int64(0)
	src := ""
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if b := s.Rates[model.RateStatedContiguousBytes]; b > 0 && !strings.Contains(s.Source, model.ForeignMark) && int64(b) > best {
			best, src = int64(b), s.Source
		}
	}
	if best == 0 {
		return 0, "", false
	}
	o, ok := kernel.GetOrder(best, psz)
	if !ok || o <= 0 || o > maxBuddyOrder {
		return 0, "", false
	}
	_, known := pageSize(tl)
	assumed := ""
	if !known {
		assumed = ", 4 KiB pages assumed"
	}
	return o, fmt.Sprintf(memStatedNeedWhy+" %s blocks of contiguous memory needed (%s): get_order = %d%s", units.FormatBytes(best), src, o, assumed), true
}

// memStatedNeedFinding words the finding for the block size the text needs rather than for
// NIC receive buffers: what the driver asks, what is free, and the fix that lasts (ask for
// the blocks early, or smaller ones).
func memStatedNeedFinding(f *Finding, need int, worst, psz int64) {
	size := units.FormatBytes(psz << need)
	f.Title = fmt.Sprintf("free memory is plentiful but order-%d blocks (%s, the contiguous size the text says is needed) are scarce (%d available)", need, size, worst)
	f.Explanation = fmt.Sprintf("The text says its driver or program needs physically contiguous blocks of %s (order %d). "+
		"The buddy allocator can serve such a request only from a free block of that order or above, or after compaction "+
		"has moved enough pages to build one; however much order-0 memory is free, a request finds none when the lists "+
		"of order %d and above are empty. Compaction (kcompactd, 4.6+; proactive since 5.9) and the watermark boost after "+
		"fragmenting events (5.0+) rebuild large blocks; the lasting fix is to take the blocks early (at boot or module "+
		"load, or from hugetlb or CMA reserved for it) or to ask for smaller ones.", size, need, need)
	if len(f.Changes) == 0 {
		f.Changes = []model.Change{{Kind: model.ChangeOther, Key: "contiguous allocations", Recommended: fmt.Sprintf("allocate the %s blocks at boot or module load (or reserve them: hugetlb, CMA), or use smaller ones", size),
			Why: "no kernel knob guarantees high-order free blocks; compaction can only try"}}
	}
}
