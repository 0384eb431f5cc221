package artifact

import "testing"

// fix71e (corpus 7272): /proc/pagetypeinfo pasted without its "Page block order" and "Pages
// per block" lines, its free lists first (a patch's before/after with the 2.6.25 "<NULL>"
// type), is pagetypeinfo; and the pageblock table's rows ("Node 0, zone Normal 10 40 169 1
// 0") are never buddy lists, which made 60 free order-10 blocks read as "1 block of order 3".
func TestPageTypeInfoWithoutItsHead(t *testing.T) {
	free := "Free pages count per migrate type at order       0      1      2      3      4      5      6      7      8      9     10\n" +
		"Node    0, zone   Normal, type    Unmovable      1      9      7      4      1      1      1      1      0      0      0\n" +
		"Node    0, zone   Normal, type      Movable      0      1      1      0      0      0      1      0      0      1     60\n" +
		"Node    0, zone   Normal, type       <NULL>      0      0      0      0      0      0      0      0      0      0      0\n\n"
	blocks := "Number of blocks type     Unmovable  Reclaimable      Movable      Reserve       <NULL>\n" +
		"Node 0, zone      DMA            1            0            2       1            0\n" +
		"Node 0, zone   Normal           10           40          169       1            0\n"
	for _, tc := range []struct {
		name, text string
		free       bool
	}{
		{"free lists and blocks", free + blocks, true},
		{"blocks alone", blocks, false},
	} {
		tl := ParseString(tc.text, "t", Options{})
		var pt, buddy int
		for _, s := range tl.Samples {
			if s.PageTypes != nil && len(s.PageTypes.Blocks) == 2 && (len(s.PageTypes.Free) > 0) == tc.free {
				pt++
			}
			buddy += len(s.Buddy)
		}
		if pt != 1 || buddy != 0 {
			t.Errorf("%s: %d pagetypeinfo samples, %d buddy zones; want 1 and 0", tc.name, pt, buddy)
		}
	}
}
