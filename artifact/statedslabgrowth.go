package artifact

import (
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// Growth of the slab the author states for this host, in a sentence (fix24b): a cache's or
// the unreclaimable slab's size or object count from one figure to another over a time
// ("the number of cached route objects increase from about 220,000 objects to 410,000
// objects" after "collecting the data for 8 hours", corpus 1977), a size reached within a
// time ("Kernel slab (unreclaimable) grows to 33 MB within 80 minutes of a fresh boot",
// 2083), or a leak's rate ("a leak of 'kmalloc-2048' slabs ... It runs at about
// 200k/minute", 2091). Each becomes the stated rates RateStatedSlabGrowth*, which
// slab-unreclaimable-growth judges as it judges a series of SUnreclaim. A size with no
// growth ("slab is 33 MB"), a threshold, advice, a possibility and another machine's figures
// are none (subject.go, hypotheticalUpTo, reNegated).

const slabGrowthNum = `(\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)`

var (
	// "<slab word> ... grew from X [unit|objects] to Y [unit|objects]"
	reSlabFromTo = lazyre.New(`(?i)\b(?:slab\w*|sunreclaim|unreclaimable|kmalloc-\d+|\w+_cache|objects?)\b[^.;!?]{0,80}?\b(?:grow(?:s|n|ing)?|grew|increas(?:e|es|ed|ing)|ris(?:e|es|en|ing)|rose|climb(?:s|ed|ing)?|(?:go|goes|went|gone)\s+up)\s+from\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|~\s*)?` +
		slabGrowthNum + `\s*(?:([kmg])i?b?\b|(objects?)\b)?\s+to\s+(?:about\s+|around\s+|roughly\s+|approximately\s+|~\s*)?` + slabGrowthNum + `\s*(?:([kmg])i?b?\b|(objects?)\b)?`)
	// "<slab word> ... grows to X MB within T"
	reSlabReach = lazyre.New(`(?i)\b(?:slab\w*|sunreclaim|unreclaimable|kmalloc-\d+)\b[^.;!?]{0,60}?\b(?:grow(?:s|n)?|grew|ris(?:es|en)|rose|climb(?:s|ed)?|reach(?:es|ed)?)\s+(?:up\s+)?(?:to\s+)?(?:about\s+|around\s+|~\s*)?` +
		slabGrowthNum + `\s*([kmg])i?b\b\s+(?:with)?in\s+(?:about\s+|around\s+|~\s*)?(\d+(?:\.\d+)?)\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?)\b`)
	// "200k/minute", "5 MB per hour", "1 MB an hour"
	reSlabRate = lazyre.New(`(?i)\b(\d+(?:\.\d+)?)\s*([kmg])i?b?\s*(?:/\s*|per\s+|an?\s+|each\s+)(minute|min|hour|hr|h|day)\b`)
	// The time a from-to growth took, in its sentence: "for 8 hours", "in 2 days".
	reSlabGrowthTime = lazyre.New(`(?i)\b(?:in|over|within|for|after)\s+(?:about\s+|around\s+|roughly\s+|~\s*|the\s+(?:first|last|next)\s+)?(\d+(?:\.\d+)?|an?|one)\s*(seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?)\b`)
	// A slab word and a growth word, around a rate.
	reSlabWord     = lazyre.New(`(?i)\bslab\w*|\bkmalloc-\d+|\bsunreclaim\b|\bunreclaimable\b`)
	reSlabLeakWord = lazyre.New(`(?i)\bleak\w*|\bgrow\w*|\bgrew\b|\bincreas\w*`)
	// A rate of something else: traffic, a disk, a download.
	reSlabRateOther = lazyre.New(`(?i)\b(?:packets?|traffic|bandwidth|throughput|download\w*|upload\w*|transfer\w*|disk|writes?|reads?|network|wan|lan|link|speed|mbps|kbps)\b`)
	// Another machine named in the sentence: "on my other router", "another server".
	reSlabOtherHost = lazyre.New(`(?i)\b(?:my|our|an?|the|his|her|their)\s+other\s+(?:\w+\s+)?(?:box|machine|server|host|router|device|pi|node|system|laptop|board)s?\b|\banother\s+(?:\w+\s+)?(?:box|machine|server|host|router|device|node|system|laptop|board)\b`)
	// A negation inside the statement: "slab never grew to".
	reSlabNegInside = lazyre.New(`(?i)\b(?:not|never|no\s+longer|didn't|doesn't|don't|hasn't|haven't|won't)\b|n't\b`)
	reSlabObjWord   = lazyre.New(`(?i)\bslabinfo\b|\bslabtop\b|\bslab\b|_cache\b|\bkmalloc-\d+`)
)

// slabGrowth is one stated growth: kB (or objects) from → to over secs; fromKnown is false
// when only the size reached is stated.
type slabGrowth struct {
	fromKB, toKB   float64
	fromObj, toObj float64
	secs           float64
	line           int
	sentence       string
}

func slabTimeSecs(n, unit string) float64 {
	v := 1.0
	switch strings.ToLower(n) {
	case "a", "an", "one":
	default:
		x, err := strconv.ParseFloat(n, 64)
		if err != nil {
			return 0
		}
		v = x
	}
	switch u := strings.ToLower(unit); {
	case strings.HasPrefix(u, "s"):
		return v
	case strings.HasPrefix(u, "min"):
		return v * 60
	case strings.HasPrefix(u, "h"):
		return v * 3600
	case strings.HasPrefix(u, "d"):
		return v * 86400
	}
	return 0
}

func slabGrowthCount(num string) (float64, bool) {
	v, err := strconv.ParseFloat(strings.ReplaceAll(num, ",", ""), 64)
	return v, err == nil && v > 0
}

// hostSlabSentence: the statement at match m is the host's, a fact (not advice, a
// possibility, a negation, another machine's, a general statement).
func hostSlabSentence(para string, m []int, lineAt func(int) int, sub *subjects) (int, string, bool) {
	sentence := sentenceAround(para, m[0], m[1])
	match := para[m[0]:m[1]]
	if hypotheticalUpTo(sentence, match) || reSlabOtherHost.MatchString(sentence) || reSlabNegInside.MatchString(match) || genericStatement(sentence, match) || reNegated.MatchString(para[max(0, m[0]-24):m[0]]) || reThreshold.MatchString(para[max(0, m[0]-16):m[0]]) {
		return 0, "", false
	}
	no := lineAt(m[0])
	if subj, _ := sub.subjectAt(no, sentence); subj != "" {
		return 0, "", false
	}
	return no, sentence, true
}

// statedSlabGrowth reads the first stated slab growth of a paragraph; slabText says the text
// names a slab table or cache elsewhere (an object count's sentence need not).
func statedSlabGrowth(para string, lineAt func(int) int, sub *subjects, slabText bool) (slabGrowth, bool) {
	for _, m := range reSlabFromTo.FindAllStringSubmatchIndex(para, -1) {
		u1, o1, u2, o2 := subOr(para, m[4], m[5]), subOr(para, m[6], m[7]), subOr(para, m[10], m[11]), subOr(para, m[12], m[13])
		a, ok1 := slabGrowthCount(para[m[2]:m[3]])
		b, ok2 := slabGrowthCount(para[m[8]:m[9]])
		if !ok1 || !ok2 || b <= a {
			continue
		}
		no, sentence, ok := hostSlabSentence(para, m, lineAt, sub)
		if !ok {
			continue
		}
		t := reSlabGrowthTime.FindStringSubmatch(sentence)
		if t == nil {
			continue // no time: no growth rate to judge
		}
		g := slabGrowth{secs: slabTimeSecs(t[1], t[2]), line: no, sentence: sentence}
		switch {
		case o1 != "" || o2 != "":
			if !slabText && !reSlabObjWord.MatchString(sentence) {
				continue // objects of what: the text names no slab
			}
			g.fromObj, g.toObj = a, b
		case u2 != "":
			if u1 == "" {
				u1 = u2
			}
			fa, okA := statedKB(strconv.FormatFloat(a, 'f', -1, 64), u1)
			fb, okB := statedKB(strconv.FormatFloat(b, 'f', -1, 64), u2)
			if !okA || !okB {
				continue
			}
			g.fromKB, g.toKB = fa, fb
		default:
			continue
		}
		if g.secs > 0 {
			return g, true
		}
	}
	for _, m := range reSlabReach.FindAllStringSubmatchIndex(para, -1) {
		no, sentence, ok := hostSlabSentence(para, m, lineAt, sub)
		if !ok {
			continue
		}
		kb, okKB := statedKB(strings.ReplaceAll(para[m[2]:m[3]], ",", ""), para[m[4]:m[5]])
		secs := slabTimeSecs(para[m[6]:m[7]], para[m[8]:m[9]])
		if okKB && secs > 0 {
			return slabGrowth{toKB: kb, secs: secs, line: no, sentence: sentence}, true
		}
	}
	for _, m := range reSlabRate.FindAllStringSubmatchIndex(para, -1) {
		// The slab and its leak are named in the rate's sentence or just before it ("a
		// leak of 'kmalloc-2048' slabs ... It runs at about 200k/minute").
		window := para[max(0, m[0]-240):m[1]]
		sentence := sentenceAround(para, m[0], m[1])
		if !reSlabWord.MatchString(window) || !reSlabLeakWord.MatchString(window) || reSlabRateOther.MatchString(sentence) {
			continue
		}
		no, sentence, ok := hostSlabSentence(para, m, lineAt, sub)
		if !ok {
			continue
		}
		kb, okKB := statedKB(para[m[2]:m[3]], para[m[4]:m[5]])
		per := slabTimeSecs("1", para[m[6]:m[7]])
		if okKB && per > 0 {
			return slabGrowth{toKB: kb, secs: per, line: no, sentence: sentence}, true
		}
	}
	return slabGrowth{}, false
}

// addSlabGrowth records g as stated rates.
func (g slabGrowth) rates(add func(key string, v float64, no int, sentence string)) {
	if g.toObj > 0 {
		add(model.RateStatedSlabGrowthFromObjs, g.fromObj, g.line, g.sentence)
		add(model.RateStatedSlabGrowthToObjs, g.toObj, g.line, g.sentence)
	} else {
		add(model.RateStatedSlabGrowthFromKB, g.fromKB, g.line, g.sentence)
		add(model.RateStatedSlabGrowthToKB, g.toKB, g.line, g.sentence)
	}
	add(model.RateStatedSlabGrowthSec, g.secs, g.line, g.sentence)
}
