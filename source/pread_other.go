//go:build !(amd64 || arm64)

package source

import "golang.org/x/sys/unix"

// pread is unix.Pread: on 32-bit targets the offset takes two registers, arranged per
// architecture, which x/sys/unix does (pread64.go explains the 64-bit version).
func pread(fd int, b []byte, off int64) (int, error) { return unix.Pread(fd, b, off) }
