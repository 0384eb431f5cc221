package kernel

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

func TestCountersFillChanges(t *testing.T) {
	var c Counters
	steps := []struct {
		text  string
		names string
	}{
		{"A: 1\nB: 2\nC: 3\n", "A B C"},
		{"A: 1\nB: 5\n", "A B"},         // shrinks: C is gone, not zero
		{"A: 1\nX: 9\nB: 5\n", "A X B"}, // diverges after A
		{"B: 5\nA: 1\nA: 7\n", "B A"},   // duplicate name: the later value wins, as with Set
	}
	for _, s := range steps {
		if err := ParseMemInfoInto(&c, []byte(s.text)); err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(c.Names(), " "); got != s.names {
			t.Fatalf("after %q names are %q, want %q", s.text, got, s.names)
		}
		fresh, err := ParseMemInfo(strings.NewReader(s.text))
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, fresh, c)
	}
	if c.Has("C") || c.Has("X") {
		t.Error("dropped names are still present")
	}
	if v, _ := c.Get("A"); v != 7 {
		t.Errorf("A = %d, want the later 7", v)
	}
}

func TestTxtNumbers(t *testing.T) {
	ints := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0", 0, true}, {"-1", -1, true}, {"+5", 5, true}, {"9223372036854775807", math.MaxInt64, true},
		{"-9223372036854775808", math.MinInt64, true}, {"9223372036854775808", 0, false},
		{"18446744073709551615", 0, false}, {"", 0, false}, {"-", 0, false}, {"1.5", 0, false},
		{"0x10", 0, false}, {"12 ", 0, false},
	}
	for _, c := range ints {
		got, ok := txtInt([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("txtInt(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	hexes := []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0000097f", 0x97f, true}, {"ffffffff", 0xffffffff, true}, {"ABCdef", 0xabcdef, true},
		{"7fffffffffffffff", math.MaxInt64, true}, {"8000000000000000", 0, false},
		{"00000000000000001", 0, false}, {"", 0, false}, {"0x1", 0, false}, {"g", 0, false},
	}
	for _, c := range hexes {
		got, ok := txtHex([]byte(c.in))
		if got != c.want || ok != c.ok {
			t.Errorf("txtHex(%q) = %d, %v; want %d, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	// The fast decimal path must agree with strconv.ParseFloat bit for bit.
	floats := []string{"0.00", "0.85", "13.35", "100.00", "7.57", "1234567.89", "0.1", "3", "2.",
		".5", "99999999999999.9", "1234567890123456.5", "1e3", "-1.5", "0.000000000000001"}
	for i := 0; i < 5000; i++ {
		floats = append(floats, strconv.Itoa(i*7919%100000)+"."+strconv.Itoa(100 + i%100)[1:])
	}
	for _, s := range floats {
		want, err := strconv.ParseFloat(s, 64)
		got, ok := txtFloat([]byte(s))
		if ok != (err == nil) || (ok && math.Float64bits(got) != math.Float64bits(want)) {
			t.Errorf("txtFloat(%q) = %v, %v; ParseFloat gives %v, %v", s, got, ok, want, err)
		}
	}
	for _, s := range []string{"", ".", "x", "1.2.3", "NaN", "Inf"} {
		if _, ok := txtFloat([]byte(s)); ok {
			t.Errorf("txtFloat(%q) accepted", s)
		}
	}
}

// TestTxtFastHelpers compares the word-at-a-time helpers of the fast paths with plain
// byte-at-a-time versions on random text that is mostly digits, letters and blanks.
func TestTxtFastHelpers(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	alphabet := []byte("0123456789-+ \t:\n\x00\x7f\x80\xffaZ(y n")
	for range 300000 {
		b := make([]byte, r.Intn(28))
		for i := range b {
			switch r.Intn(4) {
			case 0, 1:
				b[i] = byte('0' + r.Intn(10))
			case 2:
				b[i] = ' '
			default:
				b[i] = alphabet[r.Intn(len(alphabet))]
			}
		}
		i := r.Intn(len(b) + 1)
		// txtIntAt agrees with txtInt on the digits it takes.
		j := i
		if j < len(b) && b[j] == '-' {
			j++
		}
		for j < len(b) && isDigit(b[j]) {
			j++
		}
		want, wantOK := txtInt(b[i:j])
		if j == i+1 && b[i] == '-' {
			wantOK = false
		}
		v, end, ok := txtIntAt(b, i)
		if ok != wantOK || ok && (v != want || end != j) {
			t.Fatalf("txtIntAt(%q, %d) = %d, %d, %v; want %d, %d, %v", b, i, v, end, ok, want, j, wantOK)
		}
		// txtSkip
		k := i
		for k < len(b) && b[k] == ' ' {
			k++
		}
		if got := txtSkip(b, i, ' '); got != k {
			t.Fatalf("txtSkip(%q, %d) = %d, want %d", b, i, got, k)
		}
		// txtPlain and txtMatch
		e := i + r.Intn(len(b)-i+1)
		plain := e > i
		for _, c := range b[i:e] {
			if c <= ' ' || c == ':' {
				plain = false
			}
		}
		if got := txtPlain(b, i, e); got != plain {
			t.Fatalf("txtPlain(%q, %d, %d) = %v", b, i, e, got)
		}
		name := string(b[i:e])
		if r.Intn(3) == 0 && len(name) > 0 {
			nb := []byte(name)
			nb[r.Intn(len(nb))]++
			name = string(nb)
		}
		match := plain && name == string(b[i:e])
		if got := txtMatch(b, i, name); got != match {
			t.Fatalf("txtMatch(%q, %d, %q) = %v", b, i, name, got)
		}
		// protocolsMethodsPlain: blanks and single y/n letters.
		yn := true
		for x, c := range b {
			if c != ' ' && c != 'y' && c != 'n' || c != ' ' && x > 0 && b[x-1] != ' ' {
				yn = false
			}
		}
		if got := protocolsMethodsPlain(b); got != yn {
			t.Fatalf("protocolsMethodsPlain(%q) = %v", b, got)
		}
	}
	for _, c := range []struct {
		in   string
		want int64
		ok   bool
	}{
		{"0 ", 0, true}, {"7\n", 7, true}, {"12345678 ", 12345678, true}, {"1234567 ", 1234567, true},
		{"-0 ", 0, true}, {"-1 ", -1, true}, {"- ", 0, false}, {"+1 ", 0, false}, {"x ", 0, false},
		{"999999999999999999 ", 999999999999999999, true},
		{"9223372036854775807 ", math.MaxInt64, true}, {"9223372036854775808 ", 0, false},
		{"-9223372036854775808 ", math.MinInt64, true}, {"-9223372036854775809 ", 0, false},
		{"9999999999999999999 ", 0, false}, {"18446744073709551616 ", 0, false},
		{"00000000000000000000001 ", 1, true},
	} {
		v, _, ok := txtIntAt([]byte(c.in), 0)
		if v != c.want || ok != c.ok {
			t.Errorf("txtIntAt(%q) = %d, %v; want %d, %v", c.in, v, ok, c.want, c.ok)
		}
	}
}
