package diagnose

import (
	"testing"

	"headroom/kernel"
	"headroom/model"
)

func TestRetransmitRate(t *testing.T) {
	tcp := func(tl *model.Timeline, i, retrans, out int) {
		tl.Samples[i].NetStat = kernel.Groups{group("Tcp", "RetransSegs", retrans, "OutSegs", out)}
	}
	t.Run("warning", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 1000, 100000)
		tcp(tl, 1, 1200, 110000)
		f := mustFire(t, run(t, "retransmit-rate", tl), Warning)
		if !evidenceHas(f, "while sampled", "200 / 10000 = 2.0%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("critical", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 0, 0)
		tcp(tl, 1, 600, 10000)
		mustFire(t, run(t, "retransmit-rate", tl), Critical)
	})
	t.Run("since boot in a paste", func(t *testing.T) {
		tl := timeline(1)
		tcp(tl, 0, 3000, 100000)
		f := mustFire(t, run(t, "retransmit-rate", tl), Warning)
		if !evidenceHas(f, "since boot", "3.0%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("healthy: idle host with a high share of few segments", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 0, 5000)
		tcp(tl, 1, 3, 5030) // 10% of 30 segments: too few to judge
		mustBeHealthy(t, run(t, "retransmit-rate", tl))
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		tcp(tl, 0, 10, 100000)
		tcp(tl, 1, 12, 200000)
		mustBeHealthy(t, run(t, "retransmit-rate", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "retransmit-rate", timeline(2)), "RetransSegs")
	})
}
