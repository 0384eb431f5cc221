package tune

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/unix"

	"headroom/kernel"
)

// SysctlFS reads and writes sysctls by their dotted key ("net.ipv4.tcp_rmem"). The real one
// is ProcSys on /proc/sys (possibly inside a network namespace, see NetnsFS); tests inject a
// fake to make writes fail on purpose.
type SysctlFS interface {
	// Read returns the value as the kernel prints it, without the trailing newline.
	Read(key string) (string, error)
	// Write sets the value; it does not read it back.
	Write(key, value string) error
}

// writableChecker is implemented by file systems that can tell, without writing, whether a
// key may be written (a global sysctl that a non-initial network namespace shows read-only).
type writableChecker interface {
	Writable(key string) (bool, error)
}

// ProcSys is SysctlFS on a /proc/sys directory: "/proc/sys" on a live host, or a directory
// laid out like it (tests, captured trees).
type ProcSys struct {
	Dir string
}

// HostProcSys is /proc/sys of the calling thread's namespaces.
func HostProcSys() ProcSys { return ProcSys{Dir: "/proc/sys"} }

// readBufBytes is the size of each read(2) on a sysctl file. proc_sys_call_handler
// (fs/proc/proc_sysctl.c) allocates a kernel buffer of the size the reader asks for, so
// asking for a page rather than a large buffer keeps every read a single small allocation;
// no sysctl that headroom touches prints more than a few dozen bytes.
const readBufBytes = 4096

// KeyPath turns a sysctl key into its path relative to /proc/sys, the way sysctl(8) does:
// in the dotted form dots separate components and a slash stands for a dot inside a
// component ("net.ipv4.conf.eth0/100.rp_filter" is net/ipv4/conf/eth0.100/rp_filter); a key
// whose first separator is a slash is already a path.
func KeyPath(key string) (string, error) {
	if key == "" {
		return "", errors.New("empty sysctl key")
	}
	for _, r := range key {
		ok := r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' ||
			strings.ContainsRune("._-/:@+", r)
		if !ok {
			return "", fmt.Errorf("sysctl key %q: character %q is not allowed", key, r)
		}
	}
	var p string
	if i := strings.IndexAny(key, "./"); i >= 0 && key[i] == '/' {
		p = key
	} else {
		p = strings.Map(func(r rune) rune {
			switch r {
			case '.':
				return '/'
			case '/':
				return '.'
			}
			return r
		}, key)
	}
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." || c == ".." {
			return "", fmt.Errorf("sysctl key %q: empty or relative component", key)
		}
	}
	return p, nil
}

// KeyName is the inverse of KeyPath for keys read from a path ("net/ipv4/tcp_rmem").
func KeyName(path string) string {
	return strings.Map(func(r rune) rune {
		switch r {
		case '/':
			return '.'
		case '.':
			return '/'
		}
		return r
	}, strings.Trim(path, "/"))
}

func (p ProcSys) path(key string) (string, error) {
	rel, err := KeyPath(key)
	if err != nil {
		return "", err
	}
	return filepath.Join(p.Dir, filepath.FromSlash(rel)), nil
}

// Read reads the whole value with reads of readBufBytes.
func (p ProcSys) Read(key string) (string, error) {
	path, err := p.path(key)
	if err != nil {
		return "", err
	}
	f, err := os.Open(path)
	if err != nil {
		return "", &SysctlError{Op: "open", Key: key, Path: path, Err: err}
	}
	defer f.Close()
	buf := make([]byte, readBufBytes)
	var out []byte
	for {
		n, err := f.Read(buf)
		out = append(out, buf[:n]...)
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", &SysctlError{Op: "read", Key: key, Path: path, Err: err}
		}
		if len(out) > 1<<20 {
			return "", &SysctlError{Op: "read", Key: key, Path: path, Err: errors.New("value longer than 1 MiB")}
		}
	}
	return strings.TrimRight(string(out), "\n"), nil
}

