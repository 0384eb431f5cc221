package diagnose

import (
	"strings"
	"testing"

	"headroom/model"
)

// fix39a (corpus 3283): the kubelet's SystemOOM event, read from its message alone, is a kill
// of the whole node's OOM killer: oom-kill, critical, naming the victim and the reporter.
func TestFix39aKubeletSystemOOMIsCritical(t *testing.T) {
	tl := memTextTimeline()
	tl.RuntimeOOMs = []model.RuntimeOOM{{Scope: model.OOMScopeHost, Reporter: "kubelet event SystemOOM", Victim: "php", PID: 27824, Count: 1, Source: "kubelet event message SystemOOM at line 17"}}
	f := mustFire(t, run(t, "oom-kill", tl), Critical)
	if !strings.Contains(f.Title, "host ran out of memory") {
		t.Errorf("title %q", f.Title)
	}
	var ev string
	for _, e := range f.Evidence {
		ev += e.What + " " + e.Value + " " + e.Source + "\n"
	}
	if !strings.Contains(ev, "php (pid 27824)") || !strings.Contains(ev, "kubelet event SystemOOM") {
		t.Errorf("evidence %s", ev)
	}
}
