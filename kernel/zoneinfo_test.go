package kernel

import (
	"bytes"
	"reflect"
	"testing"
)

func TestParseZoneInfo(t *testing.T) {
	host, err := ParseZoneInfo(bytes.NewReader(member(t, hostFixture, "proc/zoneinfo")))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, z := range host {
		names = append(names, z.Name)
	}
	if !reflect.DeepEqual(names, []string{"DMA", "DMA32", "Normal", "Movable", "Device"}) {
		t.Fatalf("zones %v", names)
	}
	dma := host[0]
	// The per-node stats block precedes the node's first zone and is kept in it.
	for _, k := range []string{"nr_inactive_file", "nr_file_pages", "free", "boost", "min", "low", "high",
		"promo", "spanned", "present", "managed", "cma", "nr_free_pages", "node_unreclaimable", "start_pfn"} {
		if !dma.Fields.Has(k) {
			t.Errorf("DMA lacks %s", k)
		}
	}
	// Nothing of the pagesets block leaks into the zone.
	for _, k := range []string{"cpu", "count", "batch", "high_min", "high_max", "vm stats threshold", "pages", "pagesets"} {
		if dma.Fields.Has(k) {
			t.Errorf("DMA has pageset key %q", k)
		}
	}
	if len(dma.Protection) != 5 {
		t.Errorf("DMA protection %v, want 5 entries (one per zone type)", dma.Protection)
	}
	normal := host[2]
	if normal.Fields.Has("nr_inactive_file") {
		t.Error("per-node stats copied into a zone that did not print them")
	}
	mn, _ := normal.Fields.Get("min")
	lo, _ := normal.Fields.Get("low")
	hi, _ := normal.Fields.Get("high")
	if !(0 < mn && mn < lo && lo < hi) {
		t.Errorf("Normal watermarks min %d low %d high %d", mn, lo, hi)
	}
	if mv := host[3]; mv.Fields.Has("nr_free_pages") || !mv.Fields.Has("managed") {
		t.Errorf("unpopulated Movable zone parsed as %v", mv.Fields.Names())
	}

	// 2.6.32, 32-bit: no managed, no boost, protection padded to four zones.
	old, err := ParseZoneInfo(bytes.NewReader(member(t, "testdata/layouts/2.6.32-i686.txtar", "proc/zoneinfo")))
	if err != nil {
		t.Fatal(err)
	}
	if len(old) != 3 || old[2].Name != "HighMem" {
		t.Fatalf("2.6.32 zones %+v", old)
	}
	for _, z := range old {
		if z.Fields.Has("managed") || z.Fields.Has("boost") || z.Fields.Has("promo") {
			t.Errorf("2.6.32 %s has a field it never printed", z.Name)
		}
	}
	want := map[string]int64{"free": 3062, "min": 8192, "low": 10240, "high": 12288, "scanned": 0,
		"present": 225280, "nr_mlock": 0, "all_unreclaimable": 0, "prev_priority": 12, "start_pfn": 4096, "inactive_ratio": 1}
	for k, v := range want {
		if got, ok := old[1].Fields.Get(k); !ok || got != v {
			t.Errorf("2.6.32 Normal %s = %d, %v; want %d", k, got, ok, v)
		}
	}
	if !reflect.DeepEqual(old[0].Protection, []int64{0, 880, 8944, 8944}) {
		t.Errorf("DMA protection %v", old[0].Protection)
	}
	if v, _ := old[0].Fields.Get("scanned"); v != 21 {
		t.Errorf("DMA scanned %d, seed says pages_scanned:21", v)
	}
}

func TestParseZoneInfoOldScanned(t *testing.T) {
	// 2.6.13-2.6.27 and 2.6.28-2.6.31 print the LRU scan counts after "scanned"; 2.6.13 also
	// has "low:" in the pagesets and "cpu: N pcp: M" headers.
	text := `Node 0, zone   Normal
  pages free     1209
        min      32
        low      40
        high     48
        active   120
        inactive 80
        scanned  7 (a: 3 i: 4)
        spanned  4096
        present  4096
        protection: (0, 0, 0)
  pagesets
    cpu: 0 pcp: 0
              count: 2
              low:   0
              high:  6
              batch: 1
  all_unreclaimable: 0
  prev_priority:     12
  temp_priority:     12
  start_pfn:         0
Node 0, zone  HighMem
  pages free     10
        min      1
        low      2
        high     3
        scanned  0 (aa: 1 ia: 2 af: 3 if: 4)
        spanned  8
        present  8
`
	zones, err := ParseZoneInfo(bytes.NewReader([]byte(text)))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, z := range zones {
		for i := 0; i < z.Fields.Len(); i++ {
			k, v := z.Fields.At(i)
			got[z.Name+"."+k] = v
		}
	}
	for k, v := range map[string]int64{"Normal.scanned": 7, "Normal.nr_scan_active": 3, "Normal.nr_scan_inactive": 4,
		"Normal.active": 120, "Normal.temp_priority": 12, "HighMem.nr_scan_active_anon": 1,
		"HighMem.nr_scan_inactive_file": 4} {
		if got[k] != v {
			t.Errorf("%s = %d, want %d (all: %v)", k, got[k], v, got)
		}
	}
	if _, ok := got["Normal.count"]; ok {
		t.Error("pageset count leaked")
	}
}

func TestParseZoneInfoMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"data before a zone", "  pages free 1\n", 1},
		{"bad header", "Node 0, zone DMA extra\n", 1},
		{"not a number", "Node 0, zone DMA\n  pages free 1\n        min x\n", 3},
		{"bad protection", "Node 0, zone DMA\n        protection: (0, x)\n", 2},
		{"unclosed protection", "Node 0, zone DMA\n        protection: (0, 1\n", 2},
		{"empty protection", "Node 0, zone DMA\n        protection: ()\n", 2},
		{"trailing text", "Node 0, zone DMA\n        min 1 2\n", 2},
		{"unknown scan label", "Node 0, zone DMA\n        scanned 1 (x: 2)\n", 2},
		{"colon line without value", "Node 0, zone DMA\n  start_pfn:\n", 2},
		{"lone key", "Node 0, zone DMA\n  spanned\n", 2},
		{"truncated", "Node 0, zone DMA\n  pages free 1\n        mi", 3},
	}, func(b []byte) error { var z []Zone; return ParseZoneInfoInto(&z, b) })
}

func TestParseZoneInfoInto(t *testing.T) {
	checkInto(t, ParseZoneInfoInto,
		member(t, hostFixture, "proc/zoneinfo"),
		member(t, "testdata/layouts/2.6.32-i686.txtar", "proc/zoneinfo"))
}

func FuzzParseZoneInfo(f *testing.F) {
	other := seedFuzz(f, exact("proc/zoneinfo"), "Node 0, zone DMA\n  pagesets\n    cpu: 0\n  start_pfn: 1\n",
		"Node 0, zone DMA\n scanned 1 (a: 1 i:)\n", "Node 0, zone DMA\n protection: (,)\n")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseZoneInfoInto) })
}

func BenchmarkParseZoneInfoInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/zoneinfo"), ParseZoneInfoInto)
}
