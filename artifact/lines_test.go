package artifact

import (
	"slices"
	"strings"
	"testing"
)

func TestFirstFields4MatchesFields(t *testing.T) {
	for _, s := range []string{"", "   ", "Jun 29 14:06:59 host kernel: x", "Jan  2 03:04:05 kernel: y", "a\tb\v c", "one", "a b c d e f"} {
		f, n := firstFields4(s)
		want := strings.Fields(s)
		if len(want) > 4 {
			want = want[:4]
		}
		if n != len(want) || !slices.Equal(f[:n], want) {
			t.Errorf("%q: %q (%d), want %q", s, f[:n], n, want)
		}
	}
}

// dmesg -H (--reltime) prints the time since the previous record, "[  +0.000004]": the line is
// a kernel record, with no uptime of its own (corpus 396).
func TestRelativeStamp(t *testing.T) {
	l, _, _ := parseLine(1, "[  +0.000005] Node 0 DMA free:13312kB boost:0kB min:60kB low:72kB high:84kB")
	if !l.Kernel || l.UptimeUsec != -1 || !strings.HasPrefix(l.Text, "Node 0 DMA free:13312kB") {
		t.Errorf("%+v", l)
	}
	if l, _, _ := parseLine(2, "[+x] not a stamp"); l.Kernel {
		t.Errorf("%+v", l)
	}
}

// Output quoted in a unified diff ("+    00008e78 00000000 ..." in a patch to docs): the
// added line's '+' is the diff's; "+0.000004" and "+---+" keep theirs (corpus 400).
func TestDiffAddedLine(t *testing.T) {
	for raw, want := range map[string]string{
		"+        00008e78 00000000": "        00008e78 00000000",
		"+":                          "",
		"+---+---+":                  "+---+---+",
		"+12 more":                   "+12 more",
	} {
		if l, _, _ := parseLine(1, raw); l.Text != want {
			t.Errorf("%q -> %q, want %q", raw, l.Text, want)
		}
	}
}
