package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

// 2.6's "Out of socket memory" stands for either of two limits; the numbers beside it decide
// (corpus 478: TCP using 102910 pages of a 6961536-page tcp_mem with 126800 orphans). Before,
// tcp-memory-pressure said "TCP ran into its global memory limit" (critical) on it alone.
func TestOutOfSocketMemoryDecidedBySockstat(t *testing.T) {
	tl := func(mem int) *model.Timeline {
		tl := timeline(1)
		tl.Host.Sysctls["net.ipv4.tcp_mem"] = "3480768 4641024 6961536"
		tl.Samples[0].SockStat = kernel.Groups{group("TCP", "inuse", 174950, "orphan", 126800, "mem", mem)}
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "Out of socket memory"}.WithSource("line 4")})
		return tl
	}
	t.Run("below tcp_mem[2]: the orphan limit", func(t *testing.T) {
		f := mustFire(t, run(t, "orphan-send-queues", tl(102910)), Critical)
		if !evidenceHas(f, "below tcp_mem[2] 6961536", "Out of socket memory") {
			t.Errorf("evidence %+v", f.Evidence)
		}
		mustBeHealthy(t, run(t, "tcp-memory-pressure", tl(102910)))
	})
	t.Run("at tcp_mem[2]: the memory limit", func(t *testing.T) {
		f := mustFire(t, run(t, "tcp-memory-pressure", tl(6961536)), Critical)
		if !evidenceHas(f, "at or above tcp_mem[2]", "Out of socket memory") {
			t.Errorf("evidence %+v", f.Evidence)
		}
	})
	t.Run("no numbers: the message's wording", func(t *testing.T) {
		tl := timeline(0)
		tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "Out of socket memory"}.WithSource("line 1")})
		mustFire(t, run(t, "tcp-memory-pressure", tl), Critical)
	})
}

// SUnreclaim quoted without the memory size (corpus 470: 42964948 kB after 100 days): too
// large for any workload's kernel objects, judged on its own. Before: not checked.
func TestSlabUnreclaimableWithoutMemorySize(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].MemInfo = memCounters("SUnreclaim", 42964948)
	f := mustFire(t, run(t, "slab-unreclaimable-growth", tl), Warning)
	if !evidenceHas(f, "without the memory size", "not known") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	// Below 16 GiB it is no warning: 2 GiB is named as info since g14-g17 (corpus 580,
	// TestSlabUnreclaimableNamedWithoutMemorySize), under 1 GiB not checked.
	tl.Samples[0].MemInfo = memCounters("SUnreclaim", 2<<20)
	mustFire(t, run(t, "slab-unreclaimable-growth", tl), Info)
	tl.Samples[0].MemInfo = memCounters("SUnreclaim", 512<<10)
	mustNotCheck(t, run(t, "slab-unreclaimable-growth", tl), "memory size")
}

// Ring sizes a sentence gives (corpus 495) are cited as the text's, not as ethtool -g's.
func TestStatedRingCitesTheText(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 4 (stated in the text)"
	tl.Samples[0].NICStats = []kernel.NICStats{{Name: "(stated)", Ring: &kernel.Ring{Rx: 512, RxMax: 4096}}}
	f := mustFire(t, run(t, "nic-ring-below-max", tl), Info)
	if f.Evidence[0].Source != "line 4 (stated in the text)" {
		t.Errorf("source %q", f.Evidence[0].Source)
	}
}
