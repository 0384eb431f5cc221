package lab

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/source"
)

// flood-recovery: seed 002's procedure against a forking proxy in its own namespace.
//
//	c (clients) ── 198.18.0.0/24 ── p (proxy, one process per connection) ── 198.18.1.0/24 ── s (backend)
//
// Baseline with sequential requests, then Repeat rounds of flood (64 concurrent clients),
// idle and re-measure; connections/s per phase, the recovery ratio, and the host metrics of
// the proxy's namespace (system CPU share, slab, TCP sockets in use, TIME_WAIT, orphans,
// conntrack where loaded, the proxy's open descriptors) that did not return to baseline.
//
// Two variants:
//   - healthy: the parent closes its copy of each accepted socket after starting the child;
//   - leaking: it keeps one descriptor per connection (proxy.go). The proxy runs with
//     RLIMIT_NOFILE 256 and its namespace with net.core.somaxconn 128 (the default before
//     5.4), so one flood of more than ~250 connections exhausts its descriptors, accept(2)
//     fails with EMFILE, and further connections fill the 128-entry accept queue and then
//     overflow it (TcpExt ListenOverflows).
//
// Thresholds: the healthy proxy must be reported "recovered" (every re-measure ≥ 0.8 ×
// baseline, RecoveryConfig) and the leaking one "did not recover"; doctor, run live in the
// proxy's namespace during the last flood, must report listen-overflow for the leaking proxy
// (nothing is required of it for the healthy one).
const (
	floodMeasureRequests = 200
	floodWarmupRequests  = 20
	floodFloodRequests   = 600
	floodConcurrency     = 64
	floodProxyMaxFDs     = 512
	floodProxySomaxconn  = "128"
	floodPort            = 8080
)

func init() {
	register(&Scenario{
		Name:    "flood-recovery",
		Summary: "the LKML firewall report's procedure: baseline, flood, idle, re-measure through a forking proxy; a leaking proxy must not recover, a healthy one must",
		Failure: &Failure{
			Variants: []string{"healthy", "leaking"},
			Metric: MetricSpec{
				Name: "connections_per_sec", Unit: "connections/s", Better: "higher",
			},
			Fix:     "a proxy that closes its copy of each accepted socket (healthy) against one that keeps it (leaking)",
			Timeout: 3 * time.Minute,
			Run:     runFloodRecovery,
		},
	})
}

