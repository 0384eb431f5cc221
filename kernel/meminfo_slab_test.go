package kernel

import (
	"strings"
	"testing"
)

func TestMemInfoSUnreclaimKB(t *testing.T) {
	for _, tc := range []struct {
		text        string
		kb          int64
		derived, ok bool
	}{
		// printed: read as is
		{"Slab: 547296 kB\nSReclaimable: 423956 kB\nSUnreclaim: 123340 kB\n", 123340, false, true},
		// a grep that kept Slab and SReclaimable only: Slab − SReclaimable
		{"Cached: 34183672 kB\nSwapCached: 24 kB\nSlab: 67326708 kB\nSReclaimable: 1737252 kB\n", 65589456, true, true},
		// before 2.6.19: Slab alone, no split
		{"MemTotal: 16344972 kB\nSlab: 684068 kB\n", 0, false, false},
		// SReclaimable alone
		{"SReclaimable: 1737252 kB\n", 0, false, false},
		// not one dump's pair
		{"Slab: 1000 kB\nSReclaimable: 2000 kB\n", 0, false, false},
	} {
		c, err := ParseMemInfo(strings.NewReader(tc.text))
		if err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		kb, derived, ok := MemInfoSUnreclaimKB(c)
		if kb != tc.kb || derived != tc.derived || ok != tc.ok {
			t.Errorf("%q: got %d %v %v, want %d %v %v", tc.text, kb, derived, ok, tc.kb, tc.derived, tc.ok)
		}
	}
}
