package diagnose

import (
	"testing"

	"headroom/model"
)

// listen-overflow from the listen-queue counters said to grow with no figure (fix28d, corpus
// 2383): a warning naming the statement, with no rate and no change. Counter-case: no
// statement and no counters stays not checked.
func TestFix28dListenStatedRising(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 9 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedListenRising: 1}
	f := mustFire(t, run(t, "listen-overflow", tl), Warning)
	if !evidenceHas(f, "ListenOverflows", "no value is given") || len(f.Changes) != 0 {
		t.Errorf("evidence %+v changes %+v", f.Evidence, f.Changes)
	}
	mustNotCheck(t, run(t, "listen-overflow", timeline(1)), "ListenOverflows")
}
