package diagnose

import (
	"strings"
	"testing"
)

// fix54d: a lone vmstat row (usually the average since boot) cannot clear a host whose top
// snapshot shows its swap substantially used with RAM short; without such a snapshot, or
// with memory available, the lone row stays healthy, and two rows keep the rate rule.
func TestSwapOneSampleDoesNotClear(t *testing.T) {
	const row = "procs -----------memory---------- ---swap-- -----io---- --system-- ----cpu----\nr b swpd free buff cache si so bi bo in cs us sy id wa\n0 110 795604 12328 3980 46676 0 0 0 0 0 0 4 1 95 1\n"
	const topShort = "Mem: 1034784k total, 1021256k used, 13528k free\nSwap: 1023960k total, 635752k used\n"
	f := mustFire(t, run(t, "swap-under-load", pasteTimeline(t, row+"Key indicators:\n"+topShort)), Warning)
	if !evidenceHas(f, "swap-in/out rate", "one sample only") || !evidenceHas(f, "swap used (one snapshot)", "635752 of 1023960 kB") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	if !evidenceHas(f, "swap used (one snapshot)", "is free (the snapshot gives no buffers or cache)") {
		t.Errorf("a top line without buffers or cache gives free memory, not available: %+v", f.Evidence)
	}
	healthy := map[string]string{
		"row alone":        row,
		"swap mostly free": row + "Key indicators:\nMem: 1034784k total, 1021256k used, 13528k free\nSwap: 1023960k total, 35752k used\n",
		"memory available": row + "Key indicators:\nMem: 1034784k total, 521256k used, 513528k free\nSwap: 1023960k total, 635752k used\n",
		// A full swap beside RAM available (corpus 2109's form): old pages parked on disk.
		"swap full, memory available": row + "Key indicators:\nMem: 1034784k total, 521256k used, 513528k free\nSwap: 1023960k total, 1023960k used\n",
		"two rows":                    row + "0 2 795604 12328 3980 46676 0 0 0 0 100 200 4 1 95 0\n" + "Key indicators:\n" + topShort,
	}
	for name, text := range healthy {
		res := run(t, "swap-under-load", pasteTimeline(t, text))
		if len(res.Findings) > 0 {
			t.Errorf("%s: fired %q", name, res.Findings[0].Title)
		} else if !strings.Contains(res.Checked, "peaked at") {
			t.Errorf("%s: %q", name, res.Checked)
		}
	}
}
