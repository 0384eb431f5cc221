package kernel

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/vishvananda/netlink"
	"github.com/vishvananda/netns"
)

// newTestNetns creates a throwaway named network namespace "hr-kt-<random>" with its
// loopback up, and deletes it when the test ends. The namespace is created by unshare on
// a locked thread that is never unlocked, so the test's own threads stay in the host
// namespace.
func newTestNetns(t testing.TB) string {
	t.Helper()
	nsRequireRoot(t)
	name := fmt.Sprintf("hr-kt-%08x", rand.Uint32())
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: this thread ends up in the new namespace
		h, err := netns.NewNamed(name)
		if err == nil {
			h.Close()
		}
		errc <- err
	}()
	if err := <-errc; err != nil {
		t.Skipf("cannot create a network namespace: %v", err)
	}
	t.Cleanup(func() {
		if err := netns.DeleteNamed(name); err != nil {
			t.Errorf("delete netns %s: %v", name, err)
		}
	})
	if err := InNetns(name, func(Root) error {
		lo, err := netlink.LinkByName("lo")
		if err != nil {
			return err
		}
		return netlink.LinkSetUp(lo)
	}); err != nil {
		t.Fatalf("netns %s: bring up lo: %v", name, err)
	}
	return name
}

func TestInNetnsIsolation(t *testing.T) {
	ns := newTestNetns(t)
	hostNICs, err := ReadNICs(HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	hostSomaxconn, err := os.ReadFile("/proc/sys/net/core/somaxconn")
	if err != nil {
		t.Fatal(err)
	}

	var inode uint32
	var port int
	err = InNetns(ns, func(root Root) error {
		// Interfaces: only the namespace's loopback, listed over rtnetlink.
		nics, err := ReadNICs(root)
		if err != nil {
			return err
		}
		if len(nics) != 1 || nics[0].Name != "lo" {
			return fmt.Errorf("ReadNICs in the namespace = %+v, want only lo", nics)
		}
		lo := nics[0]
		if !lo.Virtual || lo.Driver != "" || lo.SpeedMbps != -1 || lo.MTU != 65536 || lo.RxQueues < 1 || lo.TxQueues < 1 {
			return fmt.Errorf("lo in the namespace = %+v", lo)
		}

		// Network files through the root follow the thread; /proc/net (the thread group
		// leader's namespace) does not.
		dev, err := root.ReadFile(root.NetPath("dev"))
		if err != nil {
			return err
		}
		if n := strings.Count(string(dev), ":"); n != 1 || !strings.Contains(string(dev), "lo:") {
			return fmt.Errorf("%s in the namespace lists %d interfaces:\n%s", root.NetPath("dev"), n, dev)
		}
		leader, err := os.ReadFile("/proc/net/dev")
		if err != nil {
			return err
		}
		if len(hostNICs) > 1 && bytes.Count(leader, []byte(":")) < 2 {
			return fmt.Errorf("/proc/net/dev from the namespace thread shows only %q; expected the leader's namespace", leader)
		}

		// sysctl files under /proc/sys/net belong to the opener's namespace.
		const key = "proc/sys/net/core/somaxconn"
		if err := os.WriteFile("/"+key, []byte("77\n"), 0); err != nil {
			return err
		}
		b, err := root.ReadFile(key)
		if err != nil {
			return err
		}
		if strings.TrimSpace(string(b)) != "77" {
			return fmt.Errorf("somaxconn in the namespace = %q after writing 77", b)
		}

		// A listening socket created here is in the namespace's dump.
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return err
		}
		defer l.Close()
		port = l.Addr().(*net.TCPAddr).Port
		inode, err = socketInode(l.(*net.TCPListener))
		if err != nil {
			return err
		}
		socks, err := DumpTCP()
		if err != nil {
			return err
		}
		if s := findSocket(socks, "127.0.0.1:"+strconv.Itoa(port), "LISTEN"); s == nil || s.Inode != inode {
			return fmt.Errorf("listener 127.0.0.1:%d inode %d not in the namespace dump of %d sockets", port, inode, len(socks))
		}
		// A namespace with one listener has nothing else.
		if len(socks) != 1 {
			return fmt.Errorf("namespace dump has %d sockets, want 1: %+v", len(socks), socks)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// The host saw none of it.
	socks, err := DumpTCP()
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range socks {
		if s.Inode == inode && inode != 0 {
			t.Errorf("host dump contains the namespace's listener: %+v", s)
		}
	}
	if b, _ := os.ReadFile("/proc/sys/net/core/somaxconn"); !bytes.Equal(b, hostSomaxconn) {
		t.Errorf("host somaxconn changed from %q to %q", hostSomaxconn, b)
	}
}

func TestInNetnsErrors(t *testing.T) {
	if err := InNetns("no/such", func(Root) error { return nil }); err == nil {
		t.Error("a name with a slash was accepted")
	}
	err := InNetns("hr-kt-does-not-exist", func(Root) error { t.Error("fn ran"); return nil })
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing namespace: err = %v, want ErrNotExist", err)
	}
	// fn's error is returned, a panic is re-raised in the caller. (setns needs
	// CAP_SYS_ADMIN even to enter one's own namespace.)
	nsRequireRoot(t)
	want := errors.New("from fn")
	if err := InNetns("/proc/self/ns/net", func(Root) error { return want }); err != want {
		t.Errorf("fn error: got %v", err)
	}
	defer func() {
		if p := recover(); p != "boom" {
			t.Errorf("recovered %v, want the panic of fn", p)
		}
	}()
	InNetns("/proc/self/ns/net", func(Root) error { panic("boom") })
}
