package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/report"
	"headroom/source/tracetest"
)

// runArgsEnv makes the test binary run headroom with these arguments (TestMain).
const runArgsEnv = "HEADROOM_TEST_RUN_ARGS"

// doctor --trace 3s during a UDP flood into a 4 KiB receive buffer (a lab namespace,
// loopback only): the kernel's SOCKET_RCVBUFF drops are counted and cited by the
// receive-buffer finding (its story proof too), and every tracing setting is as it was.
func TestLabDoctorTraceRcvbuff(t *testing.T) {
	tracetest.Need(t)
	mounts := tracetest.Mounts(t)
	view := tracetest.View(t)
	before := tracetest.State(t, view)
	if len(mounts) == 0 {
		// Nothing mounted before: doctor mounts its own; look through ours only after.
		unix.Unmount(view, unix.MNT_DETACH)
	}
	stop, _ := tracetest.Flood(t, 20000)
	var out, errb bytes.Buffer
	code := run([]string{"doctor", "--trace", "3s", "--format", "json"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	sent := stop()
	if code == exitFailure {
		t.Fatalf("doctor exit %d: %s", code, errb.String())
	}
	var doc report.Document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Trace == nil {
		t.Fatalf("no trace in the report; not available: %+v", doc.NotAvailable)
	}
	n, _ := doc.Trace.DropsFor("SOCKET_RCVBUFF")
	t.Logf("sent %d datagrams; traced %s: %d drops, SOCKET_RCVBUFF %d, lost %d", sent, doc.Trace.Duration, doc.Trace.DropsTotal, n, doc.Trace.Lost)
	if n < 1000 {
		t.Errorf("SOCKET_RCVBUFF %d in 3 s of a %d-datagram flood into a full buffer", n, sent)
	}
	cited := false
	for _, f := range doc.Findings {
		if f.ID == "udp-rcvbuf-errors" && len(f.Evidence) > 0 && strings.Contains(f.Evidence[0].What, "SOCKET_RCVBUFF") && strings.HasPrefix(f.Evidence[0].Value, fmt.Sprint(n)+" in ") {
			cited = true
		}
	}
	if !cited {
		t.Errorf("no udp-rcvbuf-errors finding citing %d SOCKET_RCVBUFF drops: %+v", n, doc.Findings)
	}
	proved := false
	for _, c := range doc.Diagnosis.Chains {
		for _, l := range append(c.Links, c.Also...) {
			proved = proved || (l.ID == "udp-rcvbuf-errors" && strings.Contains(l.Proof.What, "SOCKET_RCVBUFF"))
		}
	}
	if !proved {
		t.Errorf("the story does not cite the reason count: %+v", doc.Diagnosis.Chains)
	}
	if m := tracetest.Mounts(t); len(mounts) == 0 && len(m) != 0 {
		t.Errorf("tracefs mounts left: %v", m)
	}
	tracetest.Restored(t, tracetest.View(t), os.Getpid(), before)
}

// A doctor --trace killed with SIGKILL mid-window: its guard removes the instance (and the
// mount doctor made), and every tracing setting is as it was.
func TestLabDoctorTraceSIGKILL(t *testing.T) {
	testTraceSIGKILL(t, "doctor --trace 60s --format json")
}

// The same for serve --trace, which traces for as long as it runs.
func TestLabServeTraceSIGKILL(t *testing.T) {
	testTraceSIGKILL(t, "serve --trace --listen 127.0.0.1:0")
}

func testTraceSIGKILL(t *testing.T, args string) {
	tracetest.Need(t)
	mounts := tracetest.Mounts(t)
	var before map[string]string
	if len(mounts) > 0 {
		before = tracetest.State(t, mounts[0])
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), runArgsEnv+"="+args)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	name := tracetest.Instance(t, pid)
	inst := "instances/" + name
	// Tracing: the instance is there (in doctor's own mount when nothing was mounted).
	where := func() string {
		if len(mounts) > 0 {
			return filepath.Join(mounts[0], inst)
		}
		return filepath.Join("/run/headroom", "tracefs-"+strings.TrimPrefix(name, "headroom-"), inst)
	}()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(where, "events", "skb", "kfree_skb", "enable")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("%s made no instance %s in 20 s", args, where)
		}
	}
	time.Sleep(300 * time.Millisecond) // inside the window, readers running
	cmd.Process.Signal(unix.SIGKILL)
	cmd.Wait()
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := os.Stat(where)
		m := tracetest.Mounts(t)
		if errors.Is(err, os.ErrNotExist) && len(m) == len(mounts) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("15 s after SIGKILL: %s: %v; tracefs mounts %v (before %v)", where, err, m, mounts)
		}
	}
	view := tracetest.View(t)
	if _, err := os.Stat(filepath.Join(view, inst)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("instance %s left after SIGKILL: %v", inst, err)
	}
	if before != nil {
		tracetest.SameState(t, before, tracetest.State(t, view))
	}
}

// record --trace during the flood writes the kernel's counts in parts; doctor --from the
// recording cites them as a live doctor --trace does.
func TestLabRecordTraceRcvbuff(t *testing.T) {
	tracetest.Need(t)
	view := tracetest.View(t)
	before := tracetest.State(t, view)
	stop, _ := tracetest.Flood(t, 20000)
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	var errb bytes.Buffer
	code := run([]string{"record", "-o", path, "--duration", "3s", "--trace", "--trace-every", "1s", "--sockets=false"}, IO{Stdin: strings.NewReader(""), Stdout: &errb, Stderr: &errb})
	stop()
	if code != exitOK {
		t.Fatalf("record exit %d: %s", code, errb.String())
	}
	var out bytes.Buffer
	run([]string{"doctor", "--from", path, "--format", "json"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	var doc report.Document
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil {
		t.Fatalf("%v: %s", err, errb.String())
	}
	if doc.Trace == nil {
		t.Fatalf("no trace from the recording; not available %+v", doc.NotAvailable)
	}
	n, _ := doc.Trace.DropsFor("SOCKET_RCVBUFF")
	t.Logf("recording traced %s: SOCKET_RCVBUFF %d, lost %d", doc.Trace.Duration, n, doc.Trace.Lost)
	cited := false
	for _, f := range doc.Findings {
		cited = cited || (f.ID == "udp-rcvbuf-errors" && strings.Contains(f.Evidence[0].What, "SOCKET_RCVBUFF"))
	}
	if n < 1000 || !cited {
		t.Errorf("SOCKET_RCVBUFF %d; cited by udp-rcvbuf-errors: %v", n, cited)
	}
	tracetest.Restored(t, view, os.Getpid(), before)
}
