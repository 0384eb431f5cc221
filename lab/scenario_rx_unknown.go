package lab

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"headroom/diagnose"
	"headroom/internal/ctxsleep"
	"headroom/lab/netlab"

	"golang.org/x/sys/unix"
)

// rx-unknown-protocol: the peer (namespace a) sends Ethernet frames of an EtherType no
// protocol handles (0x88B5, IEEE 802 "local experimental"); the receiving veth (namespace b)
// counts each one in rx_dropped: __netif_receive_skb_core (net/core/dev.c) finds no packet
// type for it and drops it with dev_core_stats_rx_dropped_inc (rx_nohandler is only for
// inactive devices, 4.6+). No memory is short: the same counter that a full backlog raises
// moves for a reason that has nothing to do with memory.
//
// The fix proves the cause: a listener for that EtherType in b (an AF_PACKET socket bound to
// it, as an LLDP daemon is for 0x88CC) gives the frames a handler, and rx_dropped stops
// moving while the same frames keep arriving.
//
// Thresholds: doctor, run live in b during the flood of frames, must report
// rx-dropped-software for the veth and no memory finding that was not already there before
// the frames were sent; rx_dropped must rise by ≥ 0.99 per frame sent without a listener and
// ≤ 0.01 per frame with one.
const (
	rxUnknownEtherType = 0x88B5
	rxUnknownFrames    = 20000
	rxUnknownPerSec    = 8000
)

func init() {
	register(&Scenario{
		Name:    "rx-unknown-protocol",
		Summary: "frames of an unhandled EtherType raise the veth's rx_dropped one for one; doctor blames no memory",
		Failure: &Failure{
			Expect: []string{"rx-dropped-software"},
			Metric: MetricSpec{
				Name: "rx_dropped_per_frame", Unit: "drops/frame", Better: "lower",
				Margin: "before ≥ 0.99, after ≤ 0.01",
				Check:  func(b, a float64) bool { return b >= 0.99 && a <= 0.01 },
			},
			Fix:     "a listener for the EtherType (AF_PACKET socket) in the receiving namespace",
			Timeout: 90 * time.Second,
			Run:     runRxUnknown,
		},
	})
}

func htons(v uint16) uint16 { return v<<8 | v>>8 }

