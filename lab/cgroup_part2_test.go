package lab

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A failure run creates more than namespaces: cgroups with helper processes in them, a zram
// device with swap on it, scratch files, global sysctls. These tests kill such a run midway
// and check that nothing is left, and test the pieces of the journal on their own.

// objectsScenario creates one of every kind of object a failure scenario uses, then waits
// for ctx to end. Registered by the test binary only.
var objectsScenario = &Scenario{
	Name:    "test-objects",
	Summary: "every kind of lab object, then wait",
	Failure: &Failure{
		Metric:  MetricSpec{Name: "none"},
		Timeout: 2 * time.Minute,
		Run: func(ctx context.Context, e *Env) (*FailureRun, error) {
			a, err := e.Lab.AddHost("a")
			if err != nil {
				return nil, err
			}
			cg, err := e.Objects.NewCgroup("svc")
			if err != nil {
				return nil, err
			}
			if err := cg.SetMemoryLimit(64 << 20); err != nil {
				return nil, err
			}
			h, err := startHelper(a, "service", serviceConfig{Cgroups: cg.Dirs(), HogBytes: 8 << 20}, nil, 10*time.Second)
			if err != nil {
				return nil, err
			}
			defer h.Kill()
			dev, err := e.Objects.NewZramSwap(64<<20, 32000)
			if err != nil {
				return nil, err
			}
			dir, err := e.Objects.NewDir("files")
			if err != nil {
				return nil, err
			}
			if err := os.WriteFile(filepath.Join(dir, "f"), []byte("x"), 0o644); err != nil {
				return nil, err
			}
			cur, err := readSysctl("net.core.netdev_max_backlog")
			if err != nil {
				return nil, err
			}
			n, _ := strconv.Atoi(cur)
			if _, _, err := e.Lab.SetSysctl(a, "net.core.netdev_max_backlog", strconv.Itoa(n+7), e.Options.AllowGlobal); err != nil {
				return nil, err
			}
			e.Progressf("READY helper %d zram %s dir %s cgroup %s", h.PID, dev, dir, strings.Join(cg.Dirs(), ","))
			<-ctx.Done()
			return nil, ctx.Err()
		},
	},
}

// TestFailureChildProcess is the run TestKilledFailureRunCleansUp starts and interrupts.
func TestFailureChildProcess(t *testing.T) {
	if os.Getenv("HEADROOM_LAB_FAILURE_CHILD") == "" {
		t.Skip("helper process for TestKilledFailureRunCleansUp")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	_, err := RunFailure(ctx, objectsScenario, FailureOptions{AllowGlobal: true, Progress: func(m string) { fmt.Fprintln(os.Stderr, m) }})
	fmt.Fprintf(os.Stderr, "DONE %v\n", err)
}

func TestKilledFailureRunCleansUp(t *testing.T) {
	needRoot(t)
	if _, err := os.Stat(filepath.Join(zramControl, "hot_add")); err != nil {
		t.Skipf("no zram: %v", err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			_, origBacklog := backlogChange(t)
			before := snapshotHost(t)
			objsBefore := snapshotObjects(t)
			cmd := exec.Command(os.Args[0], "-test.run=^TestFailureChildProcess$", "-test.v")
			cmd.Env = append(os.Environ(), "HEADROOM_LAB_FAILURE_CHILD=1")
			stderr, err := cmd.StderrPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if cmd.ProcessState == nil {
					cmd.Process.Kill()
					cmd.Wait()
				}
				CleanupAll(NamePrefix)
			})
			lines := make(chan string, 100)
			go func() {
				sc := bufio.NewScanner(stderr)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var runID, ready string
			deadline := time.After(60 * time.Second)
		wait:
			for {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatal("child exited before it was ready")
					}
					if i := strings.Index(l, "READY "); i >= 0 {
						ready = l[i:]
						runID = strings.TrimSuffix(strings.Fields(l)[1], ":")
						break wait
					}
				case <-deadline:
					cmd.Process.Kill()
					t.Fatal("child not ready after 60s")
				}
			}
			f := strings.Fields(ready)
			helperPID, _ := strconv.Atoi(f[2])
			zram, dir, cgDirs := f[4], f[6], strings.Split(f[8], ",")
			// Mid-run: every object exists.
			if !swapActive(zram) {
				t.Errorf("run %s: %s is not swap mid-run", runID, zram)
			}
			if _, err := os.Stat(dir); err != nil {
				t.Errorf("run %s: scratch directory: %v", runID, err)
			}
			for _, d := range cgDirs {
				if procs := cgroupProcs(d); len(procs) == 0 {
					t.Errorf("run %s: cgroup %s has no process mid-run", runID, d)
				}
			}
			if v, _ := readSysctl("net.core.netdev_max_backlog"); v == origBacklog {
				t.Errorf("global sysctl not changed mid-run")
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() {
				for range lines {
				}
				done <- cmd.Wait()
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				cmd.Process.Kill()
				t.Fatal("child did not exit within 30s of the signal")
			}
			if sig == syscall.SIGKILL {
				// The helper dies with the run (PR_SET_PDEATHSIG); the run's guardian sweeps
				// the rest (guardian.go) with nobody calling CleanupAll.
				rep := waitGuardianReport(t, runID, 10*time.Second)
				os.Remove(filepath.Join(ownerDir, runID+guardianSuffix))
				t.Logf("guardian of run %s: %q, errors %q", runID, rep.Did, rep.Errors)
				if len(rep.Errors) > 0 {
					t.Errorf("guardian failed: %q", rep.Errors)
				}
			}
			deadline2 := time.Now().Add(5 * time.Second)
			for syscall.Kill(helperPID, 0) == nil && time.Now().Before(deadline2) {
				time.Sleep(50 * time.Millisecond)
			}
			if syscall.Kill(helperPID, 0) == nil {
				t.Errorf("helper %d outlived the run", helperPID)
			}
			if swapActive(zram) {
				t.Errorf("%s is still swap", zram)
			}
			before.compare(t, snapshotHost(t))
			objsBefore.compare(t, snapshotObjects(t))
		})
	}
}

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
