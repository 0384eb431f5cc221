package artifact

import (
	"bytes"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// indexAnchors (AVX2 on amd64 CPUs that have it) and indexAnchorsGeneric find the first
// anchor that a loop over the positions finds: at every length around the 32-byte blocks,
// with an anchor at the end or cut by it, with one to maxAnchors anchors of two bytes and
// of three (a pair followed by a byte other than its third must not match), with parts of
// anchors that must not match.
func TestIndexAnchors(t *testing.T) {
	// A pair found first, and an anchor of three bytes that starts one byte before it.
	var two anchorSet
	two.add("cd")
	two.addThird("bc", 'd')
	if got := indexAnchorsGeneric("abcd", &two); got != 1 {
		t.Errorf("indexAnchorsGeneric(abcd, [cd bc+d]) = %d, want 1", got)
	}
	rng := rand.New(rand.NewSource(3))
	for round := range 30000 {
		var a anchorSet
		for range 1 + rng.Intn(maxAnchors) {
			if x, y := byte(rng.Intn(256)), byte(rng.Intn(256)); a.find(x, y) < 0 {
				third := -1 // anchors of two bytes, of three, and shared ones widened
				if rng.Intn(3) > 0 {
					third = rng.Intn(256)
				}
				k := a.addThird(string([]byte{x, y}), third)
				if rng.Intn(5) == 0 {
					a.share(k, rng.Intn(257)-1)
				}
			}
		}
		anchor := func(k int) []byte {
			if a.third[k] < 0 {
				return []byte{a.pairs[k][0], a.pairs[k][1], byte(rng.Intn(256))}
			}
			return []byte{a.pairs[k][0], a.pairs[k][1], byte(a.third[k])}
		}
		b := make([]byte, rng.Intn(150))
		for i := range b {
			b[i] = byte(rng.Intn(256))
			if rng.Intn(4) == 0 {
				b[i] = anchor(rng.Intn(a.n))[rng.Intn(3)] // parts of anchors, now and then one
			}
		}
		if len(b) > 2 && round%3 == 0 {
			p := anchor(rng.Intn(a.n))
			if rng.Intn(2) == 0 {
				copy(b[len(b)-3:], p)
			} else {
				copy(b[len(b)-3:], p[:2]) // the pair, and the third byte not the anchor's
				b[len(b)-1] = p[2] ^ byte(1+rng.Intn(255))
			}
		}
		off := rng.Intn(32) // not 32-aligned
		s := string(append(make([]byte, off), b...))[off:]
		if len(b) > 1 && round%3 == 1 {
			// An anchor's first bytes last, its rest just past the end of s.
			p := anchor(rng.Intn(a.n))
			cut := 1 + rng.Intn(2)
			copy(b[len(b)-cut:], p[:cut])
			s = string(append(append(make([]byte, off), b...), p[cut:]...))[off : off+len(b)]
		}
		want := -1
		for i := 0; i+1 < len(s); i++ {
			if a.match(s, i) >= 0 {
				want = i
				break
			}
		}
		if got := indexAnchors(s, &a); got != want {
			t.Fatalf("indexAnchors(%q, %q %d) = %d, want %d", s, a.pairs[:a.n], a.third[:a.n], got, want)
		}
		if got := indexAnchorsGeneric(s, &a); got != want {
			t.Fatalf("indexAnchorsGeneric(%q, %q %d) = %d, want %d", s, a.pairs[:a.n], a.third[:a.n], got, want)
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
		{"ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx", "yz", "AB", "CD", "EF", "GH", "IJ"}, // more than maxAnchors
		{"aa", "aaa", "ba", "a", ""},
	}
	for round := range 1200 {
		searchAhead = []int{1, 7, 64, 1 << 16}[round%4]
		needles := sets[round%len(sets)]
		alphabet := "aintedwr_loc bfghjkmpqsuvxyzABCDEFGHIJNLTSY\n\n"
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
		freq := sampleBigrams(text)
		if round%3 == 1 {
			freq = sampleBigrams(strings.Repeat("Linux version ", 3))
		}
		s := newNeedleSet(needles, freq)
		askLines(text, rng, func(start, end int) {
			got := s.line(text, start, end)
			for id, n := range needles {
				if s.always&(1<<id) != 0 {
					continue // may be anywhere: the caller searches the line
				}
				if has, want := got&(1<<id) != 0, strings.Contains(text[start:end], n); has != want {
					t.Fatalf("round %d (ahead %d, anchors %q): line %q holds %q: %v, want %v", round, searchAhead, s.anch.pairs[:s.anch.n], text[start:end], n, has, want)
				}
			}
		})
	}
}

// A needle either has an anchor or is in always; of the eighteen two-byte needles, the
// first maxAnchors have one.
func TestNeedleSetAnchors(t *testing.T) {
	needles := []string{"ab", "cd", "ef", "gh", "ij", "kl", "mn", "op", "qr", "st", "uv", "wx", "yz", "AB", "CD", "EF", "GH", "IJ"}
	s := newNeedleSet(needles, sampleBigrams(strings.Join(needles, "")))
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
	if s.anch.n != maxAnchors || anchored != maxAnchors || always != len(needles)-maxAnchors {
		t.Errorf("%d anchors, %d needles anchored, %d always; want %d, %d, %d", s.anch.n, anchored, always, maxAnchors, maxAnchors, len(needles)-maxAnchors)
	}
}

// The fast path skips mayBeHeader on a line without headerNeedles: that is sound only if
// mayBeHeader says true of no text without one of them.
func TestHeaderNeedlesCoverMayBeHeader(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	alphabet := "allocatkiKl -"
	for range 200000 {
		b := make([]byte, rng.Intn(14))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
		}
		s := string(b)
		holds := false
		for id, n := range needleText {
			if headerNeedles&(1<<id) != 0 && strings.Contains(s, n) {
				holds = true
			}
		}
		if mayBeHeader(s) && !holds {
			t.Fatalf("mayBeHeader(%q) without a header needle", s)
		}
	}
}

// byteClass.in, asked line by line (and now and then out of order), says what a search of
// each line says, whatever the stretch searched ahead; indexOdd (AVX2 on amd64) finds what
// a loop finds.
func TestByteClassLines(t *testing.T) {
	defer func(n int) { searchAhead = n }(searchAhead)
	rng := rand.New(rand.NewSource(5))
	alphabet := "ab \\\n\n\xc3\xa9\x80&_*1g#"
	for round := range 1200 {
		searchAhead = []int{1, 7, 64, 1 << 16}[round%4]
		b := make([]byte, rng.Intn(3000))
		for i := range b {
			b[i] = alphabet[rng.Intn(len(alphabet))]
			if rng.Intn(4) != 0 {
				b[i] = 'a' // long stretches without either class
			}
		}
		text := string(b)
		amp, odd := byteClass{index: indexAmp}, byteClass{index: indexOdd}
		askLines(text, rng, func(start, end int) {
			line := text[start:end]
			// amp: every '&' that may start an entity; yes also for one that ends the
			// stretch searched, never for a line without '&'.
			if got, want := amp.in(text, start, end), ampEntity(line); got != want && !(got && strings.IndexByte(line, '&') >= 0) {
				t.Fatalf("round %d (ahead %d): amp in %q: %v, want %v", round, searchAhead, line, got, want)
			}
			// odd must find every line that is not ASCII or holds a backslash or a '_' or
			// '*' before a digit; it may also answer yes for a mark that ends the text it
			// searched (the byte after it unseen), never for a line without one.
			want := oddLine(line)
			loose := want || strings.ContainsAny(line, "_*")
			if got := odd.in(text, start, end); got != want && !(got && loose) {
				t.Fatalf("round %d (ahead %d): odd in %q: %v, want %v", round, searchAhead, line, got, want)
			}
		})
		if got, want := indexOdd(text), indexOddGeneric(text); got != want {
			t.Fatalf("indexOdd = %d, want %d", got, want)
		}
	}
}

// ampEntity reports whether s holds an '&' that a byte of entityStart follows, by a loop
// over s (an '&' at the end of a line starts no entity).
func ampEntity(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '&' && entityStart[s[i+1]] {
			return true
		}
	}
	return false
}

