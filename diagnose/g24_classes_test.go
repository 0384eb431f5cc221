package diagnose

import (
	"strings"
	"testing"
)

// Classes of issue 29 found by the held-out batch g24 (corpus 769-787) and fixed by class;
// each test is a minimal snippet of its class and failed before its change.

func checkOf(d Diagnosis, id string) *Check {
	for i := range d.Checks {
		if d.Checks[i].ID == id {
			return &d.Checks[i]
		}
	}
	return nil
}

// A buddyinfo count just below 2^32 is a negative printed unsigned (nr_free went below
// zero): no reading of free blocks, so fragmentation is not judged on it (corpus 787: a
// false alarm memory-fragmented before).
func TestFragmentationNotJudgedOnWrappedCounts(t *testing.T) {
	d, _ := rootOf(t, "Node 0, zone      DMA      2      1      2      1      1      0      0      1      1      2      2\n"+
		"Node 0, zone   Normal      1      1      1      1      1      1      0      0 4294967295      0 4294967295\n")
	if f := findingOf(d, "memory-fragmented"); f != nil {
		t.Fatalf("memory-fragmented on wrapped counts: %+v", f)
	}
	if c := checkOf(d, "memory-fragmented"); c == nil || c.Status != StatusNotChecked || !strings.Contains(c.Why, "wrapped") {
		t.Errorf("check %+v, want not checked: the counts are wrapped", c)
	}
	// Counter-case: the same scarcity with real counts is still judged.
	d, _ = rootOf(t, "Node 0, zone   Normal  90000  40000   2000      3      1      0      0      0      0      0      0\n")
	if findingOf(d, "memory-fragmented") == nil {
		t.Errorf("memory-fragmented lost on real counts (checks %+v)", checkOf(d, "memory-fragmented"))
	}
}

const ifconfigRX = `eth0      Link encap:Ethernet  HWaddr 00:16:41:11:22:33
          inet addr:10.0.0.5  Bcast:10.0.0.255  Mask:255.255.255.0
          UP BROADCAST RUNNING MULTICAST  MTU:1500  Metric:1
          RX packets:%s errors:0 dropped:%s overruns:0 frame:0
          TX packets:76 errors:0 dropped:0 overruns:0 carrier:0
          collisions:0 txqueuelen:1000
          RX bytes:50728 (49.5 KiB)  TX bytes:10138 (9.9 KiB)
`

func ifconfigWith(rx, dropped string) string {
	return strings.Replace(strings.Replace(ifconfigRX, "%s", rx, 1), "%s", dropped, 1)
}

// One ifconfig reading with software drops (corpus 780: 99 of 164, read once the
// quoted-printable mail is decoded) beside an RX ring below its maximum with no frame lost:
// both are info (since boot, no rate), and the drops measured lead the story, not the
// setting that lost nothing. A wrapped counter (e1000's 4294967289 after a resume, corpus
// 778) is no count of drops.
func TestRxDroppedSinceBootShare(t *testing.T) {
	ring := "\n# ethtool -g eth0\nRing parameters for eth0:\nPre-set maximums:\nRX:             4096\nRX Mini:        0\nRX Jumbo:       0\nTX:             4096\n" +
		"Current hardware settings:\nRX:             1024\nRX Mini:        0\nRX Jumbo:       0\nTX:             128\n"
	d, root := rootOf(t, ifconfigWith("164", "99")+ring)
	f := findingOf(d, "rx-dropped-software")
	if f == nil || f.Severity != Info || root != "rx-dropped-software" || findingOf(d, "nic-ring-below-max") == nil {
		t.Fatalf("rx-dropped-software %+v, root %q", f, root)
	}
	// Counter-case: with lost frames the ring below its maximum is the warning and leads.
	_, root = rootOf(t, strings.Replace(ifconfigWith("164", "99"), "overruns:0 frame:0", "overruns:40 frame:0", 1)+ring)
	if root != "nic-ring-below-max" && root != "nic-rx-overruns" {
		t.Errorf("root %q with overruns, want a ring finding", root)
	}
	d, _ = rootOf(t, ifconfigWith("8812004", "912"))
	if f := findingOf(d, "rx-dropped-software"); f == nil || f.Severity != Info {
		t.Errorf("a 0.01%% trickle: %+v, want info", f)
	}
	d, _ = rootOf(t, ifconfigWith("83", "4294967289"))
	if f := findingOf(d, "rx-dropped-software"); f != nil {
		t.Errorf("wrapped rx_dropped judged: %+v", f)
	}
	if c := checkOf(d, "rx-dropped-software"); c == nil || c.Status != StatusNotChecked || !strings.Contains(c.Why, "wrapped") {
		t.Errorf("check %+v, want not checked: wrapped", c)
	}
}

