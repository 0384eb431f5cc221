package diagnose

import "testing"

// fix60b (round 55, g241): swap-under-load without a rate, told apart by mechanism. A host
// whose page cache is gone (free -h buff/cache under 5% of RAM) and whose RAM available is
// short, with a large share of RAM already in swap, is swapping even though its big swap is
// far from full; a host that says "it is swapping" while half its RAM is available and the
// page cache is large holds old pages parked on disk.

func TestFix60bPageCacheGoneSwapPartlyUsed(t *testing.T) {
	text := "total used free shared buff/cache available\n" +
		"Mem: 15G 14G 164M 680K 206M 101M\n" +
		"Swap: 29G 4.9G 24G\n"
	f := mustFire(t, fired(t, "swap-under-load", text), Warning)
	if !evidenceHas(f, "swap used", "the working set exceeds RAM") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	// Counter-cases: the same swap with the page cache left (reclaim can drop it instead),
	// with RAM available, or with next to nothing in swap, gives no finding.
	for _, text := range []string{
		"total used free shared buff/cache available\nMem: 15G 13G 164M 680K 1.9G 101M\nSwap: 29G 4.9G 24G\n",
		"total used free shared buff/cache available\nMem: 15G 9G 5.8G 680K 206M 6.0G\nSwap: 29G 4.9G 24G\n",
		"total used free shared buff/cache available\nMem: 15G 14G 164M 680K 206M 101M\nSwap: 29G 300M 28.7G\n",
	} {
		if res := fired(t, "swap-under-load", text); len(res.Findings) != 0 {
			t.Errorf("fired on %q: %+v", text, res.Findings)
		}
	}
}

func TestFix60bStatedSwappingBesideRoomySnapshot(t *testing.T) {
	snap := "# free -h total used free shared buff/cache available\n" +
		"Mem: 125G 34G 4.2G 150M 86G 80G\n" +
		"Swap: 2.0G 238M 1.8G\n"
	text := "Server strangely is swapping as under\n\n" + snap
	if res := fired(t, "swap-under-load", text); len(res.Findings) != 0 {
		t.Errorf("stated swapping beside 80G of 125G available fired: %+v", res.Findings)
	}
	// Counter-cases: the same words beside a snapshot with RAM short, or beside no snapshot,
	// still fire (the author's words stand when nothing contradicts them).
	short := "Server strangely is swapping as under\n\n" +
		"# free -h total used free shared buff/cache available\n" +
		"Mem: 125G 110G 4.2G 150M 11G 20G\n" +
		"Swap: 2.0G 238M 1.8G\n"
	mustFire(t, fired(t, "swap-under-load", short), Warning)
	mustFire(t, fired(t, "swap-under-load", "Server strangely is swapping as under\n"), Warning)
}