// oddLine is what indexOdd looks for, by a loop over s.
func oddLine(s string) bool {
	return !isASCII(s) || strings.IndexByte(s, '\\') >= 0 || markBeforeDigit(s)
}

// indexOdd finds each of its bytes at every place of a text of any length, after bytes
// next to them in value and marks not before a digit, and reads no byte past its string;
// indexMarkDigit finds the pairs a loop finds.
func TestIndexOdd(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	// '/' and ':' are the neighbours of '0' and '9', '+' and ')' of '*', '`' and '^' of
	// '_', '[' and ']' of '\\', DEL of 0x80.
	const near = "a_*19/+)`:^[]\x7f"
	for n := 0; n < 200; n++ {
		for range 20 {
			b := nearBytes(rng, n, near)
			for i := range b {
				if i+1 < n && (b[i] == '_' || b[i] == '*') && isDigit(b[i+1]) {
					b[i] = 'a'
				}
			}
			text := string(b)
			if n > 1 && rng.Intn(2) == 0 {
				p := rng.Intn(n - 1)
				odd := []string{"_0", "*9", "\\a", "\x80a", "\xffa", "\xc3\xa9"}[rng.Intn(6)]
				text = text[:p] + odd + text[p+2:]
			}
			// The string ends where a pair would go on: a mark at its end is a maybe.
			for _, s := range []string{text, text + "5"} {
				if got, want := indexOdd(s), indexOddGeneric(s); got != want {
					t.Fatalf("indexOdd(%q) = %d, want %d", s, got, want)
				}
				end := len(s) > 0 && (s[len(s)-1] == '_' || s[len(s)-1] == '*')
				if got, want := indexMarkDigit(s) >= 0, markBeforeDigit(s) || end; got != want {
					t.Fatalf("indexMarkDigit(%q) >= 0 is %v, want %v", s, got, want)
				}
			}
		}
	}
}

