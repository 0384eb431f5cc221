package netlab

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// NamePrefix starts the name of every namespace the lab creates: "hr-<runid>-<host>".
const NamePrefix = "hr-"

// Where namespaces are pinned and where run owners are recorded. Variables, not constants,
// only so that tests of the sweeper's bookkeeping can point them elsewhere.
var (
	netnsDir = "/run/netns"        // iproute2's NETNS_RUN_DIR
	ownerDir = "/run/headroom-lab" // one <runid>.json per live run
)

// Netns is one network namespace pinned by a bind mount at Path, so that it outlives the
// thread that created it and `ip netns exec NAME` can enter it.
type Netns struct {
	Name string
	Path string
	fd   int // O_RDONLY on Path, for setns(2)
}

// ensureNetnsDir prepares /run/netns the way iproute2's netns_add does (ip/ipnetns.c): the
// directory must be a mount point with shared propagation, so a namespace pinned here is
// visible to processes in other mount namespaces (systemd services) and unmounting it
// propagates too.
func ensureNetnsDir() error {
	if err := os.MkdirAll(netnsDir, 0o755); err != nil {
		return fmt.Errorf("lab: create %s: %w", netnsDir, err)
	}
	err := unix.Mount("", netnsDir, "none", unix.MS_SHARED|unix.MS_REC, "")
	if err == nil {
		return nil
	}
	if !errors.Is(err, unix.EINVAL) {
		return fmt.Errorf("lab: make %s shared: %w", netnsDir, err)
	}
	// EINVAL: not a mount point yet. Bind it on itself, then retry.
	if err := unix.Mount(netnsDir, netnsDir, "none", unix.MS_BIND|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("lab: bind %s on itself: %w", netnsDir, err)
	}
	if err := unix.Mount("", netnsDir, "none", unix.MS_SHARED|unix.MS_REC, ""); err != nil {
		return fmt.Errorf("lab: make %s shared: %w", netnsDir, err)
	}
	return nil
}

// createNetns makes a new network namespace and pins it at /run/netns/name.
//
// The unshare happens on a goroutine that locks its OS thread and never unlocks it: when the
// goroutine returns, the Go runtime terminates that thread instead of handing a thread in a
// foreign namespace to other goroutines (runtime.LockOSThread; cilium/ebpf
// internal/testutils/netns_linux.go does the same).
func createNetns(name string) (*Netns, error) {
	if err := ensureNetnsDir(); err != nil {
		return nil, err
	}
	path := filepath.Join(netnsDir, name)
	f, err := os.OpenFile(path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0)
	if err != nil {
		return nil, fmt.Errorf("lab: create mount point %s: %w", path, err)
	}
	f.Close()
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: this thread's namespace is about to change.
		if err := unix.Unshare(unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("lab: unshare(CLONE_NEWNET) for %s: %w", name, err)
			return
		}
		if err := unix.Mount("/proc/thread-self/ns/net", path, "none", unix.MS_BIND, ""); err != nil {
			errc <- fmt.Errorf("lab: bind-mount namespace on %s: %w", path, err)
			return
		}
		errc <- nil
	}()
	if err := <-errc; err != nil {
		os.Remove(path)
		return nil, err
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		removeNetnsPath(path)
		return nil, fmt.Errorf("lab: open %s: %w", path, err)
	}
	return &Netns{Name: name, Path: path, fd: fd}, nil
}

// Do runs fn on a fresh OS thread that has entered the namespace. Sockets, TUN devices and
// /proc/sys files opened by fn belong to the namespace and keep working from any thread
// afterwards. The thread is discarded when fn returns. A panic in fn becomes an error.
func (n *Netns) Do(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: the thread dies with the goroutine.
		defer func() {
			if r := recover(); r != nil {
				errc <- fmt.Errorf("lab: panic in namespace %s: %v", n.Name, r)
			}
		}()
		if err := unix.Setns(n.fd, unix.CLONE_NEWNET); err != nil {
			errc <- fmt.Errorf("lab: setns %s: %w", n.Name, err)
			return
		}
		errc <- fn()
	}()
	return <-errc
}

