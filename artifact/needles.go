package artifact

import "strings"

// The needles the fast path asks every kernel log line for: words that few lines hold and
// that decide whether a reader runs on the line at all. Each reader that needs one adds it
// here (a constant and its text) and asks d.rawHas(needleX, l); the line's answer for every
// needle comes from one search of the text (needleSet), so a new needle costs a compare at
// the hits of its anchor byte, not another pass over the text.
type needleID uint8

const (
	needleBanner     needleID = iota // "Linux version " (hostFacts.scan: the boot banner)
	needleTainted                    // "Tainted: " (reTainted)
	needleNotTainted                 // "Not tainted" (reTainted)
	needleWarnAlloc                  // "warn_alloc" (allocFailureFrame)
	needleVmallocErr                 // "vmalloc error: size " (logNumbers)
	needleSynFlood                   // "SYN flooding on port " (logSynFlood)
	needleLinkUp                     // linkUpWords (readLinkUp)
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
}

// hostNeedles are the needles on which scanHost hands a line to hostFacts.scan.
const hostNeedles = 1<<needleBanner | 1<<needleTainted | 1<<needleNotTainted

// needleSet answers, for the lines of a text asked in order, which of its needles each line
// holds whole: line returns a bit per needle. It replaces one search per needle (each
// restarting strings.IndexByte at every hit of the needle's rarest byte: seven needles were
// a fifth of the parse of a syslog, 75 ms of 340 on the bench's 100 MiB) by one search for
// the anchors, a byte of each needle chosen by its rarity in the text (sampleBytes); needles
// share an anchor when one of them holds a byte already chosen that is not much commoner
// than its own. The search runs searchAhead bytes past the line asked, so the stretch is
// still in the cache when the line loop reaches it, and finds every anchor byte with one
// vector compare of 16 bytes against all of them (indexAnchors: SSE2 on amd64, a search per
// anchor elsewhere); each anchor hit is checked against the needles anchored on its byte.
//
// An occurrence of a needle at s with its anchor at offset r is found once, when the search
// meets s+r, whichever stretch that falls in; no needle holds a '\n', so it lies in one line.
type needleSet struct {
	needles []string
	maxLen  int
	anch    anchorSet
	cand    [256][]needleAnchor // by anchor byte: the needles anchored on it
	always  uint32              // needles without an anchor (more than maxAnchors bytes): every line may hold them
	// hits are the occurrences found at or after the line asked last, by start; h is the
	// first not behind it. searched: every anchor byte before it has been looked at. last
	// is the start of the line asked last (a line asked before it starts the search again).
	hits     []needleHit
	h        int
	searched int
	last     int
}

type needleAnchor struct {
	id  uint8
	off int32 // the anchor's offset in the needle
}

type needleHit struct {
	start, end int
	id         uint8
}

// maxAnchors is the number of anchor bytes indexAnchors compares at once.
const maxAnchors = 8

// anchorSet is the anchor bytes: as a list (unused places repeat the first, which the
// vector compare then finds twice) and as a table.
type anchorSet struct {
	bytes [maxAnchors]byte
	n     int
	is    [256]bool
}

// newNeedleSet chooses the anchors of needles (at most 32) by the byte counts of the text.
// A needle takes its rarest byte, or a byte already chosen when that one is at most four
// times as common (its hits are then checked, not searched again); once maxAnchors bytes
// are chosen, a needle that holds none of them is in always.
func newNeedleSet(needles []string, freq *[256]uint32) needleSet {
	s := needleSet{needles: needles, last: -1}
	for id, n := range needles {
		s.maxLen = max(s.maxLen, len(n))
		rare, shared := -1, -1
		for i := range len(n) {
			c := n[i]
			if rare < 0 || freq[c] < freq[n[rare]] {
				rare = i
			}
			if s.anch.is[c] && (shared < 0 || freq[c] < freq[n[shared]]) {
				shared = i
			}
		}
		switch {
		case len(n) == 0:
			s.always |= 1 << id
			continue
		case shared >= 0 && (s.anch.n == maxAnchors || uint64(freq[n[shared]]) <= 4*uint64(freq[n[rare]])):
			rare = shared
		case s.anch.n == maxAnchors:
			s.always |= 1 << id
			continue
		default:
			s.anch.add(n[rare])
		}
		s.cand[n[rare]] = append(s.cand[n[rare]], needleAnchor{id: uint8(id), off: int32(rare)})
	}
	return s
}

func (a *anchorSet) add(c byte) {
	if a.n == 0 {
		for i := range a.bytes {
			a.bytes[i] = c
		}
	}
	a.bytes[a.n] = c
	a.n++
	a.is[c] = true
}

// line returns the needles that text[start:end] holds whole, a bit per needle (always's
// bits set: those may be anywhere). Lines are asked in order; one asked before the last
// is answered too, by searching again from its start.
func (s *needleSet) line(text string, start, end int) uint32 {
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
	return mask
}

// search looks at the anchor bytes in text[s.searched:limit] and keeps the needles they
// anchor.
func (s *needleSet) search(text string, limit int) {
	from := max(s.searched, 0)
	for from < limit {
		i := indexAnchors(text[from:limit], &s.anch)
		if i < 0 {
			break
		}
		q := from + i
		for _, c := range s.cand[text[q]] {
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

// indexAnchorsGeneric is indexAnchors by a search per anchor byte, each cut at the best
// found so far.
func indexAnchorsGeneric(s string, a *anchorSet) int {
	best := -1
	for _, c := range a.bytes[:a.n] {
		if i := strings.IndexByte(s, c); i >= 0 {
			best, s = i, s[:i]
		}
	}
	return best
}
