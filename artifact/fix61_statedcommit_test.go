package artifact

import (
	"testing"

	"headroom/model"
)

func TestFix61StatedSarCommit(t *testing.T) {
	for text, want := range map[string]float64{
		"| **换页耗尽** | `sar -S`：8G swap 连着三天贴 98~100%；`%commit` 180~205% | **就是它** |\n": 205,
		"sar -r showed %commit was 143.5% for the whole afternoon.\n":                  143.5,
		"Before the hang %commit reached 96% on the database host.\n":                  96,
	} {
		if v := statedRate(t, text, model.RateStatedCommitPct); v != want {
			t.Errorf("%q: %v, want %v", text, v, want)
		}
	}
}

func TestFix61StatedSarCommitCounterCases(t *testing.T) {
	for _, text := range []string{
		"Alert when %commit exceeds 90% for ten minutes.\n",
		"If %commit reaches 150% the OOM killer will run.\n",
		"The overcommit ratio is 50% by default.\n",
		"kbcommit   %commit  kbactive   kbinact\n",
		"Our commit charge was 180% of RAM.\n",
	} {
		if v := statedRate(t, text, model.RateStatedCommitPct); v != 0 {
			t.Errorf("%q: stated %%commit %v, want none", text, v)
		}
	}
}
