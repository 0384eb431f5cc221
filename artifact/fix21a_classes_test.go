package artifact

import "testing"

// Round 16's classes fixed by fix21a (issue 29); each snippet failed before its change.

// A figure glued to the words of an unspaced script, beside a meminfo field's name (corpus
// 1851, a machine-translated post): listed as unread, not exit 3. Counter-cases: the same
// script stating a size of no memory ("下载了600MB的文件", a downloaded file) and a bare
// number with no unit among CJK words.
func TestCJKGluedFigureUnread(t *testing.T) {
	if w := unparsedWhy("更糟糕的是,即使\"MemFree\"在600MB 左右徘徊,内核也可以保留这些块。\n"); !anyHas(w, whyStatedFigure) {
		t.Errorf("stated: unparsed %q", w)
	}
	for _, s := range []string{
		"我们昨天下载了600MB的文件,然后重新启动。\n",
		"当我们将 SDK 从03.01.00.06更新为06.03.00.106时、此问题开始变得更糟\n",
	} {
		if w := unparsedWhy(s); anyHas(w, whyStatedFigure) {
			t.Errorf("%q: unparsed %q", s, w)
		}
	}
}

// U-Boot's banner "DRAM:  512 MiB", quoted in a mail-style reply (corpus 1848): the memory
// the boot loader found, listed as unread. Counter-case: a sentence naming DRAM without a
// figure, and U-Boot's other banner lines ("MMC:   SUNXI SD/MMC: 0").
func TestUBootDRAMBannerUnread(t *testing.T) {
	if w := unparsedWhy("> CPU:   Allwinner H3 (SUN8I)\n> DRAM:  512 MiB\n> MMC:   SUNXI SD/MMC: 0\n"); !anyHas(w, whyStatedFigure) {
		t.Errorf("banner: unparsed %q", w)
	}
	if w := unparsedWhy("> CPU:   Allwinner H3 (SUN8I)\n> MMC:   SUNXI SD/MMC: 0\nThe DRAM chips are soldered on.\n"); anyHas(w, whyStatedFigure) {
		t.Errorf("no figure: unparsed %q", w)
	}
}

// A device firmware's own allocator running out, in its UART log (corpus 1856): named as the
// chip's pool, listed as unread. Counter-cases: a sentence with the same words and no
// allocator's name before them, and a "name: no free" line of something that is no pool.
func TestOwnAllocatorOutUnread(t *testing.T) {
	if w := unparsedWhy("(5802)mac state wlan0 -- 3\n(5822)mem_alloc: no free chunks in the found pool\n"); !anyHas(w, whyOwnAllocatorOut) {
		t.Errorf("firmware: unparsed %q", w)
	}
	for _, s := range []string{
		"It then fails with: no free chunks, and the scan stops.\n",
		"Parking: no free spaces today\n",
	} {
		if w := unparsedWhy(s); anyHas(w, whyOwnAllocatorOut) {
			t.Errorf("%q: unparsed %q", s, w)
		}
	}
}

// A failed cma_alloc's dmesg stamp is carried with its figures (corpus 1847, 1860): when the
// pool first failed. Counter-case: the same line without a stamp carries no time.
func TestCMAFailureFirstUptime(t *testing.T) {
	stamp := func(text string) (any, bool) {
		tl := ParseString(text, "p", Options{})
		for _, a := range tl.Artifacts {
			if m, ok := a.Data.(map[string]any); ok && m["cma_alloc_failures"] != nil {
				v, has := m["first_uptime_s"]
				return v, has
			}
		}
		t.Fatalf("%q: no cma_alloc artifact", text)
		return nil, false
	}
	if v, _ := stamp("[  338.128731] cma: cma_alloc: alloc failed, req-size: 1231 pages, ret: -12\n"); v != 338.128731 {
		t.Errorf("stamped: first_uptime_s %v", v)
	}
	if v, has := stamp("cma: cma_alloc: alloc failed, req-size: 1231 pages, ret: -12\n"); has {
		t.Errorf("no stamp: first_uptime_s %v", v)
	}
}
