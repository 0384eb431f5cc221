package kernel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Everything read from a directory that is not this host's / (a captured tree, --root,
// --host-root) goes through one opener, confinedFS (issue 30 items 2 and 3). Such a
// directory is input: whoever wrote it may have put a FIFO where /proc/vmstat should be (an
// open that blocks for ever, deaf to SIGTERM), a link to /dev/zero (a read that never ends),
// a sparse file of a terabyte, or a link to /etc/shadow (whose first line a parse error
// would quote). The opener:
//
//   - resolves the name with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS) from the
//     directory: a symlink is followed only while it stays inside it (an absolute link, or
//     one whose ".." climbs out, fails with EXDEV), and procfs's magic links (fd/N, exe,
//     ns/*) are not followed at all; a mounted host's own relative links (proc/net →
//     self/net, proc/self → PID, sys/class/net/X → ../../devices/…) resolve as before;
//   - opens with O_NONBLOCK|O_NOCTTY, so a FIFO or a terminal cannot block the open;
//   - fstats the result and refuses anything but a regular file or a directory (devices,
//     FIFOs, sockets): procfs and sysfs files are regular files;
//   - refuses a regular file whose size is above MaxRootFileBytes, and stops reading any
//     file (procfs files say size 0) past it.
//
// Each refusal is a *RefusedError, which the sampler reports under "Not available" with
// the file's name ("/proc/vmstat: a FIFO, refused: ...").
//
// The live root (/) keeps os.DirFS and plain open(2): its files are the kernel's, and the
// sampler's cost per sample is a stated target (docs/performance.md). The opener's cost is
// paid at open time only; the sampler opens its files once and preads them.

// MaxRootFileBytes is the most read of one file under a captured or mounted root. The
// largest kernel file headroom reads is /proc/interrupts, about 45 KB a line on a
// 4096-CPU host (11 bytes a column), a few MB in all; a capture holds at most 256 MiB in
// all (input.DefaultMaxCaptureBytes).
const MaxRootFileBytes = 32 << 20

// RefusedError is a file under a root that headroom will not read.
type RefusedError struct {
	Name string // relative to the root: "proc/vmstat"
	Why  string // "a FIFO", "a symlink leading out of the root"
}

func (e *RefusedError) Error() string {
	return e.Why + ", refused: only regular files inside the directory are read from a capture or a mounted host"
}

// OverCap is the refusal of a file that turned out longer than MaxRootFileBytes while read.
func OverCap(name string) *RefusedError {
	return &RefusedError{Name: name, Why: fmt.Sprintf("over the %d MiB cap of a kernel file", MaxRootFileBytes>>20)}
}

// ErrRefused matches every RefusedError with errors.Is.
var ErrRefused = errors.New("refused")

// Is makes errors.Is(err, ErrRefused) true.
func (e *RefusedError) Is(target error) bool { return target == ErrRefused }

// confinedFS is the fs.FS of a directory root other than /.
type confinedFS struct {
	dir  string
	once sync.Once
	d    *os.File // the directory, opened once with O_PATH; closed by its finalizer
	derr error
}

func newConfinedFS(dir string) *confinedFS { return &confinedFS{dir: dir} }

func (c *confinedFS) dirFD() (int, error) {
	c.once.Do(func() {
		fd, err := unix.Open(c.dir, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			c.derr = &fs.PathError{Op: "open", Path: c.dir, Err: err}
			return
		}
		c.d = os.NewFile(uintptr(fd), c.dir)
	})
	if c.derr != nil {
		return -1, c.derr
	}
	return int(c.d.Fd()), nil
}

// openat2Missing is set once openat2 turns out to be unavailable (kernels before 5.6,
// seccomp filters that answer ENOSYS or EPERM); the opener then uses os.Root, which
// resolves each component itself and refuses links that leave the directory.
var openat2Missing sync.Once
var noOpenat2 bool

