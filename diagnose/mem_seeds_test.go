package diagnose

import (
	"strconv"
	"strings"
	"testing"
)

// The memory rules on the seed reports, read through artifact.Parse as `headroom doctor
// FILE` reads them.

// The memory rules stay quiet on this CI host (captured idle): nothing at warning or
// critical, and every rule either healthy or "not checked" with a reason.
func TestMemRulesQuietOnIdleHost(t *testing.T) {
	tl := memHostFixture(t)
	d := Run(tl, nil)
	if bad := findingsBySeverity(d, FamilyMemory, Warning); len(bad) > 0 {
		for _, f := range bad {
			t.Errorf("%s %v: %s %+v", f.ID, f.Severity, f.Title, f.Evidence)
		}
	}
	for _, c := range d.Checks {
		r, _ := Lookup(c.ID)
		if r.Family != FamilyMemory {
			continue
		}
		if c.Status == StatusNotChecked && strings.Contains(c.Why, "rule failed") {
			t.Errorf("%s panicked: %s", c.ID, c.Why)
		}
		t.Logf("%-28s %-11s %s", c.ID, c.Status, c.Why)
	}
	// What this host does have must be checked, not skipped.
	for _, id := range []string{"memory-fragmented", "compaction-failing", "direct-reclaim-stalls", "swap-under-load", "overcommit-exposed", "tlb-shootdown-storm", "kernel-known-limits", "slab-unreclaimable-growth"} {
		mustBeHealthy(t, run(t, id, tl))
	}
	mustNotCheck(t, run(t, "min-free-too-low", tl), "NIC speed")
}

// Seed 004: lowmem failures (Normal free 12248 kB below min 32768 kB, HighMem 8 GB out of
// reach), swapping at up to 111780 KiB/s, the buddyinfo series read as splitting rather than
// fragmentation, and overcommit not checked for want of Committed_AS.
func TestMemSeed004(t *testing.T) {
	_, d := memSeed(t, "004_acd4bf0469cc77db.txt")
	f := memFinding(t, d, classLowmem)
	if f.Severity != Critical || !evidenceHas(f, "zone Normal", "free 12248 kB, min 32768 kB") || !evidenceHas(f, "zone HighMem", "present 8257536 kB") {
		t.Errorf("lowmem finding: %v %+v", f.Severity, f.Evidence)
	}
	if _, ok := changeFor(f, "net.ipv4.tcp_mem"); !ok {
		t.Errorf("no tcp_mem change: %+v", f.Changes)
	}
	// "2 × 1Gbps (bonded)" gives the link: plan's 30583 kB is below the 65536 the slides set,
	// so no change lowers it (advice never harms).
	if c, ok := changeFor(f, "vm.min_free_kbytes"); ok && !strings.Contains(c.Recommended, "plan") {
		if v, err := strconv.ParseInt(c.Recommended, 10, 64); err == nil && v < 65536 {
			t.Errorf("min_free change lowers the reserve: %+v", c)
		}
	}
	if memCheck(d, classReserve).Status != StatusOK {
		t.Errorf("reserve should defer to lowmem: %+v", memCheck(d, classReserve))
	}

	s := memFinding(t, d, "swap-under-load")
	if !evidenceHas(s, "swap in + out", "peak 111780 KiB/s") || !strings.Contains(s.Explanation, "HighMem") {
		t.Errorf("swap finding: %+v %s", s.Evidence, s.Explanation)
	}
	// At the swap peak the vmstat row shows 153 MiB of buffers and cache on an 8 GiB host:
	// nothing left to reclaim instead, so no swappiness change.
	if !evidenceHas(s, "page cache at the peak", "Buffers+Cached 156524 kB, 1.9% of 8310800 kB RAM") {
		t.Errorf("swap finding: %+v", s.Evidence)
	}
	if _, ok := changeFor(s, "vm.swappiness"); ok {
		t.Errorf("swap finding recommends swappiness with no page cache left: %+v", s.Changes)
	}

	frag := memCheck(d, "memory-fragmented")
	if frag.Status != StatusOK || !strings.Contains(frag.Why, "240→63→30→0") {
		t.Errorf("memory-fragmented: %+v", frag)
	}
	oc := memCheck(d, "overcommit-exposed")
	if oc.Status != StatusNotChecked || !strings.Contains(oc.Why, "Committed_AS") || !strings.Contains(oc.Why, "vm.overcommit_memory 2") {
		t.Errorf("overcommit-exposed: %+v", oc)
	}
	if f := memFinding(t, d, "kernel-known-limits"); !evidenceHas(f, "word size", "HighMem") {
		t.Errorf("kernel-known-limits: %+v", f.Evidence)
	}
}
