package source_test

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/source"
	"headroom/source/tracetest"
)

// Root tests of the traced window: a UDP flood into a 4 KiB receive buffer inside a lab
// namespace (loopback only) makes SOCKET_RCVBUFF drops; the tracer must count them, and leave
// every tracing setting, the global ones and its own instance, as it found them: after a
// normal stop, and after a SIGKILL of the traced process (its guard restores).

func TestTraceCountsRcvbuffDropsAndRestores(t *testing.T) {
	tracetest.Need(t)
	mounts0 := tracetest.Mounts(t)
	// A window with nothing mounted first (the usual case here): it mounts and unmounts.
	if len(mounts0) == 0 {
		tr, err := source.StartTrace(source.TraceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Stop(); err != nil {
			t.Fatal(err)
		}
		if m := tracetest.Mounts(t); !slices.Equal(m, mounts0) {
			t.Fatalf("tracefs mounts after the window: %v, before: %v", m, mounts0)
		}
	}
	view := tracetest.View(t)
	before := tracetest.State(t, view)
	stop, rcvbuf := tracetest.Flood(t, 20000)
	tr, err := source.StartTrace(source.TraceOptions{})
	if err != nil {
		stop()
		t.Fatal(err)
	}
	// Drops the namespace counted while the tracepoint was surely on: the trace must hold
	// at least these (other processes' drops can only add).
	first := rcvbuf()
	inst := filepath.Join(view, "instances", tracetest.Instance(t, os.Getpid()))
	if _, err := os.Stat(inst); err != nil {
		t.Errorf("our instance is not there while tracing: %v", err)
	}
	time.Sleep(time.Second)
	inWindow := rcvbuf() - first
	w, err := tr.Stop()
	sent := stop()
	if err != nil {
		t.Fatal(err)
	}
	n, _ := w.DropsFor("SOCKET_RCVBUFF")
	t.Logf("sent %d datagrams; Udp RcvbufErrors +%d while traced; %d drops traced, SOCKET_RCVBUFF %d, lost %d; top locations %v", sent, inWindow, w.DropsTotal, n, w.Lost, w.Locations[:min(3, len(w.Locations))])
	if inWindow < 1000 || n < uint64(inWindow) {
		t.Errorf("SOCKET_RCVBUFF drops %d traced; the namespace counted %d RcvbufErrors while traced", n, inWindow)
	}
	if _, err := os.Stat(inst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("instance %s left behind: %v", inst, err)
	}
	tracetest.SameState(t, before, tracetest.State(t, view))
}

// TestTraceChild is the traced process of TestTraceGuardRestoresAfterSIGKILL (it runs only
// when that test starts it): it starts a window, says where its instance is, and waits to
// be killed.
func TestTraceChild(t *testing.T) {
	if os.Getenv("HEADROOM_TRACE_TEST_CHILD") != "1" {
		t.Skip("the traced child of TestTraceGuardRestoresAfterSIGKILL")
	}
	if _, err := source.StartTrace(source.TraceOptions{}); err != nil {
		fmt.Println("error", err)
		return
	}
	fmt.Println("ready")
	time.Sleep(time.Minute)
}

func TestTraceGuardRestoresAfterSIGKILL(t *testing.T) {
	tracetest.Need(t)
	mounts0 := tracetest.Mounts(t)
	var before map[string]string
	if len(mounts0) > 0 {
		before = tracetest.State(t, mounts0[0])
	}
	cmd := exec.Command("/proc/self/exe", "-test.run=^TestTraceChild$", "-test.v")
	cmd.Env = append(os.Environ(), "HEADROOM_TRACE_TEST_CHILD=1")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	inst := "instances/" + tracetest.Instance(t, pid)
	lines := make(chan string, 16)
	go func() {
		b := make([]byte, 4096)
		var acc string
		for {
			n, err := out.Read(b)
			acc += string(b[:n])
			for {
				i := strings.IndexByte(acc, '\n')
				if i < 0 {
					break
				}
				lines <- acc[:i]
				acc = acc[i+1:]
			}
			if err != nil {
				close(lines)
				return
			}
		}
	}()
	ready := false
	for !ready {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the child ended before it traced")
			}
			if strings.HasPrefix(l, "error") {
				t.Fatalf("child: %s", l)
			}
			ready = l == "ready"
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the child did not start tracing in 20 s")
		}
	}
	if len(mounts0) == 0 && len(tracetest.Mounts(t)) != 1 {
		t.Errorf("the child did not mount tracefs: %v", tracetest.Mounts(t))
	}
	if err := cmd.Process.Signal(unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The guard restores once the child is gone: the mount it made goes last.
	deadline := time.Now().Add(15 * time.Second)
	for {
		m := tracetest.Mounts(t)
		gone := slices.Equal(m, mounts0)
		if gone && len(m) > 0 {
			_, err := os.Stat(filepath.Join(m[0], inst))
			gone = errors.Is(err, os.ErrNotExist)
		}
		if gone {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15 s after SIGKILL: tracefs mounts %v (before %v); instance %s still there", m, mounts0, inst)
		}
		time.Sleep(100 * time.Millisecond)
	}
	view := tracetest.View(t)
	if _, err := os.Stat(filepath.Join(view, inst)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("instance %s left after SIGKILL: %v", inst, err)
	}
	if before != nil {
		tracetest.SameState(t, before, tracetest.State(t, view))
	}
}

// A window sweeps the instances of tracers that died with their guard (both killed at once),
// and leaves a live tracer's alone: owners are told apart by pid and start time.
func TestTraceSweepsDeadTracersOnly(t *testing.T) {
	tracetest.Need(t)
	view := tracetest.View(t)
	child := exec.Command("/bin/true")
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	dead := tracetest.Instance(t, child.Process.Pid)
	child.Wait()
	live := tracetest.Instance(t, 1)
	for _, n := range []string{dead, live} {
		if err := os.Mkdir(filepath.Join(view, "instances", n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	defer unix.Rmdir(filepath.Join(view, "instances", live))
	defer unix.Rmdir(filepath.Join(view, "instances", dead))
	tr, err := source.StartTrace(source.TraceOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tr.Stop(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(view, "instances", dead)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the dead tracer's instance %s was not swept: %v", dead, err)
	}
	if _, err := os.Stat(filepath.Join(view, "instances", live)); err != nil {
		t.Errorf("the live owner's instance %s was swept: %v", live, err)
	}
}
