package lab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"headroom/lab/netlab"

	"golang.org/x/sys/unix"
)

// udp-flood: a UDP receiver (namespace b) that falls behind its sender (namespace a): it
// reads in bursts and is away 40 ms between them (a descheduled or busy reader), while the
// sender keeps up 25 000 datagrams of 1000 bytes a second (200 Mbit/s). Over a 40 ms pause
// 1000 datagrams arrive; charged at skb truesize (data plus the sk_buff and its shared info)
// they exceed the default buffer (net.core.rmem_default, 208 KiB), and every datagram beyond
// it is dropped and counted as Udp RcvbufErrors (__udp_enqueue_schedule_skb,
// net/ipv4/udp.c).
//
// The fix is the buffer doctor plans: udp-rcvbuf-errors recommends net.core.rmem_max for the
// link (plan's backlog drain interval at line rate) or, where the link speed is unknown (a
// veth is virtual), twice the current ceiling; applications then ask for it with SO_RCVBUF.
// net.core.rmem_max is global (read-only inside a namespace), so the lab's receiver asks for
// exactly the recommended size with SO_RCVBUFFORCE, which is what SO_RCVBUF would give once
// the global ceiling is raised, without touching the host.
//
// Thresholds: doctor, run live in the receiver's namespace during the flood, must report
// udp-rcvbuf-errors; with the planned buffer the share of datagrams dropped must fall to a
// tenth of what it was, or below 1%.
const (
	udpDatagramBytes   = 1000
	udpDatagramsPerSec = 25000
	udpReaderPause     = 40 * time.Millisecond
	udpWarm            = time.Second
	udpMeasure         = 3 * time.Second
	udpPort            = 5003
)

func init() {
	register(&Scenario{
		Name:    "udp-flood",
		Summary: "a UDP receiver that falls behind its sender: RcvbufErrors; the buffer doctor recommends cuts the loss",
		Failure: &Failure{
			Expect: []string{"udp-rcvbuf-errors"},
			Metric: MetricSpec{
				Name: "datagrams_dropped", Unit: "%", Better: "lower",
				Margin: "after ≤ before ÷ 10, or after < 1%",
				Check:  func(b, a float64) bool { return b > 0 && (a <= b/10 || a < 1) },
			},
			Fix:     "the receive buffer doctor's udp-rcvbuf-errors recommends (net.core.rmem_max), asked for by the receiver",
			Timeout: 90 * time.Second,
			Run:     runUDPFlood,
		},
	})
}

// udpReceiver reads in bursts with pauses in between.
type udpReceiver struct {
	conn     *net.UDPConn
	received atomic.Int64
	stop     chan struct{}
	wg       sync.WaitGroup
}

func startUDPReceiver(h *netlab.Host, addr string, rcvbuf int) (*udpReceiver, error) {
	r := &udpReceiver{stop: make(chan struct{})}
	err := h.Do(func() error {
		ua, err := net.ResolveUDPAddr("udp4", addr)
		if err != nil {
			return err
		}
		r.conn, err = net.ListenUDP("udp4", ua)
		if err != nil {
			return err
		}
		if rcvbuf > 0 {
			rc, _ := r.conn.SyscallConn()
			var serr error
			rc.Control(func(fd uintptr) { serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, rcvbuf) })
			if serr != nil {
				return fmt.Errorf("lab: SO_RCVBUFFORCE %d: %w", rcvbuf, serr)
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("lab: UDP receiver on %s in %s: %w", addr, h.Netns(), err)
	}
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		buf := make([]byte, 2048)
		for {
			select {
			case <-r.stop:
				return
			case <-time.After(udpReaderPause):
			}
			// Drain what is queued, then pause again.
			for {
				r.conn.SetReadDeadline(time.Now().Add(time.Millisecond))
				if _, _, err := r.conn.ReadFromUDP(buf); err != nil {
					break
				}
				r.received.Add(1)
			}
		}
	}()
	return r, nil
}

// RcvBuf is the socket's receive buffer as the kernel reports it (doubled, see SO_RCVBUF).
func (r *udpReceiver) RcvBuf() int {
	rc, err := r.conn.SyscallConn()
	if err != nil {
		return 0
	}
	var v int
	rc.Control(func(fd uintptr) { v, _ = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF) })
	return v
}

func (r *udpReceiver) Close() {
	close(r.stop)
	r.conn.Close()
	r.wg.Wait()
}

