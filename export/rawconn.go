package export

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Serve's HTTP connections read and write with raw system calls.
//
// Why: a system call made through the scheduler (syscall.Read and Write, which net's
// connections use, call entersyscall) wakes the runtime's sysmon thread when it sleeps
// because every P was idle (runtime/proc.go reentersyscall, entersyscallWakeSysmon). Woken
// so, sysmon starts over at its shortest period and sleeps 20 µs at a time until it sees
// every P idle again (runtime/proc.go sysmon): for a process that wakes for one short
// scrape every 15 s, that is one sleep and wake-up of a second thread every 20 µs of the
// scrape, each a context switch. Measured on the 2-vCPU VM (issue 33, docs/performance.md):
// 5.9 voluntary context switches per scrape, sysmon's usleep a seventh of serve's CPU in
// perf; with every system call of a scrape raw (these connections, the sampler's and the
// sysctl files' preads, /dev/kmsg, ethtool), 1.6.
//
// A raw system call keeps the goroutine's P for its duration. These do not block: the
// socket is non-blocking (net sets O_NONBLOCK), so a read with nothing to read or a write
// to a full send buffer returns EAGAIN at once, and the goroutine then waits in the
// netpoller as net's own reads and writes do (syscall.RawConn's Read and Write), deadlines
// included.
type rawListener struct{ net.Listener }

// Accept wraps each TCP connection; anything else is returned as it is.
func (l rawListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	if rc := wrapRaw(c); rc != nil {
		return rc, nil
	}
	return c, nil
}

// wrapRaw returns c as a rawConn, or nil when it is not a TCP connection.
func wrapRaw(c net.Conn) *rawConn {
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return nil
	}
	r := &rawConn{TCPConn: tc, rc: rc}
	r.rd.fn, r.wr.fn = r.readRaw, r.writeRaw
	return r
}

// rawConn is a TCP connection whose Read and Write are raw system calls; the rest
// (deadlines, Close, CloseWrite, addresses) is the TCPConn's.
type rawConn struct {
	*net.TCPConn
	rc syscall.RawConn
	// fastIdle is set while the fast path waits for the connection's next request
	// (fastServer.setIdle; guarded by the fastServer's mu).
	fastIdle bool
	// While hold is set, Write keeps what it is given in held, which the next Write sends
	// ahead of its own bytes in one writev: /metrics holds its response's header so that
	// the header and the body leave in one system call (holdHeader). Only the
	// connection's serving goroutine writes (HTTP/1.1 answers one request at a time).
	hold   bool
	held   []byte
	writes atomic.Int64 // write system calls made (tests), counted before each is made
	// pending are bytes the fast path read and handed over with the connection
	// (fastpath.go): Read returns them first.
	pending []byte
	// What a read and a write give the netpoller to call, and what it shares with them:
	// made once per connection. A closure per call, and the variables it shared with its
	// caller, were five allocations a scrape (TestFastPathAllocations). A direction's
	// mutex keeps the state its own if Read (or Write) is ever called from two goroutines
	// at once, which net.Conn allows.
	rd struct {
		sync.Mutex
		fn    func(fd uintptr) bool
		b     []byte
		n     int
		errno syscall.Errno
	}
	wr struct {
		sync.Mutex
		fn    func(fd uintptr) bool
		b     []byte
		n, h  int // bytes of b and of held written
		errno syscall.Errno
		iov   [2]unix.Iovec
	}
	// enc and encGzip are the last Accept-Encoding value the fast path answered and
	// whether it accepts gzip (a Prometheus server sends the same one every time; its
	// string was an allocation a scrape). Only the connection's serving goroutine uses them.
	enc      []byte
	encGzip  bool
	encKnown bool
}

// connKey is the request context's key of the connection the request came on.
type connKey struct{}

// connContext is http.Server.ConnContext for rawListener's connections: it lets a handler
// find its rawConn (holdHeader).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if rc, ok := c.(*rawConn); ok {
		return context.WithValue(ctx, connKey{}, rc)
	}
	return ctx
}

