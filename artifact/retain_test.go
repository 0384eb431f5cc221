package artifact

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

// zoneBlock is one zone of /proc/zoneinfo as a paste holds it, with its free pages.
func zoneBlock(free int) string {
	return fmt.Sprintf("Node 0, zone   Normal\n  pages free     %d\n        min      11387\n        low      14233\n        high     17079\n        spanned  1048576\n", free)
}

// 200,000 zoneinfo blocks kept a zone per block in one sample (795 MB RSS in the issue 30
// audit); a zoneinfo repeated is snapshots, and a text keeps a bounded number of them: the
// first ones and the last, which the rules need to see the state the paste ends in.
func TestRepeatedZoneInfoBounded(t *testing.T) {
	var b strings.Builder
	const n = 20000
	for k := range n - 1 {
		b.WriteString(zoneBlock(5000 + k%7))
	}
	b.WriteString(zoneBlock(100)) // the last snapshot: below min
	tl := ParseString(b.String(), "zoneinfo", Options{})
	if len(tl.Samples) > maxKindSamples+maxHeldSamples || len(tl.Samples) < maxKindSamples {
		t.Fatalf("%d samples kept of %d snapshots, want at most %d", len(tl.Samples), n, maxKindSamples+maxHeldSamples)
	}
	for k, s := range tl.Samples {
		if len(s.Zones) != 1 {
			t.Fatalf("sample %d holds %d zones, want the one zone of its snapshot", k, len(s.Zones))
		}
	}
	last := tl.Samples[len(tl.Samples)-1].Zones[0]
	if v, _ := last.Fields.Get("free"); v != 100 {
		t.Errorf("the last sample's free is %d, want the last snapshot's 100", v)
	}
	if g := tl.Segments[len(tl.Segments)-1]; g.Last != len(tl.Samples)-1 || !strings.Contains(g.Name, fmt.Sprintf("lines %d-%d", 6*n-5, 6*n)) {
		t.Errorf("last segment %+v", g)
	}
	if len(tl.Artifacts) > maxKindArtifacts+1 {
		t.Errorf("%d artifacts kept", len(tl.Artifacts))
	}
	if !notKept(tl, KindZoneInfo) {
		t.Errorf("not available %+v: want the snapshots left out named", tl.NotAvailable)
	}
	checkSegments(t, tl)
}

// A million buddyinfo lines kept a sample per snapshot and every snapshot again in the
// artifact (846 MB RSS in the audit).
func TestRepeatedBuddyInfoBounded(t *testing.T) {
	var b strings.Builder
	const snaps = 100000
	for k := range snaps {
		fmt.Fprintf(&b, "Node 0, zone      DMA      1      1      0      1      2      1      1      0      1      1      3\n")
		fmt.Fprintf(&b, "Node 0, zone   Normal   %4d    213    131     55     22      9      3      1      0      0      0\n", k%1000)
	}
	tl := ParseString(b.String(), "buddyinfo", Options{})
	if len(tl.Samples) > maxKindSamples+maxHeldSamples {
		t.Fatalf("%d samples kept of %d snapshots", len(tl.Samples), snaps)
	}
	snapshots := 0
	for _, a := range tl.Artifacts {
		if s, ok := a.Data.(BuddySeries); ok {
			snapshots += len(s.Snapshots)
			if len(s.Snapshots) > maxHeldSamples {
				t.Errorf("artifact keeps %d of %d snapshots", len(s.Snapshots), s.Read)
			}
		}
	}
	if snapshots > 2*maxKindSamples {
		t.Errorf("artifacts keep %d snapshots", snapshots)
	}
	if !notKept(tl, KindBuddyInfo) {
		t.Errorf("not available %+v", tl.NotAvailable)
	}
	last := tl.Samples[len(tl.Samples)-1].Buddy
	if len(last) != 2 || last[1].Free[0] != (snaps-1)%1000 {
		t.Errorf("last sample %+v, want the last snapshot", last)
	}
	checkSegments(t, tl)
}

func notKept(tl *model.Timeline, kind string) bool {
	for _, u := range tl.NotAvailable {
		if strings.HasPrefix(u.What, kind+" at ") && strings.HasPrefix(u.Why, "not kept: ") {
			return true
		}
	}
	return false
}

// checkSegments: segments cover the samples in order, each its own run.
func checkSegments(t *testing.T, tl *model.Timeline) {
	t.Helper()
	next := 0
	for _, g := range tl.Segments {
		if g.First < next || g.Last < g.First || g.Last >= len(tl.Samples) {
			t.Fatalf("segment %+v after sample %d of %d", g, next, len(tl.Samples))
		}
		next = g.Last + 1
	}
}

// A text whose window never closes (seed 004 is a slide deck: prose, tables, log excerpts)
// was read whole into Lines before the loop ran: 136 bytes and more a line, 380 MB for 50 MB
// of it pasted over and over. The window now slides: it holds a bounded number of Lines
// however long the text, and the parse is the whole-text loop's.
func TestWindowSlides(t *testing.T) {
	seed, err := os.ReadFile(filepath.Join("..", "testdata", "seeds", "004_acd4bf0469cc77db.txt"))
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(string(seed), 8)
	defer func(c, b int) { windowChunk, maxBlockLines = c, b }(windowChunk, maxBlockLines)
	windowChunk, maxBlockLines = 128, 512
	sameAsWholeOnce(t, "seed 004 eight times", text)
	d := &doc{tl: &model.Timeline{}}
	d.runText(text)
	lines := strings.Count(text, "\n")
	if limit := 2*maxBlockLines + 4*windowChunk; d.peakWindow > limit {
		t.Errorf("a window held %d Lines of the text's %d, want at most %d", d.peakWindow, lines, limit)
	}
	t.Logf("%d lines, at most %d in the window", lines, d.peakWindow)
}

// unreadEvidence runs on every line no parser took; it walked the line with strings.Fields
// and trimmed each token with a cut set (46 times the line in allocations on a 64 MiB line
// of numbers, issue 30 item 6). It allocates nothing now, and says what it said.
func TestUnreadEvidenceAllocates(t *testing.T) {
	lines := []string{
		"Max In: 1896.2 Mb/s (19.0%) Average In: 913.5 Mb/s (9.1%) Current In: 1.2 Gb/s",
		"eth0 1500 0 12345 0 0 0 54321 0 0 0 BMRU",
		"It took us 3 days and 2 reboots to find it, in the end.",
		"errors:21 rx_fifo=3 dropped: 4 overruns:\u00a05",
		strings.Repeat("1234 ", 2000),
	}
	want := []bool{true, true, false, true, true}
	for k, l := range lines {
		if _, ok := unreadEvidence(l); ok != want[k] {
			t.Errorf("unreadEvidence(%.40q) = %v, want %v", l, ok, want[k])
		}
		if a := testing.AllocsPerRun(20, func() { unreadEvidence(l) }); a != 0 {
			t.Errorf("unreadEvidence(%.40q): %.0f allocations, want none", l, a)
		}
	}
}

// nextField splits as strings.Fields does.
func TestNextFieldIsFields(t *testing.T) {
	for _, s := range []string{"", " ", "a", " a  b\tc\u00a0d\u2003e ", "x\u0085y", "é  ü", "\xff \xfe"} {
		var got []string
		for rest := s; ; {
			f, r, ok := nextField(rest)
			if !ok {
				break
			}
			got, rest = append(got, f), r
		}
		if want := strings.Fields(s); strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("%q: %q, want %q", s, got, want)
		}
	}
}
