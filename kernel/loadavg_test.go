package kernel

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseLoadAvg(t *testing.T) {
	l, err := ParseLoadAvg(strings.NewReader("0.08 0.12 0.05 1/90 6998\n"))
	if err != nil {
		t.Fatal(err)
	}
	if l != (LoadAvg{0.08, 0.12, 0.05, 1, 90, 6998}) {
		t.Errorf("%+v", l)
	}
	host, err := ParseLoadAvg(bytes.NewReader(member(t, hostFixture, "proc/loadavg")))
	if err != nil || host.Threads <= 0 || host.Runnable > host.Threads {
		t.Errorf("%v %+v", err, host)
	}
}

func TestParseLoadAvgMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"short", "0.08 0.12 0.05 1/90\n", 1},
		{"long", "0.08 0.12 0.05 1/90 6998 7\n", 1},
		{"bad load", "0.08 x 0.05 1/90 6998\n", 1},
		{"negative load", "0.08 -1 0.05 1/90 6998\n", 1},
		{"no slash", "0.08 0.12 0.05 190 6998\n", 1},
		{"bad pid", "0.08 0.12 0.05 1/90 x\n", 1},
		{"second line", "0.08 0.12 0.05 1/90 6998\n1 2 3 1/2 3\n", 2},
	}, func(b []byte) error { var l LoadAvg; return ParseLoadAvgInto(&l, b) })
}

func TestParseLoadAvgInto(t *testing.T) {
	checkInto(t, ParseLoadAvgInto, member(t, hostFixture, "proc/loadavg"), []byte("12.50 3.00 1.00 7/1000 42\n"))
}

func FuzzParseLoadAvg(f *testing.F) {
	other := seedFuzz(f, exact("proc/loadavg"), "1e400 0 0 0/0 0\n", "0.08 0.12 0.05 1/ 6998\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseLoadAvgInto) })
}

func BenchmarkParseLoadAvgInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/loadavg"), ParseLoadAvgInto)
}
