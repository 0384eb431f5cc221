package source

// Pread is the sampler's pread (pread64.go): a raw system call on 64-bit targets, for
// readers outside this package that re-read a /proc or /sys file in serve's scrape path
// (export's sysctl files), where a system call through the scheduler wakes the runtime's
// sysmon thread (export/rawconn.go says what that costs).
func Pread(fd int, b []byte, off int64) (int, error) { return pread(fd, b, off) }
