package lab

import (
	"context"
	"fmt"
	"net"
	"strconv"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/lab/netlab"
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
		rx, err := netlab.ListenUDP(b, addr, netlab.UDPSink{RcvBuf: rcvbuf, Pause: udpReaderPause})
		if err != nil {
			return 0, nil, err
		}
		defer rx.Close()
		snd, err := netlab.StartUDPFlood(ctx, a, addr, netlab.UDPFlood{PPS: udpDatagramsPerSec, Bytes: udpDatagramBytes})
		if err != nil {
			return 0, nil, err
		}
		defer snd.Stop()
		if err := ctxsleep.Sleep(ctx, udpWarm); err != nil {
			return 0, nil, err
		}
		ns0, err := b.NetStat()
		if err != nil {
			return 0, nil, err
		}
		s0 := snd.Sent()
		waitDoctor := e.doctorAfter(ctx, doctor, 0, b, DoctorOptions{Duration: 2 * time.Second})
		err = ctxsleep.Sleep(ctx, udpMeasure)
		docs, docErr := waitDoctor()
		if err != nil {
			return 0, nil, err
		}
		if docErr != nil {
			return 0, nil, docErr
		}
		ns1, err := b.NetStat()
		if err != nil {
			return 0, nil, err
		}
		s1 := snd.Sent()
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