func runRxUnknown(ctx context.Context, e *Env) (*FailureRun, error) {
	l := e.Lab
	a, b, lk, err := pairOnVeth(l)
	if err != nil {
		return nil, err
	}
	la, err := a.Netlink().LinkByName(lk.DevA)
	if err != nil {
		return nil, err
	}
	lb, err := b.Netlink().LinkByName(lk.DevB)
	if err != nil {
		return nil, err
	}
	// The sender: a raw packet socket on a's end of the link.
	var fd int
	if err := a.Do(func() (err error) {
		fd, err = unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, int(htons(rxUnknownEtherType)))
		return err
	}); err != nil {
		return nil, fmt.Errorf("lab: AF_PACKET socket in %s: %w", a.Netns(), err)
	}
	defer unix.Close(fd)
	frame := make([]byte, 60)
	copy(frame[0:6], lb.Attrs().HardwareAddr)
	copy(frame[6:12], la.Attrs().HardwareAddr)
	binary.BigEndian.PutUint16(frame[12:14], rxUnknownEtherType)
	copy(frame[14:], "headroom lab: frame of an EtherType nobody handles")
	to := &unix.SockaddrLinklayer{Protocol: htons(rxUnknownEtherType), Ifindex: la.Attrs().Index, Halen: 6}
	copy(to.Addr[:], lb.Attrs().HardwareAddr)

	rxDropped := func() (int64, error) {
		c, err := b.DevCounters(lk.DevB)
		if err != nil {
			return 0, err
		}
		v, ok := c.Get("rx_dropped")
		if !ok {
			return 0, fmt.Errorf("lab: no rx_dropped for %s in /proc/net/dev of %s", lk.DevB, b.Netns())
		}
		return v, nil
	}
	send := func(n int) error {
		start := time.Now()
		for i := 0; i < n; i++ {
			if due := start.Add(time.Duration(i) * time.Second / rxUnknownPerSec); time.Until(due) > 0 {
				if err := ctxsleep.Sleep(ctx, time.Until(due)); err != nil {
					return err
				}
			}
			if err := unix.Sendto(fd, frame, 0, to); err != nil {
				return fmt.Errorf("lab: send frame %d: %w", i, err)
			}
		}
		return nil
	}
	run := &FailureRun{}
	src := "/proc/net/dev in " + b.Netns()

	// Quiet: what doctor says before any frame, so memory findings of the host itself are
	// not mistaken for blame.
	quiet, err := e.Doctor(ctx, b, DoctorOptions{Duration: time.Second})
	if err != nil {
		return nil, err
	}
	quietIDs := map[string]bool{}
	for _, id := range allIDs(quiet) {
		quietIDs[id] = true
	}

	measure := func(phase string, doctor bool) (float64, []*DoctorResult, error) {
		d0, err := rxDropped()
		if err != nil {
			return 0, nil, err
		}
		waitDoctor := e.doctorAfter(ctx, doctor, 0, b, DoctorOptions{Duration: 2 * time.Second})
		err = send(rxUnknownFrames)
		docs, docErr := waitDoctor()
		if err != nil {
			return 0, nil, err
		}
		if docErr != nil {
			return 0, nil, docErr
		}
		time.Sleep(50 * time.Millisecond)
		d1, err := rxDropped()
		if err != nil {
			return 0, nil, err
		}
		per := float64(d1-d0) / rxUnknownFrames
		run.Observed = append(run.Observed,
			Observation{What: "frames sent (EtherType 0x88b5)", Phase: phase, Value: rxUnknownFrames, Source: "AF_PACKET socket in " + a.Netns()},
			Observation{What: lk.DevB + " rx_dropped", Phase: phase, Value: float64(d1 - d0), Unit: "increase", Source: src})
		e.Progressf("%s: %d frames sent, %s rx_dropped +%d", phase, rxUnknownFrames, lk.DevB, d1-d0)
		return per, docs, nil
	}
	before, docs, err := measure("before", true)
	if err != nil {
		return nil, err
	}
	run.Doctor, run.Findings = doctorSummaries(docs, e.sc.Failure.Expect)
	for _, id := range run.Findings {
		if r, ok := diagnose.Lookup(id); ok && r.Family == diagnose.FamilyMemory && !quietIDs[id] {
			run.Notes = append(run.Notes, "doctor blamed memory: "+id)
		}
	}

	// The fix: a handler for the EtherType in b.
	var lfd int
	if err := b.Do(func() (err error) {
		lfd, err = unix.Socket(unix.AF_PACKET, unix.SOCK_RAW|unix.SOCK_CLOEXEC, int(htons(rxUnknownEtherType)))
		if err != nil {
			return err
		}
		return unix.Bind(lfd, &unix.SockaddrLinklayer{Protocol: htons(rxUnknownEtherType), Ifindex: lb.Attrs().Index})
	}); err != nil {
		return nil, fmt.Errorf("lab: AF_PACKET listener in %s: %w", b.Netns(), err)
	}
	var got atomic.Int64
	readerDone := make(chan struct{})
	go func() {
		defer close(readerDone)
		buf := make([]byte, 2048)
		for {
			n, _, err := unix.Recvfrom(lfd, buf, 0)
			if err != nil || n == 0 {
				return
			}
			got.Add(1)
		}
	}()
	defer func() {
		unix.Shutdown(lfd, unix.SHUT_RDWR)
		unix.Close(lfd)
		select {
		case <-readerDone:
		case <-time.After(time.Second):
		}
	}()
	run.Applied = append(run.Applied, Applied{Host: b.Name, Key: "AF_PACKET listener", Value: fmt.Sprintf("EtherType %#04x on %s", rxUnknownEtherType, lk.DevB), Scope: netlab.ScopeSocket})
	run.Settings = fmt.Sprintf("a handler for EtherType %#04x in the receiving namespace", rxUnknownEtherType)
	after, _, err := measure("after", false)
	if err != nil {
		return nil, err
	}
	run.Metric = Metric{Before: before, After: after}
	run.Observed = append(run.Observed, Observation{What: "frames read by the listener", Phase: "after", Value: float64(got.Load()), Source: "AF_PACKET socket in " + b.Netns()})
	return run, nil
}

// memoryBlamed lists the memory-family findings of a run that doctor did not already report
// on the quiet host (rx-unknown-protocol's "does not blame memory").
func memoryBlamed(run *FailureRun) []string {
	var out []string
	for _, n := range run.Notes {
		if id, ok := strings.CutPrefix(n, "doctor blamed memory: "); ok {
			out = append(out, id)
		}
	}
	return out
}
