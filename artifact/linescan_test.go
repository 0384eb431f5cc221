package artifact

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"
)

// lineScan (AVX2 on amd64) finds what three byte searches find, with each of its bytes at
// every place of strings of 0-299 bytes, among the bytes next to them in value ('\t' and
// '\v' of '\n', '"' and '$' of '#', 'Z' and '\\' of '['), in the first block, across
// blocks and in the tail that the vector pass leaves.
func TestLineScan(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	// and for the odd bytes: '/' and ':' of '0' and '9', '+' and ')' of '*', '`' and '^'
	// of '_', DEL of 0x80; '\\' is itself odd.
	const near = "\t\v\"$Z\\a19/:+)`^\x7f"
	for n := 0; n < 300; n++ {
		for range 40 {
			b := nearBytes(r, n, near)
			for k := r.Intn(5); k > 0 && n > 0; k-- {
				b[r.Intn(n)] = "\n#[_*\x80\xff"[r.Intn(7)]
			}
			s := string(b)
			nl, hash, last, odd := lineScan(s)
			wnl, whash, wlast, wodd := lineScanGeneric(s)
			// What the fast path asks: a line with an odd byte or pair is found.
			if oddLine(s[:wnl]) && wodd < 0 {
				t.Fatalf("lineScanGeneric(%q): odd %d", s, wodd)
			}
			if nl != wnl || hash != whash || last != wlast || odd != wodd {
				t.Fatalf("lineScan(%q) = %d, %d, %d, %d; want %d, %d, %d, %d", s, nl, hash, last, odd, wnl, whash, wlast, wodd)
			}
		}
	}
}

// nearBytes is n bytes drawn from near: the bytes next in value to those a search looks for.
func nearBytes(r *rand.Rand, n int, near string) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = near[r.Intn(len(near))]
	}
	return b
}

// parseLineKnown told where the raw line holds its first '#' and last '[' (rawFacts.scanned,
// as the fast path's lineScan finds them) reads every line as parseLine does: rsyslog
// escapes and stamps joined on one line before and after the line's own stamp, caller ids
// and vendor blocks (whose '[' the cut removes too), and generated syslog lines with a '#' or
// a '[' put anywhere.
func TestScannedFactsAreParseLine(t *testing.T) {
	var buf bytes.Buffer
	if err := GenerateSyslog(&buf, 1<<20, 9); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	r := rand.New(rand.NewSource(34))
	base := []string{
		"Nov 29 12:00:00 host kernel: [  123.456789] a#012b#011c",
		"Nov 29 12:00:00 host kernel: [  123.456789] lowmem_reserve[]: 0 2959 [    5.168099] Node 0 DMA32 free:44940kB",
		"Nov 29 12:00:00 host kernel: [  123.456789] [    T123] x [  124.000001] y",
		"Nov 29 12:00:00 host kernel: [  123.456789] [    T123] x",
		"Nov 29 12:00:00 host kernel: [  123.456789][    T123] x",
		"Nov 29 12:00:00 host kernel: [  123.456789] [pid:1361,cpu5,comm] x [  124.000001] y",
		"Nov 29 12:00:00 host kernel: [  123.456789] [3:  Binder:9343_3:22875] x",
		"Nov 29 12:00:00 host kernel: <4>[  123.456789] x [ 1.000001] y",
		"Nov 29 12:00:00 host kernel:      4.795291] swapper/0: x [    5.000001] y",
		"Nov 29 12:00:00 host kernel: [  123.456789] sd 1:0:0:0: [sdh] x#012 [  9.000001] z",
		"Nov 29 12:00:00 host kernel: [  123.456789] Normal: 486_4kB 33_8kB [ 1.000001] y",
		"Nov 29 12:00:00 host CRON[1]: (root) CMD (x#012y)",
		"[  123.456789] x [  124.000001] y\r",
	}
	for range 30000 {
		b := []byte(lines[r.Intn(len(lines))])
		if r.Intn(3) == 0 {
			b = []byte(base[r.Intn(len(base))])
		}
		for k := r.Intn(3); k > 0 && len(b) > 0; k-- {
			i := r.Intn(len(b))
			ins := []string{"#", "#012", "#011", "[", "[ 1.000001]", " [  12.345678]", "]"}[r.Intn(7)]
			b = append(b[:i:i], append([]byte(ins), b[i:]...)...)
		}
		lines = append(lines, string(b))
	}
	lines = append(lines, base...)
	for no, raw := range lines {
		nl, hash, bracket, _ := lineScan(raw + "\n")
		if nl != len(raw) {
			t.Fatalf("lineScan(%q): end %d", raw, nl)
		}
		f := rawFacts{known: true, ascii: isASCII(raw), backslash: strings.IndexByte(raw, '\\') >= 0,
			amp: ampEntity(raw), markDigit: markBeforeDigit(raw), scanned: true, hash: hash, bracket: bracket}
		want, wesc, wascii := parseLine(no, raw)
		got, gesc, gascii := parseLineKnown(no, raw, f)
		if got != want || gesc != wesc || gascii != wascii {
			t.Fatalf("line %q: parseLineKnown %+v (esc %v), parseLine %+v (esc %v)", raw, got, gesc, want, wesc)
		}
	}
}
