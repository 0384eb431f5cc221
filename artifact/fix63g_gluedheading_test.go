package artifact

import (
	"testing"

	"headroom/kernel"
)

// fix63g: a page's text extraction that lost the newline before the next heading glues the
// heading to netstat -s's sentence ("... socket buffer overrunCauses"); the sentence is read
// without it. A sentence whose own last word differs is still no counter.
func TestFix63gNetstatSentenceGluedHeading(t *testing.T) {
	text := "$ netstat -s | grep \"socket buffer overrun\"\n1617 packets pruned from receive queue because of socket buffer overrunCauses\n"
	ns := one(t, ParseString(text, "p", Options{}), KindNetstatS).(*NetstatS)
	if v, ok := kernel.Groups(ns.Groups).Get("TcpExt", "PruneCalled"); !ok || v != 1617 {
		t.Errorf("PruneCalled %d %v: %+v", v, ok, ns.Groups)
	}
	for in, want := range map[string]string{
		"1617 packets pruned because of socket buffer overrunCauses": "1617 packets pruned because of socket buffer overrun",
		"160 times the listen queue of a socket overflowedSolution":  "160 times the listen queue of a socket overflowed",
	} {
		if got, ok := cutGluedHeading(in); !ok || got != want {
			t.Errorf("cutGluedHeading(%q) = %q, %v", in, got, ok)
		}
	}
	// Counter-cases: a word of capitals, or one capital after a single lower-case letter.
	// (A counter's own camel-cased name is a bare counter line, read before this.)
	for _, in := range []string{"1617 packets pruned via NIC", "3 ICMP messages received", "5 resets sent to iPhone"} {
		if got, ok := cutGluedHeading(in); ok {
			t.Errorf("cutGluedHeading(%q) = %q", in, got)
		}
	}
}

// fix63h: /proc/buddyinfo's rows in a Markdown table a post made of them ("| Node 0, Normal
// | 37822 | 1617 | ... |") are read as buddyinfo; a table of other numbers is not.
func TestFix63hBuddyinfoMarkdownTable(t *testing.T) {
	text := "| Zone | Order 0 | Order 1 | Order 2 | Order 3 |\n|---|---|---|---|---|\n" +
		"| Node 0, DMA32 | 415 | 483 | 7488 | 1766 |\n| Node 1, Normal | 585650 | 243274 | 3998 | 24 |\n"
	tl := ParseString(text, "p", Options{})
	var buddy []kernel.BuddyZone
	for _, s := range tl.Samples {
		buddy = append(buddy, s.Buddy...)
	}
	if len(buddy) != 2 || buddy[1].Zone != "Normal" || buddy[1].Node != 1 || buddy[1].Free[0] != 585650 || len(buddy[1].Free) != 4 {
		t.Fatalf("buddy %+v, unparsed %+v", buddy, tl.Unparsed)
	}
	for _, c := range []string{
		"| Node 0, Normal | high | low | none |\n",
		"| Node | CPU | MiB |\n|---|---|---|\n| Node 0 | 12 | 4096 |\n",
	} {
		for _, a := range ParseString(c, "p", Options{}).Artifacts {
			if a.Kind == KindBuddyInfo {
				t.Errorf("%q read as buddyinfo", c)
			}
		}
	}
}
