package export

import (
	"bytes"
	"fmt"

	"golang.org/x/sys/unix"

	"headroom/kernel"
	"headroom/source"
)

// sysctlFile is one /proc/sys file read on every sample. On a directory root it stays open
// and is re-read with pread at offset 0 (proc_sys_read formats the value afresh on each
// read: fs/proc/proc_sysctl.c), which costs one system call instead of an open, a read and
// a close; a capture is read through its Root.
type sysctlFile struct {
	root kernel.Root
	key  string
	rel  string // path under the root: "proc/sys/net/ipv4/tcp_mem"
	fd   int
	err  error // why the file could not be opened
	buf  [256]byte
}

func (f *sysctlFile) open(root kernel.Root, key string) {
	f.root, f.key, f.fd = root, key, -1
	f.rel, f.err = kernel.SysctlPath(key)
	if f.err != nil || root.Dir() == "" {
		return
	}
	fd, err := root.OpenFD(f.rel) // open(2) on /, the confined opener elsewhere
	if err != nil {
		// Left to kernel.ReadSysctl, which words the error as the rest of headroom does.
		return
	}
	f.fd = fd
}

// read returns the value with its fields separated by single spaces, as kernel.ReadSysctl
// does; old is returned (not a new string) when the value did not change.
func (f *sysctlFile) read(old string) (string, error) {
	if f.err != nil {
		return "", f.err
	}
	if f.fd < 0 {
		return kernel.ReadSysctl(f.root, f.key)
	}
	// A raw pread, as the sampler's: a scrape makes no system call through the scheduler
	// (rawconn.go).
	n, err := source.Pread(f.fd, f.buf[:], 0)
	for err == unix.EINTR {
		n, err = source.Pread(f.fd, f.buf[:], 0)
	}
	if err != nil {
		return "", fmt.Errorf("/%s: %w", f.rel, err)
	}
	if n == len(f.buf) {
		// Longer than any value of the two sysctls read this way: read it the long way.
		return kernel.ReadSysctl(f.root, f.key)
	}
	// The value with its white space collapsed, in place: it never gets longer.
	b := f.buf[:0]
	for fld := range bytes.FieldsSeq(f.buf[:n]) {
		if len(b) > 0 {
			b = append(b, ' ')
		}
		b = append(b, fld...)
	}
	if string(b) == old {
		return old, nil
	}
	return string(b), nil
}

func (f *sysctlFile) close() {
	if f.fd >= 0 {
		unix.Close(f.fd)
		f.fd = -1
	}
}
