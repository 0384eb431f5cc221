package contention

import (
	"strings"
	"testing"
)

func TestSteal(t *testing.T) {
	m := Meter{start: []int64{100, 0, 50, 800, 0, 0, 0, 50}}
	if _, ok := (Meter{}).Steal(); ok {
		t.Error("a Meter without a start measured steal")
	}
	now := cpuLine()
	if now == nil {
		t.Skip("no /proc/stat here")
	}
	// A start in the future of every counter but steal: the share is computed from the
	// differences, whatever the host did meanwhile.
	m.start = append([]int64(nil), now...)
	if pct, ok := m.Steal(); ok && (pct < 0 || pct > 100) {
		t.Errorf("steal %.1f%% since now", pct)
	}
	m.start[7] -= 1000 // as if 1000 ticks of steal had passed...
	m.start[3] -= 1000 // ...beside 1000 idle ones: 50%
	if pct, ok := m.Steal(); !ok || pct < 49 || pct > 51 {
		t.Errorf("steal %.1f%%, %v; want about 50%%", pct, ok)
	}
	if d, why := m.Disturbed(); !d || why == "" {
		t.Errorf("50%% steal not disturbed: %v %q", d, why)
	}
	m.start = append([]int64(nil), now...)
	m.start[3] -= 100000 // 100000 idle ticks, steal unchanged: quiet
	if d, _ := m.Disturbed(); d {
		t.Error("no steal reported as disturbed")
	}
}

// A failed margin on a disturbed run is a skip that says why.
func TestFailSkipsWhenDisturbed(t *testing.T) {
	now := cpuLine()
	if now == nil {
		t.Skip("no /proc/stat here")
	}
	m := Meter{start: append([]int64(nil), now...)}
	m.start[7] -= 1000
	m.start[3] -= 1000
	var inner *testing.T
	t.Run("margin", func(t *testing.T) {
		inner = t
		m.Fail(t, "measured %d of %d", 76, 100)
	})
	if !inner.Skipped() || inner.Failed() {
		t.Errorf("skipped %v, failed %v; want a skip", inner.Skipped(), inner.Failed())
	}
}

// Other processes' CPU time on this machine disturbs a run as steal does (issue 27: two busy
// loops on 2 vCPUs made a healthy proxy measure 0.69 of its baseline after a flood).
func TestOthers(t *testing.T) {
	now := cpuLine()
	if now == nil {
		t.Skip("no /proc/stat here")
	}
	m := Meter{start: append([]int64(nil), now...), ours: ownTicks()}
	m.start[0] -= 100000 // 100000 user ticks this process did not spend...
	m.start[3] -= 100000 // ...beside as many idle ones: others at 50%
	if pct, ok := m.Others(); !ok || pct < 49 || pct > 51 {
		t.Errorf("others %.1f%%, %v; want about 50%%", pct, ok)
	}
	if d, why := m.Disturbed(); !d || !strings.Contains(why, "other processes used") {
		t.Errorf("others at 50%% not disturbed: %v %q", d, why)
	}
	// The same ticks spent by this process are its own work, not contention.
	m.ours -= 100000
	if pct, _ := m.Others(); pct > 5 {
		t.Errorf("this process's own CPU time counted as others': %.1f%%", pct)
	}
	if d, _ := m.Disturbed(); d {
		t.Error("a run whose CPU time was its own reported as disturbed")
	}
}
