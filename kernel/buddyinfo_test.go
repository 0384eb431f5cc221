package kernel

import (
	"bytes"
	"reflect"
	"testing"
)

func TestParseBuddyInfo(t *testing.T) {
	host, err := ParseBuddyInfo(bytes.NewReader(member(t, hostFixture, "proc/buddyinfo")))
	if err != nil {
		t.Fatal(err)
	}
	if len(host) == 0 || host[0].Zone != "DMA" {
		t.Fatalf("6.18 buddyinfo parsed as %+v", host)
	}
	for _, z := range host {
		if len(z.Free) != 11 { // MAX_ORDER 11 on x86_64 (orders 0..10)
			t.Errorf("zone %s has %d orders", z.Zone, len(z.Free))
		}
	}

	// Seed 004's 32-bit box: three zones, counts as in its dmesg free-area lines.
	old, err := ParseBuddyInfo(bytes.NewReader(member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/buddyinfo")))
	if err != nil {
		t.Fatal(err)
	}
	want := []BuddyZone{
		{0, "DMA", []int64{1, 1, 1, 0, 0, 1, 0, 0, 1, 0, 1}},
		{0, "Normal", []int64{0, 1, 1, 0, 1, 1, 1, 3, 2, 2, 1}},
		{0, "HighMem", []int64{0, 1, 16, 1, 3, 0, 1, 0, 0, 0, 0}},
	}
	if !reflect.DeepEqual(old, want) {
		t.Errorf("got %+v\nwant %+v", old, want)
	}
	// DMA: 1*4kB 1*8kB 1*16kB 0*32kB 0*64kB 1*128kB 0*256kB 0*512kB 1*1024kB 0*2048kB 1*4096kB = 5276kB
	var kb int64
	for order, n := range old[0].Free {
		kb += n * 4 << order
	}
	if kb != 5276 {
		t.Errorf("DMA free = %d kB, seed says 5276kB", kb)
	}

	// The seed's pasted line has tabs instead of the kernel's padding.
	pasted, err := ParseBuddyInfo(bytes.NewReader(member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "pasted/proc/buddyinfo")))
	if err != nil {
		t.Fatal(err)
	}
	if len(pasted) != 1 || pasted[0].Zone != "Normal" || !reflect.DeepEqual(pasted[0].Free, []int64{240, 453, 5072, 4247, 871, 73, 2, 11, 2, 0, 1}) {
		t.Errorf("pasted line parsed as %+v", pasted)
	}
}

func TestParseBuddyInfoMalformed(t *testing.T) {
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"no counts", "Node 0, zone DMA 1 2\nNode 0, zone Normal\n", 2},
		{"not a count", "Node 0, zone DMA 1 x 2\n", 1},
		{"negative", "Node 0, zone DMA 1 -2\n", 1},
		{"no node", "zone DMA 1 2\n", 1},
		{"bad node", "Node x, zone DMA 1 2\n", 1},
		{"no comma", "Node 0 zone DMA 1 2\n", 1},
		{"no zone word", "Node 0, DMA 1 2\n", 1},
		{"truncated", "Node 0, zone      DMA      0      0\nNode 0, zo", 2},
	}, func(b []byte) error { var z []BuddyZone; return ParseBuddyInfoInto(&z, b) })
}

func TestParseBuddyInfoInto(t *testing.T) {
	checkInto(t, ParseBuddyInfoInto,
		member(t, hostFixture, "proc/buddyinfo"),
		member(t, "testdata/layouts/2.6.13-i686-seed004.txtar", "proc/buddyinfo"))
}

func FuzzParseBuddyInfo(f *testing.F) {
	other := seedFuzz(f, exact("proc/buddyinfo"), "Node 0, zone DMA\n", "Node , zone 1")
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParseBuddyInfoInto) })
}

func BenchmarkParseBuddyInfoInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/buddyinfo"), ParseBuddyInfoInto)
}
