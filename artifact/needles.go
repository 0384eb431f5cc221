package artifact

import (
	"math/bits"
	"strings"
	"unicode/utf8"

	"headroom/kernel"
)

// The needles the fast path asks every kernel log line for: words that few lines hold and
// that decide whether a reader runs on the line at all. Each reader that needs one adds it
// here (a constant and its text) and asks d.rawHas(needleX, l); the line's answer for every
// needle comes from one search of the text (needleSet), so a new needle costs a compare at
// the hits of its anchor pair, not another pass over the text.
type needleID uint8

const (
	needleBanner     needleID = iota // "Linux version " (hostFacts.scan: the boot banner)
	needleTainted                    // "Tainted: " (reTainted)
	needleNotTainted                 // "Not tainted" (reTainted)
	needleWarnAlloc                  // "warn_alloc" (allocFailureFrame)
	needleVmallocErr                 // "vmalloc error: size " (logNumbers)
	needleSynFlood                   // "SYN flooding on port " (logSynFlood)
	needleLinkUp                     // linkUpWords (readLinkUp)
	needleAllocat                    // "lloc" (mayBeHeader: "allocat", no-MMU's "Allocation of length", vmemmap's "alloc failure")
	needleKill                       // "kill" (mayBeHeader)
	needleKillUpper                  // "Kill" (mayBeHeader)
	needleLowMemKill                 // "lowmemorykiller" (lowMemKillsInLog)
	needleCMAFail                    // kernel.MsgCMAAllocFail (cmaFailures)
	needleOfMemory                   // "of memory" (appOOMHanded: a program's own out-of-memory line)
	needleOsError                    // "os error " (langRuntimeHanded: Rust's io::Error Display)
	needleRustOs                     // "Os { code: " (langRuntimeHanded: Rust's io::Error Debug)
	needleENO                        // "ENO" (langRuntimeHanded: Node's ENOBUFS, ENOMEM records)
	numNeedles
)

var needleText = [numNeedles]string{
	needleBanner:     "Linux version ",
	needleTainted:    "Tainted: ",
	needleNotTainted: "Not tainted",
	needleWarnAlloc:  "warn_alloc",
	needleVmallocErr: "vmalloc error: size ",
	needleSynFlood:   "SYN flooding on port ",
	needleLinkUp:     linkUpWords,
	needleAllocat:    "lloc",
	needleKill:       "kill",
	needleKillUpper:  "Kill",
	needleLowMemKill: "lowmemorykiller",
	needleCMAFail:    kernel.MsgCMAAllocFail[0],
	needleOfMemory:   "of memory",
	needleOsError:    "os error ",
	needleRustOs:     "Os { code: ",
	needleENO:        "ENO",
}

// hostNeedles are the needles on which scanHost hands a line to hostFacts.scan;
// headerNeedles those of which every report header holds one (mayBeHeader).
const (
	hostNeedles   = 1<<needleBanner | 1<<needleTainted | 1<<needleNotTainted
	headerNeedles = 1<<needleAllocat | 1<<needleKill | 1<<needleKillUpper
	// langRuntimeNeedles: a language runtime's record may be in the line (langRuntimeHanded).
	// Three, not one per form: a needleSet searches at most maxAnchors (16) byte pairs, and
	// the needles before them take 13; a needle past the last anchor would be "always" and
	// hand every syslog line to a window (TestStreamSyslogFastPath).
	langRuntimeNeedles = 1<<needleOsError | 1<<needleRustOs | 1<<needleENO
)

// anyNeedle is the answer for a line whose needles are not known: it may hold any.
const anyNeedle = ^uint32(0)

