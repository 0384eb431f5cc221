package record

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Issue 22 item 1: repairing a torn archive must never lose what it had. The tests run the
// repair in a child process (this test binary again) that dies or fails in the middle, then
// check that the archive still holds every complete line.
const repairChildEnv = "HEADROOM_RECORD_TEST_REPAIR_CHILD"

// repairChildModes are the ways a child can be made to stop mid-repair.
var repairChildModes = map[string]func(arg string){
	// fsize: a file size limit (setrlimit(2) RLIMIT_FSIZE) below the repaired member's end,
	// as a full disk would: the write that would cross it fails with EFBIG.
	"fsize": func(arg string) {
		n, _ := strconv.ParseUint(arg, 10, 64)
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: n, Max: n}); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
	},
	// kill:STEP: SIGKILL right after that step of the repair.
	"kill": func(at string) {
		repairStep = func(s string) {
			if s == at {
				syscall.Kill(os.Getpid(), syscall.SIGKILL)
			}
		}
	},
}

// The child is dispatched from init, before TestMain (fuzzmain_test.go) and before any
// test: package variables, repairChildModes among them, are set before init runs.
func init() {
	if mode := os.Getenv(repairChildEnv); mode != "" {
		kind, arg, _ := strings.Cut(mode, ":")
		setup, ok := repairChildModes[kind]
		if !ok {
			fmt.Fprintln(os.Stderr, "unknown child mode", mode)
			os.Exit(2)
		}
		setup(arg)
		w, err := Create(os.Getenv("HEADROOM_RECORD_TEST_ARCHIVE"), testHeader(), WriterOptions{})
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(4)
		}
		w.Close()
		os.Exit(0)
	}
}

// tornArchive writes a recording of five samples in one gzip member (as a recorder does
// for its first hour) and then half of a sixth flush: the member has no end.
func tornArchive(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	w, err := Create(path, testHeader(), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		s := synthSample(i)
		w.WriteSample(&s)
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	s := synthSample(5)
	w.WriteSample(&s)
	w.zw.Flush()
	w.f.Write(w.buf.Bytes()[:w.buf.Len()/2])
	w.f.Close()
	if _, st, err := LoadStats(path); err != nil || !st.Truncated || st.Samples != 5 {
		t.Fatalf("torn archive: %+v %v", st, err)
	}
	return path
}

func runRepairChild(t *testing.T, path, mode string) *exec.ExitError {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), repairChildEnv+"="+mode, "HEADROOM_RECORD_TEST_ARCHIVE="+path)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("child %s did not stop: %v\n%s", mode, err, out)
	}
	t.Logf("child %s: %v: %s", mode, err, strings.TrimSpace(string(out)))
	return ee
}

// checkRepairSurvived: after the child stopped mid-repair, the archive still reads with
// its five samples; the next recorder repairs it, removes the child's leftovers and
// appends a session that reads after them.
func checkRepairSurvived(t *testing.T, path string) {
	t.Helper()
	if _, st, err := LoadStats(path); err != nil || st.Samples != 5 {
		t.Fatalf("after the interrupted repair: %+v %v: samples lost", st, err)
	}
	w, err := Create(path, testHeader(), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s := synthSample(10)
	w.WriteSample(&s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tl, st, err := LoadStats(path)
	if err != nil || st.Truncated || st.Sessions != 2 || len(tl.Samples) != 6 {
		t.Fatalf("after the next recorder: %+v, %d samples, %v", st, len(tl.Samples), err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*"))
	if len(left) != 0 {
		t.Errorf("leftovers of the interrupted repair: %v", left)
	}
}

// A full disk (here a file size limit) in the middle of a repair loses nothing.
func TestRepairInterruptedByFileSizeLimit(t *testing.T) {
	path := tornArchive(t)
	ee := runRepairChild(t, path, "fsize:64")
	if ee.ExitCode() != 4 && !(ee.Sys().(syscall.WaitStatus)).Signaled() {
		t.Fatalf("child: %v", ee)
	}
	checkRepairSurvived(t, path)
}

// SIGKILL after each step of a repair: before the rename the old archive is whole, after
// it the repaired one is; either way every complete line is there.
func TestRepairKilledAtEveryStep(t *testing.T) {
	for _, at := range []string{"copied", "written", "synced", "renamed"} {
		t.Run(at, func(t *testing.T) {
			path := tornArchive(t)
			ee := runRepairChild(t, path, "kill:"+at)
			if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
				t.Fatalf("child did not die by SIGKILL at %s: %v", at, ee)
			}
			checkRepairSurvived(t, path)
		})
	}
}
