package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// tail384 is corpus 384's last lines of a zone block: its last pageset and the closing lines.
const tail384 = `    cpu: 39
              count: 1
              high:  1349
              batch: 63
  vm stats threshold: 120
  node_unreclaimable:  1
  start_pfn:           1048576
`

// movable384 is corpus 384's next block: node 0's empty Movable zone (its last line, cut in
// the paste, completed from the file's layout).
const movable384 = `Node 0, zone  Movable
  pages free     0
        boost    0
        min      32
        low      32
        high     32
        spanned  0
        present  0
        managed  0
        protection: (0, 0, 0, 0, 0)
`

// Corpus 384: the end of a zone's block (its last pagesets and closing lines) without the
// zone's header, then node 0's empty Movable zone. node_unreclaimable 1 says kswapd gave up
// on node 0: a reclaim-stalled host, read although the zone's name is not in the paste. The
// empty Movable zone (free 0, min 32) is not "at min": it has no pages.
func TestNodeUnreclaimableZoneTail384(t *testing.T) {
	tl := pasteTimeline(t, tail384+movable384)
	if len(tl.ZoneFragments) != 1 || tl.ZoneFragments[0].Zone.Node != 0 {
		t.Fatalf("fragments: %+v", tl.ZoneFragments)
	}
	f := mustFire(t, run(t, "node-unreclaimable", tl), Warning)
	if !evidenceHas(f, "reclaim gave up on node 0", "node_unreclaimable 1") || !evidenceHas(f, "reclaim gave up on node 0", "Movable zone (line 8)") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	for _, e := range f.Evidence {
		if strings.Contains(e.What, "Movable") {
			t.Errorf("the empty Movable zone judged: %+v", e)
		}
	}
	// The tail with nothing after it: the node is not known, the mark is still read.
	tl = pasteTimeline(t, tail384)
	f = mustFire(t, run(t, "node-unreclaimable", tl), Warning)
	if !evidenceHas(f, "its header is not in the input", "node_unreclaimable 1") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
}

// A whole zoneinfo of this CI host (6.18): node_unreclaimable 0 in each zone is healthy and
// says which node was read; zoneinfo cut before its closing lines is not checked, and no
// zoneinfo at all is not checked either.
func TestNodeUnreclaimableHealthyAndMissing(t *testing.T) {
	tl := memHostFixture(t)
	mustBeHealthyNaming(t, run(t, "node-unreclaimable", tl), "node 0")
	tl = pasteTimeline(t, movable384)
	mustNotCheck(t, run(t, "node-unreclaimable", tl), "closing lines")
	tl.Samples = nil
	mustNotCheck(t, run(t, "node-unreclaimable", tl), "no /proc/zoneinfo")
}

// The story: with kswapd stopped on the node, the direct-reclaim stalls that PSI shows
// follow from it, so node-unreclaimable is the root cause and the stalls its consequence.
func TestNodeUnreclaimableExplainsDirectReclaim(t *testing.T) {
	tl := pasteTimeline(t, tail384+`
$ cat /proc/pressure/memory
some avg10=31.20 avg60=28.04 avg300=20.11 total=912345678
full avg10=12.50 avg60=10.01 avg300=7.32 total=412345678
`)
	d := Run(tl, nil)
	mustHave(t, d, "direct-reclaim-stalls", Warning)
	if len(d.Story.Causes) == 0 || d.Story.Causes[0].ID != "node-unreclaimable" {
		t.Fatalf("causes %+v", d.Story.Causes)
	}
	found := false
	for _, c := range d.Story.Chains {
		for _, l := range append(c.Links, c.Also...) {
			found = found || c.Root == "node-unreclaimable" && l.ID == "direct-reclaim-stalls"
		}
	}
	if !found {
		t.Errorf("chains %+v", d.Story.Chains)
	}
}

