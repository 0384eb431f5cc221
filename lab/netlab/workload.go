package netlab

import (
	"context"
	"fmt"
	"net"
	"net/netip"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// BulkConfig is a bulk TCP transfer from a sender host to a receiver host: Streams parallel
// connections, each writing as fast as the kernel lets it for Warmup+Measure.
type BulkConfig struct {
	Streams int
	// Warmup is excluded from the goodput: at 125 ms RTT slow start needs about
	// log2(BDP / initial window) ≈ 11 RTTs (1.4 s) to reach 1 Gbit/s, and receive-buffer
	// autotuning (tcp_rcv_space_adjust) grows the window once per RTT behind it.
	Warmup  time.Duration
	Measure time.Duration
	// SndBufBytes / RcvBufBytes > 0 set the socket buffers explicitly (which turns off
	// autotuning for that socket: SOCK_SNDBUF_LOCK / SOCK_RCVBUF_LOCK). They use
	// SO_SNDBUFFORCE / SO_RCVBUFFORCE because net.core.{w,r}mem_max, which caps the plain
	// options, is read-only inside a namespace on this kernel. The kernel doubles the value
	// (sock_setsockopt: "sk->sk_sndbuf = max_t(int, val * 2, SOCK_MIN_SNDBUF)").
	SndBufBytes, RcvBufBytes int
	// CongestionControl is set with TCP_CONGESTION on every socket; "" keeps the
	// namespace's net.ipv4.tcp_congestion_control.
	CongestionControl string
	Port              int           // default 5001
	SampleEvery       time.Duration // default 100 ms
	// Progress, if set, is called about once a second with the elapsed time and the
	// goodput of the last second, from a single goroutine.
	Progress func(elapsed time.Duration, lastSecondBitsPerSec float64)
}

// StreamResult is one connection's outcome.
type StreamResult struct {
	GoodputBitsPerSec float64 `json:"goodput_bits_per_sec"`
	BytesMeasured     uint64  `json:"bytes_measured"`
	BytesTotal        uint64  `json:"bytes_total"`
	Retransmits       uint32  `json:"retransmits"` // tcpi_total_retrans of the sender socket
	// DataSegmentsOut is tcpi_data_segs_out of the sender socket: every data segment sent,
	// retransmissions included, the denominator of a retransmit ratio.
	DataSegmentsOut   uint32        `json:"data_segments_out"`
	SndBufBytes       int           `json:"snd_buf_bytes"`
	RcvBufBytes       int           `json:"rcv_buf_bytes"`
	CongestionControl string        `json:"congestion_control"`
	SmoothedRTT       time.Duration `json:"-"`
}

// BulkResult is the outcome of a bulk transfer.
type BulkResult struct {
	Streams             []StreamResult
	TotalBitsPerSec     float64
	Retransmits         uint64
	DataSegmentsOut     uint64        // the streams' tcpi_data_segs_out summed
	Warmup, Measured    time.Duration // Measured: the actual measurement window
	PeakTCPMemPages     int64         // highest "TCP: ... mem" of /proc/net/sockstat while it ran
	BaselineTCPMemPages int64         // the same before the first connection
	// PeakSocketMemBytes is the highest sum, over the run's own sockets at both ends, of
	// what each socket has charged to TCP memory (SO_MEMINFO: rmem_alloc + wmem_queued +
	// fwd_alloc). Unlike the sockstat figure it does not move with other TCP users.
	PeakSocketMemBytes int64
	Samples            []BulkSample
}

// BulkSample is one observation during the transfer.
type BulkSample struct {
	At            time.Duration // since the streams were connected
	BytesReceived uint64        // all streams, cumulative
	TCPMemPages   int64
}

// RunBulk runs the transfer and returns per-stream and total goodput measured at the
// receiver over [Warmup, Warmup+Measure). It returns early with ctx's error if ctx ends.
func RunBulk(ctx context.Context, sender, receiver *Host, dst netip.Addr, cfg BulkConfig) (*BulkResult, error) {
	if cfg.Streams <= 0 {
		return nil, fmt.Errorf("lab: bulk: %d streams", cfg.Streams)
	}
	if cfg.Measure <= 0 {
		return nil, fmt.Errorf("lab: bulk: measure window %v", cfg.Measure)
	}
	if cfg.Port == 0 {
		cfg.Port = 5001
	}
	if cfg.SampleEvery == 0 {
		cfg.SampleEvery = 100 * time.Millisecond
	}
	defer RaisePriority()()
	addr := net.JoinHostPort(dst.String(), strconv.Itoa(cfg.Port))
	control := func(_, _ string, c syscall.RawConn) error {
		var serr error
		err := c.Control(func(fd uintptr) { serr = setSockOpts(int(fd), cfg) })
		if err != nil {
			return err
		}
		return serr
	}

	baseline, err := TCPMemPages()
	if err != nil {
		return nil, err
	}

	// The listening socket is created on a thread inside the receiver's namespace; accepted
	// sockets belong to the same namespace and can be served from any goroutine.
	var ln net.Listener
	if err := receiver.Do(func() (err error) {
		lc := net.ListenConfig{Control: control}
		ln, err = lc.Listen(ctx, "tcp4", addr)
		return err
	}); err != nil {
		return nil, fmt.Errorf("lab: bulk: listen on %s in %s: %w", addr, receiver.Netns(), err)
	}
	defer ln.Close()

	received := make([]atomic.Uint64, cfg.Streams)
	var rwg sync.WaitGroup
	acceptErr := make(chan error, 1)
	accepted := make([]net.Conn, 0, cfg.Streams)
	var amu sync.Mutex
	go func() {
		for i := 0; i < cfg.Streams; i++ {
			c, err := ln.Accept()
			if err != nil {
				acceptErr <- err
				return
			}
			amu.Lock()
			accepted = append(accepted, c)
			amu.Unlock()
			rwg.Add(1)
			go func(i int, c net.Conn) {
				defer rwg.Done()
				buf := make([]byte, 256<<10)
				for {
					n, err := c.Read(buf)
					received[i].Add(uint64(n))
					if err != nil {
						return
					}
				}
			}(i, c)
		}
		acceptErr <- nil
	}()

	conns := make([]*net.TCPConn, 0, cfg.Streams)
	closeAll := func() {
		for _, c := range conns {
			// Abort rather than close: a FIN queued behind megabytes of unsent data would
			// sit in FIN_WAIT1 (the state seed 004 found holding full send queues for days).
			c.SetLinger(0)
			c.Close()
		}
		// The receiving side aborts too. A plain close of a drained socket sends a FIN and
		// leaves it in FIN_WAIT1; once the delay line is gone that FIN is never answered,
		// the orphan retransmits it into a dead link for minutes (tcp_orphan_retries) and,
		// since a socket holds a reference on its namespace, keeps the namespace alive
		// after `ip netns` no longer lists it.
		amu.Lock()
		for _, c := range accepted {
			if tc, ok := c.(*net.TCPConn); ok {
				tc.SetLinger(0)
			}
			c.Close()
		}
		amu.Unlock()
	}
	defer closeAll()
	if err := sender.Do(func() error {
		d := net.Dialer{Control: control, Timeout: 10 * time.Second}
		for i := 0; i < cfg.Streams; i++ {
			c, err := d.DialContext(ctx, "tcp4", addr)
			if err != nil {
				return fmt.Errorf("lab: bulk: stream %d: dial %s from %s: %w", i, addr, sender.Netns(), err)
			}
			conns = append(conns, c.(*net.TCPConn))
		}
		return nil
	}); err != nil {
		return nil, err
	}
	select {
	case err := <-acceptErr:
		if err != nil {
			return nil, fmt.Errorf("lab: bulk: accept: %w", err)
		}
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	// Accept order equals connect order: the dials above are sequential and each completes
	// its handshake before the next starts, so received[i] is conns[i]'s peer.

	start := time.Now()
	end := start.Add(cfg.Warmup + cfg.Measure)
	var swg sync.WaitGroup
	for _, c := range conns {
		swg.Add(1)
		go func(c *net.TCPConn) {
			defer swg.Done()
			c.SetWriteDeadline(end)
			buf := make([]byte, 128<<10)
			for {
				if _, err := c.Write(buf); err != nil {
					return
				}
			}
		}(c)
	}

	res := &BulkResult{Warmup: cfg.Warmup, BaselineTCPMemPages: baseline, PeakTCPMemPages: baseline}
	sum := func() uint64 {
		var s uint64
		for i := range received {
			s += received[i].Load()
		}
		return s
	}
	var atWarm, atEnd []uint64
	var tWarm, tEnd time.Time
	snapshot := func() []uint64 {
		s := make([]uint64, len(received))
		for i := range received {
			s[i] = received[i].Load()
		}
		return s
	}
	ticker := time.NewTicker(cfg.SampleEvery)
	defer ticker.Stop()
	warmTimer := time.NewTimer(cfg.Warmup)
	defer warmTimer.Stop()
	endTimer := time.NewTimer(time.Until(end))
	defer endTimer.Stop()
	lastProgress, lastBytes := start, uint64(0)
	if cfg.Warmup == 0 {
		atWarm, tWarm = snapshot(), start
	}
loop:
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-warmTimer.C:
			atWarm, tWarm = snapshot(), time.Now()
		case <-endTimer.C:
			atEnd, tEnd = snapshot(), time.Now()
			break loop
		case now := <-ticker.C:
			mem, err := TCPMemPages()
			if err != nil {
				return nil, err
			}
			if mem > res.PeakTCPMemPages {
				res.PeakTCPMemPages = mem
			}
			var sockMem int64
			for _, c := range conns {
				sockMem += socketMemBytes(c)
			}
			amu.Lock()
			for _, c := range accepted {
				if tc, ok := c.(*net.TCPConn); ok {
					sockMem += socketMemBytes(tc)
				}
			}
			amu.Unlock()
			if sockMem > res.PeakSocketMemBytes {
				res.PeakSocketMemBytes = sockMem
			}
			total := sum()
			res.Samples = append(res.Samples, BulkSample{At: now.Sub(start), BytesReceived: total, TCPMemPages: mem})
			if cfg.Progress != nil && now.Sub(lastProgress) >= time.Second {
				cfg.Progress(now.Sub(start), float64(total-lastBytes)*8/now.Sub(lastProgress).Seconds())
				lastProgress, lastBytes = now, total
			}
		}
	}
	if atWarm == nil {
		return nil, fmt.Errorf("lab: bulk: warm-up %v did not end before the run did", cfg.Warmup)
	}
	swg.Wait()
	res.Measured = tEnd.Sub(tWarm)
	for i, c := range conns {
		sr := StreamResult{BytesTotal: atEnd[i], BytesMeasured: atEnd[i] - atWarm[i]}
		sr.GoodputBitsPerSec = float64(sr.BytesMeasured) * 8 / res.Measured.Seconds()
		if err := inspectSocket(c, &sr); err != nil {
			return nil, err
		}
		res.Streams = append(res.Streams, sr)
		res.TotalBitsPerSec += sr.GoodputBitsPerSec
		res.Retransmits += uint64(sr.Retransmits)
		res.DataSegmentsOut += uint64(sr.DataSegmentsOut)
	}
	return res, nil
}

