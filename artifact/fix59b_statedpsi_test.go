package artifact

import (
	"testing"

	"headroom/model"
)

func TestFix59bStatedMemPSI(t *testing.T) {
	for text, want := range map[string]float64{
		"Under a burst demand workload the guest experienced 97% PSI memory stall, 176,000+ swap pages written, and near-OOM conditions.\n": 97,
		"During the build memory PSI some avg10 reached 45% on the runner.\n":                                                               45,
	} {
		if v := statedRate(t, text, model.RateStatedMemPSIPct); v != want {
			t.Errorf("%q: %v, want %v", text, v, want)
		}
	}
}

func TestFix59bStatedMemPSICounterCases(t *testing.T) {
	for _, text := range []string{
		"Configure systemd-oomd to act when memory PSI exceeds 20% for 30 seconds.\n",
		"If memory PSI reaches 60% the box would be unusable.\n",
		"PSI memory is not at 90% here; it stays near zero.\n",
		"Our CPU PSI was 40% during the run.\n",
	} {
		if v := statedRate(t, text, model.RateStatedMemPSIPct); v != 0 {
			t.Errorf("%q: stated memory PSI %v, want none", text, v)
		}
	}
}