func runFloodRecovery(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	c, err := l.AddHost("c")
	if err != nil {
		return nil, err
	}
	p, err := l.AddHost("p")
	if err != nil {
		return nil, err
	}
	s, err := l.AddHost("s")
	if err != nil {
		return nil, err
	}
	front, err := l.Connect(c, p, netlab.LinkSpec{})
	if err != nil {
		return nil, err
	}
	back, err := l.Connect(p, s, netlab.LinkSpec{})
	if err != nil {
		return nil, err
	}
	if _, _, err := l.SetSysctl(p, "net.core.somaxconn", floodProxySomaxconn, false); err != nil {
		return nil, err
	}
	backendAddr := net.JoinHostPort(back.AddrB.String(), strconv.Itoa(floodPort))
	be, err := StartBackend(s, backendAddr, 1024)
	if err != nil {
		return nil, err
	}
	defer be.Close()
	cg, err := e.Objects.NewCgroup("proxy")
	if err != nil {
		return nil, err
	}
	leak := e.Variant == "leaking"
	proxyAddr := net.JoinHostPort(front.AddrB.String(), strconv.Itoa(floodPort))
	px, err := netlab.StartHelper(p, "proxy", proxyConfig{Cgroups: cg.Dirs(), Listen: proxyAddr, Backend: backendAddr, Leak: leak, MaxFDs: floodProxyMaxFDs}, nil, 10*time.Second)
	if err != nil {
		return nil, err
	}
	defer px.Kill()

	dialer, err := newNSDialer(c, 65)
	if err != nil {
		return nil, err
	}
	defer dialer.Close()

	var smp *source.Sampler
	var conntrack *os.File
	if err := p.Read(func(root kernel.Root) error {
		smp = NewRecoverySampler(root)
		// nf_conntrack_count is per namespace; absent when nf_conntrack is not loaded.
		conntrack, _ = os.Open("/proc/sys/net/netfilter/nf_conntrack_count")
		return nil
	}); err != nil {
		return nil, err
	}
	defer smp.Close()
	if conntrack != nil {
		defer conntrack.Close()
	}

	repeat := e.Options.Repeat
	if repeat <= 0 {
		repeat = 2
	}
	lastFlood := fmt.Sprintf("flood %d", repeat)
	var docMu sync.Mutex
	var docRes []*DoctorResult
	var docErr error
	var docWG sync.WaitGroup
	cfg := RecoveryConfig{
		Target:           proxyAddr + " (forking proxy, " + e.Variant + ")",
		Dial:             func(ctx context.Context) (net.Conn, error) { return dialer.Dial(ctx, proxyAddr) },
		Request:          httpRequest(proxyAddr),
		MeasureRequests:  floodMeasureRequests,
		WarmupRequests:   floodWarmupRequests,
		FloodRequests:    floodFloodRequests,
		FloodConcurrency: floodConcurrency,
		MaxPhase:         4 * time.Second,
		Idle:             2 * time.Second,
		Repeat:           repeat,
		RequestTimeout:   time.Second,
		Sampler:          smp,
		Extra: func() map[string]float64 {
			m := map[string]float64{}
			if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", px.PID)); err == nil {
				m[RecOpenFDs] = float64(len(fds))
			}
			if conntrack != nil {
				b := make([]byte, 32)
				if n, err := conntrack.ReadAt(b, 0); n > 0 || err == nil {
					if v, err := strconv.ParseFloat(strings.TrimSpace(string(b[:n])), 64); err == nil {
						m[RecConntrack] = v
					}
				}
			}
			return m
		},
		Progress: func(m string) { e.Progressf("%s", m) },
		PhaseStart: func(name string) {
			if name != lastFlood {
				return
			}
			docWG.Add(1)
			go func() {
				defer docWG.Done()
				r, err := e.Doctor(ctx, p, DoctorOptions{Duration: 2 * time.Second})
				docMu.Lock()
				docRes, docErr = r, err
				docMu.Unlock()
			}()
		},
	}
	rec, err := RunRecovery(ctx, cfg)
	docWG.Wait()
	if err != nil {
		return nil, err
	}
	if docErr != nil {
		return nil, docErr
	}
	run := &FailureRun{Settings: e.Variant, Recovery: rec}
	last := rec.Phases[len(rec.Phases)-1]
	run.Metric = Metric{Before: rec.BaselinePerSec, After: last.PerSec}
	if leak {
		run.Expected = []string{"listen-overflow"}
		run.Metric.Margin = fmt.Sprintf("leaking proxy reported \"did not recover\" (a re-measure < %.1f × baseline)", rec.RecoveredRatio)
		run.Metric.OK = !rec.Recovered
	} else {
		run.Expected = []string{}
		run.Metric.Margin = fmt.Sprintf("healthy proxy reported \"recovered\" (every re-measure ≥ %.1f × baseline)", rec.RecoveredRatio)
		run.Metric.OK = rec.Recovered
	}
	run.Doctor, run.Findings = doctorSummaries(docRes, run.Expected)
	if fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", px.PID)); err == nil {
		run.Observed = append(run.Observed, Observation{What: "proxy open descriptors", Phase: "end", Value: float64(len(fds)), Source: fmt.Sprintf("/proc/%d/fd", px.PID)})
	}
	for _, k := range []string{"accepted", "spawned", "spawn_errors", "accept_errors", "leaked_fds"} {
		if v, ok := px.Int(k); ok {
			run.Observed = append(run.Observed, Observation{What: "proxy " + k, Phase: "end", Value: float64(v), Source: "proxy helper"})
		}
	}
	run.Observed = append(run.Observed, Observation{What: "backend requests served", Phase: "end", Value: float64(be.Served()), Source: "backend"})
	run.Notes = append(run.Notes, fmt.Sprintf("verdict: %s (recovery ratio %.3f)", rec.Verdict, rec.RecoveryRatio))
	for _, d := range rec.NotReturned {
		run.Notes = append(run.Notes, fmt.Sprintf("did not return to baseline: %s %g → %g (tolerance %g)", d.Name, d.Baseline, d.Final, d.Tolerance))
	}
	return run, nil
}

// nsDialer dials from inside a namespace: a socket belongs to the namespace of the thread
// that creates it, so a pool of goroutines locked into the namespace makes the connections,
// and the connections are then used from anywhere.
type nsDialer struct {
	reqs chan dialReq
	wg   sync.WaitGroup
}

type dialReq struct {
	ctx   context.Context
	addr  string
	reply chan dialReply
}

type dialReply struct {
	c   net.Conn
	err error
}

func newNSDialer(h *netlab.Host, workers int) (*nsDialer, error) {
	d := &nsDialer{reqs: make(chan dialReq)}
	ready := make(chan error, workers)
	for i := 0; i < workers; i++ {
		d.wg.Add(1)
		go func() {
			defer d.wg.Done()
			err := h.Do(func() error {
				ready <- nil
				var nd net.Dialer
				for r := range d.reqs {
					c, err := nd.DialContext(r.ctx, "tcp4", r.addr)
					r.reply <- dialReply{c, err}
				}
				return nil
			})
			if err != nil {
				ready <- err
			}
		}()
	}
	for i := 0; i < workers; i++ {
		if err := <-ready; err != nil {
			d.Close()
			return nil, err
		}
	}
	return d, nil
}

// Dial connects to addr from the namespace.
func (d *nsDialer) Dial(ctx context.Context, addr string) (net.Conn, error) {
	r := dialReq{ctx: ctx, addr: addr, reply: make(chan dialReply, 1)}
	select {
	case d.reqs <- r:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	rep := <-r.reply
	return rep.c, rep.err
}

// Close stops the pool.
func (d *nsDialer) Close() {
	close(d.reqs)
	d.wg.Wait()
}
