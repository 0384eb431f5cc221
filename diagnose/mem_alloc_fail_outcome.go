package diagnose

import (
	"fmt"
	"strings"

	"headroom/model"
)

// reserveOutcomeUndecided says whether a stated cure by a larger vm.min_free_kbytes ("after
// changing it to 20000 the problem went away") fits fragmentation as well as an exhausted
// reserve for this failure, so that it cannot decide between them: an order > 0 request on
// a kernel before 4.4. There __zone_watermark_ok removes the free pages of each lower order
// and halves min per order (mm/page_alloc.c), so min_free_kbytes sets the bar kswapd, woken
// with the failing order, reclaims large blocks up to; and from 2.6.24 it sizes the
// MIGRATE_RESERVE pageblocks (commit 64c5e135bf5a: "increasing the value of min_free_kbytes
// will free pages as contiguous blocks"). Both went in 4.4 (commits 97a16fc82a7c,
// 974a786e63c9). An order-0 failure is the reserve whatever the text says; on 4.4+ or an
// unknown kernel the outcome still decides the reserve. The note says why when it applies.
func reserveOutcomeUndecided(tl *model.Timeline, af *model.AllocFailure, o model.SettingMention) (string, bool) {
	if af.Order == 0 {
		return "", false
	}
	fact, ok := kernelFactByID("order0-watermarks")
	if !ok {
		return "", false
	}
	k, rel, ok := memKernelOf(tl, af)
	if !ok || k.AtLeast(fact.major, fact.minor, fact.patch) {
		return "", false
	}
	return fmt.Sprintf("the text states that raising vm.min_free_kbytes to %s cured it (%s), which fits fragmentation as well as a short reserve on kernel %s (before %d.%d a larger min_free_kbytes also keeps blocks of order %d free), so the order of the failures decides",
		strings.TrimSpace(o.Value), o.Source, rel, fact.major, fact.minor, af.Order), true
}

// outcomeEvidence cites the author's stated cure for a finding of class: the reserve it
// decided, or fragmentation it fits on a kernel where a larger reserve also restores large
// blocks (reserveOutcomeUndecided).
func outcomeEvidence(tl *model.Timeline, class string, vs []allocVerdict) (Evidence, bool) {
	o, ok := statedOutcome(tl, "vm.min_free_kbytes")
	if !ok {
		return Evidence{}, false
	}
	switch class {
	case classReserve:
	case classFragmented:
		fits := false
		for _, v := range vs {
			if _, undecided := reserveOutcomeUndecided(tl, v.af, o); undecided && v.inferred {
				fits = true
			}
		}
		if !fits {
			return Evidence{}, false
		}
	default:
		return Evidence{}, false
	}
	return Evidence{What: "the author's outcome", Value: fmt.Sprintf("vm.min_free_kbytes raised to %s: the failures went away", strings.TrimSpace(o.Value)), Source: o.Source}, true
}