// openFD opens name (slash-separated, relative) for reading and returns its descriptor,
// after the checks above. A directory is allowed only with dirOK.
func (c *confinedFS) openFD(name string, dirOK bool) (int, unix.Stat_t, error) {
	var st unix.Stat_t
	if !fs.ValidPath(name) {
		return -1, st, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	dfd, err := c.dirFD()
	if err != nil {
		return -1, st, err
	}
	const flags = unix.O_RDONLY | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
	fd := -1
	if !noOpenat2 {
		how := unix.OpenHow{Flags: flags, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
		// EAGAIN: a rename or mount raced the lookup (openat2(2)); a few tries settle it.
		for try := 0; try < 8; try++ {
			fd, err = unix.Openat2(dfd, name, &how)
			if err != unix.EINTR && err != unix.EAGAIN {
				break
			}
		}
		if err == unix.ENOSYS || err == unix.EPERM {
			openat2Missing.Do(func() { noOpenat2 = true })
		}
	}
	if noOpenat2 {
		fd, err = c.openByRoot(name, flags)
	}
	switch {
	case err == nil:
	case errors.Is(err, unix.EXDEV), errors.Is(err, unix.ELOOP):
		return -1, st, &RefusedError{Name: name, Why: "a symlink leading out of the directory"}
	default:
		return -1, st, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return -1, st, &fs.PathError{Op: "fstat", Path: name, Err: err}
	}
	why := ""
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFREG:
		if st.Size > MaxRootFileBytes {
			why = fmt.Sprintf("%d MiB, over the %d MiB cap of a kernel file", st.Size>>20, MaxRootFileBytes>>20)
		}
	case unix.S_IFDIR:
		if !dirOK {
			why = "a directory"
		}
	case unix.S_IFIFO:
		why = "a FIFO"
	case unix.S_IFCHR:
		why = "a character device"
	case unix.S_IFBLK:
		why = "a block device"
	case unix.S_IFSOCK:
		why = "a socket"
	default:
		why = "a special file"
	}
	if why != "" {
		unix.Close(fd)
		return -1, st, &RefusedError{Name: name, Why: why}
	}
	return fd, st, nil
}

// openByRoot is the opener without openat2: os.Root follows symlinks only inside the
// directory (it resolves each component with openat and O_NOFOLLOW). The flags keep
// O_NONBLOCK, so a FIFO does not block it either.
func (c *confinedFS) openByRoot(name string, flags int) (int, error) {
	r, err := os.OpenRoot(c.dir)
	if err != nil {
		return -1, err
	}
	defer r.Close()
	f, err := r.OpenFile(filepath.FromSlash(name), flags, 0)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) && pe.Err != nil && pe.Err.Error() == "path escapes from parent" {
			return -1, unix.EXDEV
		}
		var errno unix.Errno
		if errors.As(err, &errno) {
			return -1, errno
		}
		return -1, err
	}
	defer f.Close()
	// Fd would switch the file to blocking mode; a duplicate keeps the descriptor's flags.
	sc, err := f.SyscallConn()
	if err != nil {
		return -1, err
	}
	fd := -1
	var derr error
	if cerr := sc.Control(func(raw uintptr) { fd, derr = unix.FcntlInt(raw, unix.F_DUPFD_CLOEXEC, 0) }); cerr != nil {
		return -1, cerr
	}
	return fd, derr
}

// Open implements fs.FS.
func (c *confinedFS) Open(name string) (fs.File, error) {
	fd, st, err := c.openFD(name, true)
	if err != nil {
		return nil, err
	}
	if st.Mode&unix.S_IFMT == unix.S_IFDIR {
		return os.NewFile(uintptr(fd), filepath.Join(c.dir, name)), nil
	}
	return &cappedFile{f: os.NewFile(uintptr(fd), filepath.Join(c.dir, name)), name: name, left: MaxRootFileBytes}, nil
}

// cappedFile stops reading past MaxRootFileBytes, for files whose size fstat does not tell
// (procfs and sysfs say 0 or 4096).
// It wraps rather than embeds the *os.File, so that no promoted WriteTo or ReadFrom
// (sendfile, splice) can bypass the cap.
type cappedFile struct {
	f    *os.File
	name string
	left int64
}

func (f *cappedFile) Stat() (fs.FileInfo, error) { return f.f.Stat() }
func (f *cappedFile) Close() error               { return f.f.Close() }

func (f *cappedFile) Read(p []byte) (int, error) {
	if f.left <= 0 {
		// One byte more means the file is longer than the cap.
		var one [1]byte
		if n, _ := f.f.Read(one[:]); n == 0 {
			return 0, io.EOF
		}
		return 0, OverCap(f.name)
	}
	if int64(len(p)) > f.left {
		p = p[:f.left]
	}
	n, err := f.f.Read(p)
	f.left -= int64(n)
	return n, err
}

