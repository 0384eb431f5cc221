package artifact

import "testing"

// A Mem-Info dump cut inside its last zone line right after a field's colon ("...
// unevictable:9076kB writepending:"), with the poster's question below it: the line is the
// dump's cut end as it is when nothing follows (corpus 2963's lines), so the zone is read.
func TestZoneLineCutAfterColonThenProse(t *testing.T) {
	dump := "[Mon May 17 23:50:30 2021] Node 0 DMA free:15904kB min:120kB low:148kB high:176kB active_anon:0kB inactive_anon:0kB active_file:0kB inactive_file:0kB unevictable:0kB writepending:0kB present:15988kB managed:15904kB mlocked:0kB\n" +
		"[Mon May 17 23:50:30 2021] lowmem_reserve[]: 0 1770 128744 128744 128744\n" +
		"[Mon May 17 23:50:30 2021] Node 0 DMA32 free:521868kB min:14208kB low:17760kB high:21312kB active_anon:1349656kB inactive_anon:0kB active_file:60kB inactive_file:220kB unevictable:0kB writepending:4kB present:1952512kB managed:1885880kB\n" +
		"[Mon May 17 23:50:30 2021] lowmem_reserve[]: 0 0 126973 126973 126973\n" +
		"[Mon May 17 23:50:30 2021] Node 0 Normal free:985296kB min:985668kB low:1232084kB high:1478500kB active_anon:126606732kB inactive_anon:624kB active_file:0kB inactive_file:0kB unevictable:9076kB writepending:"
	for _, after := range []string{"", "\n", "\n\nDoes anyone know what is going on here?\n", "\n$\n"} {
		tl := ParseString(dump+after, "t", Options{})
		var normal bool
		for _, s := range tl.Samples {
			for _, z := range s.Zones {
				if z.Name == "Normal" {
					normal = true
					if v, _ := z.Fields.Get("min"); v != 985668/4 {
						t.Errorf("after %q: Normal min %d pages, want %d", after, v, 985668/4)
					}
				}
			}
		}
		if !normal {
			t.Errorf("after %q: the Normal zone cut after its last colon was not read", after)
		}
	}
}
