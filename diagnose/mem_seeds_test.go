package diagnose

import (
	"os"
	"strings"
	"testing"

	"headroom/artifact"
	"headroom/model"
)

// The memory rules on the seed reports, read through artifact.Parse as `headroom doctor
// FILE` reads them.

func memSeed(t *testing.T, name string) (*model.Timeline, Diagnosis) {
	t.Helper()
	f, err := os.Open("../testdata/seeds/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tl, err := artifact.Parse(f, name, artifact.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return tl, Run(tl, nil)
}

func memFinding(t *testing.T, d Diagnosis, id string) Finding {
	t.Helper()
	for _, f := range d.Findings {
		if f.ID == id {
			return f
		}
	}
	for _, c := range d.Checks {
		if c.ID == id {
			t.Fatalf("%s did not fire: %s %s", id, c.Status, c.Why)
		}
	}
	t.Fatalf("%s not run", id)
	return Finding{}
}

func memCheck(d Diagnosis, id string) Check {
	for _, c := range d.Checks {
		if c.ID == id {
			return c
		}
	}
	return Check{}
}

// Seed 000: "afpd: page allocation failure. order:2, mode:0x20" on 2.6.30 ARM, no dump. All
// failures are of order 2, none of order 0: fragmentation, inferred and said so, with a
// min_free_kbytes change.
func TestMemSeed000(t *testing.T) {
	_, d := memSeed(t, "000_f481d10e6cc28585.txt")
	f := memFinding(t, d, classFragmented)
	// Without the zone dump the cause is inferred: below critical, said in the title, with
	// what to paste to decide (issue 16, point 5).
	if f.Severity != Warning || !strings.HasPrefix(f.Title, "inferred: ") {
		t.Errorf("severity %v, title %q: want an inferred warning", f.Severity, f.Title)
	}
	if !evidenceHas(f, "to decide the cause", "Mem-Info") {
		t.Errorf("no evidence saying what to paste: %+v", f.Evidence)
	}
	if !evidenceHas(f, "page allocation failures", "afpd") || !evidenceHas(f, "page allocation failures", "order 2, mode 0x20") {
		t.Errorf("evidence does not cite the pasted line: %+v", f.Evidence)
	}
	if !evidenceHas(f, "GFP mode", "atomic (no direct reclaim)") {
		t.Errorf("mode evidence: %+v", f.Evidence)
	}
	for _, want := range []string{"no zone dump", "none of order 0", "MIGRATE_RESERVE"} {
		if !strings.Contains(f.Explanation, want) {
			t.Errorf("explanation lacks %q", want)
		}
	}
	c, ok := changeFor(f, "vm.min_free_kbytes")
	if !ok {
		t.Fatalf("no vm.min_free_kbytes change: %+v", f.Changes)
	}
	// The text sets the misspelt vm.min_kbytes_free=20248: cited, not used as the number.
	if !strings.Contains(c.Why, "20248 (sysctl-w") || !strings.Contains(c.Why, "written vm.min_kbytes_free") {
		t.Errorf("change does not cite the text's values: %+v", c)
	}
	for _, id := range []string{classReserve, classLowmem, classHighOrderAtomic} {
		if memCheck(d, id).Status != StatusOK {
			t.Errorf("%s: %+v", id, memCheck(d, id))
		}
	}
	if f := memFinding(t, d, "kernel-known-limits"); !evidenceHas(f, "kernel", "2.6.30") {
		t.Errorf("kernel-known-limits: %+v", f.Evidence)
	}
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
	if c, ok := changeFor(f, "vm.min_free_kbytes"); !ok || c.Current != "37448" {
		t.Errorf("min_free change: %+v", f.Changes)
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