// A node marked unreclaimable whose zones are all above their high watermark now: the mark is
// stale (kswapd_failures is reset only by a reclaim pass that frees pages, mm/vmscan.c
// shrink_node, and nothing wakes kswapd above low), so it is noted, not a warning. With one
// zone at or below high the warning stays.
func TestNodeUnreclaimableStaleMarkNoted(t *testing.T) {
	tl := memHostFixture(t)
	s := tl.LastWith(func(s *model.Sample) bool { return len(s.Zones) > 0 })
	marked := 0
	for i := range s.Zones {
		if s.Zones[i].Fields.Has("node_unreclaimable") {
			s.Zones[i].Fields.Set("node_unreclaimable", 1)
			marked++
		}
	}
	if marked == 0 {
		t.Fatal("fixture has no node_unreclaimable line")
	}
	for _, z := range s.ZoneWatermarks() {
		if z.Populated() && (!z.HasWatermarks || z.Free <= z.High) {
			t.Fatalf("fixture zone %s not above high: the test needs a host with free memory", zoneName(z))
		}
	}
	f := mustFire(t, run(t, "node-unreclaimable", tl), Info)
	if !strings.Contains(f.Title, "earlier") || !evidenceHas(f, "above its high watermark", "shrink_node") {
		t.Errorf("%s %+v", f.Title, f.Evidence)
	}
	// One populated zone at its high watermark: reclaim may be needed there, the mark counts.
	for i, z := range s.ZoneWatermarks() {
		if z.Populated() {
			s.Zones[i].Fields.Set("free", z.High)
			s.Zones[i].Fields.Set("nr_free_pages", z.High)
			break
		}
	}
	mustFire(t, run(t, "node-unreclaimable", tl), Warning)
}

// fix49b (corpus 4000): a Mem-Info zone line cut before its name, with its lowmem_reserve
// and the dump's buddy lines after it. Its "all_unreclaimable? yes" is the zone's own mark,
// and the buddy lines' order names the zone (Normal, the last): the rule fires on it.
func TestNodeUnreclaimableCutMemInfoZoneLine(t *testing.T) {
	const text = `olated(file):0kB present:5242880kB managed:5110908kB mlocked:4kB dirty:12kB writeback:264kB mapped:31872kB shmem:4631472kB slab_reclaimable:22564kB slab_unreclaimable:15808kB kernel_stack:2560kB pagetables:9924kB pages_scanned:75976 all_unreclaimable? yes
May  8 17:49:09 jibri kernel: [ 1981.614752] lowmem_reserve[]: 0 0 0 0 0
May  8 17:49:09 jibri kernel: [ 1981.614754] Node 0 DMA: 1*4kB (U) 1*8kB (U) 1*16kB (U) 1*32kB (U) 1*64kB (U) 1*128kB (U) 1*256kB (U) 0*512kB 1*1024kB (U) 1*2048kB (M) 3*4096kB (M) = 15868kB
May  8 17:49:09 jibri kernel: [ 1981.614765] Node 0 DMA32: 146*4kB (UME) 77*8kB (UE) 94*16kB (UME) 61*32kB (UE) 27*64kB (UME) 9*128kB (UE) 4*256kB (UME) 1*512kB (U) 1*1024kB (U) 1*2048kB (M) 8*4096kB (UM) = 44912kB
May  8 17:49:09 jibri kernel: [ 1981.614775] Node 0 Normal: 243*4kB (UE) 121*8kB (UME) 162*16kB (UE) 59*32kB (E) 45*64kB (UME) 20*128kB (UME) 5*256kB (UE) 3*512kB (UE) 1*1024kB (U) 1*2048kB (U) 6*4096kB (UM) = 42324kB
`
	f := mustFire(t, run(t, "node-unreclaimable", pasteTimeline(t, text)), Warning)
	if !evidenceHas(f, "reclaim gave up on zone Normal", "scanned 75976 pages") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// The same line with "no": read, healthy.
	no := strings.Replace(text, "all_unreclaimable? yes", "all_unreclaimable? no", 1)
	mustBeHealthy(t, run(t, "node-unreclaimable", pasteTimeline(t, no)))
}
