package diagnose

import (
	"testing"

	"headroom/model"
)

// The prose classes of the held-out batches g32-g35 (corpus 929-1005), each on a minimal
// timeline written for the class; every test failed before its change.

// A swap rate the author states ("the SSD moves about 20 MB/s in each direction while it
// swaps", corpus 937) is what the swap traffic runs at, not one instant: one stated sample
// is enough for swap-under-load. Counter-cases: one measured sample at the same rate (two
// are needed), and a stated rate below the warning line.
func TestStatedSwapRateIsSustained(t *testing.T) {
	swapTL := func(src string, inKB, outKB float64) *model.Timeline {
		tl := timeline(1)
		tl.Samples[0].Source = src
		tl.Samples[0].Rates = model.Rates{model.RateSwapInKBPerSec: inKB, model.RateSwapOutKBPerSec: outKB}
		return tl
	}
	stated := "line 12 (" + model.StatedMark + ")"
	f := mustFire(t, run(t, "swap-under-load", swapTL(stated, 20480, 20480)), Critical)
	if !evidenceHas(f, "swap in + out", "40.0 MiB/s") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	mustBeHealthy(t, run(t, "swap-under-load", swapTL("/proc", 20480, 20480)))
	mustBeHealthy(t, run(t, "swap-under-load", swapTL(stated, 100, 200)))
}

// An i386 kernel on a host with more memory than x86_32's lowmem (corpus 938: "i386 arch,
// 16+ GB RAM", no kernel version, no zone dump): the kernel saw the memory, so it holds the
// rest in HighMem, a limit of the kernel whatever its version. Counter-cases: the same
// memory on x86_64; an i386 host within lowmem; ARM (another split) is not judged by
// x86_32's figure.
func TestI386LargeMemoryIsHighMem(t *testing.T) {
	host := func(arch string, memKB int64) *model.Timeline {
		tl := timeline(0)
		tl.Host.Arch, tl.Host.MemTotalKB = arch, memKB
		return tl
	}
	f := mustFire(t, run(t, "kernel-known-limits", host("i386", 16<<20)), Info)
	if !evidenceHas(f, "word size", "HighMem") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	for _, tl := range []*model.Timeline{host("x86_64", 16<<20), host("i686", 512<<10), host("armv7l", 16<<20)} {
		mustNotCheck(t, run(t, "kernel-known-limits", tl), "kernel version")
	}
}

// A stated receive drop rate is judged by rx-dropped-software's rate line when no counter is
// read (960): below 10/s healthy, at or above it a warning. Counter-case: no rate, no
// counters, not checked.
func TestStatedRxDropRateJudged(t *testing.T) {
	stated := func(v float64) *model.Timeline {
		tl := timeline(1)
		tl.Samples[0].Source = "line 3 (" + model.StatedMark + ")"
		tl.Samples[0].Rates = model.Rates{model.RateStatedRxDroppedPerSec: v}
		return tl
	}
	mustBeHealthy(t, run(t, "rx-dropped-software", stated(0.00019)))
	mustFire(t, run(t, "rx-dropped-software", stated(40)), Warning)
	mustNotCheck(t, run(t, "rx-dropped-software", timeline(1)), "no interface counters")
}
