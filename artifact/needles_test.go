package artifact

import (
	"math/rand"
	"strings"
	"testing"
)

// indexAnchors (SSE2 on amd64) finds what a search per anchor finds and what a byte loop
// finds: at every length around the 16-byte blocks, with anchors at the edges, with one to
// maxAnchors anchors.
func TestIndexAnchors(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	for round := range 20000 {
		var a anchorSet
		for range 1 + rng.Intn(maxAnchors) {
			if c := byte(rng.Intn(256)); !a.is[c] {
				a.add(c)
			}
		}
		b := make([]byte, rng.Intn(80))
		for i := range b {
			b[i] = byte(rng.Intn(256))
			if rng.Intn(8) != 0 && a.is[b[i]] {
				b[i] = 'x' // most texts few hits
			}
		}
		if len(b) > 0 && round%3 == 0 {
			b[len(b)-1] = a.bytes[rng.Intn(a.n)]
		}
		off := rng.Intn(8) // not 16-aligned
		s := string(append(make([]byte, off), b...))[off:]
		want := -1
		for i := range len(s) {
			if a.is[s[i]] {
				want = i
				break
			}
		}
		if got := indexAnchors(s, &a); got != want {
			t.Fatalf("indexAnchors(%q, %q) = %d, want %d", s, a.bytes[:a.n], got, want)
		}
		if got := indexAnchorsGeneric(s, &a); got != want {
			t.Fatalf("indexAnchorsGeneric(%q, %q) = %d, want %d", s, a.bytes[:a.n], got, want)
		}
	}
}

// needleSet.line, asked line by line as the fast path asks (and now and then out of
// order), answers for every needle what a search of each line answers, whatever the
// stretch searched ahead and however the anchors fall: shared, or more needles than
// anchors (always), or frequencies from another text.
func TestNeedleSetLines(t *testing.T) {
	defer func(n int) { searchAhead = n }(searchAhead)
	rng := rand.New(rand.NewSource(2))
	sets := [][]string{
		needleText[:],
		{"ainted", "tainted", "nte", "a", "ted\n"[:3], "d"},
		{"ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv"}, // more than maxAnchors
		{"aa", "aaa", "ba"},
	}
	for round := range 1200 {
		searchAhead = []int{1, 7, 64, 1 << 16}[round%4]
		needles := sets[round%len(sets)]
		alphabet := "aintedwr_loc bfghjkmpqsuvNLTSY\n\n"
		b := make([]byte, rng.Intn(3000))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		text := string(b)
		for range rng.Intn(12) {
			n := needles[rng.Intn(len(needles))]
			if len(text) > len(n)+2 {
				at := rng.Intn(len(text) - len(n))
				text = text[:at] + n + text[at+len(n):]
			}
		}
		freq := sampleBytes(text)
		if round%3 == 1 {
			freq = sampleBytes(strings.Repeat("Linux version ", 3))
		}
		s := newNeedleSet(needles, freq)
		for start := 0; start < len(text); {
			end := strings.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += start
			}
			got := s.line(text, start, end)
			for id, n := range needles {
				if s.always&(1<<id) != 0 {
					continue // may be anywhere: the caller searches the line
				}
				if has, want := got&(1<<id) != 0, strings.Contains(text[start:end], n); has != want {
					t.Fatalf("round %d (ahead %d, anchors %q): line %q holds %q: %v, want %v", round, searchAhead, s.anch.bytes[:s.anch.n], text[start:end], n, has, want)
				}
			}
			if rng.Intn(50) == 0 && start > 0 {
				start -= rng.Intn(min(start, 40)) + 1 // out of order, a little way back
			} else {
				start = end + 1
			}
		}
	}
}

// A needle either has an anchor or is in always; the set of eleven two-byte needles
// above cannot all have one.
func TestNeedleSetAnchors(t *testing.T) {
	needles := []string{"ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv"}
	s := newNeedleSet(needles, sampleBytes("abcdefghijklmnopqrstuv"))
	anchored := 0
	for c := range s.cand {
		anchored += len(s.cand[c])
	}
	always := 0
	for id := range needles {
		if s.always&(1<<id) != 0 {
			always++
		}
	}
	if s.anch.n != maxAnchors || anchored+always != len(needles) || always != len(needles)-maxAnchors {
		t.Errorf("%d anchors, %d needles anchored, %d always; want %d, %d, %d", s.anch.n, anchored, always, maxAnchors, maxAnchors, len(needles)-maxAnchors)
	}
}
