package artifact

import "testing"

// free of both procps eras: the unit comes from the command line or the suffixes, and
// without either a small table's numbers are kept but not used as memory figures.
func TestFree(t *testing.T) {
	for _, c := range []struct {
		name, text    string
		unit          string
		memTotal      int64 // kB; 0 when no memory figure may be derived
		swapFree      int64
		wantAvailable bool
	}{
		{"procps 3.3 -m", "$ free -m\n              total        used        free      shared  buff/cache   available\nMem:           7822        1187        5108          33        1526        6306\nSwap:          2047           0        2047\n",
			"MiB", 7822 * 1024, 2047 * 1024, true},
		{"old procps", "# free\n             total       used       free     shared    buffers     cached\nMem:       8061864    7850000     211864          0     184824    6343080\n-/+ buffers/cache:    1322096    6739768\nSwap:      2097144          0    2097144\n",
			"KiB", 8061864, 2097144, false},
		{"human", "free -h\n               total        used        free      shared  buff/cache   available\nMem:            15Gi       4.2Gi       6.1Gi       1.0Gi       5.0Gi        10Gi\nSwap:          2.0Gi          0B       2.0Gi\n",
			"human", 15 * 1024 * 1024, 2 * 1024 * 1024, true},
		{"no unit", "              total        used        free      shared  buff/cache   available\nMem:           7822        1187        5108          33        1526        6306\n",
			"unknown", 0, 0, false},
	} {
		tl := ParseString(c.text, c.name, Options{})
		if len(tl.Artifacts) != 1 || tl.Artifacts[0].Kind != KindFree {
			t.Fatalf("%s: artifacts %+v unparsed %+v", c.name, tl.Artifacts, tl.Unparsed)
		}
		tb := tl.Artifacts[0].Data.(*FreeTable)
		if tb.Unit != c.unit {
			t.Errorf("%s: unit %q, want %q", c.name, tb.Unit, c.unit)
		}
		if c.memTotal == 0 {
			if len(tl.Samples) != 0 {
				t.Errorf("%s: a table of unknown unit gave samples", c.name)
			}
			continue
		}
		if len(tl.Samples) != 1 {
			t.Fatalf("%s: %d samples", c.name, len(tl.Samples))
		}
		m := tl.Samples[0].MemInfo
		if v, _ := m.Get("MemTotal"); v != c.memTotal {
			t.Errorf("%s: MemTotal %d kB, want %d", c.name, v, c.memTotal)
		}
		if v, _ := m.Get("SwapFree"); v != c.swapFree {
			t.Errorf("%s: SwapFree %d kB, want %d", c.name, v, c.swapFree)
		}
		if _, ok := m.Get("MemAvailable"); ok != c.wantAvailable {
			t.Errorf("%s: MemAvailable present %v, want %v", c.name, ok, c.wantAvailable)
		}
		if tl.Host.MemTotalKB != c.memTotal {
			t.Errorf("%s: host memory %d kB", c.name, tl.Host.MemTotalKB)
		}
	}
}
