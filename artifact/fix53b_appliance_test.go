package artifact

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix53b (corpus 4471): a title naming an out-of-memory the article explains away as a
// belief ("lead to believe you are out of memory", "people thinks their systems is out of
// memory") is a topic, not a statement; the author's own hedge, a kill, and a title with no
// such sentence keep the reading.
func TestFix53bTitleOOMOnlyBelieved(t *testing.T) {
	const free = "\n# free -m\n             total       used       free     shared    buffers     cached\nMem:          5958       5767        191          0        286       4122\n-/+ buffers/cache:       1357       4600\nSwap:        13311          0      13311\n"
	for _, c := range []struct {
		text   string
		killed float64
	}{
		{"Check Point Memory consumption – Out of Memory\n\nIf you issue the top or free command, you may be spooked and lead to believe you are out of memory and you start digging about checking the processes memory usage.\n" + free, 0},
		{"Check Point Memory consumption – Out of Memory\n" + free + "\nAnd the reason people thinks their systems is out of memory is because any available memory is borrowed by Linux for disk cache.\n", 0},
		// counter-cases: the author's own belief about this host; a title with no belief
		// sentence; a belief asked about
		{"Server out of memory\n\nI think we are out of memory again since the upgrade.\n" + free, 1},
		{"Check Point Memory consumption – Out of Memory\n\nIf you issue the top or free command, you will see the memory ran out and the gateway stopped answering.\n" + free, 1},
		{"Check Point Memory consumption – Out of Memory\n" + free + "\nWhy do people think their systems are out of memory?\n", 1},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.killed {
			t.Errorf("%q: stated OOM %v, want %v", c.text[:60], got, c.killed)
		}
	}
}

// fix53b (corpus 4468, 4470): FreeBSD's swap pager record and NetScaler's packet-engine
// memory summary, in a text with nothing of Linux read, name the system and the line unread.
func TestFix53bApplianceOwnUnread(t *testing.T) {
	for _, c := range []struct {
		text, os, why string
		line          int
	}{
		{"The NetScaler becomes unresponsive because of exhausted swap space.\nMay 27 06:44:24 <kern.crit> ns001b kernel: swap zone exhausted, increase kern.maxswzone May 27 06:46:22 <kern.crit> ns001b kernel: swap zone exhausted, increase kern.maxswzone\nNetScaler 9.x runs on FreeBSD 6.3.\n",
			"FreeBSD (seen: the swap pager's record, kern.maxswzone)", "FreeBSD's swap pager record", 2},
		{"boot log:\nwarning: total configured swap (986208 pages) exceeds maximum recommended amount (344064 pages).\nwarning: increase kern.maxswzone or reduce amount of swap.\n",
			"FreeBSD (seen: the swap pager's record, kern.maxswzone)", "FreeBSD's swap pager record", 3},
		{"It begins with:\n\nTotalMEM:  (7098012052/13344178176)     Allocated:  1958819924(14.68%)   ActualInUse: 1262898384(9.46%)    Free:  11385358252  \n\nThis provides you the summary.\n",
			"Citrix NetScaler (seen: its packet engines' TotalMEM memory summary)", "Citrix NetScaler's packet-engine memory summary", 3},
		{"TotalMEM:  (2994699520/5731516416)     Allocated:  2089732480(36.46%)   ActualInUse: 958813336(16.73%)    Free:  3641783936\nMEM_TCPBUFFP         67108863      62914560(93.75%  1.10%)    1550584                0            0\n",
			"Citrix NetScaler (seen: its packet engines' TotalMEM memory summary)", "Citrix NetScaler's packet-engine memory summary", 1},
	} {
		tl := ParseString(c.text, "p", Options{})
		if tl.Host.OtherOS != c.os {
			t.Errorf("%q: other OS %q, want %q", c.text[:40], tl.Host.OtherOS, c.os)
		}
		found := false
		for _, u := range tl.Unparsed {
			if u.FirstLine <= c.line && c.line <= u.LastLine && strings.HasPrefix(u.Why, c.why) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q: line %d not named unread as %q: %+v", c.text[:40], c.line, c.why, tl.Unparsed)
		}
	}
	// counter-cases: prose naming the sysctl (advice), a Linux kernel's swap line, and a
	// NetScaler summary beside a Linux text read: not another system's, nothing named.
	for _, text := range []string{
		"You could raise kern.maxswzone if the swap zone fills up.\n",
		"Dec  1 10:00:00 host kernel: Free swap  = 0kB\nDec  1 10:00:00 host kernel: Total swap = 2097148kB\n",
		"MemTotal:        8000000 kB\nMemFree:          100000 kB\nMemAvailable:     200000 kB\n\nTotalMEM: is a NetScaler field, not this host's.\n",
	} {
		tl := ParseString(text, "p", Options{})
		if strings.Contains(tl.Host.OtherOS, "NetScaler") || strings.Contains(tl.Host.OtherOS, "swap pager") {
			t.Errorf("%q: other OS %q, want none of these", text[:30], tl.Host.OtherOS)
		}
		for _, u := range tl.Unparsed {
			if strings.HasPrefix(u.Why, "FreeBSD's swap pager") || strings.HasPrefix(u.Why, "Citrix NetScaler") {
				t.Errorf("%q: named unread %+v", text[:30], u)
			}
		}
	}
}
