package kernel_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/internal/testkit"
	"headroom/kernel"
)

// The confined opener refuses each hostile kind by name, through every way a reader opens
// a file (ReadFile, Open, OpenFD), and still follows links that stay inside the directory.
func TestConfinedRootRefuses(t *testing.T) {
	for _, noOpenat2 := range []bool{false, true} {
		defer kernel.SetNoOpenat2ForTest(noOpenat2)()
		for _, kind := range testkit.HostileKinds {
			t.Run(fmt.Sprintf("%s/openat2-off=%v", kind, noOpenat2), func(t *testing.T) {
				dir := t.TempDir()
				if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
					t.Fatal(err)
				}
				testkit.PlantHostile(t, dir, "proc/vmstat", kind) // skips a device without root
				r := kernel.DirRoot(dir)
				_, err := r.ReadFile("proc/vmstat")
				if !errors.Is(err, kernel.ErrRefused) {
					t.Fatalf("ReadFile err %v, want refused", err)
				}
				if !strings.HasPrefix(err.Error(), "/proc/vmstat: ") || !strings.Contains(err.Error(), "refused") {
					t.Errorf("error %q does not name the file", err)
				}
				if fd, err := r.OpenFD("proc/vmstat"); !errors.Is(err, kernel.ErrRefused) {
					t.Errorf("OpenFD = %d, %v", fd, err)
				}
			})
		}
	}
}

func TestConfinedRootReadsInside(t *testing.T) {
	for _, noOpenat2 := range []bool{false, true} {
		defer kernel.SetNoOpenat2ForTest(noOpenat2)()
		dir := t.TempDir()
		for p, v := range map[string]string{"proc/1/net/dev": "x\n", "sys/devices/eth0/mtu": "1500\n"} {
			os.MkdirAll(filepath.Join(dir, filepath.Dir(p)), 0o755)
			os.WriteFile(filepath.Join(dir, p), []byte(v), 0o644)
		}
		os.Symlink("1/net", filepath.Join(dir, "proc/net"))                        // as procfs has it (self/net)
		os.MkdirAll(filepath.Join(dir, "sys/class/net"), 0o755)                    // and sysfs
		os.Symlink("../../devices/eth0", filepath.Join(dir, "sys/class/net/eth0")) // ../ inside
		r := kernel.DirRoot(dir)
		if b, err := r.ReadFile("proc/net/dev"); err != nil || string(b) != "x\n" {
			t.Errorf("openat2 off=%v: proc/net/dev = %q, %v", noOpenat2, b, err)
		}
		if b, err := r.ReadFile("sys/class/net/eth0/mtu"); err != nil || string(b) != "1500\n" {
			t.Errorf("openat2 off=%v: mtu = %q, %v", noOpenat2, b, err)
		}
		if ents, err := r.ReadDir("sys/class/net"); err != nil || len(ents) != 1 {
			t.Errorf("openat2 off=%v: ReadDir = %v, %v", noOpenat2, ents, err)
		}
		if _, err := r.ReadFile("proc/meminfo"); !errors.Is(err, kernel.ErrNotSupported) {
			t.Errorf("openat2 off=%v: missing file: %v, want ErrNotSupported", noOpenat2, err)
		}
		// A link that climbs out with ../ is refused like an absolute one.
		os.Symlink("../../../../../../etc/hostname", filepath.Join(dir, "proc/stat"))
		if _, err := r.ReadFile("proc/stat"); !errors.Is(err, kernel.ErrRefused) {
			t.Errorf("openat2 off=%v: ../ out: %v, want refused", noOpenat2, err)
		}
	}
}

// A procfs-like file that keeps growing stops at the cap: the kernel's files say size 0.
func TestConfinedRootCapsReads(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "proc"), 0o755)
	f, err := os.Create(filepath.Join(dir, "proc/vmstat"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(kernel.MaxRootFileBytes + 1); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, err := kernel.DirRoot(dir).ReadFile("proc/vmstat"); !errors.Is(err, kernel.ErrRefused) || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("a file one byte over the cap: %v", err)
	}
}