// OpenFD opens name under the root for pread and returns its descriptor: the sampler's
// files (source) and serve's sysctl files (export), which stay open and are re-read at
// offset 0. On the live root it is open(2) as it always was; under any other directory it
// is the confined opener (see confinedFS), whose checks cost nothing after the open.
// An in-memory root has no descriptors: ErrNotSupported.
func (r Root) OpenFD(name string) (int, error) {
	if c, ok := r.fsys.(*confinedFS); ok {
		fd, _, err := c.openFD(name, false)
		if err != nil {
			return -1, rootErr(name, err)
		}
		return fd, nil
	}
	if r.dir == "" {
		return -1, fmt.Errorf("/%s: no file descriptor in an in-memory capture: %w", name, ErrNotSupported)
	}
	full := filepath.Join(r.dir, name)
	for {
		fd, err := unix.Open(full, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return -1, rootErr(name, err)
		}
		return fd, nil
	}
}

// rootErr words an open error as Root.Open does: a missing file is ErrNotSupported.
func rootErr(name string, err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("/%s: %w", name, ErrNotSupported)
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("/%s: %w", name, err)
}

// parent opens the directory holding name (resolved as Open resolves names) with O_PATH,
// for the calls that act on the last component itself: ReadLink and Lstat.
func (c *confinedFS) parent(op, name string) (int, string, error) {
	if !fs.ValidPath(name) || name == "." {
		return -1, "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	dfd, err := c.dirFD()
	if err != nil {
		return -1, "", err
	}
	dir, base := path.Split(name)
	if dir == "" {
		dir = "."
	}
	var pfd int
	if noOpenat2 {
		pfd, err = c.openByRoot(dir, unix.O_PATH|unix.O_DIRECTORY)
	} else {
		how := unix.OpenHow{Flags: unix.O_PATH | unix.O_DIRECTORY | unix.O_CLOEXEC, Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS}
		pfd, err = unix.Openat2(dfd, dir, &how)
	}
	if err != nil {
		if errors.Is(err, unix.EXDEV) || errors.Is(err, unix.ELOOP) {
			return -1, "", &RefusedError{Name: name, Why: "a symlink leading out of the directory"}
		}
		return -1, "", &fs.PathError{Op: op, Path: name, Err: err}
	}
	return pfd, base, nil
}

// ReadLink implements fs.ReadLinkFS: the link's text, never what it points to (the NIC
// reader names a driver by its device/driver link).
func (c *confinedFS) ReadLink(name string) (string, error) {
	pfd, base, err := c.parent("readlink", name)
	if err != nil {
		return "", err
	}
	defer unix.Close(pfd)
	buf := make([]byte, unix.PathMax)
	n, err := unix.Readlinkat(pfd, base, buf)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return string(buf[:n]), nil
}

// Lstat implements fs.ReadLinkFS.
func (c *confinedFS) Lstat(name string) (fs.FileInfo, error) {
	pfd, base, err := c.parent("lstat", name)
	if err != nil {
		return nil, err
	}
	defer unix.Close(pfd)
	var st unix.Stat_t
	if err := unix.Fstatat(pfd, base, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	return statInfo{name: base, st: st}, nil
}

// statInfo is an fs.FileInfo from a stat(2) result.
type statInfo struct {
	name string
	st   unix.Stat_t
}

func (i statInfo) Name() string       { return i.name }
func (i statInfo) Size() int64        { return i.st.Size }
func (i statInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i statInfo) IsDir() bool        { return i.st.Mode&unix.S_IFMT == unix.S_IFDIR }
func (i statInfo) Sys() any           { return &i.st }
func (i statInfo) Mode() fs.FileMode {
	m := fs.FileMode(i.st.Mode & 0o777)
	switch i.st.Mode & unix.S_IFMT {
	case unix.S_IFDIR:
		m |= fs.ModeDir
	case unix.S_IFLNK:
		m |= fs.ModeSymlink
	case unix.S_IFIFO:
		m |= fs.ModeNamedPipe
	case unix.S_IFSOCK:
		m |= fs.ModeSocket
	case unix.S_IFCHR:
		m |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		m |= fs.ModeDevice
	}
	return m
}