func setSockOpts(fd int, cfg BulkConfig) error {
	if cfg.SndBufBytes > 0 {
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_SNDBUFFORCE, cfg.SndBufBytes); err != nil {
			return fmt.Errorf("lab: SO_SNDBUFFORCE %d: %w", cfg.SndBufBytes, err)
		}
	}
	if cfg.RcvBufBytes > 0 {
		// Before listen/connect: the window scale is fixed by the buffer at SYN time.
		if err := unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, cfg.RcvBufBytes); err != nil {
			return fmt.Errorf("lab: SO_RCVBUFFORCE %d: %w", cfg.RcvBufBytes, err)
		}
	}
	if cfg.CongestionControl != "" {
		if err := unix.SetsockoptString(fd, unix.IPPROTO_TCP, unix.TCP_CONGESTION, cfg.CongestionControl); err != nil {
			return fmt.Errorf("lab: TCP_CONGESTION %q (see /proc/sys/net/ipv4/tcp_available_congestion_control): %w", cfg.CongestionControl, err)
		}
	}
	return nil
}

// soMeminfo is SO_MEMINFO (include/uapi/asm-generic/socket.h, Linux 4.12), which x/sys/unix
// does not export; alpha, mips, parisc and sparc number it differently and are not
// supported by the lab.
const soMeminfo = 55

