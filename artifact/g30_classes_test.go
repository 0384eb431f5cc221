package artifact

import "testing"

// meminfo fields in a box-drawing tree or a listing, in MB or GB with thousands separators
// ("│   └── SUnreclaim:     2,143 MB", "Total RAM: 4,096 MB"; corpus 893). Before: no
// SUnreclaim, no memory size. A decimal comma ("2,5 GB") is not a thousands separator, and a
// threshold stays a threshold.
func TestStatedMeminfoThousandsInTree(t *testing.T) {
	for _, c := range []struct {
		text     string
		kb, memK int64
	}{
		{"Memory on the node:\n\nTotal RAM: 8,192 MB\n├── Kernel Slab:        3,300 MB\n│   ├── SReclaimable:    120 MB\n│   └── SUnreclaim:    3,180 MB (cannot be freed)\n└── Free:    40 MB\n", 3180 << 10, 8192 << 10},
		{"- RAM: 1,024 GB\n- SUnreclaim: 1,250.5 GB\n", 1250.5 * (1 << 20), 1024 << 20},
		// Counter-cases: a decimal comma is no thousands group; a threshold is not a reading.
		{"RAM: 2,5 GB on this board\n", 0, 0},
		{"We alert when SUnreclaim exceeds 2,048 MB on a node.\n", 0, 0},
	} {
		kb, mem := statedSUnreclaim(c.text)
		if kb != c.kb || mem != c.memK {
			t.Errorf("%q: SUnreclaim %d kB, memory %d kB; want %d, %d", c.text, kb, mem, c.kb, c.memK)
		}
	}
}
