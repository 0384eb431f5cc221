// Package netlabtest holds what tests that build lab namespaces share: the root check and a
// two-host pair with its teardown. It is imported only by tests (of netlab and of the
// packages built on it); a package of its own because netlab's own tests that use it are in
// package netlab_test, and the tests of lab import it too.
package netlabtest

import (
	"os"
	"testing"

	"headroom/lab/netlab"
)

// NeedRoot skips t unless the process can build namespaces: root, and /dev/net/tun for the
// delay line.
func NeedRoot(t testing.TB) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("lab: needs root to create network namespaces")
	}
	if _, err := os.Stat("/dev/net/tun"); err != nil {
		t.Skipf("lab: no /dev/net/tun: %v", err)
	}
}

// Lab starts a lab run and tears it down when t ends.
func Lab(t testing.TB) *netlab.Lab {
	t.Helper()
	l, err := netlab.New()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := l.Close(); err != nil {
			t.Errorf("teardown: %v", err)
		}
	})
	return l
}

// Pair builds two hosts, "a" and "b", joined by one link, and tears them down when t ends.
func Pair(t testing.TB, spec netlab.LinkSpec) (*netlab.Lab, *netlab.Host, *netlab.Host, *netlab.Link) {
	t.Helper()
	l := Lab(t)
	a, err := l.AddHost("a")
	if err != nil {
		t.Fatal(err)
	}
	b, err := l.AddHost("b")
	if err != nil {
		t.Fatal(err)
	}
	lk, err := l.Connect(a, b, spec)
	if err != nil {
		t.Fatal(err)
	}
	return l, a, b, lk
}
