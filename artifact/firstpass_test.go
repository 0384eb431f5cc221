package artifact

import (
	"math/rand"
	"regexp"
	"strings"
	"testing"

	"headroom/model"
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

// containsFoldASCII answers what (?i)word answers.
func TestContainsFoldASCII(t *testing.T) {
	for _, word := range []string{"ram", "memory"} {
		re := regexp.MustCompile(`(?i)` + word)
		for _, s := range []string{"", "RAM", "8 GB of Ram", "Memory:", "mEmOrY", "memor", "r a m", "\u212aram", "PROGRAM", "@am", "rAM\xff", "ra", "1\x12am"} {
			if got, want := containsFoldASCII(s, word), re.MatchString(s); got != want {
				t.Errorf("containsFoldASCII(%q, %q) = %v, want %v", s, word, got, want)
			}
		}
	}
}

// unflatten settles a line that names none of its forms before its regexps run, and still
// reads one that does.
func TestUnflattenGate(t *testing.T) {
	if got := unflatten(strings.Repeat("12345 ", 1000) + "root@host:~#"); got != nil {
		t.Errorf("numbers read as flattened output: %d lines", len(got))
	}
	flat := "eth0 Link encap:Ethernet HWaddr 00:11:22:33:44:55 inet addr:10.0.0.2 RX packets:12 errors:0 dropped:3 overruns:0 frame:0 TX packets:5 errors:0 root@host:~#"
	if got := unflatten(flat); len(got) < 2 {
		t.Errorf("flattened ifconfig gave %q", got)
	}
}

// Lines of numbers a mebibyte long were kept as prose and read as one paragraph by every
// stated regexp, and each went through the flattened-output regexps: sixty such lines took
// 9.6 s user and 245 MB in doctor. A line longer than any sentence is not kept for stated
// numbers; it is still listed as unread.
func TestLongLinesNotStated(t *testing.T) {
	line := strings.Repeat("1234 ", 40<<10/5)
	d := &doc{tl: &model.Timeline{}}
	d.runText(strings.Repeat(line+"\n", 5) + "The box has 8 GB of RAM.\n")
	d.finish()
	if len(d.proseLines) != 1 {
		t.Errorf("%d prose lines kept for stated numbers, want the one sentence", len(d.proseLines))
	}
	if d.tl.Host.MemTotalKB != 8<<20 {
		t.Errorf("stated memory %d kB, want 8 GB", d.tl.Host.MemTotalKB)
	}
	if len(d.tl.Unparsed) == 0 {
		t.Error("the lines of numbers are not listed as unread")
	}
}
