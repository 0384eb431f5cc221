package netlab

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// guardianTestKey is the global the guardian tests change: a kernel.* key no scenario and no
// other test touches (hostState compares net.* and vm.*), and one whose value only limits
// how many printk messages a burst may log.
const guardianTestKey = "kernel.printk_ratelimit_burst"

const guardianChildEnv = "HEADROOM_TEST_GUARDIAN_CHILD"

// TestGuardianChild is the lab run the guardian tests kill: it changes guardianTestKey as
// `lab run … --allow-global` changes a global, says so on stdout, and waits to be killed.
func TestGuardianChild(t *testing.T) {
	spec := os.Getenv(guardianChildEnv)
	if spec == "" {
		t.Skip("the lab run that TestGuardian* start and kill; not a test by itself")
	}
	key, value, _ := strings.Cut(spec, "=")
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	rb, err := l.setGlobalSysctl(key, value)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ready %s %s\n", l.RunID, rb)
	time.Sleep(2 * time.Minute)
	l.Close()
	t.Fatal("not killed within 2 minutes")
}

// guardedValues reads guardianTestKey and returns it with two other values to set.
func guardedValues(t *testing.T) (old, lab, other string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("lab guardian: writing a global sysctl and sweeping a run need root; run as root to test the guardian")
	}
	old, err := ReadSysctl(guardianTestKey)
	if err != nil {
		t.Skipf("lab guardian: %v", err)
	}
	n, err := strconv.Atoi(old)
	if err != nil {
		t.Fatalf("%s = %q", guardianTestKey, old)
	}
	t.Cleanup(func() {
		if cur, _ := ReadSysctl(guardianTestKey); cur != old {
			t.Errorf("%s = %q at the end, putting back %q", guardianTestKey, cur, old)
			WriteSysctl(guardianTestKey, old)
		}
	})
	return old, strconv.Itoa(n + 1), strconv.Itoa(n + 2)
}

// startGuardedChild starts TestGuardianChild setting guardianTestKey to value and waits until
// it did.
func startGuardedChild(t *testing.T, value string) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestGuardianChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), guardianChildEnv+"="+guardianTestKey+"="+value)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(out).ReadString('\n')
	f := strings.Fields(line)
	if err != nil || len(f) != 3 || f[0] != "ready" {
		t.Fatalf("child: %q, %v", line, err)
	}
	if f[2] != value {
		t.Fatalf("child set %s to %q, want %q", guardianTestKey, f[2], value)
	}
	return cmd, f[1]
}

// guardianReportOf waits for the guardian of runID to write its report and returns it; the
// report stays for the sweep unless remove.
func guardianReportOf(t *testing.T, runID string, remove bool) GuardianReport {
	t.Helper()
	rep, err := waitGuardianReport(runID, 5*time.Second, remove)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestGuardianRestoresAfterSIGKILL: a run killed with SIGKILL has its global put back by its
// guardian within seconds, with nobody running `lab cleanup`; the next sweep reports it.
func TestGuardianRestoresAfterSIGKILL(t *testing.T) {
	old, set, _ := guardedValues(t)
	cmd, runID := startGuardedChild(t, set)
	if cur, _ := ReadSysctl(guardianTestKey); cur != set {
		t.Fatalf("%s = %q while the run holds it, want %q", guardianTestKey, cur, set)
	}
	killed := time.Now()
	cmd.Process.Signal(syscall.SIGKILL)
	// Not reaped on purpose until the value is back: a zombie is a dead run.
	var cur string
	for deadline := killed.Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if cur, _ = ReadSysctl(guardianTestKey); cur == old {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %q 5 s after SIGKILL, want %q restored by the guardian", guardianTestKey, cur, old)
		}
	}
	t.Logf("restored %v after SIGKILL", time.Since(killed).Round(time.Millisecond))
	cmd.Wait()
	rep := guardianReportOf(t, runID, false)
	want := fmt.Sprintf("sysctl %s: restored %q (run %s had set %q)", guardianTestKey, old, runID, set)
	if strings.Join(rep.Did, "\n") != want || len(rep.Errors) > 0 {
		t.Errorf("guardian report: did %q, errors %q; want did %q", rep.Did, rep.Errors, want)
	}
	if _, err := os.Stat(ownerPath(runID)); !os.IsNotExist(err) {
		t.Errorf("owner file of the killed run: %v, want it removed", err)
	}
	// The sweep prints the report once, then forgets it.
	lines, err := collectGuardianReports()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, l := range lines {
		if strings.HasPrefix(l, "run "+runID+" was killed; its guardian at ") && strings.HasSuffix(l, ": "+want) {
			found = true
		}
	}
	if !found {
		t.Errorf("sweep lines %q lack the guardian's %q", lines, want)
	}
	if _, err := os.Stat(filepath.Join(ownerDir, runID+guardianSuffix)); !os.IsNotExist(err) {
		t.Errorf("guardian report still there after the sweep: %v", err)
	}
}

// TestGuardianLeavesValueChangedSince: a value someone set after the lab is not the lab's to
// restore.
func TestGuardianLeavesValueChangedSince(t *testing.T) {
	old, set, other := guardedValues(t)
	cmd, runID := startGuardedChild(t, set)
	if err := WriteSysctl(guardianTestKey, other); err != nil {
		t.Fatal(err)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	rep := guardianReportOf(t, runID, true)
	if cur, _ := ReadSysctl(guardianTestKey); cur != other {
		t.Errorf("%s = %q after the guardian, want %q left as someone else set it", guardianTestKey, cur, other)
	}
	want := fmt.Sprintf("sysctl %s: left at %q, changed by someone else since run %s set %q (its value before the run: %q)", guardianTestKey, other, runID, set, old)
	if strings.Join(rep.Did, "\n") != want {
		t.Errorf("guardian report: did %q, want %q", rep.Did, want)
	}
	WriteSysctl(guardianTestKey, old)
}

// TestGuardianQuietAfterClose: a run that closes cleanly restores by itself, and its guardian
// exits without sweeping or reporting.
func TestGuardianQuietAfterClose(t *testing.T) {
	old, set, _ := guardedValues(t)
	l, err := New()
	if err != nil {
		t.Fatal(err)
	}
	if rb, err := l.setGlobalSysctl(guardianTestKey, set); err != nil || rb != set {
		l.Close()
		t.Fatalf("set %s: %q, %v", guardianTestKey, rb, err)
	}
	g := l.guard
	if g == nil {
		t.Fatal("no guardian after a global sysctl was set")
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-g.g.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("guardian still running 5 s after a clean Close")
	}
	if cur, _ := ReadSysctl(guardianTestKey); cur != old {
		t.Errorf("%s = %q after Close, want %q", guardianTestKey, cur, old)
	}
	if _, err := os.Stat(filepath.Join(ownerDir, l.RunID+guardianSuffix)); !os.IsNotExist(err) {
		t.Errorf("a guardian report after a clean Close: %v", err)
	}
}
