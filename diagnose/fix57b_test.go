package diagnose

import (
	"strings"
	"testing"
)

// fix57b (round 52): atop's MEM/SWP/PAG lines (artifact/atop.go), a `vmstat N` row as a mean
// over N seconds, an old Mem-Info's one "slab:" figure, a Pastebin page's title.

const fix57bAtop = "MEM | tot 7.7G | free 3.7G | cache 608.3M | buff 19.1M | slab 264.6M |\n" +
	"SWP | tot 2.0G | free 1.4G | | vmcom 13.4G | vmlim 5.8G |\n" +
	"PAG | scan 167264 | steal 109112 | stall 0 | swin 0 | swout 23834 |\n"

func TestFix57bAtopCommitOverRAMAndSwap(t *testing.T) {
	d, _ := rootOf(t, fix57bAtop)
	if findingOf(d, "overcommit-exposed") == nil {
		t.Fatalf("atop's vmcom 13.4G over tot 7.7G + 2.0G: no overcommit-exposed: %v", d.Findings)
	}
	// Counter-case: vmcom within RAM + swap.
	d, _ = rootOf(t, "MEM | tot 7.7G | free 3.7G | cache 608.3M | buff 19.1M | slab 264.6M |\n"+
		"SWP | tot 2.0G | free 1.4G | | vmcom 6.1G | vmlim 5.8G |\n")
	if f := findingOf(d, "overcommit-exposed"); f != nil && f.Severity >= Warning {
		t.Errorf("vmcom 6.1G within RAM + swap 9.7G: %v", f)
	}
	// Without the ATOP header's interval, swout is no rate: swap-under-load is not judged.
	if c := checkOf(d, "swap-under-load"); c != nil && c.Status == StatusFinding {
		t.Errorf("swap-under-load from swout without an interval: %v", c)
	}
}

const fix57bVMStatHead = "procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n" +
	" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n"

func fix57bVMStat(cmd string, so ...string) string {
	s := cmd + "\n" + fix57bVMStatHead
	for _, v := range so {
		s += " 0  0 770168 5034300  28024 936256    0 " + v + "  21  86   60  101 22  9 68  1  0\n"
	}
	return s
}

func TestFix57bVMStatIntervalRowCounts(t *testing.T) {
	d, _ := rootOf(t, fix57bVMStat("$ vmstat 10", "2", "0", "1390", "0"))
	f := findingOf(d, "swap-under-load")
	if f == nil {
		t.Fatalf("vmstat 10 with one 10-s row at so 1390: no swap-under-load: %v", d.Findings)
	}
	if f.Severity != Warning || !strings.Contains(f.Evidence[0].Value, "mean over 10 s") {
		t.Errorf("want a warning that names the 10-s mean: %v %v", f.Severity, f.Evidence[0])
	}
	// Counter-cases: one such row of vmstat 1 is one second; the first row of vmstat 10
	// is the average since boot.
	for _, text := range []string{
		fix57bVMStat("$ vmstat 1", "2", "0", "1390", "0"),
		fix57bVMStat("$ vmstat 10", "1390", "0", "0", "0"),
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "swap-under-load"); f != nil {
			t.Errorf("%q: swap-under-load %v", text, f.Evidence)
		}
	}
}

const fix57bOldMemInfo = "oom-killer: gfp_mask=0xd0\n" +
	"DMA per-cpu:\n" +
	"cpu 0 hot: low 32, high 96, batch 16\n" +
	"Free pages: 2000kB (0kB HighMem)\n" +
	"Active:7604 inactive:7542 dirty:0 writeback:0 unstable:0 free:500 slab:%d mapped:146 pagetables:23\n" +
	"DMA free:2000kB min:2048kB low:2560kB high:3072kB active:30416kB inactive:30168kB present:262144kB pages_scanned:61175 all_unreclaimable? yes\n" +
	"protections[]: 0 0 0\n" +
	"Normal free:0kB min:0kB low:0kB high:0kB active:0kB inactive:0kB present:0kB pages_scanned:0 all_unreclaimable? no\n" +
	"protections[]: 0 0 0\n" +
	"DMA: 0*4kB 6*8kB 18*16kB 1*32kB 0*64kB 0*128kB 0*256kB 0*512kB 0*1024kB 0*2048kB 0*4096kB = 368kB\n" +
	"Swap cache: add 0, delete 0, find 0/0, race 0+0\n" +
	"Free swap:            0kB\n" +
	"65536 pages of RAM\n"

