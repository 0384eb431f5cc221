package artifact

import "testing"

// Corpus 403: syslog put every KERN_CONT token of two buddy lines on a line of its own, and
// the paste starts inside the first (its zone name was cut). The tokens are rejoined: the
// first line's tail is kept as a buddy fragment of an unnamed zone (its total and its
// blocks by size, no zone invented), the second, opened by "Node 0" and "DMA32:" on lines of
// their own, is node 0's DMA32 buddy line with its migrate letters.
func TestBuddyKernContOneTokenPerLine403(t *testing.T) {
	text := `Feb 19 16:20:13 lcg-lrz-dc25 kernel: (U) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 1*128kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (U) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 1*256kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (U) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 0*512kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 1*1024kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (U) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 1*2048kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (M) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 3*4096kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (M) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: = 15864kB
Feb 19 16:20:13 lcg-lrz-dc25 kernel: Node 0 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: DMA32: 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 613*4kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (UME) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 715*8kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (UME) 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: 869*16kB 
Feb 19 16:20:13 lcg-lrz-dc25 kernel: (UME) 
`
	tl := ParseString(text, "syslog", Options{})
	sm := one(t, tl, KindShowMem).(ShowMem)
	if len(sm.Zones) != 1 {
		t.Fatalf("zones %+v (a zone invented, or DMA32 lost)", sm.Zones)
	}
	z := sm.Zones[0]
	if z.Zone != "DMA32" || z.Node != 0 || len(z.FreeBlocks) != 3 || z.FreeBlocks[2] != 869 || len(z.MigrateTypes) != 3 || z.MigrateTypes[0] != "UME" {
		t.Errorf("DMA32 %+v", z)
	}
	if len(sm.Fragments) != 1 {
		t.Fatalf("fragments %+v", sm.Fragments)
	}
	f := sm.Fragments[0]
	if f.TotalKB != 15864 || len(f.Blocks) != 6 || f.Blocks[0].SizeKB != 128 || f.Blocks[5].Count != 3 || f.Blocks[5].SizeKB != 4096 || f.Blocks[5].Types != "M" || f.Blocks[2].Types != "" {
		t.Errorf("fragment %+v", f)
	}
	if tl.Lines.Unparsed != 0 || tl.Lines.Read != 21 {
		t.Errorf("lines %+v", *tl.Lines)
	}
	if len(tl.Events) != 0 {
		t.Errorf("an allocation report invented: %+v", tl.Events)
	}
}
