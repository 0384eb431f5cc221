package artifact

import (
	"slices"
	"testing"
)

// 2.4's SysRq-m buddy lists pasted without their Zone: lines (corpus 794, RHEL3): each list
// names no zone and ends with "= NkB)"; the lists come in 2.4's zone order, so a dump whose
// first list fits x86's 16 MiB DMA zone names them DMA, Normal, HighMem, and a list the
// paste cut before its total is kept as a cut fragment. Before: three kernel log records,
// no zone, no buddy reading.
func TestZonelessBuddy24Lists(t *testing.T) {
	text := "# echo m > /proc/sysrq-trigger\n" +
		"Jul 23 20:19:30 localhost kernel: 0*4kB 0*8kB 0*16kB 1*32kB 0*64kB 1*128kB 1*256kB 1*512kB 1*1024kB 0*2048kB 0*4096kB = 1952kB)\n" +
		"Jul 23 20:19:30 localhost kernel: 1395*4kB 355*8kB 209*16kB 15*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 12244kB)\n" +
		"Jul 23 20:19:31 localhost kernel: 1479*4kB 673*8kB 205*16kB \n"
	tl := ParseString(text, "t", Options{})
	as := artifactsOf(tl, KindShowMem)
	if len(as) != 1 {
		t.Fatalf("show_mem artifacts %+v", tl.Artifacts)
	}
	sm := as[0].Data.(ShowMem)
	if len(sm.Zones) != 2 || sm.Zones[0].Zone != "DMA" || sm.Zones[1].Zone != "Normal" ||
		!slices.Equal(sm.Zones[1].FreeBlocks, []int64{1395, 355, 209, 15, 0, 0, 0, 0, 0, 0, 0}) || sm.ZonesByPosition == "" {
		t.Fatalf("zones %+v (by position %q)", sm.Zones, sm.ZonesByPosition)
	}
	if len(sm.Fragments) != 1 || !sm.Fragments[0].Cut || len(sm.Fragments[0].Blocks) != 3 || sm.Fragments[0].Blocks[2].Count != 205 {
		t.Errorf("fragments %+v, want the cut HighMem list's three blocks", sm.Fragments)
	}
	var buddy []string
	for _, s := range tl.Samples {
		for _, b := range s.Buddy {
			buddy = append(buddy, b.Zone)
		}
	}
	if !slices.Equal(buddy, []string{"DMA", "Normal"}) {
		t.Errorf("buddy readings %v, want DMA and Normal", buddy)
	}
}

// No zone is named when the first list does not fit x86's DMA zone (the paste may begin at
// a later zone's list), and a zone-less list in the later "= NkB" form (no ')') is no 2.4
// dump.
func TestZonelessBuddy24NotNamed(t *testing.T) {
	tl := ParseString("Jul 23 20:19:30 localhost kernel: 3*4kB 1*8kB 2*16kB 900*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB = 28876kB)\n"+
		"Jul 23 20:19:30 localhost kernel: 1*4kB 1*8kB 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB = 12kB)\n", "t", Options{})
	as := artifactsOf(tl, KindShowMem)
	if len(as) != 1 {
		t.Fatalf("show_mem artifacts %+v", tl.Artifacts)
	}
	sm := as[0].Data.(ShowMem)
	if len(sm.Zones) != 0 || len(sm.Fragments) != 2 || sm.ZonesByPosition != "" {
		t.Errorf("zones %+v fragments %+v: want two unnamed fragments", sm.Zones, sm.Fragments)
	}
	for _, s := range tl.Samples {
		if len(s.Buddy) > 0 {
			t.Errorf("a buddy reading %+v from unnamed lists", s.Buddy)
		}
	}
	tl = ParseString("Jul 23 20:19:30 localhost kernel: 0*4kB 0*8kB 0*16kB 1*32kB 0*64kB 1*128kB 1*256kB 1*512kB 1*1024kB 0*2048kB 0*4096kB = 1952kB\n", "t", Options{})
	if as := artifactsOf(tl, KindShowMem); len(as) != 0 {
		t.Errorf("a dump from a later kernel's line without its zone: %+v", as)
	}
}