// holdHeader makes w's response header leave with the first bytes of its body in one
// write, and reports whether it did.
//
// Why: net/http writes the header into its 4 KB connection buffer (net/http's
// newBufioWriterSize(..., 4<<10) in server.go), which a body of more than the rest of it
// fills and sends, then the rest of the body on its own: two writes for any body above
// about 3.8 KB, and each write on loopback is delivered in the writer's own context
// (loopback_xmit -> the receiving socket's softirq work), charged to serve. Here the header
// is flushed ahead of the body into the connection's held bytes, and the body's first
// write (the whole of a body larger than the buffer, which bufio passes through without a
// copy; or the buffer's flush when the handler returns) sends both with writev.
//
// The caller must then write a non-empty body: held bytes go out only with a later write
// (nothing else sends them).
func holdHeader(w http.ResponseWriter, r *http.Request, status int) bool {
	rc, ok := r.Context().Value(connKey{}).(*rawConn)
	f, canFlush := w.(http.Flusher)
	if !ok || !canFlush || r.Method != http.MethodGet {
		return false // HEAD: net/http discards the body, which would leave the header held
	}
	w.WriteHeader(status)
	rc.hold = true
	f.Flush()
	rc.hold = false
	return true
}

// Read reads as net.Conn's Read does: io.EOF at the end of the stream, a *net.OpError
// otherwise (a timeout when the read deadline passes: net/http relies on it to stop its
// background read).
func (c *rawConn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	if len(c.pending) > 0 {
		n := copy(b, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	// Read does not touch held bytes: net/http reads in the background while the handler
	// writes (connReader.backgroundRead), so only the writing goroutine may (a send of a
	// held header from here raced with the handler's writes: go test -race,
	// TestRawConnHTTP). holdHeader's caller writes the body right after it.
	r := &c.rd
	r.Lock()
	r.b, r.n, r.errno = b, 0, 0
	err := c.rc.Read(r.fn)
	n, errno := r.n, r.errno
	r.b = nil
	r.Unlock()
	if err == nil && errno != 0 {
		err = errno
	}
	if err != nil {
		return 0, &net.OpError{Op: "read", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	if n == 0 {
		return 0, io.EOF
	}
	return n, nil
}

// Write writes all of b, waiting in the netpoller while the send buffer is full, or
// returns how much of b it wrote and a *net.OpError. Bytes held before it (holdHeader) are
// written first, in the same system calls; while hold is set it only holds b.
func (c *rawConn) Write(b []byte) (int, error) {
	if c.hold {
		c.held = append(c.held, b...)
		return len(b), nil
	}
	if len(b) == 0 && len(c.held) == 0 {
		return 0, nil
	}
	w := &c.wr
	w.Lock()
	w.b, w.n, w.h, w.errno = b, 0, 0, 0
	err := c.rc.Write(w.fn)
	n, h, errno := w.n, w.h, w.errno
	w.b = nil
	w.Unlock()
	if h == len(c.held) {
		c.held = c.held[:0]
	} else {
		c.held = c.held[h:] // an error: the connection is done for
	}
	if err == nil && errno != 0 {
		err = errno
	}
	if err != nil {
		return n, &net.OpError{Op: "write", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	return n, nil
}

// readRaw is what Read gives the netpoller: one read into c.rd.b, or false to wait for
// the socket to be readable.
func (c *rawConn) readRaw(fd uintptr) bool {
	r := &c.rd
	for {
		n, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&r.b[0])), uintptr(len(r.b)))
		switch e {
		case unix.EINTR:
			continue
		case unix.EAGAIN:
			return false // wait in the netpoller
		}
		r.n, r.errno = int(n), e
		return true
	}
}

// writeRaw is what Write gives the netpoller: the held bytes and c.wr.b written, or false
// to wait for room in the send buffer, or an error in c.wr.errno.
func (c *rawConn) writeRaw(fd uintptr) bool {
	w := &c.wr
	b := w.b
	for w.n < len(b) || w.h < len(c.held) {
		var r uintptr
		var e syscall.Errno
		if w.h < len(c.held) {
			iov := &w.iov
			iov[0].Base = &c.held[w.h]
			iov[0].SetLen(len(c.held) - w.h)
			cnt := 1
			if w.n < len(b) {
				iov[1].Base = &b[w.n]
				iov[1].SetLen(len(b) - w.n)
				cnt = 2
			}
			c.writes.Add(1)
			r, _, e = unix.RawSyscall(unix.SYS_WRITEV, fd, uintptr(unsafe.Pointer(&iov[0])), uintptr(cnt))
			iov[0].Base, iov[1].Base = nil, nil
			if e == 0 {
				d := min(int(r), len(c.held)-w.h)
				w.h += d
				r -= uintptr(d)
			}
		} else {
			c.writes.Add(1)
			r, _, e = unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[w.n])), uintptr(len(b)-w.n))
		}
		switch e {
		case 0:
			w.n += int(r)
		case unix.EINTR:
		case unix.EAGAIN:
			return false
		default:
			w.errno = e
			return true
		}
	}
	return true
}
