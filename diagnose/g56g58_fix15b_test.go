package diagnose

import (
	"testing"

	"headroom/model"
)

// udp-rcvbuf-errors reads Udp SndbufErrors and /proc/net/udp's drops said to grow (fix15b):
// a warning (StatedMark: no figure), with the counter named; the receive side is not claimed
// for a send-side statement. Before: not checked.
func TestFix15bUDPStatedSndbufAndSocketDrops(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 4 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedUDPSndbufRising: 1}
	f := mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	if !evidenceHas(f, "SndbufErrors", "no value is given") || evidenceHas(f, "Udp RcvbufErrors", "") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.Samples[0].Rates = model.Rates{model.RateStatedUDPSocketDrops: 1}
	f = mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	if !evidenceHas(f, "/proc/net/udp", "no value is given") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	// counter-case: no statement, no counters
	mustNotCheck(t, run(t, "udp-rcvbuf-errors", timeline(1)), "RcvbufErrors")
}
