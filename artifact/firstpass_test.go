package artifact

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"
)

// hostlessFull is the test stripOtherPrefixes makes of a syslog line without its host:
// mayBeHostless must pass every line that passes it.
func hostlessFull(s string) bool {
	f, n := firstFields4(s[:min(len(s), 40)])
	return n >= 4 && strings.Count(f[2], ":") == 2 && f[3] == "kernel:"
}

// embeddedStampRE says what embeddedStamp finds: a " [" (not at the start) before a dmesg
// stamp.
var embeddedStampRE = regexp.MustCompile(` \[ *[0-9]+\.[0-9]{6}\]`)

func embeddedStampIndex(s string) int {
	for _, m := range embeddedStampRE.FindAllStringIndex(s, -1) {
		if m[0] >= 1 {
			return m[0]
		}
	}
	return -1
}

// randomLine mixes the pieces of syslog lines: months, days, times, hosts, tags, stamps and
// white space of every kind, so that the byte tests meet the layouts they shortcut.
func randomLine(r *rand.Rand) string {
	pieces := []string{"Jan", "Feb", " ", "  ", "\t", "1", "12", "03:04:05", "3:04:05", "03:04", "kernel:", "kernel", "host",
		"cms26", "sshd[12]:", "[", "]", " [", "[ 12.345678]", "[12.345678]", "[    5.168099]", "x", ":", "kernel:kernel:", "\v", "é"}
	var b strings.Builder
	if r.Intn(2) == 0 {
		b.WriteString([]string{"Jan  2 03:04:05 ", "Jan 12 03:04:05 ", "Jan  2 03:04:05 kernel: ", "Jan 2 03:04:05  kernel: "}[r.Intn(4)])
	}
	for n := r.Intn(12); n > 0; n-- {
		b.WriteString(pieces[r.Intn(len(pieces))])
	}
	return b.String()
}

func TestFirstPassTestsAgree(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	fixed := []string{"Jan  2 03:04:05 kernel: x", "Jan 12 03:04:05 host kernel: x", "Jan  2 03:04:05\tkernel: x",
		"Jan kernel: 03:04:05 kernel: x", "Jan  2 03:04:05 kernel:", "Jan  2 03:04:05 kernel:x", "Jan  2 03:04:05 a:b kernel: x"}
	for k := 0; k < 200000; k++ {
		s := ""
		if k < len(fixed) {
			s = fixed[k]
		} else {
			s = randomLine(r)
		}
		if len(s) > 20 && s[3] == ' ' && isMonth(s[:3]) && hostlessFull(s) && !mayBeHostless(s[:min(len(s), 40)]) {
			t.Fatalf("mayBeHostless(%q) = false, but the line is a syslog line without its host", s)
		}
		if got, want := embeddedStamp(s), embeddedStampIndex(s); got != want {
			t.Fatalf("embeddedStamp(%q) = %d, want %d", s, got, want)
		}
	}
}

// nextIndex answers for each line in order what a search in the line answers.
func TestNextIndex(t *testing.T) {
	text := "a tainted line\nnothing\nTainted: G\nainted\nend ainte\nd\n"
	x := nextIndex{needle: "ainted", at: -1}
	for start := 0; start < len(text); {
		end := start + strings.IndexByte(text[start:], '\n')
		if got, want := x.in(text, start, end), strings.Contains(text[start:end], "ainted"); got != want {
			t.Errorf("line %q: %v, want %v", text[start:end], got, want)
		}
		start = end + 1
	}
}
