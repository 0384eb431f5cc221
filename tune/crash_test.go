package tune

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// The crash test re-executes this test binary as a child that applies changes and kills
// itself with SIGKILL the moment the journal entry is durable, before the first sysctl
// write: the worst moment, when the journal announces changes that never happened. The hook
// is Applier.AfterJournal, a plain field that production code leaves nil, so the shipped
// binary carries no crash switch; only this TestMain reads the environment.
const crashChildEnv = "HEADROOM_TUNE_TEST_CRASH_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(crashChildEnv) == "1" {
		os.Exit(crashChild())
	}
	os.Exit(m.Run())
}

// crashChild applies the changes in $HEADROOM_TUNE_TEST_CHANGES to the sysctls under
// $HEADROOM_TUNE_TEST_PROCSYS or in namespace $HEADROOM_TUNE_TEST_NETNS, with the journal in
// $HEADROOM_TUNE_TEST_STATE, and dies after the journal write. It returns only on failure.
func crashChild() int {
	f, err := os.Open(os.Getenv("HEADROOM_TUNE_TEST_CHANGES"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	changes, err := ParseChanges(f)
	f.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	var fs SysctlFS = ProcSys{Dir: os.Getenv("HEADROOM_TUNE_TEST_PROCSYS")}
	ns := os.Getenv("HEADROOM_TUNE_TEST_NETNS")
	if ns != "" {
		n, err := OpenNetns(ns)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		fs = n
	}
	j, err := OpenJournal(os.Getenv("HEADROOM_TUNE_TEST_STATE"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	a := &Applier{FS: fs, Netns: ns, Journal: j, Limits: testLimits,
		AfterJournal: func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) }}
	_, _, err = a.Apply(context.Background(), changes)
	fmt.Fprintf(os.Stderr, "child survived the kill: %v\n", err)
	return 3
}

func runCrashChild(t *testing.T, env ...string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), append(env, crashChildEnv+"=1")...)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("child did not die by SIGKILL: %v\n%s", err, out)
	}
}

func writeChangesFile(t *testing.T, dir string, keysValues ...string) string {
	t.Helper()
	var items []string
	for i := 0; i < len(keysValues); i += 2 {
		items = append(items, fmt.Sprintf(`{"kind":"sysctl","key":%q,"recommended":%q,"why":"crash test","rule":"plan"}`, keysValues[i], keysValues[i+1]))
	}
	path := filepath.Join(dir, "changes.json")
	if err := os.WriteFile(path, []byte("["+strings.Join(items, ",")+"]"), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func checkCrashRollback(t *testing.T, stateDir string, opener func(string) (SysctlFS, func(), error), fs SysctlFS, orig map[string]string) {
	t.Helper()
	jf := mustReadJournal(t, stateDir)
	if len(jf.Entries) != 1 || jf.Entries[0].State != StatePending {
		t.Fatalf("journal after the crash: %+v", jf.Entries)
	}
	for _, r := range jf.Entries[0].Changes {
		if r.Status != StatusPlanned || r.Old != orig[r.Key] {
			t.Errorf("journal record %+v, want planned with old %q", r, orig[r.Key])
		}
	}
	if d := diffMaps(orig, readAll(t, fs, orig)); d != "" {
		t.Fatalf("values changed although the child died before writing:\n%s", d)
	}
	j := openTestJournal(t, stateDir)
	var logs logBuffer
	rb := &Rollbacker{Journal: j, OpenFS: opener, Log: testLogger(&logs)}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(done) != 1 || done[0].State != StateRolledBack || len(done[0].Notes) != 1 ||
		!strings.HasPrefix(done[0].Notes[0], "nothing to undo: every value equals its old value (the apply was interrupted before its first change") {
		t.Fatalf("rollback: %+v", done)
	}
	for _, r := range done[0].Changes {
		if r.Status != StatusUnchanged {
			t.Errorf("%s: status %s", r.Key, r.Status)
		}
	}
	if d := diffMaps(orig, readAll(t, fs, orig)); d != "" {
		t.Errorf("values after rollback:\n%s", d)
	}
	if strings.Contains(logs.String(), "→") {
		t.Errorf("rollback changed something:\n%s", logs.String())
	}
}

// Without root: the sysctls are files in a directory laid out like /proc/sys.
func TestCrashBetweenJournalAndFirstWrite(t *testing.T) {
	procsys, stateDir := t.TempDir(), t.TempDir()
	fs := ProcSys{Dir: procsys}
	orig := map[string]string{"net.core.somaxconn": "4096", "net.ipv4.tcp_rmem": "4096\t131072\t6291456"}
	for k, v := range orig {
		p, _ := KeyPath(k)
		os.MkdirAll(filepath.Join(procsys, filepath.Dir(p)), 0o755)
		if err := os.WriteFile(filepath.Join(procsys, p), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	changes := writeChangesFile(t, t.TempDir(), "net.core.somaxconn", "8192", "net.ipv4.tcp_rmem", "4096 131072 16777216")
	runCrashChild(t, "HEADROOM_TUNE_TEST_CHANGES="+changes, "HEADROOM_TUNE_TEST_PROCSYS="+procsys, "HEADROOM_TUNE_TEST_STATE="+stateDir)
	checkCrashRollback(t, stateDir, fsOpener(fs), fs, orig)
}

// As root, in a throwaway namespace, on the kernel's own sysctls.
func TestLiveCrashBetweenJournalAndFirstWrite(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	orig, changes := perNetnsChanges(t, fs, false)
	var kv []string
	for _, c := range changes {
		kv = append(kv, c.Key, c.Recommended)
	}
	stateDir := t.TempDir()
	path := writeChangesFile(t, t.TempDir(), kv...)
	runCrashChild(t, "HEADROOM_TUNE_TEST_CHANGES="+path, "HEADROOM_TUNE_TEST_NETNS="+ns, "HEADROOM_TUNE_TEST_STATE="+stateDir)
	checkCrashRollback(t, stateDir, liveOpener(t), fs, orig)
}