// needleSet answers, for the lines of a text asked in order, which of its needles each line
// holds whole: line returns a bit per needle. It replaces one search per needle (each
// restarting strings.IndexByte at every hit of the needle's rarest byte: seven needles were
// a fifth of the parse of a syslog, 75 ms of 340 on the bench's 100 MiB) by one search for
// the anchors: two adjacent bytes of each needle, the pair least common in the text
// (sampleBigrams), shared by needles that hold the same pair when it is not much commoner
// than their own. A pair, not a byte: the rarest bytes of the needles are still common in
// a syslog ('N' of "Not tainted" starts every line of November; 'w', 'T'), and one byte per
// needle made 1.2 million hits in the bench's 100 MiB. The search runs searchAhead bytes past
// the line asked, so the stretch is still in the cache when the line loop reaches it, and
// looks at 32 positions at a time for all pairs at once (indexAnchors: AVX2 on amd64 CPUs
// that have it, a search per pair elsewhere); each hit is checked against the needles anchored on
// its pair.
//
// An occurrence of a needle at s with its anchor at offset r is found once, when the search
// meets s+r, whichever stretch that falls in; no needle holds a '\n', so it lies in one line.
type needleSet struct {
	needles []string
	maxLen  int
	anch    anchorSet
	cand    [maxAnchors][]needleAnchor // by anchor: the needles anchored on it
	always  uint32                     // needles without an anchor: every line may hold them
	// hits are the occurrences found at or after the line asked last, by start; h is the
	// first not behind it. searched: every anchor before it has been looked at. last is
	// the start of the line asked last (a line asked before it starts the search again).
	hits     []needleHit
	h        int
	searched int
	last     int
	quiet    int // a line from last on that ends by searched-quiet holds none (line)
}

type needleAnchor struct {
	id  uint8
	off int32 // the anchor's offset in the needle
}

type needleHit struct {
	start, end int
	id         uint8
}

// maxAnchors is the most byte pairs a needleSet searches for; a needle that holds none of
// them when they are all taken is searched in each line by its reader (always).
const maxAnchors = 16

// anchorSet is the anchors, pair k being pairs[k], and the tables of the vector search
// (Teddy's, from Hyperscan): pair k is in bucket k%8, and nib[0][x] (nib[1]) has bucket b's
// bit when a pair of b has a first byte whose low (high) nibble is x (bucketFor); nib[2] and nib[3] the
// same for second bytes; each table twice, for both halves of a 32-byte register. A byte
// passes both of its tables for bucket b when it is a byte of that position of one of b's
// pairs, or, in a bucket of several pairs, a mix of their nibbles: so with up to eight
// pairs a hit is a pair, and with more the caller checks.
//
// An anchor may also name the byte after its pair (third, -1 for any): nib[4] and nib[5]
// are the tables of third bytes, and a bucket passes every third byte once one of its
// pairs takes any. A third byte is what keeps "lo" of "llocat" from stopping the search at
// every "flooding" and "local", or "il" of "kill" at every "profile=" of audit lines: on the
// bench's syslog the pairs alone stopped it 434,714 times for 173,286 needles, three bytes
// 173,513 times.
type anchorSet struct {
	pairs  [maxAnchors]string
	pair16 [maxAnchors]uint16 // pairs[k] as first<<8 | second
	first  [256]uint16        // bit k: pairs[k] starts with the byte (find)
	third  [maxAnchors]int16  // the byte after pairs[k], or -1: any byte or none
	bucket [maxAnchors]uint8
	n      int
	nib    [6][32]byte
}

// newNeedleSet chooses the anchors of needles (at most 32) by the counts of byte pairs in
// the text (sampleBigrams). A needle takes its rarest pair, or a pair already chosen when
// that one is at most four times as common; once maxAnchors pairs are chosen, a needle
// that holds none of them, or a needle of one byte, is in always.
func newNeedleSet(needles []string, big *[1 << 16]uint32) needleSet {
	s := needleSet{needles: needles, last: -1}
	pair := func(n string, i int) uint16 { return uint16(n[i])<<8 | uint16(n[i+1]) }
	for id, n := range needles {
		s.maxLen = max(s.maxLen, len(n))
		rare, shared, sk := -1, -1, -1
		for i := 0; i+1 < len(n); i++ {
			if rare < 0 || big[pair(n, i)] < big[pair(n, rare)] {
				rare = i
			}
			if k := s.anch.find(n[i], n[i+1]); k >= 0 && (shared < 0 || big[pair(n, i)] < big[pair(n, shared)]) {
				shared, sk = i, k
			}
		}
		k := sk
		switch {
		case rare < 0:
			s.always |= 1 << id
			continue
		case shared >= 0 && (s.anch.n == maxAnchors || uint64(big[pair(n, shared)]) <= 4*uint64(big[pair(n, rare)])):
			rare = shared
			s.anch.share(k, thirdOf(n, rare))
		case s.anch.n == maxAnchors:
			s.always |= 1 << id
			continue
		default:
			k = s.anch.addThird(n[rare:rare+2], thirdOf(n, rare))
		}
		s.cand[k] = append(s.cand[k], needleAnchor{id: uint8(id), off: int32(rare)})
	}
	return s
}

