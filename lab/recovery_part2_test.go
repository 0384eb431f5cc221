package lab

import (
	"bufio"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"headroom/internal/contention"
)

// loopbackService is an HTTP/1.0 service on 127.0.0.1 for recovery tests. A leaking one keeps
// every connection open after answering (the socket sits in CLOSE_WAIT once the client
// closes) and stops accepting after maxConns, as a server out of descriptors does.
type loopbackService struct {
	ln    net.Listener
	mu    sync.Mutex
	held  []net.Conn
	count int
}

func startLoopbackService(t *testing.T, leak bool, maxConns int) *loopbackService {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &loopbackService{ln: ln}
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		for _, c := range s.held {
			c.Close()
		}
		s.mu.Unlock()
	})
	go func() {
		for {
			if leak {
				s.mu.Lock()
				full := s.count >= maxConns
				s.mu.Unlock()
				if full {
					time.Sleep(10 * time.Millisecond)
					if _, err := ln.(*net.TCPListener).SyscallConn(); err != nil {
						return
					}
					continue
				}
			}
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.mu.Lock()
			s.count++
			s.mu.Unlock()
			go func() {
				r := bufio.NewReader(c)
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				// A service that takes 2 ms per request: the sequential rate (about 400/s) is
				// set by the service, not by how busy the test machine is.
				time.Sleep(2 * time.Millisecond)
				c.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 5\r\n\r\nhello"))
				if leak {
					s.mu.Lock()
					s.held = append(s.held, c)
					s.mu.Unlock()
					return
				}
				c.Close()
			}()
		}
	}()
	return s
}

func loopbackConfig(addr string) RecoveryConfig {
	return RecoveryConfig{
		Target: addr,
		Dial: func(ctx context.Context) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp4", addr)
		},
		MeasureRequests: 200, WarmupRequests: 20, FloodRequests: 300, FloodConcurrency: 20,
		Idle: 200 * time.Millisecond, Repeat: 2, MaxPhase: time.Second,
		RequestTimeout: 300 * time.Millisecond, SampleEvery: 200 * time.Millisecond,
		Sampler: NewHostRecoverySampler(),
	}
}

func TestRecoveryLoopback(t *testing.T) {
	for _, tc := range []struct {
		name      string
		leak      bool
		recovered bool
	}{{"healthy", false, true}, {"leaking", true, false}} {
		t.Run(tc.name, func(t *testing.T) {
			meter := contention.Start()
			s := startLoopbackService(t, tc.leak, 200)
			cfg := loopbackConfig(s.ln.Addr().String())
			defer cfg.Sampler.Close()
			rep, err := RunRecovery(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range rep.Phases {
				t.Logf("%-12s %4d ok %4d failed %7.1f/s %v", p.Name, p.Requests, p.Failed, p.PerSec, p.Host)
			}
			t.Logf("%s, ratio %.3f, not returned %+v", rep.Verdict, rep.RecoveryRatio, rep.NotReturned)
			if len(rep.Phases) != 2+3*cfg.Repeat {
				t.Errorf("%d phases, want %d", len(rep.Phases), 2+3*cfg.Repeat)
			}
			switch {
			case rep.Recovered == tc.recovered:
			case tc.recovered: // a busy host makes a healthy service look slow afterwards
				meter.Fail(t, "recovered = %v (%s, ratio %.3f), want %v", rep.Recovered, rep.Verdict, rep.RecoveryRatio, tc.recovered)
			default:
				t.Errorf("recovered = %v (%s, ratio %.3f), want %v", rep.Recovered, rep.Verdict, rep.RecoveryRatio, tc.recovered)
			}
			if rep.Phases[1].Name != "baseline" || rep.Phases[1].Host[RecTCPInUse] == 0 || rep.Phases[1].Host[RecSlabKB] == 0 {
				t.Errorf("baseline host metrics missing: %+v", rep.Phases[1])
			}
			// The leak holds one socket per connection it served: TCP sockets in use do not
			// come back.
			drift := false
			for _, d := range rep.NotReturned {
				drift = drift || d.Name == RecTCPInUse
			}
			if drift != tc.leak {
				t.Errorf("tcp_inuse in not_returned = %v, want %v: %+v", drift, tc.leak, rep.NotReturned)
			}
			if len(rep.Timeline.Segments) != len(rep.Phases) {
				t.Errorf("%d segments for %d phases", len(rep.Timeline.Segments), len(rep.Phases))
			}
		})
	}
}

func TestRecoveryNoService(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there now: every connect is refused
	cfg := loopbackConfig(addr)
	cfg.Sampler.Close()
	cfg.Sampler = nil
	if _, err := RunRecovery(context.Background(), cfg); err == nil {
		t.Fatal("RunRecovery against a closed port succeeded")
	}
}

func TestDriftTolerance(t *testing.T) {
	for _, tc := range []struct {
		name string
		base float64
		want float64
	}{
		{RecTCPInUse, 10, 8}, {RecTCPInUse, 1000, 100}, {RecSlabKB, 100000, 5000}, {RecSlabKB, 1000, 4096},
		{RecSystemCPUPct, 40, 10}, {RecOpenFDs, 300, 8}, {RecTimeWait, 500, 50},
	} {
		if got, _ := driftTolerance(tc.name, tc.base); got != tc.want {
			t.Errorf("driftTolerance(%s, %g) = %g, want %g", tc.name, tc.base, got, tc.want)
		}
	}
}
