package lab

import (
	"context"
	"fmt"
	"net"
	"sync"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/model"
)

// Shared pieces of the failure scenarios.

// counterObservations returns the growth of group's counters between two readings.
func counterObservations(a, b kernel.Groups, group, phase, src string, names ...string) []Observation {
	var out []Observation
	for _, n := range names {
		if d, ok := counterDelta(a, b, group, n); ok {
			out = append(out, Observation{What: group + " " + n, Phase: phase, Value: float64(d), Unit: "increase", Source: src})
		}
	}
	return out
}

// counterDelta is one counter's growth between two readings of grouped counters (netstat,
// snmp), and whether both had it.
func counterDelta(a, b kernel.Groups, group, name string) (int64, bool) {
	var ca, cb kernel.Counters
	if g := a.Group(group); g != nil {
		ca = g.Counters
	}
	if g := b.Group(group); g != nil {
		cb = g.Counters
	}
	return counterGrowth(ca, cb, name)
}

// counterGrowth is one counter's growth between two readings (vmstat, a cgroup's
// memory.stat), and whether both had it: absent is not zero. The growth is model.Delta's,
// the one home of counter deltas: a 64-bit counter that went backwards (a cgroup
// re-created between the readings) was reset, and its growth is its count since then.
func counterGrowth(a, b kernel.Counters, name string) (int64, bool) {
	x, okA := a.Get(name)
	y, okB := b.Get(name)
	d, _ := model.Delta(x, y, model.Width64)
	return d, okA && okB
}

// bulkSender keeps streams TCP connections from h to addr writing as fast as the kernel
// takes data until Stop. Connections are aborted (SO_LINGER 0) at the end, so none lingers
// in FIN_WAIT1 behind an unread queue.
type bulkSender struct {
	conns []*net.TCPConn
	wg    sync.WaitGroup
	once  sync.Once
}

func startBulk(ctx context.Context, h *netlab.Host, addr string, streams int) (*bulkSender, error) {
	b := &bulkSender{}
	err := h.Do(func() error {
		d := net.Dialer{Timeout: 5 * time.Second}
		for i := 0; i < streams; i++ {
			c, err := d.DialContext(ctx, "tcp4", addr)
			if err != nil {
				return fmt.Errorf("lab: stream %d to %s from %s: %w", i, addr, h.Netns(), err)
			}
			b.conns = append(b.conns, c.(*net.TCPConn))
		}
		return nil
	})
	if err != nil {
		b.Stop()
		return nil, err
	}
	defer netlab.RaisePriority()()
	for _, c := range b.conns {
		b.wg.Add(1)
		go func(c *net.TCPConn) {
			defer b.wg.Done()
			buf := make([]byte, 128<<10)
			for {
				if _, err := c.Write(buf); err != nil {
					return
				}
			}
		}(c)
	}
	return b, nil
}

// Stop aborts every connection and waits for the writers.
func (b *bulkSender) Stop() {
	b.once.Do(func() {
		for _, c := range b.conns {
			c.SetLinger(0)
			c.Close()
		}
		b.wg.Wait()
	})
}

// sinkPhase is one measured phase of a TCP scenario: streams TCP streams from a into the
// sink helper svc on b (a "service" helper listening on addr), doctor on b after warm when
// doctor is set, the sink's rate over measure, and b's netstat and snmp counters before and
// after, so the phase's drops are the growth between the two.
type sinkPhase struct {
	bps      float64
	docs     []*DoctorResult
	ns0, ns1 kernel.Groups
}

func (e *Env) runSinkPhase(ctx context.Context, a, b *netlab.Host, addr string, svc *netlab.Helper, streams int, warm, measure time.Duration, doctor bool, opt DoctorOptions) (*sinkPhase, error) {
	ph := &sinkPhase{}
	var err error
	if ph.ns0, err = b.NetStat(); err != nil {
		return nil, err
	}
	snd, err := startBulk(ctx, a, addr, streams)
	if err != nil {
		return nil, err
	}
	defer snd.Stop()
	waitDoctor := e.doctorAfter(ctx, doctor, warm, b, opt)
	bps, err := sinkRate(ctx, svc, warm, measure)
	docs, docErr := waitDoctor()
	snd.Stop()
	if err != nil {
		return nil, err
	}
	if docErr != nil {
		return nil, docErr
	}
	ph.bps, ph.docs = bps, docs
	if ph.ns1, err = b.NetStat(); err != nil {
		return nil, err
	}
	return ph, nil
}

// sinkRate waits warm, then measures the helper's received bytes over measure, from two of
// its status lines (their own clock), in bits per second.
func sinkRate(ctx context.Context, p *netlab.Helper, warm, measure time.Duration) (float64, error) {
	if err := ctxsleep.Sleep(ctx, warm); err != nil {
		return 0, err
	}
	if err := p.WaitStatus(1, 5*time.Second); err != nil {
		return 0, err
	}
	rx0, _ := p.Int("rx_bytes")
	ms0, _ := p.Int("ms")
	if err := ctxsleep.Sleep(ctx, measure); err != nil {
		return 0, err
	}
	if err := p.WaitStatus(1, 5*time.Second); err != nil {
		return 0, err
	}
	rx1, _ := p.Int("rx_bytes")
	ms1, _ := p.Int("ms")
	if ms1 <= ms0 {
		return 0, fmt.Errorf("lab: helper clock did not advance (%d → %d ms)", ms0, ms1)
	}
	return float64(rx1-rx0) * 8 / (float64(ms1-ms0) / 1000), nil
}

// doctorAfter starts doctor on h in the background after delay, while the caller runs its
// workload, and returns a function that waits for doctor's results. With run false it
// starts nothing and the results are empty. A context cancelled during the delay gives no
// results and no error: the workload's own error reports the cancellation.
func (e *Env) doctorAfter(ctx context.Context, run bool, delay time.Duration, h *netlab.Host, opt DoctorOptions) func() ([]*DoctorResult, error) {
	if !run {
		return func() ([]*DoctorResult, error) { return nil, nil }
	}
	var docs []*DoctorResult
	var err error
	done := make(chan struct{})
	go func() {
		defer close(done)
		if ctxsleep.Sleep(ctx, delay) != nil {
			return
		}
		docs, err = e.Doctor(ctx, h, opt)
	}()
	return func() ([]*DoctorResult, error) {
		<-done
		return docs, err
	}
}

// pairOnVeth adds hosts "a" and "b" to l joined by a plain veth link (no shaping, no
// delay): the topology of most failure scenarios.
func pairOnVeth(l *netlab.Lab) (a, b *netlab.Host, lk *netlab.Link, err error) {
	if a, err = l.AddHost("a"); err != nil {
		return nil, nil, nil, err
	}
	if b, err = l.AddHost("b"); err != nil {
		return nil, nil, nil, err
	}
	if lk, err = l.Connect(a, b, netlab.LinkSpec{}); err != nil {
		return nil, nil, nil, err
	}
	return a, b, lk, nil
}
