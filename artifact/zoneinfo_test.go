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
