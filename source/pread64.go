//go:build amd64 || arm64

package source

import (
	"unsafe"

	"golang.org/x/sys/unix"
)

// pread is pread(2) issued as a raw system call, without the Go scheduler's hand-off
// (entersyscall/exitsyscall), which costs about a tenth of a sample's user time. That hand-off
// exists so that a blocking call does not hold its P; a read of a /proc or /sys file does
// not block (seq_file show functions take spinlocks and RCU, not sleeping waits on I/O), and
// holds the P for tens of microseconds at most. On 64-bit targets the offset is one
// register; other targets use unix.Pread (pread_other.go).
func pread(fd int, b []byte, off int64) (int, error) {
	var p unsafe.Pointer
	if len(b) > 0 {
		p = unsafe.Pointer(&b[0])
	}
	n, _, errno := unix.RawSyscall6(unix.SYS_PREAD64, uintptr(fd), uintptr(p), uintptr(len(b)), uintptr(off), 0, 0)
	if errno != 0 {
		return 0, errno
	}
	return int(n), nil
}
