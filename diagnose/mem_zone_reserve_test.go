package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func zoneSample(name string, free, min, low, high, managed int) kernel.Zone {
	return kernel.Zone{Node: 0, Name: name, Fields: counters("free", free, "min", min, "low", low, "high", high, "present", managed, "managed", managed)}
}

// Issue 30 item 7: a capture with Normal free 5000 pages against min 11387 was "no current
// problem" for doctor while check reserve-near-min said below min.
func TestZoneReserveLow(t *testing.T) {
	mk := func(free ...int) *model.Timeline {
		tl := timeline(len(free))
		for i, f := range free {
			tl.Samples[i].Zones = []kernel.Zone{
				zoneSample("DMA32", 300000, 2000, 2500, 3000, 400000),
				zoneSample("Normal", f, 11387, 14233, 17079, 6000000),
				zoneSample("Movable", 0, 32, 40, 48, 0), // no memory: never judged
			}
		}
		return tl
	}
	t.Run("below min now", func(t *testing.T) {
		f := mustFire(t, run(t, "zone-reserve-low", mk(5000)), Critical)
		if !evidenceHas(f, "least of its reserve", "node 0 Normal: free 5000 pages") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("lower half of min..low", func(t *testing.T) {
		mustFire(t, run(t, "zone-reserve-low", mk(12000)), Warning)
	})
	t.Run("dipped below min while sampled", func(t *testing.T) {
		f := mustFire(t, run(t, "zone-reserve-low", mk(5000, 100000)), Warning)
		if !evidenceHas(f, "below min while sampled", "1 of 2 readings") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy", func(t *testing.T) {
		mustBeHealthy(t, run(t, "zone-reserve-low", mk(100000)))
	})
	t.Run("no zoneinfo", func(t *testing.T) {
		mustNotCheck(t, run(t, "zone-reserve-low", timeline(1)), "zoneinfo")
	})
	t.Run("only empty zones", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Zones = []kernel.Zone{zoneSample("Movable", 0, 32, 40, 48, 0)}
		mustNotCheck(t, run(t, "zone-reserve-low", tl), "populated zone")
	})
}

// The same judgement from a pasted zoneinfo (issue 30: free 100, min 1000 → "no problem
// found"), through the whole registry.
func TestZoneReserveLowPasted(t *testing.T) {
	tl := pasteTimeline(t, `$ cat /proc/zoneinfo
Node 0, zone   Normal
  pages free     100
        min      1000
        low      1250
        high     1500
        spanned  262144
        present  262144
        managed  250000
`)
	d := Run(tl, nil)
	f := mustHave(t, d, "zone-reserve-low", Critical)
	if len(f) != 1 {
		t.Fatalf("findings: %+v", f)
	}
	if w, _ := d.Worst(); w != Critical {
		t.Errorf("worst %v", w)
	}
}
