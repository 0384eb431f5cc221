package diagnose

import (
	"testing"

	"headroom/kernel"
)

// A drop rate that would be critical on a quiet host is a warning when it is a tiny share of
// the traffic the same window carried; with the traffic counter unread the rate decides.
func TestDropShareFloor(t *testing.T) {
	t.Run("rcvq: 1 M segments/s, 2 drops/s is a warning", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPRcvQDrop", 10+2*i), group("Tcp", "InSegs", 5000000+1000000*i)}
		}
		f := mustFire(t, run(t, "rcvq-pruning", tl), Warning)
		if !evidenceHas(f, "Tcp InSegs", "0.0002% (4 of 2000000)") || !evidenceHas(f, "Tcp InSegs", "below the 0.10%") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("rcvq: 600 segments/s, 3 drops/s stays critical", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPRcvQDrop", 10+3*i), group("Tcp", "InSegs", 5000+600*i)}
		}
		f := mustFire(t, run(t, "rcvq-pruning", tl), Critical)
		if evidenceHas(f, "Tcp InSegs", "below") {
			t.Errorf("a 0.5%% share is not below the floor: %+v", f.Evidence)
		}
	})
	t.Run("rcvq: InSegs read once only: the rate decides", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "TCPRcvQDrop", 10+2*i)}
		}
		tl.Samples[2].NetStat = append(tl.Samples[2].NetStat, group("Tcp", "InSegs", 99999999))
		mustFire(t, run(t, "rcvq-pruning", tl), Critical)
	})
	t.Run("listen: 50 k handshakes/s, 2 overflows/s is a warning", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 2*i, "ListenDrops", 2*i), group("Tcp", "PassiveOpens", 100000+50000*i)}
		}
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		if !evidenceHas(f, "PassiveOpens + ListenOverflows", "0.004% (4 of 100004)") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("listen: 100 handshakes/s, 2 overflows/s stays critical", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "ListenOverflows", 2*i, "ListenDrops", 2*i), group("Tcp", "PassiveOpens", 1000+100*i)}
		}
		mustFire(t, run(t, "listen-overflow", tl), Critical)
	})
}
