package tune

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"

	"github.com/vishvananda/netns"
)

// NetnsFS is SysctlFS inside a named network namespace (/run/netns/NAME, as `ip netns add`
// creates). Every read and write runs on one OS thread that entered the namespace.
//
// Why a dedicated thread: setns(2) changes the namespace of the calling thread only, and the
// network namespace of a /proc/sys/net file is taken from the task that opens it
// (net_ctl_header_lookup in net/sysctl_net.c uses current->nsproxy->net_ns). A Go goroutine
// may move between threads, so the work runs on a goroutine locked to its thread that is
// never unlocked: when it returns, the runtime terminates the thread instead of reusing it
// in the wrong namespace (see runtime.LockOSThread; cilium/ebpf's testutils do the same).
type NetnsFS struct {
	name  string
	proc  ProcSys
	reqs  chan func()
	close sync.Once
}

// NetnsDir is where `ip netns` keeps its namespace handles (iproute2 NETNS_RUN_DIR).
const NetnsDir = "/run/netns"

// ErrNoNetns says that the named network namespace does not exist.
var ErrNoNetns = errors.New("no such network namespace")

// ValidNetnsName reports whether name can be a file under /run/netns.
func ValidNetnsName(name string) bool {
	return name != "" && name != "." && name != ".." && !strings.ContainsAny(name, "/\x00") && len(name) < 256
}

// OpenNetns enters the named namespace on a fresh locked thread. Close it when done.
func OpenNetns(name string) (*NetnsFS, error) {
	if !ValidNetnsName(name) {
		return nil, fmt.Errorf("network namespace name %q is not valid", name)
	}
	h, err := netns.GetFromName(name)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("network namespace %q (%s/%s): %w", name, NetnsDir, name, ErrNoNetns)
		}
		return nil, fmt.Errorf("network namespace %q: %w", name, err)
	}
	n := &NetnsFS{name: name, proc: HostProcSys(), reqs: make(chan func())}
	ready := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread, on purpose: this thread dies with the goroutine.
		err := netns.Set(h)
		h.Close()
		if err != nil {
			ready <- fmt.Errorf("setns into network namespace %q: %w", name, err)
			return
		}
		ready <- nil
		for f := range n.reqs {
			f()
		}
	}()
	if err := <-ready; err != nil {
		return nil, err
	}
	return n, nil
}

// Name is the namespace's name.
func (n *NetnsFS) Name() string { return n.name }

// Do runs f on the namespace's thread and waits for it. f must not start goroutines that
// expect to be in the namespace.
func (n *NetnsFS) Do(f func()) {
	done := make(chan struct{})
	n.reqs <- func() { defer close(done); f() }
	<-done
}

// Read reads a sysctl as seen from inside the namespace.
func (n *NetnsFS) Read(key string) (v string, err error) {
	n.Do(func() { v, err = n.proc.Read(key) })
	return v, err
}

// Write writes a sysctl from inside the namespace.
func (n *NetnsFS) Write(key, value string) (err error) {
	n.Do(func() { err = n.proc.Write(key, value) })
	return err
}

// Writable reports whether the key may be written from inside the namespace.
func (n *NetnsFS) Writable(key string) (ok bool, err error) {
	n.Do(func() { ok, err = n.proc.Writable(key) })
	return ok, err
}

// Close ends the namespace thread.
func (n *NetnsFS) Close() error {
	n.close.Do(func() { close(n.reqs) })
	return nil
}