// markBeforeDigit reports whether s holds a '_' or '*' that a digit follows.
func markBeforeDigit(s string) bool {
	for i := 0; i+1 < len(s); i++ {
		if (s[i] == '_' || s[i] == '*') && isDigit(s[i+1]) {
			return true
		}
	}
	return false
}

// parseLineKnown, told what the raw line holds, reads every line as parseLine does.
func TestParseLineKnownIsParseLine(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 1<<20, 5); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	r := rand.New(rand.NewSource(6))
	for range 20000 {
		lines = append(lines, randomLine(r))
	}
	lines = append(lines, `Nov 29 12:00:00 host kernel: [  1.0] a\b`, "Nov 29 12:00:00 host kernel: [  1.0] caf\xc3\xa9",
		"Nov 29 12:00:00 host kernel: [  1.0] 0\xc3\x9720", "plain \xc3\xa9 text", `plain \ text`,
		`Nov 29 12:00:00 host kernel: \[  123.456789\] swapper/0: page allocation failure: order:0`,
		`Nov 29 12:00:00 host kernel: [  123.456789] Normal: 486\*4kB 33\*8kB`,
		`Nov 29 12:00:00 host kernel: [  123.456789] Normal free:1kB min:2kB &gt; low`,
		`Nov 29 12:00:00 host kernel: [  123.456789] Normal: 486_4kB 33_8kB 1_16kB = 2520kB`,
		`Nov 29 12:00:00 host kernel: [  123.456789] Node 0 Normal: 486*4kB 33*8kB 1*16kB`,
		`Nov 29 12:00:00 host kernel: eth0 | __12__ | **345** | 6 | 7`,
		`Nov 29 12:00:00 host kernel: eth0 | 12 | *345* | 6 | 7 |`,
		`Nov 29 12:00:00 host CRON[1]: (root) CMD ( cd / && run-parts --report /etc/cron.hourly)`,
		`Nov 29 12:00:00 host CRON[1]: (root) CMD ( cd / && echo &gt; x)`,
		`Nov 29 12:00:00 host kernel: a &amp; b &`)
	for no, raw := range lines {
		f := rawFacts{known: true, ascii: isASCII(raw), backslash: strings.IndexByte(raw, '\\') >= 0,
			amp: ampEntity(raw), markDigit: markBeforeDigit(raw)}
		want, wesc, wascii := parseLine(no, raw)
		got, gesc, gascii := parseLineKnown(no, raw, f)
		if !reflect.DeepEqual(got, want) || gesc != wesc || gascii != wascii {
			t.Fatalf("line %q: parseLineKnown %+v, parseLine %+v", raw, got, want)
		}
	}
}

// askLines calls ask for each line of text in order, as the fast path asks, and now and
// then for one a little way back (out of order).
func askLines(text string, rng *rand.Rand, ask func(start, end int)) {
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		ask(start, end)
		if rng.Intn(50) == 0 && start > 0 {
			start -= rng.Intn(min(start, 40)) + 1
		} else {
			start = end + 1
		}
	}
}

// growAhead keeps what the list holds, and a list added to at an even pace through a big
// text is copied a few times, not once per quarter of growth.
func TestGrowAhead(t *testing.T) {
	const total, n = 100 << 20, 86774
	var s []int
	grows := 0
	for i := range n {
		before := cap(s)
		s = append(growAhead(s, (i+1)*(total/n), total), i)
		if cap(s) != before {
			grows++
		}
	}
	for i, v := range s {
		if v != i {
			t.Fatalf("s[%d] = %d", i, v)
		}
	}
	if grows > 14 { // append alone: 26 past the first 1024
		t.Errorf("%d grows for %d elements", grows, n)
	}
	if cap(s) > 2*n {
		t.Errorf("capacity %d for %d elements", cap(s), n)
	}
}
