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

func stallsAndZones(text string) (stalls []int64, zones map[string]int64) {
	tl := ParseString(text, "p", Options{})
	for _, ev := range tl.Events {
		if ev.AllocStall != nil {
			stalls = append(stalls, ev.AllocStall.StallMS)
		}
	}
	zones = map[string]int64{}
	for _, a := range tl.Artifacts {
		if sm, ok := a.Data.(ShowMem); ok {
			for _, z := range sm.Zones {
				if len(z.FreeBlocks) > 0 {
					zones[z.Zone] = z.FreeBlocks[0]
				}
			}
		}
	}
	return stalls, zones
}

// warn_alloc's stall report quoted inside a sentence, without the comm the kernel prints
// before it ("I keep getting page allocation stalls for 12010ms, order:0, mode:..."), is
// the host's report with its task unknown; a possibility or a denial is none (corpus 752:
// before, "could not be read").
func TestAllocStallHeaderInProse(t *testing.T) {
	stalls, _ := stallsAndZones("On the db box I keep getting page allocation stalls for 12010ms, order:0, mode:0x14200ca(GFP_HIGHUSER_MOVABLE) every night.\n")
	if len(stalls) != 1 || stalls[0] != 12010 {
		t.Errorf("stall in prose: %v, want [12010]", stalls)
	}
	tl := ParseString("Our logs show page allocation failure: order:2, mode:0x20 on eth0 refill.\n", "p", Options{})
	n := 0
	for _, ev := range tl.Events {
		if ev.AllocFailure != nil && ev.AllocFailure.Order == 2 {
			n++
		}
	}
	if n != 1 {
		t.Errorf("failure header in prose: %d events, want 1", n)
	}
	// Quoted in single quotes, the closing quote is no part of the mode.
	if af, ok := parseAllocHeader("The log had 'page allocation failure: order:1, mode:0x20' many times."); !ok || af.Mode != "0x20" || af.Process != "" {
		t.Errorf("single-quoted header: %+v %v, want mode 0x20, no process", af, ok)
	}
	for _, text := range []string{
		"If reclaim is slow you will see page allocation stalls for 10000ms, order:0, mode:0x14200ca in dmesg.\n",
		"We never saw page allocation stalls for 10000ms, order:0, mode:0x14200ca on this kernel.\n",
	} {
		if stalls, _ := stallsAndZones(text); len(stalls) != 0 {
			t.Errorf("%q read as a stall %v", text, stalls)
		}
	}
}

// show_mem's buddy lines run into prose on one line (a Q&A repost: "it prints Node 0 DMA:
// 26*4kB (M) ... = 4352kB Node 0 DMA32: ... = 46420kB and I wonder"): each zone's line is
// read (corpus 752: before, none).
func TestFlattenedBuddyLinesInProse(t *testing.T) {
	text := "The kernel printed Node 0 DMA: 7*4kB (M) 3*8kB (UM) 1*16kB (ME) 0*32kB 0*64kB = 68kB Node 0 Normal: 410*4kB (UME) 22*8kB (UMH) 0*16kB 1*32kB (H) 0*64kB = 1848kB and then page allocation stalls for 20460ms, order:0, mode:0x14200ca(GFP_HIGHUSER_MOVABLE) what does H mean?\n"
	stalls, zones := stallsAndZones(text)
	if zones["DMA"] != 7 || zones["Normal"] != 410 {
		t.Errorf("zones %v, want DMA 7 and Normal 410 blocks of order 0", zones)
	}
	if len(stalls) != 1 || stalls[0] != 20460 {
		t.Errorf("stalls %v, want [20460]", stalls)
	}
	// Counter-case: arithmetic in prose names no zone.
	if _, zones := stallsAndZones("Example: 2*4kB 1*8kB 3*16kB = 64kB, see the page allocation failure: order:1 docs if you will.\n"); len(zones) != 0 {
		t.Errorf("arithmetic read as zones %v", zones)
	}
}

// The streamed parse reads the g23 classes as the whole-text loop does.
func TestG23ClassesStreamed(t *testing.T) {
	q := quietLines(10)
	for _, s := range []string{
		"# netstat -su Udp: 91234 packets received 12 packets to unknown port received. 4411 packet receive errors 80211 packets sentAs you can see\n",
		"> kernel: WebContainer : : page allocation failure: order:4, mode:0x4d0\n",
		"The kernel printed Node 0 DMA: 7*4kB (M) 3*8kB (UM) 1*16kB (ME) 0*32kB 0*64kB = 68kB Node 0 Normal: 410*4kB (UME) 22*8kB (UMH) 0*16kB 1*32kB (H) 0*64kB = 1848kB and then page allocation stalls for 20460ms, order:0, mode:0x14200ca(GFP_HIGHUSER_MOVABLE) what does H mean?\n",
	} {
		sameAsWhole(t, "g23", s)
		sameAsWhole(t, "g23 in a log", q+s+q)
	}
}

// "lowmem_reserve: 0 0 16160 16160": the dump's lowmem_reserve[] line whose empty brackets
// a forum's markup ate (corpus 756: before, the line was "rows of numbers headroom does not
// read" and cut the dump in two).
func TestShowMemReserveWithoutBrackets(t *testing.T) {
	read := func(reserveLine string) (zones []int, unparsed int) {
		text := "Free pages: 85048kB (0kB HighMem)\n" +
			"Node 0 DMA free:0kB min:0kB low:0kB high:0kB active:0kB inactive:0kB present:0kB pages_scanned:0 all_unreclaimable? no\n" +
			reserveLine + "\n" +
			"Node 0 Normal free:85048kB min:11476kB low:14344kB high:17212kB active:0kB inactive:0kB present:16547840kB pages_scanned:0 all_unreclaimable? no\n"
		tl := ParseString(text, "p", Options{})
		for _, a := range tl.Artifacts {
			if sm, ok := a.Data.(ShowMem); ok {
				zones = append(zones, len(sm.Zones))
				if len(sm.Zones) > 0 && len(sm.Zones[0].LowmemReserve) != 4 {
					t.Errorf("%q: DMA lowmem_reserve %v", reserveLine, sm.Zones[0].LowmemReserve)
				}
			}
		}
		return zones, len(tl.Unparsed)
	}
	for _, line := range []string{"lowmem_reserve: 0 0 16160 16160", "lowmem_reserve[]: 0 0 16160 16160"} {
		if zones, unparsed := read(line); len(zones) != 1 || zones[0] != 2 || unparsed != 0 {
			t.Errorf("%q: dumps %v (want one of 2 zones), %d unread", line, zones, unparsed)
		}
	}
}