// thirdOf is the byte of n after its pair at i, or -1.
func thirdOf(n string, i int) int {
	if i+2 < len(n) {
		return int(n[i+2])
	}
	return -1
}

// find returns the index of the pair x, y, or -1. It is asked twice at every stop of the
// search (match, then search), so it looks only at the pairs that start with x, usually
// one, instead of every pair (a loop over twelve was 1% of the bench's parse, perf15q).
func (a *anchorSet) find(x, y byte) int {
	p := uint16(x)<<8 | uint16(y)
	for m := a.first[x]; m != 0; m &= m - 1 {
		if k := bits.TrailingZeros16(m); a.pair16[k] == p {
			return k
		}
	}
	return -1
}

// add adds the pair p followed by any byte (or none).
func (a *anchorSet) add(p string) int { return a.addThird(p, -1) }

// addThird adds the pair p followed by the byte third (-1: any byte, or none).
func (a *anchorSet) addThird(p string, third int) int {
	k := a.n
	a.pairs[k] = p
	a.pair16[k] = uint16(p[0])<<8 | uint16(p[1])
	a.first[p[0]] |= 1 << k
	a.bucket[k] = a.bucketFor(p)
	a.third[k] = -1
	bit := byte(1) << a.bucket[k]
	for half := 0; half < 32; half += 16 {
		a.nib[0][half+int(p[0]&15)] |= bit
		a.nib[1][half+int(p[0]>>4)] |= bit
		a.nib[2][half+int(p[1]&15)] |= bit
		a.nib[3][half+int(p[1]>>4)] |= bit
	}
	a.n++
	a.setThird(k, third)
	return k
}

// setThird sets the byte after anchor k's pair: third, or any byte when third is -1.
// The tables only gain bits, so a bucket passes whatever it passed before.
func (a *anchorSet) setThird(k int, third int) {
	bit := byte(1) << a.bucket[k]
	a.third[k] = int16(third)
	if third < 0 {
		for i := range a.nib[4] {
			a.nib[4][i] |= bit
			a.nib[5][i] |= bit
		}
		return
	}
	for half := 0; half < 32; half += 16 {
		a.nib[4][half+third&15] |= bit
		a.nib[5][half+third>>4] |= bit
	}
}

// share makes anchor k serve one more needle, whose byte after the pair is third (-1:
// none): a third byte that differs from k's makes k's any.
func (a *anchorSet) share(k int, third int) {
	if a.third[k] >= 0 && int(a.third[k]) != third {
		a.setThird(k, -1)
	}
}

// at says whether s[q:] starts with anchor k.
func (a *anchorSet) at(s string, q, k int) bool {
	return q+1 < len(s) && s[q] == a.pairs[k][0] && s[q+1] == a.pairs[k][1] &&
		(a.third[k] < 0 || q+2 < len(s) && s[q+2] == byte(a.third[k]))
}

// match returns the anchor that s[q:] starts with, or -1.
func (a *anchorSet) match(s string, q int) int {
	if q+1 >= len(s) {
		return -1
	}
	if k := a.find(s[q], s[q+1]); k >= 0 && a.at(s, q, k) {
		return k
	}
	return -1
}

// bucketFor chooses the bucket of pair p: an empty one while there is one, else the one
// where p adds the fewest pairs of mixed nibbles (a bucket passes every byte pair made of
// its first bytes' low and high nibbles and its second bytes'): "Ki" joins "ki" for
// nothing, as they differ in one nibble of one byte.
func (a *anchorSet) bucketFor(p string) uint8 {
	if a.n < 8 {
		return uint8(a.n)
	}
	best, bestMix := uint8(0), 1<<30
	for b := range uint8(8) {
		var nibs [4]uint16
		for k, q := range a.pairs[:a.n] {
			if a.bucket[k] == b {
				nibs[0] |= 1 << (q[0] & 15)
				nibs[1] |= 1 << (q[0] >> 4)
				nibs[2] |= 1 << (q[1] & 15)
				nibs[3] |= 1 << (q[1] >> 4)
			}
		}
		nibs[0] |= 1 << (p[0] & 15)
		nibs[1] |= 1 << (p[0] >> 4)
		nibs[2] |= 1 << (p[1] & 15)
		nibs[3] |= 1 << (p[1] >> 4)
		mix := 1
		for _, n := range nibs {
			mix *= bits.OnesCount16(n)
		}
		if mix < bestMix {
			best, bestMix = b, mix
		}
	}
	return best
}