// Close unpins the namespace. The kernel frees it once no process, socket or device file
// still refers to it.
func (n *Netns) Close() error {
	if n.fd >= 0 {
		unix.Close(n.fd)
		n.fd = -1
	}
	return removeNetnsPath(n.Path)
}

func removeNetnsPath(path string) error {
	// MNT_DETACH: like `ip netns del`, do not fail because a process still has it open.
	err := unix.Unmount(path, unix.MNT_DETACH)
	if err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("lab: unmount %s: %w", path, err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("lab: remove %s: %w", path, err)
	}
	return nil
}

// owner is what a live run records in /run/headroom-lab/<runid>.json, written before it
// creates anything, so a sweeper can tell a dead run's leftovers from a live run's state.
type owner struct {
	RunID string `json:"run_id"`
	PID   int    `json:"pid"`
	// StartTicks is field 22 of /proc/PID/stat (starttime, in clock ticks since boot): with
	// the pid it identifies the process even after the pid is reused.
	StartTicks uint64 `json:"start_ticks"`
	// Sysctls are the global (init-namespace) sysctls the run changed, with the value to
	// restore. Empty for every scenario that only needs per-namespace keys.
	Sysctls []journalEntry `json:"sysctls,omitempty"`
}

type journalEntry struct {
	Key string `json:"key"`
	Old string `json:"old"`
	// Set is every value the run wrote to Key (normalized, as read back), journaled before
	// each write: a restore writes Old only over one of them (restoreGlobalSysctls).
	Set []string `json:"set,omitempty"`
}

func ownerPath(runID string) string { return filepath.Join(ownerDir, runID+".json") }

func writeOwner(o *owner) error { return writeState(ownerPath(o.RunID), o) }

// writeState writes v as JSON to p in the owner directory, through a temporary file and a
// rename, so a sweeper (or a guardian) never reads half a file.
func writeState(p string, v any) error {
	if err := os.MkdirAll(ownerDir, 0o755); err != nil {
		return fmt.Errorf("lab: create %s: %w", ownerDir, err)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	tmp := p + ".tmp"
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return fmt.Errorf("lab: write %s: %w", tmp, err)
	}
	if err := os.Rename(tmp, p); err != nil {
		return fmt.Errorf("lab: rename %s: %w", tmp, err)
	}
	return nil
}

func readOwner(runID string) (*owner, error) {
	b, err := os.ReadFile(ownerPath(runID))
	if err != nil {
		return nil, err
	}
	var o owner
	if err := json.Unmarshal(b, &o); err != nil {
		return nil, fmt.Errorf("lab: %s: %w", ownerPath(runID), err)
	}
	return &o, nil
}

// processStartTicks reads starttime (field 22) of /proc/PID/stat. The comm field (2) may
// hold spaces and parentheses, so fields are counted after the last ')'.
func processStartTicks(pid int) (uint64, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, err
	}
	return parseStatStartTicks(b)
}

func parseStatStartTicks(b []byte) (uint64, error) {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("lab: /proc/PID/stat: no ')' after comm")
	}
	fields := strings.Fields(string(b[i+1:]))
	// fields[0] is field 3 (state); starttime is field 22.
	const idx = 22 - 3
	if len(fields) <= idx {
		return 0, fmt.Errorf("lab: /proc/PID/stat: %d fields after comm, want > %d", len(fields), idx)
	}
	v, err := strconv.ParseUint(fields[idx], 10, 64)
	if err != nil {
		return 0, fmt.Errorf("lab: /proc/PID/stat field 22: %w", err)
	}
	return v, nil
}

