package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestOvercommitExposed(t *testing.T) {
	mk := func(committed, limit, total, swap int) *model.Timeline {
		tl := timeline(1)
		tl.Samples[0].MemInfo = memCounters("MemTotal", total, "SwapTotal", swap, "CommitLimit", limit, "Committed_AS", committed)
		return tl
	}
	t.Run("promises beyond RAM + swap", func(t *testing.T) {
		tl := mk(12<<20, 6<<20, 8<<20, 2<<20)
		tl.Host.Sysctls["vm.overcommit_memory"] = "0"
		f := mustFire(t, run(t, "overcommit-exposed", tl), Warning)
		// (12 GiB − 2 GiB swap) ÷ 8 GiB = 125%: strict mode cannot cover it.
		if c := f.Changes[0]; !strings.Contains(c.Recommended, "vm.overcommit_ratio 125") {
			t.Errorf("change: %+v", c)
		}
	})
	t.Run("above CommitLimit only", func(t *testing.T) {
		tl := mk(7<<20, 6<<20, 8<<20, 2<<20)
		tl.Host.Sysctls["vm.overcommit_memory"] = "0"
		f := mustFire(t, run(t, "overcommit-exposed", tl), Info)
		// (7 − 2) ÷ 8 = 62.5% → 63.
		if c := f.Changes[0]; !strings.Contains(c.Recommended, "vm.overcommit_ratio ≥ 63") {
			t.Errorf("change: %+v", c)
		}
	})
	t.Run("mode unknown is info", func(t *testing.T) {
		mustFire(t, run(t, "overcommit-exposed", mk(12<<20, 6<<20, 8<<20, 2<<20)), Info)
	})
	t.Run("strict mode", func(t *testing.T) {
		tl := mk(5<<20, 6<<20, 8<<20, 2<<20)
		tl.Host.Sysctls["vm.overcommit_memory"] = "2"
		mustBeHealthy(t, run(t, "overcommit-exposed", tl))
	})
	t.Run("healthy", func(t *testing.T) {
		tl := mk(1283844, 12342040, 24684084, 0)
		tl.Host.Sysctls["vm.overcommit_memory"] = "0"
		mustBeHealthy(t, run(t, "overcommit-exposed", tl))
	})
	t.Run("missing, text recommends mode 2", func(t *testing.T) {
		tl := memTextTimeline()
		tl.Settings = []model.SettingMention{{Key: "vm.overcommit_memory", Value: "2", Form: "prose", Line: 620}}
		res := run(t, "overcommit-exposed", tl)
		mustNotCheck(t, res, "Committed_AS")
		if !strings.Contains(res.NotChecked, "2 (prose, line 620") {
			t.Errorf("reason: %s", res.NotChecked)
		}
	})
}
