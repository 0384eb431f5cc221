package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// A swap rate the author states in pages per second (fix54d): "so: Heavy swap out activity
// (2985-3151 pages/sec)", "the box swaps out 3000 pages per second", "pswpout climbs by 800
// pages/s" (the swap word before the number, with no other count of pages between: scanned,
// reclaimed, freed, faulted), or the number first: "4000 pages per second are swapped out". /proc/vmstat's
// pswpin/pswpout and sar -W's pswpin/s, pswpout/s count pages; the bytes form ("20 MB/s")
// is reStatedSwapRate's. A page is at least 4 KiB on every Linux architecture (PAGE_SHIFT ≥
// 12: 4 KiB on x86 and most others, 16 or 64 KiB configurable on arm64 and ppc64), so the rate
// in KiB/s is taken at 4 KiB a page: a lower bound when the page size is not said. A range
// ("2985-3151") counts at its low end. The filters are the bytes form's: a hypothesis, a
// general statement, a device's rating, a negation state nothing about this host.
var (
	reStatedSwapPages = lazyre.New(`(?i)\b(?:swap\w*|pswp(?:in|out)\w*)\b[^.;!?]{0,120}?(?:^|[^\w.,])(\d[\d,]*(?:\.\d+)?)(?:\s*(?:-|–|to)\s*\d[\d,]*(?:\.\d+)?)?\s*pages?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b|each\s+second\b)([^.;!?]{0,30})`)
	// The number first: "4000 pages per second are swapped out", "3,000 pages/s going to swap".
	rePagesSwapped = lazyre.New(`(?i)(?:^|[^\w.,])(\d[\d,]*(?:\.\d+)?)(?:\s*(?:-|–|to)\s*\d[\d,]*(?:\.\d+)?)?\s*pages?\s*(?:/\s*s(?:ec(?:ond)?)?\b|per\s+sec(?:ond)?\b|a\s+second\b|each\s+second\b)\s+(?:(?:are|were|is|was|being|get|got|getting)\s+)?(?:swapped\s+(in|out)\b|(?:written|going|sent|paged\s+out)\s+to\s+(?:the\s+)?swap\b|(read|coming)\s+(?:back\s+)?(?:in\s+)?from\s+(?:the\s+)?swap\b)`)
	// reSwapOutWord: the text names the outward direction (vmstat's so, pswpout, "swap out").
	reSwapOutWord = lazyre.New(`(?i)\bswap(?:ping|ped|s)?[- ]?out\b|\bso\b|\bpswpout\b`)
	// reOtherPages: between the swap word and the number the pages are another count's
	// ("with swappiness 60 kswapd scanned 3000 pages/s", "swap is on; 800 pages/s were freed").
	reOtherPages = lazyre.New(`(?i)\b(?:scan\w*|reclaim\w*|steal\w*|stole|fault\w*|free[ds]?|freeing|cache[ds]?|compact\w*|migrat\w*|dirt\w*|writeback|alloc\w*)\b`)
)

// A total of swapped pages over a stated span (fix61b): "176,000+ swap pages written ...
// over a sustained period exceeding 150 seconds", "12000 pages were swapped out in 2
// minutes". The mean rate is the total over the span, at minPageKB a page; a span the
// author gives as a bound ("exceeding 150 seconds") is taken as said, the scale of the
// event. The swap word must qualify the pages (swap pages, written to swap, swapped out);
// other counts of pages (scanned, reclaimed, freed) are reOtherPages'.
var (
	reSwapPagesOver = lazyre.New(`(?i)(?:^|[^\w.,])(\d[\d,]*)\+?\s*(?:swap(?:ped)?\s+)?pages?\b([^.;!?]{0,80}?)\b(?:over|in|within|during|across)\s+(?:(?:a|an|the|sustained|period|span|window|of|exceeding|more|than|about|around|roughly|some|just|under|nearly|almost)\s+){0,6}(\d+(?:\.\d+)?)\s*(seconds?|secs?|s|minutes?|mins?|hours?|hrs?|h)\b`)
	reSwapWord      = lazyre.New(`(?i)\bswap`)
	reSwapReadWord  = lazyre.New(`(?i)\bread\b[^.;!?]{0,20}\bfrom\s+(?:the\s+)?swap\b`)
)

// minPageKB is the smallest page size of any Linux architecture, in KiB.
const minPageKB = 4

// statedSwapPageRate is one swap rate stated in pages per second, as KiB/s.
type statedSwapPageRate struct {
	key      string // model.RateSwapInKBPerSec or model.RateSwapOutKBPerSec
	kbs      float64
	line     int
	sentence string
}

// statedSwapPages returns the swap rates para states in pages per second; add puts each
// where the bytes form's go (stated.go).
func statedSwapPages(para string, lineAt func(int) int) []statedSwapPageRate {
	var out []statedSwapPageRate
	emit := func(m []int, v string, in, both bool) {
		sentence := sentenceAround(para, m[0], m[1])
		match := para[m[0]:m[1]]
		if hypotheticalUpTo(sentence, match) || genericStatement(sentence, match) || reSwapRated.MatchString(match) || reNotBusy.MatchString(match) || reNotBusy.MatchString(para[max(0, m[0]-24):m[0]]) {
			return
		}
		pages, err := strconv.ParseFloat(strings.ReplaceAll(v, ",", ""), 64)
		if err != nil || pages <= 0 {
			return
		}
		r := statedSwapPageRate{key: model.RateSwapOutKBPerSec, kbs: pages * minPageKB, line: lineAt(m[0]), sentence: sentence}
		switch {
		case both:
			out = append(out, r)
			r.key = model.RateSwapInKBPerSec
		case in:
			r.key = model.RateSwapInKBPerSec
		}
		out = append(out, r)
	}
	for _, m := range submatches(true, reStatedSwapPages, para) {
		lead := para[m[0]:m[2]]
		if reOtherPages.MatchString(lead) {
			continue
		}
		both := reSwapBothWays.MatchString(para[m[4]:m[5]]) || reSwapBothWays.MatchString(lead)
		in := reSwapInWord.MatchString(lead) && !reSwapOutWord.MatchString(lead)
		emit(m, para[m[2]:m[3]], in, both)
	}
	for _, m := range submatches(true, rePagesSwapped, para) {
		in := (m[4] >= 0 && strings.EqualFold(para[m[4]:m[5]], "in")) || m[6] >= 0
		emit(m, para[m[2]:m[3]], in, false)
	}
	for _, m := range submatches(true, reSwapPagesOver, para) {
		what := para[m[0]:m[6]]
		if !reSwapWord.MatchString(what) || reOtherPages.MatchString(para[m[4]:m[5]]) {
			continue
		}
		pages, err1 := strconv.ParseFloat(strings.ReplaceAll(para[m[2]:m[3]], ",", ""), 64)
		span, err2 := strconv.ParseFloat(para[m[6]:m[7]], 64)
		if err1 != nil || err2 != nil || span <= 0 {
			continue
		}
		span *= map[byte]float64{'s': 1, 'm': 60, 'h': 3600}[strings.ToLower(para[m[8]:m[9]])[0]]
		in := reSwapInWord.MatchString(what) && !reSwapOutWord.MatchString(what) || reSwapReadWord.MatchString(para[m[4]:m[5]])
		emit(m, strconv.FormatFloat(pages/span, 'f', -1, 64), in, false)
	}
	return out
}
