package artifact

import (
	"testing"

	"headroom/model"
)

// Slab growth stated in sentences (fix24b): from one figure to another over a time, a size
// reached within a time, a leak's rate. Counter-cases: a size with no growth, advice, a
// possibility, another machine's, a threshold, a traffic rate beside a slab leak, a from-to
// without a time, objects in a text that names no slab.
func TestFix24bStatedSlabGrowth(t *testing.T) {
	type want struct{ toKB, toObjs, secs float64 }
	for _, c := range []struct {
		text string
		want want
	}{
		// corpus 2083, 2091, 1977 (their own sentences)
		{"1. Kernel slab (unreclaimable) grows to 33 MB within 80 minutes of a fresh boot, on a 405 MB device.\n", want{33 * 1024, 0, 4800}},
		{"I am a leak of 'kmalloc-2048' slabs  when running on a p3 and using ifplugd on wlan0. It runs at about 200k/minute, which means the pi runs out of memory after a day or so.\n", want{200, 0, 60}},
		{"Run `grep ip_dst_cache /proc/slabinfo` every 5 minutes.\n\nAfter collecting the data for 8 hours, I have seen the cached routes count\nremain fairly constant, but the number of cached route objects increase\nfrom about 220,000 objects to 410,000 objects.\n", want{0, 410000, 28800}},
		{"On our gateway SUnreclaim grew from 1.2 GB to 3.5 GB in 6 hours.\n", want{3.5 * 1024 * 1024, 0, 21600}},
		// counter-cases
		{"Kernel slab (unreclaimable) is 33 MB on a 405 MB device.\n", want{}},
		{"If slab grows to 300 MB within 10 minutes, reboot the box.\n", want{}},
		{"You should alert when SUnreclaim grows from 1 GB to 2 GB in an hour.\n", want{}},
		{"On my other machine SUnreclaim grew from 1 GB to 3 GB in 6 hours, but this one is fine.\n", want{}},
		{"SUnreclaim grew from 1.2 GB to 3.5 GB after the upgrade.\n", want{}},
		{"The kmalloc-2048 slab leak is fixed upstream. The download runs at 200k/minute.\n", want{}},
		{"The number of Java heap objects increased from 220,000 objects to 410,000 objects in 8 hours.\n", want{}},
		{"Slab never grew to 300 MB within 80 minutes here.\n", want{}},
		{"> Our SUnreclaim grew from 1 GB to 3 GB in 6 hours.\nThanks, I will look at mine.\nMine is on 5.15 and looks fine.\n", want{}},
		{"The kmalloc-2048 leak: it grows at about 200k per minute.\n", want{200, 0, 60}},
	} {
		got := want{statedRate(t, c.text, model.RateStatedSlabGrowthToKB), statedRate(t, c.text, model.RateStatedSlabGrowthToObjs), statedRate(t, c.text, model.RateStatedSlabGrowthSec)}
		if got != c.want {
			t.Errorf("%q: stated slab growth %+v, want %+v", c.text, got, c.want)
		}
	}
}
