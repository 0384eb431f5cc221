package testkit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"
	"golang.org/x/sys/unix"
)

// CaptureDir writes the files of a txtar capture (testdata/captures/vm-6.18.txtar) into a
// new temporary directory laid out like / and returns it: a captured directory, as
// `doctor --from DIR`, `report DIR`, `check --root DIR` and `serve --root DIR` read.
func CaptureDir(t testing.TB, txtarPath string) string {
	t.Helper()
	a, err := txtar.ParseFile(txtarPath)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, f := range a.Files {
		p := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Hostile kinds of file planted in a captured directory (issue 30 items 2 and 3): each made
// an unguarded reader hang, exhaust memory or quote a file from outside the directory.
const (
	HostileFIFO    = "fifo"    // mkfifo: open(2) blocks until a writer comes
	HostileDevice  = "device"  // mknod c 1 5 (/dev/zero's numbers): reads never end; needs root
	HostileSparse  = "sparse"  // a sparse regular file of 1 GiB
	HostileZero    = "zero"    // a symlink to /dev/zero
	HostileShadow  = "shadow"  // a symlink to /etc/shadow
	HostileOutside = "outside" // a symlink to a file outside the directory holding Secret
)

// HostileKinds lists every kind, in a stable order.
var HostileKinds = []string{HostileFIFO, HostileDevice, HostileSparse, HostileZero, HostileShadow, HostileOutside}

// Secret is the line of the file HostileOutside links to: no output may quote it.
const Secret = "root:SECRET-e3b0c44298fc:20228:0:99999:7:::"

// PlantHostile replaces dir/rel with a hostile file of the given kind. It skips the test
// when the kind cannot be made here (a device node without CAP_MKNOD).
func PlantHostile(t testing.TB, dir, rel, kind string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.RemoveAll(p); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	var err error
	switch kind {
	case HostileFIFO:
		err = unix.Mkfifo(p, 0o644)
	case HostileDevice:
		if err = unix.Mknod(p, unix.S_IFCHR|0o644, int(unix.Mkdev(1, 5))); err != nil {
			t.Skipf("mknod %s: %v (a device node needs CAP_MKNOD: run as root)", rel, err)
		}
	case HostileSparse:
		var f *os.File
		if f, err = os.Create(p); err == nil {
			err = f.Truncate(1 << 30)
			f.Close()
		}
	case HostileZero:
		err = os.Symlink("/dev/zero", p)
	case HostileShadow:
		err = os.Symlink("/etc/shadow", p)
	case HostileOutside:
		out := filepath.Join(t.TempDir(), "secret")
		if err = os.WriteFile(out, []byte(Secret+"\n"), 0o644); err == nil {
			err = os.Symlink(out, p)
		}
	default:
		t.Fatalf("unknown hostile kind %q", kind)
	}
	if err != nil {
		t.Fatal(err)
	}
}
