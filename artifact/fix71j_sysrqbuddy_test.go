package artifact

import "testing"

// fix71j (corpus 7288): SysRq-m's dump ("SysRq : Show Memory") is a reading of the host asked
// for its own sake, so its named buddy lists are the host's free blocks as /proc/buddyinfo
// gives them; the same dump with no SysRq line above (a failure's, or one cut from a report)
// keeps its lists to itself.
func TestSysRqShowMemoryBuddyLists(t *testing.T) {
	dump := "Mem-Info:\n" +
		"active_anon:3358 inactive_anon:3379 isolated_anon:0\n active_file:10615 inactive_file:92319 isolated_file:0\n" +
		" unevictable:0 dirty:3 writeback:0 unstable:0\n free:2240 slab_reclaimable:0 slab_unreclaimable:0\n" +
		"DMA32 free:6552kB min:2784kB low:3480kB high:4176kB active_anon:13424kB inactive_anon:13472kB present:500952kB managed:491396kB all_unreclaimable? no\n" +
		"lowmem_reserve[]: 0 0 0 0\n" +
		"DMA32: 1608*4kB (UM) 15*8kB (M) 0*16kB 0*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 6552kB\n"
	for _, tc := range []struct {
		name, text string
		want       bool
	}{
		{"sysrq", "SysRq : Show Memory\n" + dump, true},
		{"bare dump", dump, false},
	} {
		tl := ParseString(tc.text, "t", Options{})
		got := false
		for _, s := range tl.Samples {
			for _, b := range s.Buddy {
				if b.Zone == "DMA32" && len(b.Free) > 1 && b.Free[0] == 1608 {
					got = true
				}
			}
		}
		if got != tc.want {
			t.Errorf("%s: buddy lists read %v, want %v", tc.name, got, tc.want)
		}
	}
}
