package artifact

import (
	"testing"
)

// The classes the held-out batch g23 found (corpus 749-764), each on a minimal snippet
// written for the class (not the case's words); every test failed before its change.

func udpCounter(text, name string) (int64, bool) {
	tl := ParseString(text, "p", Options{})
	for _, s := range tl.Samples {
		if v, ok := s.NetStat.Get("Udp", name); ok {
			return v, true
		}
	}
	return 0, false
}

// `netstat -su` run onto one line by a page, its last sentence glued to the prose after
// the code block (corpus 763: before, the line was prose and no counter was read).
func TestFlattenedNetstatSUdp(t *testing.T) {
	text := "Here is what the box says:\n" +
		"# netstat -su Udp: 91234 packets received 12 packets to unknown port received. 4411 packet receive errors 80211 packets sentAs you can see the errors climb.\n"
	for name, want := range map[string]int64{"InDatagrams": 91234, "NoPorts": 12, "InErrors": 4411, "OutDatagrams": 80211} {
		if v, ok := udpCounter(text, name); !ok || v != want {
			t.Errorf("Udp %s = %d %v, want %d", name, v, ok, want)
		}
	}
	// Counter-cases: advice that names the command and the group without its output, and
	// a lower-case word that only begins with the sentence's last word, read nothing.
	for _, text := range []string{
		"Run netstat -su and look at the Udp: packet receive errors line; if it grows, raise rmem_default.\n",
		"$ netstat -su Udp: 77 packets sentinel values are not counters here\n",
	} {
		if v, ok := udpCounter(text, "InErrors"); ok {
			t.Errorf("%q read as InErrors %d", text, v)
		}
		if v, ok := udpCounter(text, "OutDatagrams"); ok {
			t.Errorf("%q read as OutDatagrams %d", text, v)
		}
	}
}

// A task named with " : " inside (Java's "WebContainer : 3", cut to 15 bytes) is printed
// "WebContainer : : page allocation failure": the comm is read whole, up to the ": " ahead
// of the message (corpus 751: before, "WebContainer :" lost its blank, or a prefix was kept).
func TestAllocHeaderCommWithColon(t *testing.T) {
	for line, want := range map[string]string{
		"> kernel: WebContainer : : page allocation failure: order:4, mode:0x4d0":              "WebContainer : ",
		"Jan  3 04:05:06 lpar2 kernel: Pool : 12: page allocation failure: order:2, mode:0x20": "Pool : 12",
		// Counter-cases: the ordinary comm after a syslog or prose prefix, unchanged.
		"Jan  3 04:05:06 lpar2 kernel: java: page allocation failure: order:2, mode:0x20": "java",
		"Note : kernel: swapper/0: page allocation failure: order:1, mode:0x20":           "swapper/0",
		"mount.nfs: page allocation failure: order:4, mode:0x4d0":                         "mount.nfs",
	} {
		af, ok := parseAllocHeader(line)
		if !ok {
			t.Errorf("%q: not read", line)
		} else if af.Process != want {
			t.Errorf("%q: process %q, want %q", line, af.Process, want)
		}
	}
}
