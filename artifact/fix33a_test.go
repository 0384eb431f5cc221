package artifact

import (
	"testing"

	"headroom/model"
)

// fix33a (corpus 2853): "eventually" in a past clause ("was eventually killed by the kernel
// OOM killer") states an event, no prediction. Counter-cases: the future, a condition, a
// modal.
func TestFix33aPastEventually(t *testing.T) {
	for _, c := range []struct {
		text string
		want float64
	}{
		{"`cosmic-launcher` grew to **~17 GB RSS / ~32 GB virtual** over a normal workday session and was eventually killed by the kernel OOM killer.\n", 1},
		{"The launcher grew to ~17 GB RSS and eventually got killed by the OOM killer.\n", 1},
		// Counter-cases.
		{"Our worker will eventually be killed by the OOM killer.\n", 0},
		{"If it was eventually killed by the OOM killer, dmesg shows it.\n", 0},
		{"It would be eventually killed by the OOM killer.\n", 0},
	} {
		if got := statedRate(t, c.text, model.RateStatedOOM); got != c.want {
			t.Errorf("stated OOM %v, want %v: %q", got, c.want, c.text)
		}
	}
}
