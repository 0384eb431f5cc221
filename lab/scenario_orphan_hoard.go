package lab

import (
	"context"
	"errors"
	"fmt"
	"headroom/internal/ctxsleep"
	"headroom/units"
	"os"
	"strconv"
	"sync"
	"time"

	"headroom/kernel"
	"headroom/lab/netlab"
)

// orphan-hoard: seed 004's FIN_WAIT1 rows. A peer (namespace b) accepts connections and
// never reads; senders (namespace a) write until their send buffers are full and close().
// Each socket is then an orphan in FIN_WAIT1: its FIN waits behind the unsent data, the
// peer advertises a zero window and answers every window probe, so the socket keeps its
// send queue. tcp_fin_timeout does not apply (it times FIN_WAIT2); with the defaults the
// probe backoff needs about 5.6 minutes to reach the 120 s RTO cap, after which
// tcp_probe_timer (net/ipv4/tcp_timer.c) aborts the orphan (3.18+, commit b248230c3497).
//
// The test cannot wait 5.6 minutes, so the "before" run shows the part that matters: with
// tcp_fin_timeout lowered to 5 s in the sender's namespace, the orphans still hold their
// queues when the observation window (20 s in the test, 60 s by default from the command)
// ends, well past tcp_fin_timeout. The fix: net.ipv4.tcp_rto_max_ms (6.15+, per network
// namespace, copied into each socket when it is created) set to its minimum, 1000 ms, in the
// sender's namespace before the sockets exist; the backoff then reaches the cap after about
// 0.2 + 0.4 + 0.8 s and the next probe aborts the orphan. On a kernel without
// tcp_rto_max_ms the fix is the application's: TCP_USER_TIMEOUT on each socket (also
// honoured by the zero-window probe timer, tcp_probe_timer), set to the same 1 s.
//
// Thresholds: doctor, run live in the sender's namespace while the orphans exist, must
// report orphan-send-queues; before the fix the orphans must outlive tcp_fin_timeout by at
// least 10 s; after it every orphan must be gone within 10 s of close().
const (
	orphanConns          = 8
	orphanFinTimeoutSecs = 5
	orphanObserveDefault = 20 * time.Second
	orphanClearWithin    = 10 * time.Second
	orphanRTOMaxMs       = "1000"
	orphanPort           = 5002
)

func init() {
	register(&Scenario{
		Name:    "orphan-hoard",
		Summary: "Fermilab: closed sockets in FIN_WAIT1 keep their send queues behind a peer that stops reading; tcp_rto_max_ms clears them in seconds",
		Failure: &Failure{
			Expect: []string{"orphan-send-queues"},
			Metric: MetricSpec{
				Name: "orphan_lifetime", Unit: "s", Better: "lower",
				Margin: fmt.Sprintf("before ≥ tcp_fin_timeout (%d s) + 10 s; after ≤ %v", orphanFinTimeoutSecs, orphanClearWithin),
				Check: func(b, a float64) bool {
					return b >= orphanFinTimeoutSecs+10 && a <= orphanClearWithin.Seconds()
				},
			},
			Fix:     "net.ipv4.tcp_rto_max_ms = 1000 in the sender's namespace (TCP_USER_TIMEOUT 1 s on kernels without it)",
			Timeout: 3 * time.Minute,
			Run:     runOrphanHoard,
		},
	})
}

// orphanStats is what a dump of the sender's namespace shows of the hoard.
type orphanStats struct {
	n         int   // sockets in FIN_WAIT1, CLOSING or LAST_ACK
	orphans   int   // of them without an inode: closed by the application
	sendQ     int64 // their send queues, bytes
	memBytes  int64 // their charged memory (SO_MEMINFO via sock_diag)
	largestSQ int64
}

func dumpOrphans(d *kernel.SockDiag, port int) (orphanStats, error) {
	socks, err := d.DumpTCP(nil)
	if err != nil {
		return orphanStats{}, err
	}
	var st orphanStats
	suffix := ":" + strconv.Itoa(port)
	for i := range socks {
		s := &socks[i]
		switch s.State {
		case "FIN_WAIT1", "CLOSING", "LAST_ACK":
		default:
			continue
		}
		if len(s.Remote) < len(suffix) || s.Remote[len(s.Remote)-len(suffix):] != suffix {
			continue
		}
		st.n++
		if s.Orphaned() {
			st.orphans++
		}
		st.sendQ += s.SendQ
		st.largestSQ = max(st.largestSQ, s.SendQ)
		st.memBytes += s.MemBytes()
	}
	return st, nil
}

