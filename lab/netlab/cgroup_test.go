package netlab

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseCgroupMounts(t *testing.T) {
	in := `22 27 0:21 / /proc rw,relatime - proc proc rw
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime shared:14 - cgroup cgroup rw,memory
36 31 0:33 / /sys/fs/cgroup/cpu\040x rw,relatime - cgroup cgroup rw,cpu
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
`
	m, err := parseCgroupMounts([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if m.V1Memory != "/sys/fs/cgroup/memory" || m.V2 != "/sys/fs/cgroup/unified" {
		t.Errorf("got %+v", m)
	}
	// A pure v2 host.
	m, err = parseCgroupMounts([]byte("30 1 0:26 / /sys/fs/cgroup rw - cgroup2 cgroup2 rw,nsdelegate\n"))
	if err != nil || m.V1Memory != "" || m.V2 != "/sys/fs/cgroup" {
		t.Errorf("v2 only: %+v, %v", m, err)
	}
	if got := unescapeMountinfo(`/a\040b\134c`); got != `/a b\c` {
		t.Errorf("unescape: %q", got)
	}
	for _, bad := range []string{"no separator here\n", "1 2 - cgroup\n"} {
		if _, err := parseCgroupMounts([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzParseCgroupMounts(f *testing.F) {
	f.Add([]byte("35 31 0:32 / /sys/fs/cgroup/memory rw - cgroup cgroup rw,memory\n"))
	f.Add([]byte("41 31 0:38 / /x\\04 rw - cgroup2 cgroup2 rw\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseCgroupMounts(b) })
}

func TestParseMemoryStat(t *testing.T) {
	cs, err := parseMemoryStat([]byte("cache 4096\nrss 8192\nhierarchical_memory_limit 9223372036854771712\n\n"))
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := cs.Get("rss"); !ok || v != 8192 {
		t.Errorf("rss %d %v", v, ok)
	}
	if _, ok := cs.Get("swap"); ok {
		t.Error("absent counter reported present")
	}
	for _, bad := range []string{"cache\n", "cache x\n", "a 1 2\n"} {
		if _, err := parseMemoryStat([]byte(bad)); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

func FuzzParseMemoryStat(f *testing.F) {
	f.Add([]byte("cache 4096\nrss 8192\n"))
	f.Add([]byte("hierarchical_memory_limit 18446744073709551615\n"))
	f.Fuzz(func(t *testing.T, b []byte) { parseMemoryStat(b) })
}

// TestSwapHeader writes the swap signature to a plain file and reads its label back; the
// kernel's own check of it is TestKilledFailureRunCleansUp's swapon.
func TestSwapHeader(t *testing.T) {
	p := filepath.Join(t.TempDir(), "swap")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	f.Truncate(1 << 20)
	f.Close()
	if readSwapLabel(p) != "" {
		t.Error("label on an empty file")
	}
	if err := writeSwapHeader(p, 1<<20, swapLabel("0123abcd")); err != nil {
		t.Fatal(err)
	}
	if got := readSwapLabel(p); got != "hr-0123abcd" {
		t.Errorf("label %q", got)
	}
	if err := writeSwapHeader(p, 4096, "x"); err == nil {
		t.Error("a one-page swap area accepted")
	}
}

// TestObjectsJournal: the journal names what it will create before creating it, and the
// sweeper leaves a live run's objects alone and refuses foreign paths.
func TestObjectsJournal(t *testing.T) {
	dir := t.TempDir()
	oldOwner, oldScratch := ownerDir, scratchRoot
	ownerDir, scratchRoot = filepath.Join(dir, "owners"), filepath.Join(dir, "scratch")
	t.Cleanup(func() { ownerDir, scratchRoot = oldOwner, oldScratch })

	o, err := NewObjects("0123abcd")
	if err != nil {
		t.Fatal(err)
	}
	d, err := o.NewDir("data")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(objectsPath("0123abcd"))
	if !strings.Contains(string(b), filepath.Join(scratchRoot, "0123abcd")) {
		t.Errorf("journal %s does not name the directory", b)
	}
	// Alive (this process): the sweeper leaves it.
	if removed, err := CleanupObjects(NamePrefix); err != nil || len(removed) != 0 {
		t.Errorf("swept a live run: %v %v", removed, err)
	}
	if _, err := os.Stat(d); err != nil {
		t.Errorf("live run's directory removed: %v", err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(scratchRoot, "0123abcd")); !os.IsNotExist(err) {
		t.Errorf("directory left after Close: %v", err)
	}
	if _, err := os.Stat(objectsPath("0123abcd")); !os.IsNotExist(err) {
		t.Errorf("journal left after Close: %v", err)
	}
	// A dead run whose journal names a directory outside the scratch root: not removed.
	outside := filepath.Join(dir, "precious")
	os.Mkdir(outside, 0o755)
	os.MkdirAll(ownerDir, 0o755)
	os.WriteFile(objectsPath("89abcdef"), []byte(`{"run_id":"89abcdef","pid":1,"start_ticks":1,"dirs":["`+outside+`"],"cgroups":["/sys/fs/cgroup/memory/not-ours"]}`), 0o644)
	if _, err := CleanupObjects(NamePrefix); err == nil {
		t.Error("no error for a journal naming a foreign directory")
	}
	if _, err := os.Stat(outside); err != nil {
		t.Errorf("sweeper removed a directory outside its root: %v", err)
	}
	if _, err := NewObjects("not-an-id"); err == nil {
		t.Error("bad run id accepted")
	}
}

// TestObjectsProcesses: a journaled process is killed by Close and by the sweep of a dead
// run, but only while it is the process journaled (same start time): a reused pid is left.
func TestObjectsProcesses(t *testing.T) {
	dir := t.TempDir()
	oldOwner, oldScratch := ownerDir, scratchRoot
	ownerDir, scratchRoot = filepath.Join(dir, "owners"), filepath.Join(dir, "scratch")
	t.Cleanup(func() { ownerDir, scratchRoot = oldOwner, oldScratch })
	start := func() *exec.Cmd {
		c := exec.Command("sleep", "60")
		if err := c.Start(); err != nil {
			t.Skipf("sleep: %v", err)
		}
		t.Cleanup(func() { c.Process.Kill(); c.Wait() })
		return c
	}
	gone := func(c *exec.Cmd) bool {
		st, err := processStartTicks(c.Process.Pid)
		return err != nil || !(&owner{PID: c.Process.Pid, StartTicks: st}).alive()
	}

	// Close of the live run.
	o, err := NewObjects("0123abcd")
	if err != nil {
		t.Fatal(err)
	}
	c := start()
	if err := o.TrackProcess(c.Process.Pid); err != nil {
		t.Fatal(err)
	}
	if err := o.Close(); err != nil {
		t.Fatal(err)
	}
	if !gone(c) {
		t.Error("Close left the journaled process running")
	}

	// The sweep of a dead run (pid 1 with another start time is not alive as its owner).
	killMe, keepMe := start(), start()
	ticks, _ := processStartTicks(killMe.Process.Pid)
	rec := fmt.Sprintf(`{"run_id":"89abcdef","pid":1,"start_ticks":1,"procs":[{"pid":%d,"start_ticks":%d,"comm":"sleep"},{"pid":%d,"start_ticks":%d,"comm":"sleep"}]}`,
		killMe.Process.Pid, ticks, keepMe.Process.Pid, ticks+12345)
	os.MkdirAll(ownerDir, 0o755)
	os.WriteFile(objectsPath("89abcdef"), []byte(rec), 0o644)
	removed, err := CleanupObjects(NamePrefix)
	if err != nil {
		t.Fatal(err)
	}
	if !gone(killMe) {
		t.Error("the sweep left a dead run's process running")
	}
	if gone(keepMe) {
		t.Error("the sweep killed a process whose start time differs from the journal's (a reused pid)")
	}
	if want := fmt.Sprintf("process %d (sleep)", killMe.Process.Pid); len(removed) != 1 || removed[0] != want {
		t.Errorf("sweep said %q, want [%q]", removed, want)
	}
}
