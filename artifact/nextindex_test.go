package artifact

import (
	"math/rand"
	"strings"
	"testing"
)

// nextIndex.index must find what strings.Index finds, whichever byte it hops by: a rare
// one, a common one (the fallback to strings.Index), at the text's edges.
func TestNextIndexMatchesStringsIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	needles := []string{"ainted", "warn_alloc", "vmalloc error: size ", "Linux version ", "aa", "x"}
	alphabet := "aintedwr_locvm :sizeLuxL\n"
	for round := range 3000 {
		n := rng.Intn(400)
		if round%50 == 0 {
			n = 20000 // long enough for the fallback's threshold
		}
		b := make([]byte, n)
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		text := string(b)
		for _, needle := range needles {
			if rng.Intn(3) == 0 && n > len(needle) {
				at := rng.Intn(n - len(needle) + 1)
				text = text[:at] + needle + text[at+len(needle):]
			}
			// Frequencies from another text: the rarest byte may be the commonest here.
			var freq *[256]uint32
			if round%2 == 0 {
				freq = sampleBytes(text)
			} else {
				freq = sampleBytes(strings.Repeat(needle[:1], 5))
			}
			x := newNextIndex(needle, freq)
			for _, from := range []int{0, n / 3, n / 2, max(n-len(needle), 0), n} {
				want := strings.Index(text[from:], needle)
				if want >= 0 {
					want += from
				}
				if got := x.index(text, from); got != want {
					t.Fatalf("round %d: index(%q in %d bytes, from %d) = %d, strings.Index %d (rare byte %q)", round, needle, len(text), from, got, want, needle[x.rare])
				}
			}
		}
	}
}

// in and next, asked line by line as the fast path asks (and now and then out of order),
// must answer what a search of each line answers, whatever the stretch searched ahead.
func TestNextIndexLines(t *testing.T) {
	defer func(n int) { searchAhead = n }(searchAhead)
	rng := rand.New(rand.NewSource(2))
	alphabet := "aintedwr_loc \n\n"
	for round := range 400 {
		searchAhead = []int{1, 7, 64, 1 << 16}[round%4]
		b := make([]byte, rng.Intn(3000))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		text := string(b)
		for range rng.Intn(6) {
			if len(text) > 10 {
				at := rng.Intn(len(text) - 6)
				text = text[:at] + []string{"ainted", "tainted\n", "\nainte"}[rng.Intn(3)] + text[at+6:]
			}
		}
		x := newNextIndex("ainted", sampleBytes(text))
		for start := 0; start < len(text); {
			end := strings.IndexByte(text[start:], '\n')
			if end < 0 {
				end = len(text)
			} else {
				end += start
			}
			if got, want := x.in(text, start, end), strings.Contains(text[start:end], "ainted"); got != want {
				t.Fatalf("round %d (ahead %d): in(%d, %d) = %v, the line holds it: %v", round, searchAhead, start, end, got, want)
			}
			first := strings.Index(text[start:], "ainted")
			if got, want := x.next(text, start, end) < end, first >= 0 && start+first < end; got != want {
				t.Fatalf("round %d: next(%d, %d) < end = %v, want %v", round, start, end, got, want)
			}
			if rng.Intn(50) == 0 && start > 0 {
				start -= rng.Intn(min(start, 40)) + 1 // out of order, a little way back
			} else {
				start = end + 1
			}
		}
	}
}
