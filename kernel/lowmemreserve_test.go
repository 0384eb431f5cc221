package kernel

import "testing"

func TestPageKBFromLowmemReserve(t *testing.T) {
	for _, c := range []struct {
		name    string
		lower   string
		reserve []int64
		upperKB int64
		want    int64
		ok      bool
	}{
		// Elasticsearch 23842 (4.4, x86_64): DMA32's reserve against Normal, managed 10352916 kB.
		{"x86_64 DMA32 under Normal", "DMA32", []int64{0, 0, 10110, 10110, 10110}, 10352916, 4, true},
		// The same zone with 64 kB pages (arm64, ppc64): 16 times fewer pages.
		{"64k pages", "DMA32", []int64{0, 0, 631, 631}, 10352916, 64, true},
		// i686 with HighMem: Normal's reserve against HighMem is HighMem's pages over 32.
		{"i686 Normal under HighMem", "Normal", []int64{0, 0, 0, 58352}, 7469156, 4, true},
		// A tuned ratio (vm.lowmem_reserve_ratio 100) matches no page size.
		{"tuned ratio", "DMA32", []int64{0, 0, 25882}, 10352916, 0, false},
		{"all zero", "DMA32", []int64{0, 0, 0, 0}, 10352916, 0, false},
		{"HighMem has no ratio", "HighMem", []int64{0, 0, 0, 10110}, 10352916, 0, false},
	} {
		got, ok := PageKBFromLowmemReserve(c.lower, c.reserve, c.upperKB)
		if got != c.want || ok != c.ok {
			t.Errorf("%s: got %d %v, want %d %v", c.name, got, ok, c.want, c.ok)
		}
	}
}
