package artifact

import (
	"strings"
	"testing"
)

// A /proc/zoneinfo paste (mm/vmstat.c zoneinfo_show_print) cut inside its last line, as a
// search index or a forum's length limit leaves it: the block is read without that line,
// which is reported, instead of losing the whole zone.
func TestZoneInfoCutInsideLastLine(t *testing.T) {
	text := "```\nroot@worker-01 /opt/docker # cat /proc/zoneinfo\nNode 0, zone      DMA\n  per-node stats\n" +
		"      nr_inactive_anon 30619442\n      nr_shmem     30622294\n" +
		"  pages free     3976\n        min      1\n        low      4\n        high     7\n" +
		"        spanned  4095\n        present  3997\n        managed  3976\n" +
		"        protection: (0, 2564, 257742, 257742, 257742)\n      nr_free_pages 3976\n      nr_zon"
	tl := ParseString(text, "cut zoneinfo", Options{})
	if len(tl.Samples) != 1 || len(tl.Samples[0].Zones) != 1 {
		t.Fatalf("samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
	z := tl.Samples[0].Zones[0]
	if v, ok := z.Fields.Get("high"); z.Name != "DMA" || !ok || v != 7 {
		t.Errorf("zone %+v", z)
	}
	if len(tl.Unparsed) != 1 || tl.Unparsed[0].FirstLine != 16 || !strings.Contains(tl.Unparsed[0].Why, "ends inside") {
		t.Errorf("unparsed %+v", tl.Unparsed)
	}

	// A broken line that is not the last one is no cut: the block stays unread.
	tl = ParseString("Node 0, zone   Normal\n  pages free     3976\n        min\n        low      4\n        high     7\n", "broken", Options{})
	if len(tl.Samples) != 0 || len(tl.Unparsed) != 1 {
		t.Errorf("broken middle line: samples %+v unparsed %+v", tl.Samples, tl.Unparsed)
	}
}

// A zoneinfo paste that starts inside a zone's pagesets keeps the closing lines
// zoneinfo_show_print writes after them (mm/vmstat.c: "node_unreclaimable:", "start_pfn:")
// as a zone without its header; pageset-like lines without them are not zoneinfo.
func TestZoneInfoFromInsideThePagesets(t *testing.T) {
	text := "              batch: 63\n  vm stats threshold: 120\n    cpu: 39\n              count: 1\n" +
		"              high:  1349\n              batch: 63\n  vm stats threshold: 120\n" +
		"  node_unreclaimable:  1\n  start_pfn:           1048576\nNode 0, zone  Movable\n  pages free     0\n        min      32\n        low      40\n"
	tl := ParseString(text, "tail", Options{})
	if len(tl.Artifacts) != 2 || len(tl.Unparsed) != 0 {
		t.Fatalf("artifacts %+v unparsed %+v", tl.Artifacts, tl.Unparsed)
	}
	tail, ok := tl.Artifacts[0].Data.(ZoneInfoNoHeader)
	if !ok || tl.Artifacts[0].FirstLine != 1 || tl.Artifacts[0].LastLine != 9 {
		t.Fatalf("tail %+v", tl.Artifacts[0])
	}
	if v, ok := tail.Zone.Fields.Get("node_unreclaimable"); !ok || v != 1 || !strings.Contains(tail.Note, "kswapd") {
		t.Errorf("tail zone %+v note %q", tail.Zone, tail.Note)
	}
	if len(tl.Samples) != 1 || len(tl.Samples[0].Zones) != 1 || tl.Samples[0].Zones[0].Name != "Movable" {
		t.Errorf("samples %+v", tl.Samples)
	}

	tl = ParseString("  cpu: 3\n  count: 10\n  high: 20\n", "no tail keys", Options{})
	if len(tl.Artifacts) != 0 {
		t.Errorf("pageset-like lines alone were read: %+v", tl.Artifacts)
	}
}

// The tail's node (corpus 384): decided only when the next block is a zone that always has a
// lower zone of the same node before it (HighMem, Movable, Device); a node's first zone after
// it may follow the previous node's last zone, so the node stays unknown. A block cut at its
// top is kept as a fragment too, node and name unknown.
func TestZoneInfoFragmentsNode(t *testing.T) {
	tail := "    cpu: 39\n              count: 1\n              high:  1349\n              batch: 63\n  vm stats threshold: 120\n" +
		"  node_unreclaimable:  1\n  start_pfn:           1048576\n"
	for next, want := range map[string]int{
		"Node 1, zone  Movable\n  pages free     0\n":  1,
		"Node 1, zone    DMA32\n  pages free     10\n": -1,
		"": -1,
	} {
		tl := ParseString(tail+next, "tail", Options{})
		if len(tl.ZoneFragments) != 1 || tl.ZoneFragments[0].Zone.Node != want || (want >= 0) != (tl.ZoneFragments[0].NodeWhy != "") {
			t.Errorf("next %q: fragments %+v", next, tl.ZoneFragments)
		}
	}
	tl := ParseString("  pages free     7226981\n        min      10136\n        low      17540\n        high     24944\n", "cut", Options{})
	if len(tl.ZoneFragments) != 1 || tl.ZoneFragments[0].Zone.Node != -1 || tl.ZoneFragments[0].Zone.Name != "" || len(tl.Samples) != 0 {
		t.Errorf("headerless block: %+v samples %d", tl.ZoneFragments, len(tl.Samples))
	}
}
