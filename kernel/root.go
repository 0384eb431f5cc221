package kernel

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"strings"
	"testing/fstest"

	"github.com/rogpeppe/go-internal/txtar"
)

// ErrNotSupported says that this kernel, this host or this capture does not offer an
// interface (no PSI, no pagetypeinfo, ethtool on a veth). It is not a failure: reports say
// "not available" and tests skip on it. Test with errors.Is.
var ErrNotSupported = errors.New("not supported here")

// Root is where kernel files are read from: the live filesystem, a captured directory, or a
// txtar capture held in memory. Paths given to Root are relative and slash-separated
// ("proc/meminfo"), never absolute.
type Root struct {
	fsys fs.FS
	// dir is the OS directory behind fsys when there is one (live host or captured
	// directory); empty for an in-memory capture. Readers that need a real file descriptor
	// (pread in the sampler) use it.
	dir string
	// netDir is where the per-network-namespace files live: "proc/net" normally,
	// "proc/thread-self/net" when reading from a thread that entered another namespace
	// (proc/self names the thread group leader, whose namespace may differ).
	netDir string
	// Name says where the files come from, for evidence ("/", "host.txtar").
	Name string
	// live marks a directory that is a running host's / mounted elsewhere (MountedHostRoot):
	// sampled over time like the live host, not read once like a capture.
	live bool
}

// HostRoot is the live filesystem of this host.
func HostRoot() Root { return DirRoot("/") }

// DirRoot reads from a directory laid out like / (a captured tree or a fixture).
//
// Any directory other than / is read through the confined opener (rootfile.go): symlinks
// only inside it, regular files only, each at most MaxRootFileBytes.
func DirRoot(dir string) Root {
	if dir == "/" {
		return Root{fsys: os.DirFS(dir), dir: dir, netDir: "proc/net", Name: dir}
	}
	return Root{fsys: newConfinedFS(dir), dir: dir, netDir: "proc/net", Name: dir}
}

// MountedHostRoot reads a running host's / mounted at dir, as a container sees the node
// through a hostPath volume (dir "/host"). /proc/net there is a link to /proc/self/net,
// which procfs resolves to the reading process, so it shows the container's network
// namespace, not the host's; the network files are read through /proc/1/net instead, the
// namespace of the host's init (fs/proc/proc_net.c get_proc_task_net: a pid directory's
// net shows that task's namespace). That holds when dir/proc is the host's procfs, whose
// PID 1 is the host's init; a container's own /proc would show its own PID 1.
//
// Files under proc/sys/net still show the namespace of the task that opens them, the
// container's, unless it runs in the host's network namespace (hostNetwork).
func MountedHostRoot(dir string) Root {
	r := DirRoot(dir)
	r.netDir = "proc/1/net"
	r.live = true
	return r
}

// IsLive reports whether the root is a running host, here or mounted (MountedHostRoot),
// whose files change between reads.
func (r Root) IsLive() bool { return r.IsHost() || r.live }

// NetDir is where the root reads the per-namespace network files ("proc/net",
// "proc/1/net", "proc/thread-self/net").
func (r Root) NetDir() string { return r.netDir }

// FSRoot reads from any fs.FS laid out like /.
func FSRoot(fsys fs.FS, name string) Root {
	return Root{fsys: fsys, netDir: "proc/net", Name: name}
}

// TxtarRoot reads from a txtar archive whose file names are paths relative to /
// ("proc/meminfo"), as written by `headroom capture`.
func TxtarRoot(a *txtar.Archive, name string) Root {
	// fstest.MapFS is a plain in-memory fs.FS (it imports nothing from package testing).
	m := make(fstest.MapFS, len(a.Files))
	for _, f := range a.Files {
		m[strings.TrimPrefix(path.Clean(f.Name), "/")] = &fstest.MapFile{Data: f.Data, Mode: 0o444}
	}
	return FSRoot(m, name)
}

// InThreadNetns returns a copy of r whose network files are read through
// /proc/thread-self/net: use it from a locked OS thread that has entered another network
// namespace.
func (r Root) InThreadNetns() Root {
	r.netDir = "proc/thread-self/net"
	return r
}

// Dir is the OS directory behind the root, or "" for an in-memory capture.
func (r Root) Dir() string { return r.dir }

// IsHost reports whether r is the live filesystem.
func (r Root) IsHost() bool { return r.dir == "/" }

// NetPath joins name under this root's per-namespace network directory ("proc/net/dev").
func (r Root) NetPath(name string) string { return r.netDir + "/" + name }

// Open opens a file under the root. A missing file is reported as ErrNotSupported wrapped
// with the path, since for kernel interfaces "absent" means "this kernel has no such file".
func (r Root) Open(name string) (fs.File, error) {
	if r.fsys == nil {
		return nil, fmt.Errorf("kernel: zero Root used to open %s", name)
	}
	f, err := r.fsys.Open(name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("/%s: %w", name, ErrNotSupported)
		}
		return nil, fmt.Errorf("/%s: %w", name, err)
	}
	return f, nil
}

// ReadFile reads a whole file under the root.
func (r Root) ReadFile(name string) ([]byte, error) {
	f, err := r.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		return nil, fmt.Errorf("/%s: %w", name, err)
	}
	return b, nil
}

// ReadDir lists a directory under the root.
func (r Root) ReadDir(name string) ([]fs.DirEntry, error) {
	if r.fsys == nil {
		return nil, fmt.Errorf("kernel: zero Root used to list %s", name)
	}
	ents, err := fs.ReadDir(r.fsys, name)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("/%s: %w", name, ErrNotSupported)
		}
		return nil, fmt.Errorf("/%s: %w", name, err)
	}
	return ents, nil
}

// parseFile opens name under r and hands it to parse, wrapping errors with the path.
func parseFile[T any](r Root, name string, parse func(io.Reader) (T, error)) (T, error) {
	var zero T
	f, err := r.Open(name)
	if err != nil {
		return zero, err
	}
	defer f.Close()
	v, err := parse(f)
	if err != nil {
		return zero, fmt.Errorf("/%s: %w", name, err)
	}
	return v, nil
}

// NetView says, for a live root, whose network namespace its network files show.
func NetView(r Root) string {
	switch r.netDir {
	case "proc/1/net":
		return "the host's network namespace, through " + path.Join(r.dir, "proc/1/net") + " (PID 1 of the mounted /proc)"
	case "proc/thread-self/net":
		return "an entered network namespace (proc/thread-self/net)"
	}
	self, err1 := os.Readlink(path.Join(r.dir, "proc/self/ns/net"))
	init1, err2 := os.Readlink(path.Join(r.dir, "proc/1/ns/net"))
	switch {
	case err1 != nil || err2 != nil:
		return "this process's network namespace (whether it is PID 1's is unknown: proc/1/ns/net unreadable)"
	case self == init1:
		return "PID 1's network namespace " + self + ", the host's unless this runs in a container"
	}
	return "this process's network namespace " + self + ", not PID 1's " + init1 + ": in a container, use hostNetwork or --host-root with the host's /proc"
}
