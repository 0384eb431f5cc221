package artifact

import "testing"

// fix63c: top under ru_RU translates only the scaled unit ("МиБ Mem :   3924,0 total, ...",
// ru.po's "МиБ" for "MiB"), with the locale's decimal comma; the block may come without
// top's first line, indented in a list.
func TestFix63cTopRussianUnit(t *testing.T) {
	text := "Наблюдение:\n\n\t  МиБ Mem :   3924,0 total,     88,5 free,   3760,2 used,     75,3 buff/cache\n" +
		"\t  МиБ Swap:   1710,0 total,      0,0 free,   1710,0 used.     23,0 avail Mem \n"
	tl := ParseString(text, "ru", Options{})
	ts := lastArtifact[*TopSummary](tl, KindTop)
	if ts == nil || ts.MemKB["total"] != 3924*1024 || ts.SwapKB["used"] != 1710*1024 || ts.SwapKB["avail"] != 23*1024 {
		t.Fatalf("top %+v, unparsed %+v: want Mem total 3924 MiB, Swap used 1710, avail 23", ts, tl.Unparsed)
	}
	checkAccount(t, tl)
	// Counters: the unit in a sentence, or before no top label, is left as it is.
	for _, s := range []string{"МиБ памяти: 3924,0 всего, 88,5 свободно, 3760,2 занято", "МиБ — это мебибайт"} {
		if k := topLineKind(s); k != "" {
			t.Errorf("%q read as top's %s line", s, k)
		}
	}
}
