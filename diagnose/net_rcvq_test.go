package diagnose

import (
	"testing"

	"headroom/kernel"
)

func TestRcvqPruning(t *testing.T) {
	t.Run("drops rising", func(t *testing.T) {
		tl := timeline(3)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 100+50*i, "RcvPruned", 0, "TCPRcvQDrop", 10+20*i)}
		}
		f := mustFire(t, run(t, "rcvq-pruning", tl), Critical)
		if !evidenceHas(f, "TCPRcvQDrop", "+40 over 2.0 s") || !evidenceHas(f, "PruneCalled", "+100") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("slow drops are a warning", func(t *testing.T) {
		tl := timeline(3)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "TCPOFODrop", 1)}
		tl.Samples[2].NetStat = kernel.Groups{group("TcpExt", "TCPOFODrop", 2)}
		mustFire(t, run(t, "rcvq-pruning", tl), Warning)
	})
	t.Run("seed 004: large Recv-Q on many connections", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].Source = "lines 165-181"
		tl.Samples[0].SocketList = append(sockets("ESTABLISHED", 14, 1897545, 0), sockets("ESTABLISHED", 2, 0, 0)...)
		f := mustFire(t, run(t, "rcvq-pruning", tl), Warning)
		if !evidenceHas(f, "Recv-Q", "14 of 16 connections; largest 1897545 bytes") {
			t.Errorf("evidence: %+v", f.Evidence)
		}
	})
	t.Run("since boot only", func(t *testing.T) {
		tl := timeline(1)
		tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 7, "TCPRcvQDrop", 0)}
		mustFire(t, run(t, "rcvq-pruning", tl), Info)
	})
	t.Run("healthy", func(t *testing.T) {
		tl := timeline(2)
		for i := range tl.Samples {
			tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 0, "RcvPruned", 0, "TCPRcvQDrop", 0, "TCPOFODrop", 0, "TCPBacklogDrop", 0)}
			tl.Samples[i].SocketList = sockets("ESTABLISHED", 5, 4096, 0)
		}
		mustBeHealthy(t, run(t, "rcvq-pruning", tl))
	})
	t.Run("missing", func(t *testing.T) {
		mustNotCheck(t, run(t, "rcvq-pruning", timeline(2)), "TcpExt")
	})
}

// Only PruneCalled: the drop counters (RcvPruned, TCPRcvQDrop, ...) were not read.
func TestRcvqPartialCounters(t *testing.T) {
	tl := timeline(1)
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "PruneCalled", 0)}
	mustBeHealthyNaming(t, run(t, "rcvq-pruning", tl), "RcvPruned", "no pruning or receive-queue drops")
}
