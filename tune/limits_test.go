package tune

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/kernel"

	"headroom/plan"
)

func TestBoundedKeysHaveScope(t *testing.T) {
	for _, k := range plan.BoundedKeys() {
		if kernel.LookupSysctlScope(k).Scope == kernel.ScopeUnknown {
			t.Errorf("%s has a bound but no scope entry", k)
		}
	}
}

// The bounds' MemTotal is kernel.ReadMemInfo's; a meminfo without it is an error, not zero.
func TestReadLimits(t *testing.T) {
	write := func(text string) kernel.Root {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, "proc"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "proc/meminfo"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return kernel.DirRoot(dir)
	}
	l, err := ReadLimits(write("MemTotal:       24684084 kB\nMemFree:        1 kB\n"))
	if err != nil || l.MemTotalKB != 24684084 || l.PageSizeBytes == 0 {
		t.Fatal(l, err)
	}
	if _, err := ReadLimits(write("MemFree:        1 kB\n")); err == nil || !strings.Contains(err.Error(), "MemTotal") {
		t.Errorf("no MemTotal accepted: %v", err)
	}
	if _, err := ReadLimits(kernel.DirRoot(t.TempDir())); err == nil {
		t.Error("no /proc/meminfo accepted")
	}
}
