package kernel

import (
	"bytes"
	"reflect"
	"strings"
	"testing"
)

func TestParsePageTypeInfo(t *testing.T) {
	p, err := ParsePageTypeInfo(bytes.NewReader(member(t, hostFixture, "proc/pagetypeinfo")))
	if err != nil {
		t.Fatal(err)
	}
	if p.PageBlockOrder != 9 || p.PagesPerBlock != 512 {
		t.Errorf("order %d, pages per block %d", p.PageBlockOrder, p.PagesPerBlock)
	}
	if len(p.Free) == 0 || p.Free[0].Zone != "DMA" || p.Free[0].Type != "Unmovable" || len(p.Free[0].Free) != 11 {
		t.Fatalf("first free row %+v", p.Free[0])
	}
	if len(p.Blocks) == 0 {
		t.Fatal("no block rows")
	}
	if got := strings.Join(p.Blocks[0].Counts.Names(), " "); got != "Unmovable Movable Reclaimable HighAtomic Isolate" {
		t.Errorf("block columns %q", got)
	}
	// buddyinfo's count per order is the sum over migrate types of the same zone.
	buddy, err := ParseBuddyInfo(bytes.NewReader(member(t, hostFixture, "proc/buddyinfo")))
	if err != nil {
		t.Fatal(err)
	}
	for _, z := range buddy {
		sum := make([]int64, len(z.Free))
		for _, r := range p.Free {
			if r.Zone == z.Zone {
				for i, n := range r.Free {
					sum[i] += n
				}
			}
		}
		// The two files are read at different instants; DMA and DMA32 hardly move.
		if z.Zone != "Normal" && !reflect.DeepEqual(sum, z.Free) {
			t.Errorf("zone %s: pagetypeinfo sums %v, buddyinfo %v", z.Zone, sum, z.Free)
		}
	}
}

func TestParsePageTypeInfoCapped(t *testing.T) {
	// 5.4+ stops counting at 100000 (mm/vmstat.c pagetypeinfo_showfree_print), and
	// CONFIG_PAGE_OWNER kernels add the mixed blocks table; two nodes repeat the headers.
	text := pageTypeTwoNodes
	p, err := ParsePageTypeInfo(strings.NewReader(text))
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Free) != 3 || !p.Free[0].Capped || p.Free[1].Capped || p.Free[0].Free[0] != 100000 || p.Free[0].Free[4] != 41019 {
		t.Errorf("free rows %+v", p.Free)
	}
	if len(p.Blocks) != 2 || len(p.MixedBlocks) != 1 || p.Blocks[1].Node != 7 {
		t.Fatalf("blocks %+v mixed %+v", p.Blocks, p.MixedBlocks)
	}
	if v, _ := p.Blocks[0].Counts.Get("Movable"); v != 32001 {
		t.Errorf("Movable blocks %d", v)
	}
	if v, ok := p.MixedBlocks[0].Counts.Get("Unmovable"); !ok || v != 7 {
		t.Errorf("mixed Unmovable %d %v", v, ok)
	}
}

// pageTypeTwoNodes is a 5.4+ kernel with CONFIG_PAGE_OWNER on two nodes.
const pageTypeTwoNodes = `Page block order: 9
Pages per block:  512

Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 
Node    6, zone   Normal, type      Movable >100000 >100000 >100000 >100000  41019  31560  23996  10054   3229    983    648 
Node    6, zone   Normal, type  Unmovable      1      2      3      4      5      6      7      8      9     10     11 

Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic          CMA      Isolate 
Node 6, zone   Normal          212        32001           90            0            0            0 
Number of mixed blocks    Unmovable      Movable  Reclaimable   HighAtomic          CMA      Isolate 
Node 6, zone   Normal            7           12            1            0            0            0 
Page block order: 9
Pages per block:  512

Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10 
Node    7, zone   Normal, type      Movable      1      1      1      1      1      1      1      1      1      1      1 

Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic          CMA      Isolate 
Node 7, zone   Normal            1            2            3            0            0            0 
`

func TestParsePageTypeInfoMalformed(t *testing.T) {
	const head = "Page block order: 9\nPages per block:  512\n"
	checkMalformed(t, []malformed{
		{"empty", "", 0},
		{"headers only", head, 0},
		{"bad order", "Page block order: x\n", 1},
		{"row before header", head + "Node 0, zone DMA, type Movable 1 2\n", 3},
		{"free row without type", head + "Free pages count per migrate type at order 0 1\nNode 0, zone DMA, Movable 1 2\n", 4},
		{"free row without counts", head + "Free pages count per migrate type at order 0 1\nNode 0, zone DMA, type Movable\n", 4},
		{"bad count", head + "Free pages count per migrate type at order 0 1\nNode 0, zone DMA, type Movable 1 >x\n", 4},
		{"too few block counts", head + "Number of blocks type Unmovable Movable\nNode 0, zone DMA 1\n", 4},
		{"too many block counts", head + "Number of blocks type Unmovable Movable\nNode 0, zone DMA 1 2 3\n", 4},
		{"no block types", head + "Number of blocks type\nNode 0, zone DMA 1\n", 4},
		{"stray line", head + "something else\n", 3},
	}, func(b []byte) error { _, err := ParsePageTypeInfo(bytes.NewReader(b)); return err })
}

// Re-parsing into the same value allocates nothing and gives what a fresh parse gives; a
// value that held a two-node file with the mixed table takes the one-node file cleanly.
func TestParsePageTypeInfoInto(t *testing.T) {
	checkInto(t, ParsePageTypeInfoInto, member(t, hostFixture, "proc/pagetypeinfo"), []byte(pageTypeTwoNodes))
}

func FuzzParsePageTypeInfo(f *testing.F) {
	other := seedFuzz(f, exact("proc/pagetypeinfo"), "Number of blocks type A\nNode 0, zone Z 1\n",
		"Free pages count per migrate type at order 0\nNode 0, zone Z, type T >100000\n", pageTypeTwoNodes)
	f.Fuzz(func(t *testing.T, data []byte) { fuzzInto(t, data, other, ParsePageTypeInfoInto) })
}

func BenchmarkParsePageTypeInfoInto(b *testing.B) {
	benchInto(b, member(b, hostFixture, "proc/pagetypeinfo"), ParsePageTypeInfoInto)
}

func BenchmarkParsePageTypeInfo(b *testing.B) {
	data := member(b, hostFixture, "proc/pagetypeinfo")
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ParsePageTypeInfo(bytes.NewReader(data)); err != nil {
			b.Fatal(err)
		}
	}
}
