package diagnose

import (
	"strings"
	"testing"
)

// A live host's finding whose only evidence is a /proc/vmstat counter (oom_kill since boot)
// is no sentence's: before, weighStated read "no evidence outside the neutral sources" as
// "stated" and doctor on a live host printed "the OOM killer killed processes (stated in the
// text)", demoted to a warning.
func TestWeighStatedNeedsAStatedNumber(t *testing.T) {
	live := Finding{Severity: Critical, Title: "the OOM killer killed processes",
		Evidence: []Evidence{{What: "vmstat oom_kill", Value: "+1 over 3.0 s", Source: "/proc/vmstat"}}}
	weighStated(&live)
	if live.Severity != Critical || strings.Contains(live.Title, StatedMark) {
		t.Errorf("live counter weighed as stated: %v %q", live.Severity, live.Title)
	}
	prose := Finding{Severity: Critical, Title: "kswapd cannot keep up",
		Evidence: []Evidence{{What: "kswapd CPU", Value: "200%", Source: "line 3 (" + StatedMark + ")"},
			{What: "oom_kill", Value: "1", Source: "/proc/vmstat"}}}
	weighStated(&prose)
	if prose.Severity != Warning || !strings.HasSuffix(prose.Title, "("+StatedMark+")") {
		t.Errorf("stated finding not weighed: %v %q", prose.Severity, prose.Title)
	}
}
