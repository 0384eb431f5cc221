package export

import (
	"io"
	"net"
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
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return c, nil
	}
	rc, err := tc.SyscallConn()
	if err != nil {
		return c, nil
	}
	return &rawConn{TCPConn: tc, rc: rc}, nil
}

// rawConn is a TCP connection whose Read and Write are raw system calls; the rest
// (deadlines, Close, CloseWrite, addresses) is the TCPConn's.
type rawConn struct {
	*net.TCPConn
	rc syscall.RawConn
}

// Read reads as net.Conn's Read does: io.EOF at the end of the stream, a *net.OpError
// otherwise (a timeout when the read deadline passes: net/http relies on it to stop its
// background read).
func (c *rawConn) Read(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Read(func(fd uintptr) bool {
		for {
			r, _, e := unix.RawSyscall(unix.SYS_READ, fd, uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
			switch e {
			case unix.EINTR:
				continue
			case unix.EAGAIN:
				return false // wait in the netpoller
			}
			n, errno = int(r), e
			return true
		}
	})
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
// returns how much it wrote and a *net.OpError.
func (c *rawConn) Write(b []byte) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	var n int
	var errno syscall.Errno
	err := c.rc.Write(func(fd uintptr) bool {
		for n < len(b) {
			r, _, e := unix.RawSyscall(unix.SYS_WRITE, fd, uintptr(unsafe.Pointer(&b[n])), uintptr(len(b)-n))
			switch e {
			case 0:
				n += int(r)
			case unix.EINTR:
			case unix.EAGAIN:
				return false
			default:
				errno = e
				return true
			}
		}
		return true
	})
	if err == nil && errno != 0 {
		err = errno
	}
	if err != nil {
		return n, &net.OpError{Op: "write", Net: "tcp", Source: c.LocalAddr(), Addr: c.RemoteAddr(), Err: err}
	}
	return n, nil
}