// udpSend sends udpDatagramsPerSec datagrams of udpDatagramBytes from h to addr until ctx
// ends: udpDatagramsPerSec/1000 every millisecond. A tick the sender missed (the machine was
// busy) is not made up with a burst: the scenario's sender is steady.
func udpSend(ctx context.Context, h *netlab.Host, addr string) (sent *atomic.Int64, stop func(), err error) {
	var c *net.UDPConn
	if err := h.Do(func() error {
		ua, err := net.ResolveUDPAddr("udp4", addr)
		if err != nil {
			return err
		}
		c, err = net.DialUDP("udp4", nil, ua)
		return err
	}); err != nil {
		return nil, nil, fmt.Errorf("lab: UDP sender in %s: %w", h.Netns(), err)
	}
	sent = &atomic.Int64{}
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer c.Close()
		buf := make([]byte, udpDatagramBytes)
		// time.Ticker drops the ticks a slow receiver misses.
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			for i := 0; i < udpDatagramsPerSec/1000; i++ {
				if _, err := c.Write(buf); err != nil && !errors.Is(err, unix.ENOBUFS) && !errors.Is(err, unix.ECONNREFUSED) {
					return
				}
				sent.Add(1)
			}
		}
	}()
	return sent, func() { cancel(); <-done }, nil
}

func runUDPFlood(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, b, lk, err := pairOnVeth(l)
	if err != nil {
		return nil, err
	}
	addr := net.JoinHostPort(lk.AddrB.String(), strconv.Itoa(udpPort))
	run := &FailureRun{}
	src := "/proc/net/snmp in " + b.Netns()

	flood := func(phase string, rcvbuf int, doctor bool) (float64, []*DoctorResult, error) {
		rx, err := startUDPReceiver(b, addr, rcvbuf)
		if err != nil {
			return 0, nil, err
		}
		defer rx.Close()
		sent, stop, err := udpSend(ctx, a, addr)
		if err != nil {
			return 0, nil, err
		}
		defer stop()
		if err := sleepCtx(ctx, udpWarm); err != nil {
			return 0, nil, err
		}
		ns0, err := nsNetStat(b)
		if err != nil {
			return 0, nil, err
		}
		s0 := sent.Load()
		var docs []*DoctorResult
		var docErr error
		var wg sync.WaitGroup
		if doctor {
			wg.Add(1)
			go func() {
				defer wg.Done()
				docs, docErr = e.Doctor(ctx, b, DoctorOptions{Duration: 2 * time.Second})
			}()
		}
		if err := sleepCtx(ctx, udpMeasure); err != nil {
			return 0, nil, err
		}
		wg.Wait()
		if docErr != nil {
			return 0, nil, docErr
		}
		ns1, err := nsNetStat(b)
		if err != nil {
			return 0, nil, err
		}
		s1 := sent.Load()
		errs, ok1 := counterDelta(ns0, ns1, "Udp", "RcvbufErrors")
		in, ok2 := counterDelta(ns0, ns1, "Udp", "InDatagrams")
		if !ok1 || !ok2 {
			return 0, nil, fmt.Errorf("lab: %s has no Udp RcvbufErrors/InDatagrams", src)
		}
		share := 0.0
		if in+errs > 0 {
			share = 100 * float64(errs) / float64(in+errs)
		}
		run.Observed = append(run.Observed,
			Observation{What: "datagrams sent", Phase: phase, Value: float64(s1 - s0), Source: "sender"},
			Observation{What: "Udp InDatagrams", Phase: phase, Value: float64(in), Unit: "increase", Source: src},
			Observation{What: "Udp RcvbufErrors", Phase: phase, Value: float64(errs), Unit: "increase", Source: src},
			Observation{What: "receive buffer (SO_RCVBUF as the kernel reports it)", Phase: phase, Value: float64(rx.RcvBuf()), Unit: "bytes", Source: "getsockopt"})
		e.Progressf("%s: %d datagrams sent, %d delivered, %d dropped at the full buffer (%.1f%%), buffer %d bytes", phase, s1-s0, in, errs, share, rx.RcvBuf())
		return share, docs, nil
	}

	before, docs, err := flood("before", 0, true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
	// The planned buffer: doctor's own recommendation.
	want := 0
	for _, d := range docs {
		for _, f := range d.Diagnosis.Findings {
			if f.ID != "udp-rcvbuf-errors" {
				continue
			}
			for _, c := range f.Changes {
				if c.Key == "net.core.rmem_max" {
					if v, err := strconv.Atoi(c.Recommended); err == nil {
						want = v
						run.Notes = append(run.Notes, fmt.Sprintf("doctor: %s %s → %s: %s", c.Key, c.Current, c.Recommended, c.Why))
					}
				}
			}
		}
	}
	if want == 0 {
		return nil, fmt.Errorf("lab: doctor recommended no net.core.rmem_max for udp-rcvbuf-errors (findings %v)", run.Findings)
	}
	run.Applied = append(run.Applied, Applied{Host: b.Name, Key: "SO_RCVBUFFORCE", Value: strconv.Itoa(want), Scope: netlab.ScopeSocket})
	run.Settings = fmt.Sprintf("receive buffer %d bytes (doctor's net.core.rmem_max, asked for with SO_RCVBUFFORCE)", want)
	after, _, err := flood("after", want, false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: round3(before), After: round3(after)}
	return run, nil
}
