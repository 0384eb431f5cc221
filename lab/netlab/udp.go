package netlab

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// UDP workloads: a steady sender and a counting receiver, for scenarios whose drops happen
// between the two (a full socket buffer, a full input backlog). What was dropped is read
// from the kernel's counters (Host.NetStat, softnet_stat); these count what was sent and
// what arrived.

// UDPSink says how a UDPReceiver reads.
type UDPSink struct {
	// RcvBuf, when positive, is set with SO_RCVBUFFORCE (root may exceed net.core.rmem_max,
	// so a scenario gets exactly the buffer it asks for without touching the host's global).
	RcvBuf int
	// Pause, when positive, makes the receiver a slow one: it sleeps Pause, drains what is
	// queued, and sleeps again, so the buffer must hold Pause's worth of datagrams. Zero
	// reads as fast as possible (the drops under test then happen before the socket).
	Pause time.Duration
}

// UDPReceiver reads a UDP socket in a lab host and counts the datagrams it got.
type UDPReceiver struct {
	conn     *net.UDPConn
	received atomic.Int64
	stop     chan struct{}
	wg       sync.WaitGroup
}

// ListenUDP opens a UDP socket on addr in h and reads it as cfg says until Close.
func ListenUDP(h *Host, addr string, cfg UDPSink) (*UDPReceiver, error) {
	r := &UDPReceiver{stop: make(chan struct{})}
	err := h.Do(func() error {
		ua, err := net.ResolveUDPAddr("udp4", addr)
		if err != nil {
			return err
		}
		r.conn, err = net.ListenUDP("udp4", ua)
		if err != nil {
			return err
		}
		if cfg.RcvBuf > 0 {
			rc, _ := r.conn.SyscallConn()
			var serr error
			rc.Control(func(fd uintptr) { serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, cfg.RcvBuf) })
			if serr != nil {
				r.conn.Close()
				return fmt.Errorf("SO_RCVBUFFORCE %d: %w", cfg.RcvBuf, serr)
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
		buf := make([]byte, 64<<10)
		for {
			if cfg.Pause > 0 {
				select {
				case <-r.stop:
					return
				case <-time.After(cfg.Pause):
				}
			}
			// Drain what is queued (a slow receiver), or read until Close (a fast one).
			for {
				if cfg.Pause > 0 {
					r.conn.SetReadDeadline(time.Now().Add(time.Millisecond))
				}
				if _, _, err := r.conn.ReadFromUDP(buf); err != nil {
					if errors.Is(err, net.ErrClosed) {
						return
					}
					if cfg.Pause > 0 {
						break
					}
					continue
				}
				r.received.Add(1)
			}
		}
	}()
	return r, nil
}

// Received is the number of datagrams read so far.
func (r *UDPReceiver) Received() int64 { return r.received.Load() }

// RcvBuf is the socket's receive buffer as the kernel reports it (doubled, see SO_RCVBUF in
// socket(7)).
func (r *UDPReceiver) RcvBuf() int {
	rc, err := r.conn.SyscallConn()
	if err != nil {
		return 0
	}
	var v int
	rc.Control(func(fd uintptr) { v, _ = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF) })
	return v
}

// Close stops the reader and closes the socket.
func (r *UDPReceiver) Close() {
	close(r.stop)
	r.conn.Close()
	r.wg.Wait()
}

// UDPFlood says what a UDPSender sends.
type UDPFlood struct {
	PPS   int // datagrams a second
	Bytes int // payload of each datagram
	// Pin, with CPU, pins the sending thread to that CPU: RPS can then steer the receive
	// work to another CPU than the one that sends.
	Pin bool
	CPU int
}

// UDPSender sends a steady UDP flood from a lab host until Stop.
type UDPSender struct {
	sent   atomic.Int64
	cancel context.CancelFunc
	done   chan struct{}
}

// udpSenderTick is how often the sender catches up with its schedule; udpCatchUp bounds how
// far behind it may fall before it gives the time up: a steady sender does not make up the
// time the machine did not give its thread with a burst.
const (
	udpSenderTick = 200 * time.Microsecond
	udpCatchUp    = 5 * time.Millisecond
)

// StartUDPFlood starts sending cfg.PPS datagrams a second from a thread in h to addr, until
// Stop or the end of ctx. Errors that say the path is full (ENOBUFS) or that nobody listens
// yet (ECONNREFUSED, from an ICMP port unreachable) do not stop it; any other write error
// ends the flood early, which Sent shows.
func StartUDPFlood(ctx context.Context, h *Host, addr string, cfg UDPFlood) (*UDPSender, error) {
	if cfg.PPS <= 0 || cfg.Bytes <= 0 {
		return nil, fmt.Errorf("lab: UDP flood of %d datagrams/s of %d bytes", cfg.PPS, cfg.Bytes)
	}
	ctx, cancel := context.WithCancel(ctx)
	s := &UDPSender{cancel: cancel, done: make(chan struct{})}
	ready := make(chan error, 1)
	go func() {
		defer close(s.done)
		// The whole flood runs on the namespace's locked thread, which is what may be pinned.
		err := h.Do(func() error {
			if cfg.Pin {
				var set unix.CPUSet
				set.Set(cfg.CPU)
				if err := unix.SchedSetaffinity(0, &set); err != nil {
					return fmt.Errorf("pin sender to CPU %d: %w", cfg.CPU, err)
				}
			}
			ua, err := net.ResolveUDPAddr("udp4", addr)
			if err != nil {
				return err
			}
			c, err := net.DialUDP("udp4", nil, ua)
			if err != nil {
				return err
			}
			defer c.Close()
			ready <- nil
			buf := make([]byte, cfg.Bytes)
			start := time.Now()
			lag := int64(float64(cfg.PPS) * udpCatchUp.Seconds())
			var next int64 // position in the schedule
			for ctx.Err() == nil {
				due := int64(time.Since(start).Seconds() * float64(cfg.PPS))
				next = max(next, due-lag)
				for ; next < due; next++ {
					if _, err := c.Write(buf); err != nil && !errors.Is(err, unix.ENOBUFS) && !errors.Is(err, unix.ECONNREFUSED) {
						return nil
					}
					s.sent.Add(1)
				}
				time.Sleep(udpSenderTick)
			}
			return nil
		})
		if err != nil {
			ready <- err
		}
	}()
	if err := <-ready; err != nil {
		cancel()
		<-s.done
		return nil, fmt.Errorf("lab: UDP sender in %s: %w", h.Netns(), err)
	}
	return s, nil
}

// Sent is the number of datagrams written so far.
func (s *UDPSender) Sent() int64 { return s.sent.Load() }

// Stop ends the flood and waits for the sender.
func (s *UDPSender) Stop() {
	s.cancel()
	<-s.done
}