// alive reports whether the run's process still exists. A zombie (state Z or X) does not
// count: it holds no descriptors, sockets or namespaces any more and will run no cleanup,
// and its parent may not reap it for a long time.
func (o *owner) alive() bool {
	if o.PID <= 0 {
		return false
	}
	b, err := os.ReadFile("/proc/" + strconv.Itoa(o.PID) + "/stat")
	if err != nil {
		return false
	}
	st, err := parseStatStartTicks(b)
	return err == nil && st == o.StartTicks && !statZombie(b)
}

// statZombie reads the state (field 3) of a /proc/PID/stat line.
func statZombie(b []byte) bool {
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return false
	}
	f := strings.Fields(string(b[i+1:]))
	return len(f) > 0 && (f[0] == "Z" || f[0] == "X")
}

// liveRunHolding reports a live run other than self that journaled key.
func liveRunHolding(key, self string) (string, bool) {
	es, _ := os.ReadDir(ownerDir)
	for _, e := range es {
		id, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || id == self {
			continue
		}
		o, err := readOwner(id)
		if err != nil || !o.alive() {
			continue
		}
		for _, j := range o.Sysctls {
			if j.Key == key {
				return id, true
			}
		}
	}
	return "", false
}

// runIDOf extracts <runid> from "hr-<runid>-<host>". A run id is exactly 8 lower-case hex
// digits (New); other "hr-" names (kernel's tests use "hr-kt-<n>") are not the lab's and
// the sweeper leaves them alone.
func runIDOf(nsName string) (string, bool) {
	rest, ok := strings.CutPrefix(nsName, NamePrefix)
	if !ok {
		return "", false
	}
	id, host, ok := strings.Cut(rest, "-")
	return id, ok && host != "" && isRunID(id)
}

func isRunID(id string) bool {
	if len(id) != 8 {
		return false
	}
	for _, c := range id {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Cleanup removes what dead lab runs left behind: namespaces named like the lab's
// ("hr-<8 hex digits>-<host>") whose name starts with prefix (NamePrefix for every run,
// NamePrefix+runID+"-" for one) and whose owning process is gone, and the global sysctls
// such a run changed (restored from its owner file unless someone changed them since). A
// run whose owner is still alive is left alone. It returns the namespaces it removed, then
// one sentence per global sysctl (SweepLine words them all).
func Cleanup(prefix string) ([]string, error) {
	if !strings.HasPrefix(prefix, NamePrefix) {
		return nil, fmt.Errorf("lab: cleanup prefix %q must start with %q", prefix, NamePrefix)
	}
	var removed []string
	var errs []error
	dead := map[string]bool{}
	isDead := func(runID string) bool {
		if d, ok := dead[runID]; ok {
			return d
		}
		o, err := readOwner(runID)
		// No owner file: a run writes it before creating anything, so this namespace's run
		// has already finished its own cleanup up to the owner file, or it was never ours
		// to track. Either way nobody will remove it but us.
		d := err != nil || !o.alive()
		dead[runID] = d
		return d
	}
	entries, err := os.ReadDir(netnsDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("lab: read %s: %w", netnsDir, err)
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, prefix) {
			continue
		}
		runID, ok := runIDOf(name)
		if !ok || !isDead(runID) {
			continue
		}
		if err := removeNetnsPath(filepath.Join(netnsDir, name)); err != nil {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, name)
	}
	// Owner files of dead runs: restore their global sysctls, then forget them.
	owners, err := os.ReadDir(ownerDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		errs = append(errs, fmt.Errorf("lab: read %s: %w", ownerDir, err))
	}
	for _, e := range owners {
		runID, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !isRunID(runID) || !strings.HasPrefix(NamePrefix+runID+"-", prefix) && !strings.HasPrefix(prefix, NamePrefix+runID+"-") {
			continue
		}
		o, err := readOwner(runID)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if o.alive() {
			continue
		}
		notes, err := restoreGlobalSysctls(runID, o.Sysctls)
		removed = append(removed, notes...)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if err := os.Remove(ownerPath(runID)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}
