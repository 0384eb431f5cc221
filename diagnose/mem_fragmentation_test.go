package diagnose

import (
	"strings"
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestMemoryFragmented(t *testing.T) {
	jumbo := func() *model.Timeline {
		tl := timeline(2)
		memHost64(tl, "6.1.0")
		tl.Host.NICs[0].MTU = 9000
		return tl
	}
	t.Run("jumbo MTU, no order-2 blocks", func(t *testing.T) {
		tl := jumbo()
		for i := range tl.Samples {
			tl.Samples[i].Buddy = []kernel.BuddyZone{buddy("DMA32", 30000, 9000, 0, 0, 0, 0, 0, 0, 0, 0, 0), buddy("Normal", 90000, 20000, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
			tl.Samples[i].Zones = []kernel.Zone{{Node: 0, Name: "DMA32", Fields: counters("high", 6000)}, {Node: 0, Name: "Normal", Fields: counters("high", 20000)}}
		}
		f := mustFire(t, run(t, "memory-fragmented", tl), Critical)
		if !evidenceHas(f, "order needed", "2 (eth0 MTU 9000 → 16384-byte buffers") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
		if c, ok := changeFor(f, "eth0 mtu"); !ok || c.Current != "9000" {
			t.Errorf("changes: %+v", f.Changes)
		}
	})
	t.Run("scarce", func(t *testing.T) {
		tl := jumbo()
		tl.Samples[1].Buddy = []kernel.BuddyZone{buddy("Normal", 90000, 20000, 40, 10, 0, 0, 0, 0, 0, 0, 0)}
		tl.Samples[0].Buddy = tl.Samples[1].Buddy
		f := mustFire(t, run(t, "memory-fragmented", tl), Warning)
		if !strings.Contains(f.Title, "60 available, a ring refill takes 256") {
			t.Errorf("title: %s", f.Title)
		}
	})
	t.Run("free memory low is not fragmentation", func(t *testing.T) {
		tl := jumbo()
		for i := range tl.Samples {
			tl.Samples[i].Buddy = []kernel.BuddyZone{buddy("Normal", 900, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
			tl.Samples[i].Zones = []kernel.Zone{{Node: 0, Name: "Normal", Fields: counters("high", 20000)}}
		}
		res := run(t, "memory-fragmented", tl)
		mustBeHealthy(t, res)
		if !strings.Contains(res.Checked, "a shortage, not fragmentation") {
			t.Errorf("checked: %s", res.Checked)
		}
	})
	t.Run("seed 004 series: order-0 list empties, larger blocks plenty", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Host.NICs = []kernel.NIC{{Name: "eth0", MTU: 1500, SpeedMbps: -1}, {Name: "eth1", MTU: 1500, SpeedMbps: -1}}
		for _, o0 := range []int64{240, 63, 30, 0} {
			tl.Samples = append(tl.Samples, model.Sample{Source: "lines 400-403", Buddy: []kernel.BuddyZone{buddy("Normal", o0, 501, 5078, 4247, 871, 73, 2, 11, 2, 0, 1)}})
		}
		res := run(t, "memory-fragmented", tl)
		mustBeHealthy(t, res)
		for _, want := range []string{"order 0 is all the receive path needs", "240→63→30→0", "4247 of order 3", "not a shortage"} {
			if !strings.Contains(res.Checked, want) {
				t.Errorf("reasoning lacks %q: %s", want, res.Checked)
			}
		}
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "memory-fragmented", timeline(2)), "buddyinfo")
	})
}

func TestCompactionFailing(t *testing.T) {
	t.Run("failing while sampled", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].VMStat = memCounters("compact_stall", 1000+i*50, "compact_fail", 900+i*45, "compact_success", 100+i*5)
		}
		f := mustFire(t, run(t, "compaction-failing", tl), Critical)
		if !evidenceHas(f, "failed while sampled", "90% (90 of 100, 50.0 stalls/s)") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("since boot, hotsos rule", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].VMStat = memCounters("compact_stall", 30000, "compact_fail", 5000, "compact_success", 25000)
		mustFire(t, run(t, "compaction-failing", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].VMStat = memCounters("compact_stall", 0, "compact_fail", 0, "compact_success", 0)
		}
		mustBeHealthy(t, run(t, "compaction-failing", tl))
	})
	t.Run("missing", func(t *testing.T) {
		tl := timeline(2)
		tl.Samples[0].VMStat = memCounters("pgfault", 1)
		mustNotCheck(t, run(t, "compaction-failing", tl), "compact_stall")
	})
}

// A buddyinfo that shows only HighMem (a grep, a 32-bit box's last line): no zone that backs
// receive buffers was read, so neither "a shortage" nor "fragmented" may be said.
func TestMemoryFragmentedOnlyHighMemIsNotChecked(t *testing.T) {
	tl := timeline(1)
	memHost64(tl, "6.1.0")
	tl.Host.NICs[0].MTU = 9000
	tl.Host.Sysctls["vm.min_free_kbytes"] = "67584"
	tl.Samples[0].Buddy = []kernel.BuddyZone{buddy("HighMem", 900, 200, 0, 0, 0, 0, 0, 0, 0, 0, 0)}
	mustNotCheck(t, run(t, "memory-fragmented", tl), "Normal")
	delete(tl.Host.Sysctls, "vm.min_free_kbytes")
	mustNotCheck(t, run(t, "memory-fragmented", tl), "Normal")
}

// compact_stall grew while sampled but compact_fail was read in one sample only: how many of
// the stalls failed was not read, so "mostly succeeded" would be a guess.
func TestCompactionFailingStallsWithoutFailDelta(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].VMStat = memCounters("compact_stall", 100)
	tl.Samples[1].VMStat = memCounters("compact_stall", 400, "compact_fail", 50)
	mustNotCheck(t, run(t, "compaction-failing", tl), "compact_fail was not read")
}
