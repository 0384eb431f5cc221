package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/privdrop"
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
	// As a real serve does: its guard then runs with CAP_SYSLOG alone too.
	cmd.Env = append(os.Environ(), dropCapsTestEnv+"=1", runArgsEnv+"="+args)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	name := tracetest.Instance(t, pid)
	inst := "instances/" + name
	// Tracing: the instance is there.
	var where string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		where = instanceDir(mounts, pid, inst)
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
	instanceGone(t, inst)
	if before != nil {
		tracetest.SameState(t, before, tracetest.State(t, tracetest.View(t)))
	}
}

// instanceGone waits up to 15 s for instance inst to be gone from tracefs, looked at
// through a mount of the test's own when none is mounted (tracefs is one for the whole
// machine: every mount shows the same instances).
func instanceGone(t *testing.T, inst string) {
	t.Helper()
	view := tracetest.View(t)
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		_, err := os.Stat(filepath.Join(view, inst))
		if errors.Is(err, os.ErrNotExist) {
			return
		}
		if time.Now().After(deadline) {
			t.Errorf("instance %s left: %v", inst, err)
			return
		}
	}
}

// instanceDir is where the tracefs instance inst of process pid can be seen: through
// tracefs mounted in this namespace (mounts), the mount doctor makes of its own when none
// is, or serve's detached mount, which only its descriptors reach (/proc/PID/fd/N).
func instanceDir(mounts []string, pid int, inst string) string {
	if len(mounts) > 0 {
		return filepath.Join(mounts[0], inst)
	}
	own := filepath.Join("/run/headroom", "tracefs-"+strings.TrimPrefix(filepath.Base(inst), "headroom-"), inst)
	if _, err := os.Stat(own); err == nil {
		return own
	}
	fds, _ := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	for _, e := range fds {
		p := fmt.Sprintf("/proc/%d/fd/%s", pid, e.Name())
		var st unix.Statfs_t
		if unix.Statfs(p, &st) == nil && st.Type == unix.TRACEFS_MAGIC {
			if _, err := os.Stat(filepath.Join(p, inst)); err == nil {
				return filepath.Join(p, inst)
			}
		}
	}
	return own
}

// serve --trace started as root keeps CAP_SYSLOG alone, as serve without --trace does: it
// mounts tracefs (detached) before the drop and hands it to the re-executed serve, which
// traces with CAP_SYSLOG alone (export.KeepCaps, source.MountTraceFS). Every thread's
// capabilities are read from /proc/PID/task/*/status; the re-executed serve counts a
// flood's SOCKET_RCVBUFF drops in its metrics; after SIGTERM its instance is gone and no
// tracefs mount is left.
func TestLabServeTraceCaps(t *testing.T) {
	tracetest.Need(t)
	mounts := tracetest.Mounts(t)
	stop, _ := tracetest.Flood(t, 20000)
	defer stop()
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = append(os.Environ(), dropCapsTestEnv+"=1", runArgsEnv+"=serve --trace --listen 127.0.0.1:0 --window-interval -1s --min-interval 100ms --rules-interval 0")
	var errb syncBuffer
	cmd.Stdout, cmd.Stderr = &errb, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	inst := "instances/" + tracetest.Instance(t, pid)
	exited := false
	defer func() {
		if !exited {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	listening := regexp.MustCompile(`listening on (http://\S+)/ `)
	var base string
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if m := listening.FindStringSubmatch(errb.String()); m != nil {
			base = m[1]
			if _, err := os.Stat(filepath.Join(instanceDir(mounts, pid, inst), "events", "skb", "kfree_skb", "enable")); err == nil {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("serve --trace: not listening and tracing in 30 s: %s", errb.String())
		}
	}
	want := uint64(1) << unix.CAP_SYSLOG
	tasks, err := filepath.Glob(fmt.Sprintf("/proc/%d/task/*/status", pid))
	if err != nil || len(tasks) == 0 {
		t.Fatalf("no threads of %d: %v", pid, err)
	}
	for _, p := range tasks {
		caps, err := privdrop.ProcCaps(p)
		if err != nil {
			t.Fatal(err)
		}
		if caps["CapEff"] != want || caps["CapPrm"] != want || caps["CapBnd"] != want || caps["CapAmb"] != want {
			t.Errorf("%s: CapEff %#x CapPrm %#x CapBnd %#x CapAmb %#x; want %#x (CAP_SYSLOG) in each", p, caps["CapEff"], caps["CapPrm"], caps["CapBnd"], caps["CapAmb"], want)
		}
	}
	re := regexp.MustCompile(`(?m)^headroom_trace_drops_total\{reason="SOCKET_RCVBUFF"\} (\S+)$`)
	scrape := func() float64 {
		code, body := httpGet(t, base+"/metrics")
		m := re.FindStringSubmatch(body)
		if code != 200 || m == nil {
			return 0
		}
		v, _ := strconv.ParseFloat(m[1], 64)
		return v
	}
	first := scrape()
	time.Sleep(1500 * time.Millisecond)
	second := scrape()
	t.Logf("serve --trace with CapEff %#x: SOCKET_RCVBUFF %g, then %g 1.5 s later", want, first, second)
	if second < 1000 || second <= first {
		t.Errorf("the re-executed serve counted SOCKET_RCVBUFF %g then %g during a 20k/s flood into a full buffer", first, second)
	}
	cmd.Process.Signal(unix.SIGTERM)
	cmd.Wait()
	exited = true
	if m := tracetest.Mounts(t); len(m) != len(mounts) {
		t.Errorf("tracefs mounts %v after serve --trace; before %v", m, mounts)
	}
	instanceGone(t, inst)
	if strings.Contains(errb.String(), "could not drop") {
		t.Errorf("serve: %s", errb.String())
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
