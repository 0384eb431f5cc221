package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestKernelKnownLimits(t *testing.T) {
	t.Run("2.6.30 ARM", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Host.Kernel = "2.6.30-1"
		tl.Host.Arch = "armv5tel"
		f := mustFire(t, run(t, "kernel-known-limits", tl), Info)
		for _, want := range []string{"memory compaction", "watermark_scale_factor", "watermark_boost_factor", "pressure stall", "drop reasons"} {
			found := false
			for _, e := range f.Evidence {
				if strings.Contains(e.What, want) {
					found = true
				}
			}
			if !found {
				t.Errorf("no fact %q: %+v", want, f.Evidence)
			}
		}
		if evidenceHas(f, "batched TLB", "") {
			t.Errorf("x86-only fact on ARM: %+v", f.Evidence)
		}
	})
	// Before 4.6 only min_free_kbytes moves the low watermark; 2.4 has not even that
	// (kernel.SysctlExists), and the fact must not name it as the way out there.
	for _, c := range []struct{ rel, want, not string }{
		{"3.10.0", "only vm.min_free_kbytes moves", "no vm.min_free_kbytes either"},
		{"2.4.20", "no vm.min_free_kbytes either", "only vm.min_free_kbytes moves"},
	} {
		t.Run("watermark fact on "+c.rel, func(t *testing.T) {
			tl := memTextTimeline()
			tl.Host.Kernel = c.rel
			tl.Host.Arch = "x86_64"
			f := mustFire(t, run(t, "kernel-known-limits", tl), Info)
			if !evidenceHas(f, "watermark_scale_factor", c.want) || evidenceHas(f, "watermark_scale_factor", c.not) {
				t.Errorf("kernel %s: want %q, not %q: %+v", c.rel, c.want, c.not, f.Evidence)
			}
		})
	}
	t.Run("seed 004 highmem", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Events = []model.Event{memAllocEvent(40, "java", 0, "0x20", []string{"__GFP_HIGH"}, memBool(true), "2.6.13-2smp", memSeed004Zones())}
		f := mustFire(t, run(t, "kernel-known-limits", tl), Info)
		if !evidenceHas(f, "word size", "HighMem") || !evidenceHas(f, "kernel", "2.6.13-2smp") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Host.Kernel = "6.18.44-fc-v669"
		tl.Host.Arch = "x86_64"
		mustBeHealthy(t, run(t, "kernel-known-limits", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "kernel-known-limits", memTextTimeline()), "kernel version")
	})
}

// Seed 000: "afpd: page allocation failure. order:2, mode:0x20" on 2.6.30 ARM, no dump. All
// failures are of order 2 and none of order 0; the text states the outcome ("After changing
// it to 20000 (~20MB), the problem went away"), which on a kernel before 4.4 fits
// fragmentation as well as the reserve (a larger min_free_kbytes raises the order check's bar
// and sizes MIGRATE_RESERVE), so the order decides: fragmentation, inferred, with the outcome
// cited and a min_free_kbytes change (fix54d; issue 29 had let the outcome decide the reserve).
func TestMemSeed000(t *testing.T) {
	_, d := memSeed(t, "000_f481d10e6cc28585.txt")
	f := memFinding(t, d, classFragmented)
	if !strings.HasPrefix(f.Title, "inferred: ") {
		t.Errorf("title %q: without a dump the cause is inferred", f.Title)
	}
	if !evidenceHas(f, "the author's outcome", "raised to 20000") {
		t.Errorf("the outcome is not cited: %s %+v", f.Explanation, f.Evidence)
	}
	if !strings.Contains(f.Explanation, "fits fragmentation as well as a short reserve") {
		t.Errorf("the explanation should say why the outcome does not decide: %s", f.Explanation)
	}
	if !evidenceHas(f, "page allocation failures", "afpd") || !evidenceHas(f, "page allocation failures", "order 2, mode 0x20") {
		t.Errorf("evidence does not cite the pasted line: %+v", f.Evidence)
	}
	if !evidenceHas(f, "GFP mode", "atomic (no direct reclaim)") {
		t.Errorf("mode evidence: %+v", f.Evidence)
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

// A release string without the architecture or word size: the 32-bit lowmem limit was not
// read, so the healthy text must say so instead of implying a 64-bit host.
func TestKernelKnownLimitsWordSizeUnknown(t *testing.T) {
	tl := timeline(0)
	tl.Host.Kernel = "6.1.0"
	mustBeHealthyNaming(t, run(t, "kernel-known-limits", tl), "word size")
}