func TestFix57bOldSlabFigureIsNamedNotHealthy(t *testing.T) {
	d, _ := rootOf(t, strings.Replace(fix57bOldMemInfo, "%d", "42808", 1))
	f := findingOf(d, "slab-unreclaimable-growth")
	if f == nil {
		t.Fatalf("slab:42808 pages of a 256 MB machine: no finding: %v", checkOf(d, "slab-unreclaimable-growth"))
	}
	if f.Severity != Info || !strings.Contains(f.Explanation, "at most") {
		t.Errorf("one combined slab figure is an upper bound (info): %v %q", f.Severity, f.Explanation)
	}
	// Counter-case: a small slab figure is healthy as before.
	d, _ = rootOf(t, strings.Replace(fix57bOldMemInfo, "%d", "2000", 1))
	if c := checkOf(d, "slab-unreclaimable-growth"); c == nil || c.Status != StatusOK {
		t.Errorf("slab:2000 pages (3%%): want ok, got %v", c)
	}
}

const fix57bShowMemTail = "[1678055.542804] active_anon:11991 inactive_anon:128 isolated_anon:0\n" +
	" active_file:117 inactive_file:973 isolated_file:0\n" +
	" unevictable:0 dirty:5 writeback:0 unstable:0\n" +
	" free:34728 slab_reclaimable:644 slab_unreclaimable:1791\n" +
	" mapped:426 shmem:341 pagetables:848 bounce:0\n" +
	"[1678055.542905] Normal free:138912kB min:32768kB low:40960kB high:49152kB active_anon:47964kB inactive_anon:512kB active_file:468kB inactive_file:3892kB unevictable:0kB present:225280kB managed:103112kB free_cma:106412kB pages_scanned:1106 all_unreclaimable? yes\n" +
	"[1678055.542924] lowmem_reserve[]: 0 0\n"

func fix57bPaste(author, title string) string {
	return author + "\n\n" + title + "\n\nNov 16th, 2018\ntext 44.96 KB | None | 0 0\n" + fix57bShowMemTail
}

func TestFix57bPastebinTitleOverHeaderlessDump(t *testing.T) {
	d, _ := rootOf(t, fix57bPaste("ajhlinuxuser", "Arch Linux ARM - dmesg output - OOM killer misbehaving"))
	if findingOf(d, "oom-kill") == nil {
		t.Fatalf("a Pastebin title naming the OOM killer over a headerless Mem-Info: no oom-kill: %v", d.Findings)
	}
	// Counter-cases: an untitled paste; the author's name is no title.
	for _, text := range []string{fix57bPaste("Guest User", "Untitled"), fix57bPaste("oomkiller", "dmesg output")} {
		d, _ := rootOf(t, text)
		if findingOf(d, "oom-kill") != nil {
			t.Errorf("%q: oom-kill", text[:30])
		}
	}
}

func fix57bSwapTable(rows string) string {
	return "The results for the 3 GB mem test were :\n\n" +
		"kernel      msg/s  %CPU %sys/%user  Total swpin   Total swpout  Total swapio\n" +
		"----------- -----  ---- ----------  ------------  ------------  ------------\n" + rows + "\n"
}

func TestFix57bPerRunSwapTotals(t *testing.T) {
	d, _ := rootOf(t, fix57bSwapTable("2.5.26      51824  96.3 1.42        1,987,024 KB  2,148,100 KB  4,135,124 KB\n"+
		"2.5.35mm1   39679  99.6 1.50       *2,720,600 KB *6,154,512 KB *8,875,112 KB\n"))
	f := findingOf(d, "swap-under-load")
	if f == nil || f.Severity != Warning {
		t.Fatalf("a table of each run's swap totals in KB: want a warning without a rate, got %v", f)
	}
	// Counter-cases: a control table of zeros; KB cells of zero; prose naming swapin.
	for _, text := range []string{
		fix57bSwapTable("2.5.26      55446  99.4 1.40        0             0             0\n"),
		fix57bSwapTable("2.5.26      55446  99.4 1.40        0 KB          0 KB          0 KB\n"),
		"We compared swapin and swapout totals per kernel on the box, and found them equal.\n",
	} {
		d, _ := rootOf(t, text)
		if f := findingOf(d, "swap-under-load"); f != nil {
			t.Errorf("%q: swap-under-load %v", text, f.Evidence)
		}
	}
}