// line returns the needles that text[start:end] holds whole, a bit per needle (always's
// bits set: those may be anywhere). Lines are asked in order; one asked before the last
// is answered too, by searching again from its start.
//
// Most lines hold no needle: the search ahead has passed the line and the next hit starts
// after it (quiet). That answer is inlined (every line of a syslog asks, issue 33 perf15q),
// the rest is lineFrom's. It leaves last as it was: only lineFrom drops hits, those that
// start before the line it is asked, so every hit from last on is still kept.
func (s *needleSet) line(text string, start, end int) uint32 {
	if start >= s.last && end+s.quiet <= s.searched {
		return s.always
	}
	return s.lineFrom(text, start, end)
}

// lineFrom is line for a line that may hold a hit, or that the search has not passed.
func (s *needleSet) lineFrom(text string, start, end int) uint32 {
	if start < s.last {
		s.hits, s.h, s.searched = s.hits[:0], 0, start
	}
	s.last = start
	if s.searched < len(text) && s.searched < end+s.maxLen {
		s.search(text, min(max(end+s.maxLen, s.searched+searchAhead), len(text)))
	}
	for s.h < len(s.hits) && s.hits[s.h].start < start {
		s.h++
	}
	if s.h == len(s.hits) {
		s.hits, s.h = s.hits[:0], 0
	}
	mask := s.always
	for _, h := range s.hits[s.h:] {
		if h.start >= end {
			break
		}
		if h.end <= end {
			mask |= 1 << h.id
		}
	}
	// The lines that end by searched-quiet hold no needle: the search has passed them (a
	// needle that ends there starts before searched, and so does its anchor) and no hit
	// left starts before. quiet is kept as a distance back from searched, so a search
	// started again from an earlier place (a text stripped of its gutters) moves the
	// shortcut back with it.
	s.quiet = s.maxLen
	if s.searched >= len(text) {
		s.quiet = 0
	}
	if s.h < len(s.hits) {
		s.quiet = max(s.quiet, s.searched-s.hits[s.h].start)
	}
	return mask
}

// search looks at the anchors that start in text[s.searched:limit] and keeps the needles
// they anchor.
func (s *needleSet) search(text string, limit int) {
	from := max(s.searched, 0)
	for from < limit {
		i := indexAnchors(text[from:min(limit+2, len(text))], &s.anch)
		if i < 0 || from+i >= limit {
			break
		}
		q := from + i
		for _, c := range s.cand[s.anch.find(text[q], text[q+1])] {
			n := s.needles[c.id]
			st := q - int(c.off)
			if st >= 0 && st+len(n) <= len(text) && text[st:st+len(n)] == n {
				s.add(needleHit{start: st, end: st + len(n), id: c.id})
			}
		}
		from = q + 1
	}
	s.searched = limit
}

// add keeps a hit in order of start: hits come in order of their anchors, so one may start
// before the last kept (by less than the longest needle).
func (s *needleSet) add(h needleHit) {
	s.hits = append(s.hits, h)
	for k := len(s.hits) - 1; k > s.h && s.hits[k-1].start > h.start; k-- {
		s.hits[k], s.hits[k-1] = s.hits[k-1], s.hits[k]
	}
}

// indexAnchorsGeneric returns the first i at which s[i:] starts with one of a's anchors,
// or -1: a search per anchor, each cut at the best found so far.
func indexAnchorsGeneric(s string, a *anchorSet) int {
	best := -1
	var b [3]byte
	for k, p := range a.pairs[:a.n] {
		if a.third[k] >= 0 {
			b = [3]byte{p[0], p[1], byte(a.third[k])}
			p = string(b[:])
		}
		if i := strings.Index(s, p); i >= 0 {
			best, s = i, s[:min(i+2, len(s))] // an anchor before i ends by i+2
		}
	}
	return best
}

