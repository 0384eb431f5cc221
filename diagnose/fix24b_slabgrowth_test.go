package diagnose

import (
	"testing"
)

// slab-unreclaimable-growth from slab growth stated in sentences (fix24b): the growth is
// judged as a series of SUnreclaim is (+16 MiB and +10%; with the memory size, 10% of it a
// day), and a stated leak that fills half the memory a day explains a stated OOM.
func TestFix24bStatedSlabGrowthRule(t *testing.T) {
	fire := map[string]string{
		"reached, small box": "The device has 405 MB RAM, no swap.\n\nKernel slab (unreclaimable) grows to 33 MB within 80 minutes of a fresh boot.\n",
		"rate":               "I see a leak of 'kmalloc-2048' slabs on wlan0. It runs at about 200k/minute.\n",
		"objects":            "I read `grep ip_dst_cache /proc/slabinfo` every 5 minutes.\n\nAfter collecting the data for 8 hours, the number of cached route objects increase from about 220,000 objects to 410,000 objects.\n",
		"from-to":            "On our gateway SUnreclaim grew from 1.2 GB to 3.5 GB in 6 hours.\n",
	}
	for name, text := range fire {
		mustFire(t, run(t, "slab-unreclaimable-growth", parseText19b(t, text)), Warning)
		_ = name
	}
	healthy := map[string]string{
		// 33 MB reached in 80 minutes is an idle boot on a 64 GB server (well under 10% a day)
		"reached, large box": "The server has 64 GB RAM.\n\nKernel slab (unreclaimable) grows to 33 MB within 80 minutes of a fresh boot.\n",
		"small objects":      "I read /proc/slabinfo hourly. The dentry objects increase from 20,000 objects to 21,000 objects in 8 hours.\n",
		"small from-to":      "SUnreclaim grew from 100 MB to 104 MB in 6 hours.\n",
	}
	for name, text := range healthy {
		res := run(t, "slab-unreclaimable-growth", parseText19b(t, text))
		if len(res.Findings) > 0 {
			t.Errorf("%s: fired: %+v", name, res.Findings[0].Evidence)
		}
	}
	notRead := map[string]string{
		"size only": "Kernel slab (unreclaimable) is 33 MB on a 405 MB device.\n",
		"advice":    "You should alert when SUnreclaim grows from 1 GB to 2 GB in an hour.\n",
		"other":     "On my other router SUnreclaim grew from 100 MB to 300 MB in 6 hours.\n",
	}
	for name, text := range notRead {
		if res := run(t, "slab-unreclaimable-growth", parseText19b(t, text)); res.NotChecked == "" {
			t.Errorf("%s: checked (%s %+v), want not checked", name, res.Checked, res.Findings)
		}
	}
}

// The edge: a stated slab leak of half the memory a day or more is the cause of a stated
// OOM; of a memory cgroup's OOM it is not, and a slow one is no cause.
func TestFix24bSlabLeakFillsEdge(t *testing.T) {
	oom := &Finding{ID: "oom-kill", Facts: Facts{OOM: OOMUndecided}}
	fast := &Finding{ID: "slab-unreclaimable-growth", Facts: Facts{Memory: MemoryAll, DayGrowthShare: 1.47}}
	slow := &Finding{ID: "slab-unreclaimable-growth", Facts: Facts{Memory: MemoryAll, DayGrowthShare: 0.12}}
	if _, ok := slabLeakFills(fast, oom); !ok {
		t.Error("fast leak does not explain the stated OOM")
	}
	if _, ok := slabLeakFills(slow, oom); ok {
		t.Error("slow leak explains the OOM")
	}
	if _, ok := slabLeakFills(fast, &Finding{ID: "oom-kill", Facts: Facts{OOM: OOMCgroup}}); ok {
		t.Error("host slab leak explains a memory cgroup's OOM")
	}
}