// socketMemBytes is what one socket has charged to its protocol's memory: the truesize of
// its receive queue (SK_MEMINFO_RMEM_ALLOC), of its send and retransmit queues
// (SK_MEMINFO_WMEM_QUEUED), and the forward allocation it holds in reserve
// (SK_MEMINFO_FWD_ALLOC); the same quantities sk_mem_schedule charges to tcp_memory_allocated.
// 0 when the socket is gone.
func socketMemBytes(c *net.TCPConn) int64 {
	rc, err := c.SyscallConn()
	if err != nil {
		return 0
	}
	var v [unix.SK_MEMINFO_VARS]uint32
	var got bool
	rc.Control(func(fd uintptr) {
		l := uint32(unsafe.Sizeof(v))
		_, _, e := unix.Syscall6(unix.SYS_GETSOCKOPT, fd, unix.SOL_SOCKET, soMeminfo, uintptr(unsafe.Pointer(&v[0])), uintptr(unsafe.Pointer(&l)), 0)
		got = e == 0
	})
	if !got {
		return 0
	}
	return int64(v[unix.SK_MEMINFO_RMEM_ALLOC]) + int64(v[unix.SK_MEMINFO_WMEM_QUEUED]) + int64(v[unix.SK_MEMINFO_FWD_ALLOC])
}

func inspectSocket(c *net.TCPConn, sr *StreamResult) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var ierr error
	err = rc.Control(func(fd uintptr) {
		info, err := unix.GetsockoptTCPInfo(int(fd), unix.IPPROTO_TCP, unix.TCP_INFO)
		if err != nil {
			ierr = fmt.Errorf("lab: TCP_INFO: %w", err)
			return
		}
		sr.Retransmits = info.Total_retrans
		sr.DataSegmentsOut = info.Data_segs_out
		sr.SmoothedRTT = time.Duration(info.Rtt) * time.Microsecond
		sr.SndBufBytes, _ = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_SNDBUF)
		sr.RcvBufBytes, _ = unix.GetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF)
		sr.CongestionControl, _ = unix.GetsockoptString(int(fd), unix.IPPROTO_TCP, unix.TCP_CONGESTION)
	})
	if err != nil {
		return err
	}
	return ierr
}
