package diagnose

import (
	"testing"

	"headroom/model"
)

// The classes of held-out batch g18 (corpus 653-672), on the rules' side: each test failed
// before its change.

// The conntrack table said to have filled, with no count, maximum, statistics or kernel line
// (corpus 668): a warning that says the share is not known. Before: not checked.
func TestConntrackFullStated(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 4 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedConntrackFull: 1}
	f := mustFire(t, run(t, "conntrack-full", tl), Warning)
	if !evidenceHas(f, "conntrack table full", "stated by the author") {
		t.Errorf("finding %+v", f)
	}
	// The kernel's line beside it is judged as the line.
	tl.Log = model.NewLog([]model.LogRecord{model.LogRecord{Message: "nf_conntrack: table full, dropping packet"}.WithSource("line 2")})
	mustFire(t, run(t, "conntrack-full", tl), Critical)
	mustNotCheck(t, run(t, "conntrack-full", timeline(1)), "nf_conntrack")
}
