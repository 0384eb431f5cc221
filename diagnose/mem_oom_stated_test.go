package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

func TestFix19aOOMStatedNone(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Rates = model.Rates{model.RateStatedNoOOMKill: 1}
	r := run(t, "oom-kill", tl)
	if len(r.Findings) > 0 || r.NotChecked != "" || !strings.Contains(r.Checked, "author says") {
		t.Errorf("got %+v, want healthy by the author's reading", r)
	}
	// A stated kill beside it still fires: the kill is the statement of an event.
	tl.Samples[0].Rates[model.RateStatedOOM] = 1
	mustFire(t, run(t, "oom-kill", tl), Warning)
	// Nothing stated: not checked.
	if r := run(t, "oom-kill", timeline(1)); r.NotChecked == "" {
		t.Errorf("got %+v, want not checked", r)
	}
}
