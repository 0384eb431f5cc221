package diagnose

import (
	"testing"

	"headroom/model"
)

// udp-rcvbuf-errors reads the drops a text states without the counters: netdata's alarm with
// its count (corpus 560), the alarm named alone (561). Before: not checked ("no Udp
// RcvbufErrors/SndbufErrors").
func TestUDPRcvbufStated(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].Source = "line 3 (stated in the text)"
	tl.Samples[0].Rates = model.Rates{model.RateStatedUDPRcvbufAlarm: 23650, model.RateStatedUDPRcvbufPerSec: 700}
	f := mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	if !evidenceHas(f, "1m_ipv4_udp_receive_buffer_errors", "23650 in the last minute") || !evidenceHas(f, "rate", "700/s") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.Samples[0].Rates = model.Rates{model.RateStatedUDPRcvbufAlarm: 1}
	f = mustFire(t, run(t, "udp-rcvbuf-errors", tl), Warning)
	if !evidenceHas(f, "alarm", "the alarm fired") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	mustNotCheck(t, run(t, "udp-rcvbuf-errors", timeline(1)), "RcvbufErrors")
}