func runOrphanHoard(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	run := &FailureRun{}
	observe := e.Options.Observe
	if observe <= 0 {
		observe = orphanObserveDefault
	}

	// watch builds a fresh pair, fills and closes orphanConns connections, and watches the
	// orphans for at most window. It returns how long they lived (the window when some were
	// still there at its end) and whether they were all gone.
	watch := func(phase string, fix bool, window time.Duration, doctor bool) (lifetime float64, cleared bool, err error) {
		a, err := l.AddHost("a-" + phase)
		if err != nil {
			return 0, false, err
		}
		b, err := l.AddHost("b-" + phase)
		if err != nil {
			return 0, false, err
		}
		lk, err := l.Connect(a, b, netlab.LinkSpec{})
		if err != nil {
			return 0, false, err
		}
		if scope, _, err := l.SetSysctl(a, "net.ipv4.tcp_fin_timeout", strconv.Itoa(orphanFinTimeoutSecs), false); err != nil || scope != netlab.ScopeNetns {
			return 0, false, fmt.Errorf("lab: tcp_fin_timeout in %s: scope %s, %v", a.Netns(), scope, err)
		}
		userTimeout := 0
		if fix {
			scope, got, err := l.SetSysctl(a, "net.ipv4.tcp_rto_max_ms", orphanRTOMaxMs, false)
			switch {
			case err != nil:
				return 0, false, err
			case scope == netlab.ScopeNetns:
				run.Applied = append(run.Applied, Applied{Host: a.Name, Key: "net.ipv4.tcp_rto_max_ms", Value: got, Scope: scope})
				run.Settings = "net.ipv4.tcp_rto_max_ms = " + got + " in the sender's namespace"
			default:
				userTimeout = 1000
				run.Applied = append(run.Applied, Applied{Host: a.Name, Key: "TCP_USER_TIMEOUT", Value: "1000 ms", Scope: netlab.ScopeSocket})
				run.Settings = "TCP_USER_TIMEOUT = 1000 ms on each sender socket (this kernel has no net.ipv4.tcp_rto_max_ms)"
				run.Notes = append(run.Notes, "net.ipv4.tcp_rto_max_ms: "+string(scope)+" here (added in 6.15); used the application-side alternative")
			}
		}
		// The peer stays alive, not reading, until the end of the phase; then it aborts and
		// its RST ends any orphan still there, so nothing of the run outlives it (an orphan
		// holds a reference on its namespace).
		h, err := startHoard(ctx, a, b, lk, userTimeout)
		if err != nil {
			return 0, false, err
		}
		defer h.Close()
		diag, closedAt := h.diag, h.closedAt
		st, err := dumpOrphans(diag, orphanPort)
		if err != nil {
			return 0, false, err
		}
		run.Observed = append(run.Observed,
			Observation{What: "FIN_WAIT1 sockets after close()", Phase: phase, Value: float64(st.n), Source: "sock_diag in " + a.Netns()},
			Observation{What: "of them orphaned (no inode)", Phase: phase, Value: float64(st.orphans), Source: "sock_diag in " + a.Netns()},
			Observation{What: "send queues held", Phase: phase, Value: float64(st.sendQ), Unit: "bytes", Source: "sock_diag in " + a.Netns()},
			Observation{What: "largest send queue", Phase: phase, Value: float64(st.largestSQ), Unit: "bytes", Source: "sock_diag in " + a.Netns()},
			Observation{What: "memory charged by them (SO_MEMINFO)", Phase: phase, Value: float64(st.memBytes), Unit: "bytes", Source: "sock_diag in " + a.Netns()})
		if st.n < orphanConns {
			return 0, false, fmt.Errorf("lab: only %d of %d closed sockets are in FIN_WAIT1 with data queued: the peer did not stop the senders", st.n, orphanConns)
		}
		e.Progressf("%s: %d sockets in FIN_WAIT1 (%d orphaned) hold %s of send queue", phase, st.n, st.orphans, units.FormatBytes(st.sendQ))
		var docErr error
		var docWG sync.WaitGroup
		if doctor {
			docWG.Add(1)
			go func() {
				defer docWG.Done()
				var docs []*DoctorResult
				docs, docErr = e.Doctor(ctx, a, DoctorOptions{Duration: 2 * time.Second})
				run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
			}()
		}
		defer docWG.Wait()
		last := st
		for time.Since(closedAt) < window {
			if err := ctxsleep.Sleep(ctx, 200*time.Millisecond); err != nil {
				return 0, false, err
			}
			st, err := dumpOrphans(diag, orphanPort)
			if err != nil {
				return 0, false, err
			}
			last = st
			if st.n == 0 {
				lifetime = time.Since(closedAt).Seconds()
				cleared = true
				break
			}
		}
		docWG.Wait()
		if docErr != nil {
			return 0, false, docErr
		}
		if !cleared {
			lifetime = time.Since(closedAt).Seconds()
			run.Observed = append(run.Observed, Observation{What: "FIN_WAIT1 sockets still holding send queues at the end of the window", Phase: phase, Value: float64(last.n), Source: "sock_diag in " + a.Netns()},
				Observation{What: "send queues still held at the end of the window", Phase: phase, Value: float64(last.sendQ), Unit: "bytes", Source: "sock_diag in " + a.Netns()})
			e.Progressf("%s: after %.1f s, %d orphans still hold %s", phase, lifetime, last.n, units.FormatBytes(last.sendQ))
		} else {
			e.Progressf("%s: all orphans gone %.1f s after close()", phase, lifetime)
		}
		run.Observed = append(run.Observed, Observation{What: "orphan lifetime", Phase: phase, Value: round1(lifetime), Unit: "s", Source: "sock_diag in " + a.Netns()})
		return lifetime, cleared, nil
	}

	before, beforeCleared, err := watch("before", false, observe, true)
	if err != nil {
		return nil, err
	}
	after, afterCleared, err := watch("after", true, 2*orphanClearWithin, false)
	if err != nil {
		return nil, err
	}
	if !afterCleared {
		run.Notes = append(run.Notes, fmt.Sprintf("with the fix the orphans were still there after %.1f s", after))
	}
	run.Metric = Metric{Before: round1(before), After: round1(after), BeforeIsBound: !beforeCleared}
	if beforeCleared {
		run.Notes = append(run.Notes, fmt.Sprintf("without the fix the orphans were gone after %.1f s", before))
	}
	if _, err := os.Stat("/proc/sys/net/ipv4/tcp_rto_max_ms"); errors.Is(err, os.ErrNotExist) {
		run.Notes = append(run.Notes, "kernel without net.ipv4.tcp_rto_max_ms (6.15+)")
	}
	return run, nil
}
