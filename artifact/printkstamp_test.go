package artifact

import (
	"math/rand"
	"strings"
	"testing"
)

// printkStamp must read every stamp it takes as stripBracketStamp, the general reading, does:
// the same uptime and the same text after it (caller id included). The strings are stamps of
// every width and shape near printk's "[%5lu.%06lu]", with one byte now and then replaced by
// one next to a digit, a blank, '.' or ']', so that each test of printkStamp is reached.
func TestPrintkStampIsBracketStamp(t *testing.T) {
	r := rand.New(rand.NewSource(33))
	near := []byte("0123456789 ./:]/[:-+Tx\x00\xff")
	taken := 0
	check := func(s string) {
		t.Helper()
		var a, b Line
		a.UptimeUsec, b.UptimeUsec = -1, -1
		gotA := stripKernelStamp(s, &a)
		gotB := stripBracketStamp(s, &b)
		if gotA != gotB || a != b {
			t.Fatalf("%q: stripKernelStamp %q %+v, stripBracketStamp %q %+v", s, gotA, a, gotB, b)
		}
		if _, n := printkStamp(s); n > 0 {
			taken++
		}
	}
	for _, s := range []string{
		"[    0.000000] Linux version", "[ 1234.567890] x", "[99999.999999] x", "[    1.000001]  x",
		"[12345.678901] [    T123] x", "[ 1234.567890]", "[ 1234.567890]x", "[  +0.000004] x",
		"[100000.000001] x", "[1234567890123456.000001] x", "[12345678901234567.000001] x", "[ 9999999999999999.999999] x", "[ 1234.56789] x", "[ 12 4.567890] x", "[     .567890] x",
		"[ 1234.5678901] x", "[ 1234.56a890] x", "[ 1234.567890} x", "[ 1234:567890] x",
	} {
		check(s)
	}
	for n := 0; n < 200000; n++ {
		var b strings.Builder
		b.WriteByte('[')
		secs := r.Intn(20)
		for i := 0; i < 5-secs; i++ {
			b.WriteByte(' ')
		}
		for i := 0; i < secs; i++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		b.WriteByte('.')
		for i, k := 0, 4+r.Intn(4); i < k; i++ {
			b.WriteByte(byte('0' + r.Intn(10)))
		}
		b.WriteByte(']')
		tails := []string{"", " ", "x", " msg", "[    T12] msg", " [ 9.000000]"}
		b.WriteString(tails[r.Intn(len(tails))])
		s := []byte(b.String())
		for k := r.Intn(3); k > 0; k-- {
			s[1+r.Intn(len(s)-1)] = near[r.Intn(len(near))] // the '[' stays: stripBracketStamp's input
		}
		check(string(s))
	}
	if taken < 10000 {
		t.Fatalf("printkStamp took %d of the strings: the test no longer reaches it", taken)
	}
}

func TestDigits8(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	for n := 0; n < 100000; n++ {
		v := uint64(r.Int63n(100000000))
		var w uint64
		x := v
		for i := 7; i >= 0; i-- {
			w |= (x % 10) << (8 * i)
			x /= 10
		}
		if got := digits8(w); got != v {
			t.Fatalf("digits8 of %d: %d", v, got)
		}
	}
}