// Write writes value and a newline with one write(2) at offset 0. A sysctl parses what a
// single write hands it (with kernel.sysctl_writes_strict=1, the default since v4.5, commit
// 41662f5cc553 "sysctl: enable strict writes", a numeric write at a non-zero file position is
// ignored), so the value must never be split across writes as a buffered writer could do.
func (p ProcSys) Write(key, value string) error {
	path, err := p.path(key)
	if err != nil {
		return err
	}
	if strings.ContainsAny(value, "\n\x00") {
		return fmt.Errorf("sysctl %s: value %q contains a newline or NUL", key, value)
	}
	// O_TRUNC keeps a regular file (a test tree) exact; /proc/sys ignores it, as it does for
	// a shell's "echo v > /proc/sys/...".
	fd, err := unix.Open(path, unix.O_WRONLY|unix.O_TRUNC|unix.O_CLOEXEC, 0)
	if err != nil {
		return &SysctlError{Op: "open", Key: key, Path: path, Value: value, Err: err}
	}
	data := []byte(value + "\n")
	n, err := unix.Write(fd, data)
	cerr := unix.Close(fd)
	if err != nil {
		return &SysctlError{Op: "write", Key: key, Path: path, Value: value, Err: err}
	}
	if n != len(data) {
		return &SysctlError{Op: "write", Key: key, Path: path, Value: value,
			Err: fmt.Errorf("short write: %d of %d bytes", n, len(data))}
	}
	if cerr != nil {
		return &SysctlError{Op: "close", Key: key, Path: path, Value: value, Err: cerr}
	}
	return nil
}

// Writable reports whether the key's file may be opened for writing by this thread, which
// for /proc/sys asks the sysctl table's own permission check (proc_sys_permission →
// net_ctl_permissions for net.*): root gets EACCES on a global value that a non-initial
// network namespace exposes read-only.
func (p ProcSys) Writable(key string) (bool, error) {
	path, err := p.path(key)
	if err != nil {
		return false, err
	}
	err = unix.Access(path, unix.W_OK)
	switch {
	case err == nil:
		return true, nil
	case errors.Is(err, unix.EACCES), errors.Is(err, unix.EPERM), errors.Is(err, unix.EROFS):
		return false, nil
	}
	return false, &SysctlError{Op: "access", Key: key, Path: path, Err: err}
}

// SysctlError is a failed read or write of one sysctl, with the kernel's errno and what it
// usually means in words.
type SysctlError struct {
	Op    string // open, read, write, close, access
	Key   string
	Path  string
	Value string // for writes
	Err   error
}

func (e *SysctlError) Error() string {
	what := e.Op + " " + e.Path
	if e.Value != "" {
		what = fmt.Sprintf("%s %q to %s", e.Op, e.Value, e.Path)
	}
	msg := fmt.Sprintf("sysctl %s: %s: %v", e.Key, what, e.Err)
	if h := e.Hint(); h != "" {
		msg += " (" + h + ")"
	}
	return msg
}

// Unwrap lets errors.Is see the errno, and kernel.ErrNotSupported for a key this kernel or
// this namespace does not have.
func (e *SysctlError) Unwrap() []error {
	if e.Op == "open" && errors.Is(e.Err, unix.ENOENT) {
		return []error{e.Err, kernel.ErrNotSupported}
	}
	return []error{e.Err}
}

// Hint says in words what the errno usually means for a sysctl.
func (e *SysctlError) Hint() string {
	switch {
	case errors.Is(e.Err, unix.EINVAL):
		return "EINVAL: the kernel rejected the value: outside the key's range or malformed"
	case errors.Is(e.Err, unix.EROFS):
		return "EROFS: /proc/sys is mounted read-only, as container runtimes do unless the container is privileged"
	case errors.Is(e.Err, unix.EPERM), errors.Is(e.Err, unix.EACCES):
		return "EPERM/EACCES: needs root (CAP_SYS_ADMIN, or CAP_NET_ADMIN for net.*) in the user namespace that owns the key; " +
			"in a container without those, or for a global value a non-initial network namespace shows read-only, the write is refused"
	case errors.Is(e.Err, unix.ENOENT) && e.Op == "open":
		return "ENOENT: this kernel has no such sysctl, or it is global and hidden inside a network namespace"
	case errors.Is(e.Err, unix.ENOENT):
		return "ENOENT: the value names something the kernel does not have (for tcp_congestion_control: no such algorithm, and no module of that name)"
	case errors.Is(e.Err, unix.EBUSY):
		return "EBUSY: the kernel cannot change this value now"
	}
	return ""
}

// SameValue compares two sysctl values as the kernel means them: vectors print tab-separated
// ("4096\t131072\t6291456") and are written space-separated, so runs of white space are equal.
func SameValue(a, b string) bool { return NormalizeValue(a) == NormalizeValue(b) }

// NormalizeValue collapses white space to single spaces and trims the ends.
func NormalizeValue(v string) string { return strings.Join(strings.Fields(v), " ") }
