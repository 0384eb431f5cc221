package source_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sort"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/lab/netlab"
	"headroom/lab/netlab/netlabtest"
	"headroom/source"
	"headroom/source/tracetest"
)

// TestTraceOverhead measures what a traced window costs at a flood of dropped datagrams, for
// both mechanisms, against no tracing: the sending thread's CPU per datagram (the tracepoint
// and the ring-buffer write happen there: on loopback the drop runs in the sender's softirq),
// and the reader's CPU (this process's, less the sender thread's) per second and per event.
// It prints the figures docs/performance.md quotes. HEADROOM_TRACE_BENCH=1 runs it (about
// 40 s of two CPUs' worth of flood); make check does not.
func TestTraceOverhead(t *testing.T) {
	if os.Getenv("HEADROOM_TRACE_BENCH") != "1" {
		t.Skip("HEADROOM_TRACE_BENCH=1 runs the overhead measurement (docs/performance.md)")
	}
	tracetest.Need(t)
	h, err := netlabtest.Lab(t).AddHost("b")
	if err != nil {
		t.Fatal(err)
	}
	r, err := netlab.ListenUDP(h, "127.0.0.1:9", netlab.UDPSink{RcvBuf: 4096, Pause: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	const pps, window, rounds = 100000, 3 * time.Second, 3
	type result struct {
		sent, events, lost    uint64
		senderNs, consumerCPU time.Duration
		wall                  time.Duration
	}
	res := map[string][]result{}
	for round := 0; round < rounds; round++ {
		for _, mode := range []string{"off", source.TraceMechanismRaw, source.TraceMechanismText} {
			var before unix.Rusage
			unix.Getrusage(unix.RUSAGE_SELF, &before)
			var tr *source.Tracer
			if mode != "off" {
				if tr, err = source.StartTrace(source.TraceOptions{Mechanism: mode}); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			sent, thread, err := pacedFlood(h, "127.0.0.1:9", pps, window)
			if err != nil {
				t.Fatal(err)
			}
			var x result
			if tr != nil {
				w, err := tr.Stop()
				if err != nil {
					t.Fatal(err)
				}
				x.events, x.lost = w.DropsTotal, w.Lost
			}
			x.wall = time.Since(start)
			var after unix.Rusage
			unix.Getrusage(unix.RUSAGE_SELF, &after)
			x.sent = sent
			x.senderNs = thread
			x.consumerCPU = cpu(after) - cpu(before) - thread
			res[mode] = append(res[mode], x)
		}
	}
	med := func(xs []float64) float64 { sort.Float64s(xs); return xs[len(xs)/2] }
	off := func(f func(result) float64) float64 {
		var v []float64
		for _, x := range res["off"] {
			v = append(v, f(x))
		}
		return med(v)
	}
	perDgram := func(x result) float64 { return float64(x.senderNs) / float64(x.sent) }
	base := off(perDgram)
	baseCons := off(func(x result) float64 { return x.consumerCPU.Seconds() / x.wall.Seconds() })
	t.Logf("flood %d datagrams/s for %v, %d rounds, medians:", pps, window, rounds)
	for _, mode := range []string{"off", source.TraceMechanismRaw, source.TraceMechanismText} {
		var sentRate, pd, cons, perEv, share, lost []float64
		for _, x := range res[mode] {
			sentRate = append(sentRate, float64(x.sent)/window.Seconds())
			pd = append(pd, perDgram(x))
			// The reader's CPU above what the process spends without tracing (the runtime,
			// the idle receiver) over the same wall time.
			c := x.consumerCPU.Seconds() - baseCons*x.wall.Seconds()
			cons = append(cons, c/x.wall.Seconds())
			share = append(share, float64(x.events)/float64(x.sent))
			if x.events > 0 {
				perEv = append(perEv, c*1e9/float64(x.events))
			} else {
				perEv = append(perEv, 0)
			}
			lost = append(lost, float64(x.lost))
		}
		t.Logf("  %-4s sent %6.0f/s  traced %5.1f%% of them  lost %3.0f  sender %5.0f ns/datagram (+%4.0f ns)  reader %5.1f%% of a CPU, %5.0f ns/event",
			mode, med(sentRate), 100*med(share), med(lost), med(pd), med(pd)-base, 100*med(cons), med(perEv))
	}
}

func cpu(r unix.Rusage) time.Duration {
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// pacedFlood sends pps 64-byte datagrams a second to addr from one locked thread in h for
// d, and returns how many it sent and the thread's CPU time (user and system: on loopback
// the receive, and the drop with its tracepoint, run in this thread's softirq).
func pacedFlood(h *netlab.Host, addr string, pps int, d time.Duration) (uint64, time.Duration, error) {
	var sent uint64
	var thread time.Duration
	err := h.Do(func() error {
		c, err := net.Dial("udp4", addr)
		if err != nil {
			return err
		}
		defer c.Close()
		var r0, r1 unix.Rusage
		unix.Getrusage(unix.RUSAGE_THREAD, &r0)
		buf := make([]byte, 64)
		start := time.Now()
		for time.Since(start) < d {
			due := uint64(time.Since(start).Seconds() * float64(pps))
			for ; sent < due; sent++ {
				if _, err := c.Write(buf); err != nil && !errors.Is(err, unix.ECONNREFUSED) && !errors.Is(err, unix.ENOBUFS) {
					return fmt.Errorf("send: %w", err)
				}
			}
			time.Sleep(200 * time.Microsecond)
		}
		unix.Getrusage(unix.RUSAGE_THREAD, &r1)
		thread = cpu(r1) - cpu(r0)
		return nil
	})
	return sent, thread, err
}
