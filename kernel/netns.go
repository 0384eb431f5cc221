package kernel

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/vishvananda/netns"
)

// InNetns runs fn inside the network namespace name and returns its error. name is a
// namespace under /run/netns (as `ip netns add` creates them) or, when it starts with "/",
// the path of a namespace file (/proc/PID/ns/net).
//
// fn runs on a fresh goroutine locked to its OS thread, which enters the namespace with
// setns(2) before fn starts. The thread is never unlocked: when the goroutine exits, the
// runtime terminates a thread that is still locked instead of returning it to the pool,
// so no other goroutine ever runs in the wrong namespace (the pattern of cilium/ebpf
// internal/testutils/netns_linux.go). fn must do its namespace work on that goroutine:
// sockets (netlink, ethtool, TCP) take the namespace of the thread that creates them and
// keep it, so handles opened in fn (OpenSockDiag, NewEthtool) can be used afterwards from
// anywhere.
//
// fn receives HostRoot().InThreadNetns(), because the per-namespace files follow the
// thread in different ways:
//   - /proc/net is a link to /proc/self/net, which shows the namespace of the thread group
//     leader, not of this thread; /proc/thread-self/net (3.17+) shows this thread's. The
//     root reads network files there (Root.NetPath).
//   - Files under /proc/sys/net show the namespace of the task that opens them
//     (net/sysctl_net.c net_ctl_header_lookup uses current->nsproxy->net_ns), so reading
//     and writing them through the root from fn sees the namespace's values.
//   - /sys/class/net shows the namespace of the process that mounted sysfs, not the
//     thread's; ReadNICs therefore lists interfaces over rtnetlink for such a root.
//
// A panic in fn is re-raised in the caller.
func InNetns(name string, fn func(root Root) error) error {
	var (
		h   netns.NsHandle
		err error
	)
	if strings.HasPrefix(name, "/") {
		h, err = netns.GetFromPath(name)
	} else {
		if name == "" || strings.Contains(name, "/") {
			return fmt.Errorf("netns %q: not a namespace name", name)
		}
		h, err = netns.GetFromName(name)
	}
	if err != nil {
		return fmt.Errorf("netns %s: %w", name, err)
	}
	defer h.Close()

	type result struct {
		err   error
		panic any
	}
	done := make(chan result, 1)
	go func() {
		runtime.LockOSThread()
		// No UnlockOSThread: see above.
		var res result
		defer func() {
			if p := recover(); p != nil {
				res.panic = p
			}
			done <- res
		}()
		if err := netns.Set(h); err != nil {
			res.err = fmt.Errorf("netns %s: setns: %w", name, err)
			return
		}
		res.err = fn(HostRoot().InThreadNetns())
	}()
	res := <-done
	if res.panic != nil {
		panic(res.panic)
	}
	return res.err
}