// sampleBigrams counts the byte pairs of sixteen stretches of 16 KiB spread over the text
// (the whole of a text up to 256 KiB): what newNeedleSet needs to tell a rare pair from a
// common one.
func sampleBigrams(text string) *[1 << 16]uint32 {
	var big [1 << 16]uint32
	const pieces, piece = 16, 16 << 10
	step := max(len(text)/pieces, piece)
	for at := 0; at < len(text); at += step {
		p := text[at:min(at+piece+1, len(text))]
		for i := 0; i+1 < len(p); i++ {
			big[uint16(p[i])<<8|uint16(p[i+1])]++
		}
	}
	return &big
}

// byteClass finds bytes of one class (a backslash; any byte that is not ASCII) in the lines
// of a text asked in order, by searching searchAhead bytes past the line instead of each
// line: in says whether text[start:end] holds one. No byte of the class lies in [from, at);
// when found, text[at] is one.
type byteClass struct {
	index     func(string) int
	from, at  int
	found     bool
	searching bool // a search has run (from and at mean something)
}

func (x *byteClass) in(text string, start, end int) bool {
	if x.searching && start >= x.from && x.at >= end {
		return false // none in [from, at), which holds the line: most lines, inlined
	}
	return x.search(text, start, end)
}

// search is in for a line that the last search did not answer.
func (x *byteClass) search(text string, start, end int) bool {
	if !x.searching || start < x.from {
		x.searching, x.from, x.at, x.found = true, start, start, false
	}
	if x.at >= end {
		return false // none in [from, at), which holds the line
	}
	if x.found && x.at >= start {
		return true
	}
	from := start
	if !x.found {
		from = max(start, x.at)
	}
	limit := min(max(end, from+searchAhead), len(text))
	x.from, x.at, x.found = start, limit, false
	if i := x.index(text[from:limit]); i >= 0 {
		x.at, x.found = from+i, true
	}
	return x.found && x.at < end
}

// indexAmp returns the index of the first '&' of s that a byte that can start an entity
// follows (entityStart, unescapeHTML), or that ends s (the byte after it unseen), or -1:
// the "&&" of cron's "cd / && run-parts" (7% of the bench's syslog) changes nothing, and
// a line with no other '&' need not be asked.
func indexAmp(s string) int {
	for from := 0; ; {
		k := strings.IndexByte(s[from:], '&')
		if k < 0 {
			return -1
		}
		i := from + k
		if i+1 == len(s) || entityStart[s[i+1]] {
			return i
		}
		from = i + 1
	}
}

// indexOddGeneric returns the index of the first byte of s that is not ASCII, is a
// backslash, or is a '_' or '*' that a digit follows or that ends s (the byte after it is
// not in s, so it may be a digit: the line that holds it is then read as one that may hold
// the pair), or -1. Those are the bytes that take a line off the fast path
// (stripUsualSyslog) or that fixBuddyStars and stripCellEmphasis look for.
func indexOddGeneric(s string) int {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= utf8.RuneSelf || c == '\\':
			return i
		case c == '_' || c == '*':
			if i+1 == len(s) || isDigit(s[i+1]) {
				return i
			}
		}
	}
	return -1
}

// indexMarkDigit returns the index of the first '_' or '*' of s that a digit follows, or
// that ends s, or -1.
func indexMarkDigit(s string) int {
	star := indexBeforeDigit(s, '*') // rare: bounds the search for the common '_'
	if star >= 0 {
		s = s[:star+1] // the '*' ends it: a '_' before it is not taken for one at the end
	}
	if u := indexBeforeDigit(s, '_'); u >= 0 {
		return u
	}
	return star
}

// indexBeforeDigit is indexMarkDigit for the byte c alone.
func indexBeforeDigit(s string, c byte) int {
	for from := 0; ; {
		k := strings.IndexByte(s[from:], c)
		if k < 0 {
			return -1
		}
		i := from + k
		if i+1 == len(s) || isDigit(s[i+1]) {
			return i
		}
		from = i + 1
	}
}
