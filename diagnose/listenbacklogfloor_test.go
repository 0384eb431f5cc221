package diagnose

import (
	"testing"

	"headroom/kernel"
)

// fix32c (corpus 2790): a listener whose accept queue is full at a backlog ss shows as 80000
// says net.core.somaxconn is already at least 80000 (Send-Q is min(backlog, somaxconn)), so
// raising it to 4096 is no fix. Counter-case: a full queue at a backlog of 128 still gets
// the longer ceiling.
func TestFix32cNoSomaxconnBelowShownBacklog(t *testing.T) {
	for _, c := range []struct {
		backlog int64
		change  bool
	}{{80000, false}, {4096, false}, {128, true}} {
		tl := timeline(1)
		tl.Samples[0].SocketList = []kernel.Socket{
			{State: "LISTEN", Local: "0.0.0.0:443", Remote: "0.0.0.0:*", SendQ: c.backlog},
			{State: "LISTEN", Local: "0.0.0.0:443", SendQ: c.backlog, RecvQ: c.backlog + 1},
		}
		f := mustFire(t, run(t, "listen-overflow", tl), Warning)
		has := false
		for _, ch := range f.Changes {
			if ch.Key == "net.core.somaxconn" {
				has = true
			}
		}
		if has != c.change {
			t.Errorf("backlog %d: somaxconn change %v, want %v (%+v)", c.backlog, has, c.change, f.Changes)
		}
	}
}