// A request that may use only ZONE_DMA32 fails while the dump's summary shows most of memory
// free and the dump lists no zone it may use: the restricted zone was short or empty, not
// memory as a whole (corpus 781: RISC-V with DRAM above 4 GiB, order 7 GFP_KERNEL|GFP_DMA32;
// before, alloc-fail-fragmented).
func TestZoneRestrictedWithPlentyFree(t *testing.T) {
	head := `[    0.191524] swapper/0: page allocation failure: order:7, mode:0xcc4(GFP_KERNEL|GFP_DMA32), nodemask=(null)
[    0.191546] CPU: 0 PID: 1 Comm: swapper/0 Not tainted 6.11.0 #2
[    0.191556] Call Trace:
[    0.191589] [<ffffffff801a8eec>] warn_alloc+0xf4/0x180
[    0.191598] [<ffffffff801a98e8>] __alloc_pages_noprof+0x970/0xd94
[    0.191709] Mem-Info:
[    0.191714] active_anon:0 inactive_anon:0 isolated_anon:0
[    0.191714]  active_file:0 inactive_file:0 isolated_file:0
[    0.191714]  unevictable:0 dirty:0 writeback:0
[    0.191714]  slab_reclaimable:26 slab_unreclaimable:742
[    0.191714]  mapped:0 shmem:0 pagetables:65
[    0.191714]  free:%s free_pcp:0 free_cma:0
[    0.191730] 1048576 pages RAM
[    0.191733] 0 pages HighMem/MovableOnly
[    0.191735] 30264 pages reserved
`
	_, root := rootOf(t, strings.Replace(head, "%s", "1014355", 1))
	if root != "alloc-fail-zone-restricted" {
		t.Errorf("root %q, want alloc-fail-zone-restricted", root)
	}
	// Counter-cases: little free memory leaves the cause open as before (fragmentation
	// inferred), and a mode free to use Normal is never zone-restricted.
	_, root = rootOf(t, strings.Replace(head, "%s", "20000", 1))
	if root == "alloc-fail-zone-restricted" {
		t.Errorf("zone-restricted with 2%% of memory free")
	}
	_, root = rootOf(t, strings.Replace(strings.Replace(head, "%s", "1014355", 1), "mode:0xcc4(GFP_KERNEL|GFP_DMA32)", "mode:0xcc0(GFP_KERNEL)", 1))
	if root == "alloc-fail-zone-restricted" {
		t.Errorf("zone-restricted for GFP_KERNEL")
	}
}

// A zone below min while kswapd runs flat out is allocation outpacing kswapd: kswapd leads
// the story, the zone is its effect (corpus 775: kswapd at 100% stated, a tiny Normal zone
// free 7 below min 18; before, two separate problems with the zone first).
func TestKswapdSaturatedExplainsZoneBelowMin(t *testing.T) {
	const zone = `Node 0, zone   Normal
  pages free     7
        min      18
        low      22
        high     27
        scanned  0
        spanned  4096
        present  4096
        managed  3000
`
	d, root := rootOf(t, "While copying large files kswapd0 easily consumes 100% CPU until the file is deleted.\n\n"+zone)
	if root != "kswapd-saturated" || findingOf(d, "zone-reserve-low") == nil {
		t.Errorf("root %q, want kswapd-saturated over zone-reserve-low (findings %d)", root, len(d.Findings))
	}
	// Counter-case: the zone alone is still its own root.
	if _, root := rootOf(t, zone); root != "zone-reserve-low" {
		t.Errorf("zone alone: root %q", root)
	}
}
