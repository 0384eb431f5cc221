package diagnose

import (
	"strings"
	"testing"
)

// fix54b: slab-unreclaimable-growth on three forms of pasted text, each on a minimal snippet
// written for the class; every fire case failed before its change.
//
// Two /proc/meminfo dumps of two machines in one text (different MemTotal, an explainer's
// "another example"): each is judged by its own memory, so a 32-bit HighMem dump's Slab
// against its LowTotal is not hidden by a later 64-bit dump's small SUnreclaim, nor that
// SUnreclaim judged against the first dump's lowmem. Counter-cases: the same two dumps with
// the problem dump's slab small, and one machine's dumps (same MemTotal) stay one series.
func TestFix54bSlabMachines(t *testing.T) {
	old := func(slabKB string) string {
		return "Example output:\n\n# cat /proc/meminfo\nMemTotal: 16344972 kB\nMemFree: 13634064 kB\nBuffers: 3656 kB\nCached: 1195708 kB\n" +
			"HighTotal: 15597528 kB\nHighFree: 13629632 kB\nLowTotal: 747444 kB\nLowFree: 4432 kB\nSwapTotal: 0 kB\nSwapFree: 0 kB\n" +
			"Slab: " + slabKB + " kB\nCommitted_AS: 1576424 kB\nPageTables: 24448 kB\n"
	}
	const other = "\nAnother example:\n\n$ cat /proc/meminfo\nMemTotal: 16464260 kB\nMemFree: 5206868 kB\nBuffers: 17980 kB\nCached: 7395552 kB\n" +
		"SwapTotal: 2096476 kB\nSwapFree: 1264996 kB\nSlab: 956820 kB\nSReclaimable: 884568 kB\nSUnreclaim: 72252 kB\nCommitLimit: 10328604 kB\n"
	f := mustFire(t, run(t, "slab-unreclaimable-growth", parseText19b(t, old("684068")+other)), Info)
	if !evidenceHas(f, "share of lowmem", "92% of") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	r := run(t, "slab-unreclaimable-growth", parseText19b(t, old("60000")+other))
	mustBeHealthy(t, r)
	if !strings.Contains(r.Checked, "another machine's dump") {
		t.Errorf("healthy message %q does not name the second machine", r.Checked)
	}
	// One machine: the same MemTotal twice is no split (and the later SUnreclaim is read).
	const same = "MemTotal: 8000000 kB\nSlab: 300000 kB\nSReclaimable: 100000 kB\nSUnreclaim: 200000 kB\n\nlater:\n\nMemTotal: 8000000 kB\nSlab: 3100000 kB\nSReclaimable: 100000 kB\nSUnreclaim: 3000000 kB\n"
	tl := parseText19b(t, same)
	if slabMachines(tl) != nil {
		t.Errorf("one MemTotal split into machines")
	}
	mustFire(t, run(t, "slab-unreclaimable-growth", tl), Critical)
}

// A meminfo excerpt that kept Slab and SReclaimable but not SUnreclaim (a grep of
// 'Slab\|SReclaimable'): the unreclaimable part is Slab − SReclaimable (fs/proc/meminfo.c
// prints Slab as their sum since 2.6.19). Counter-cases: mostly reclaimable slab is healthy,
// and a pre-2.6.19 Slab alone on a 64-bit host is not read as unreclaimable.
func TestFix54bSlabDerivedSUnreclaim(t *testing.T) {
	const free = "             total       used       free     shared    buffers     cached\n" +
		"Mem:     132178760  105858612   26320148   11323556     720948   35920948\nSwap:      4200444        232    4200212\n"
	f := mustFire(t, run(t, "slab-unreclaimable-growth", parseText19b(t, free+"Cached:         34183672 kB\nSlab:           67326708 kB\nSReclaimable:    1737252 kB\n")), Critical)
	if !evidenceHas(f, "Slab − SReclaimable", "62.6 GiB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	mustBeHealthy(t, run(t, "slab-unreclaimable-growth", parseText19b(t, free+"Cached:         34183672 kB\nSlab:           67326708 kB\nSReclaimable:   66000000 kB\n")))
	r := run(t, "slab-unreclaimable-growth", parseText19b(t, free+"Cached:         34183672 kB\nSlab:           67326708 kB\n"))
	if len(r.Findings) > 0 {
		t.Errorf("Slab alone fired: %+v", r.Findings)
	}
}

// An OOM report's "Unreclaimable slab info" table lists only caches without
// SLAB_RECLAIM_ACCOUNT (dump_unreclaimable_slab), so all its rows count, not only kmalloc's;
// rows cut to a name and one size under the heading are read. Counter-cases: the same rows
// in a slabtop table count kmalloc only, and the cut rows without the heading are no table.
func TestFix54bOOMSlabInfoAllUnreclaimable(t *testing.T) {
	const mem = "MemTotal:       32505856 kB\n\n"
	f := mustFire(t, run(t, "slab-unreclaimable-growth", parseText19b(t, mem+"Unreclaimable slab info:\nskbuff_small_head   22075675KB\nskbuff_head_cache    8027700KB\n")), Critical)
	if !evidenceHas(f, "no shrinker", "skbuff_small_head") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	mustFire(t, run(t, "slab-unreclaimable-growth", parseText19b(t, mem+"Unreclaimable slab info:\nName                      Used          Total\nskbuff_small_head   22075675KB  22075700KB\nkmalloc-64             2048KB       2100KB\n")), Critical)
	tl := parseText19b(t, mem+"skbuff_small_head   22075675KB\nskbuff_head_cache    8027700KB\n")
	if len(tl.SlabTables) != 0 {
		t.Errorf("cut rows without the heading read as a table: %+v", tl.SlabTables)
	}
	const slabtop = " Active / Total Objects (% used)    : 4123478 / 4124013 (100.0%)\n\n" +
		"  OBJS ACTIVE  USE OBJ SIZE  SLABS OBJ/SLAB CACHE SIZE NAME\n" +
		"3000000 3000000 100%    1.00K 375000        8   3000000K skbuff_head_cache\n" +
		"  1024   1000  97%    0.06K     16       64        64K kmalloc-64\n"
	tl = parseText19b(t, mem+slabtop)
	if len(tl.SlabTables) == 0 {
		t.Fatalf("slabtop table not read")
	}
	if tl.SlabTables[0].Unreclaimable {
		t.Errorf("a slabtop table marked as listing unreclaimable caches only")
	}
}
