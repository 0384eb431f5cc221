package source_test

import (
	"context"
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

	"headroom/lab/netlab"
	"headroom/lab/netlab/netlabtest"
	"headroom/source"
)

// Root tests of the traced window: a UDP flood into a 4 KiB receive buffer inside a lab
// namespace (loopback only) makes SOCKET_RCVBUFF drops; the tracer must count them, and leave
// every tracing setting, the global ones and its own instance, as it found them: after a
// normal stop, and after a SIGKILL of the traced process (its guard restores).

// needTrace skips unless this process can trace: root, namespaces, and tracefs with the
// skb:kfree_skb reason field.
func needTrace(t *testing.T) {
	t.Helper()
	netlabtest.NeedRoot(t)
	tr, err := source.StartTrace(source.TraceOptions{})
	var na *source.TraceUnavailable
	if errors.As(err, &na) {
		t.Skipf("trace: not available here: %s", na.Why)
	}
	if err != nil {
		t.Fatal(err)
	}
	w, err := tr.Stop()
	if err != nil {
		t.Fatal(err)
	}
	if !w.Reasons {
		t.Skip("trace: skb:kfree_skb has no reason field here (needs Linux 5.17+)")
	}
}

// udpFlood floods a 4 KiB receive buffer that is never read, inside a lab namespace, at pps.
// rcvbuf reads the namespace's Udp RcvbufErrors.
func udpFlood(t *testing.T, pps int) (stop func() (sent int64), rcvbuf func() int64) {
	t.Helper()
	h, err := netlabtest.Lab(t).AddHost("t")
	if err != nil {
		t.Fatal(err)
	}
	r, err := netlab.ListenUDP(h, "127.0.0.1:9", netlab.UDPSink{RcvBuf: 4096, Pause: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	s, err := netlab.StartUDPFlood(context.Background(), h, "127.0.0.1:9", netlab.UDPFlood{PPS: pps, Bytes: 64})
	if err != nil {
		r.Close()
		t.Fatal(err)
	}
	rcvbuf = func() int64 {
		g, err := h.NetStat()
		if err != nil {
			t.Fatal(err)
		}
		v, ok := g.Get("Udp", "RcvbufErrors")
		if !ok {
			t.Fatal("no Udp RcvbufErrors in the namespace's /proc/net/snmp")
		}
		return v
	}
	return func() int64 { s.Stop(); r.Close(); return s.Sent() }, rcvbuf
}

// tracingState is every tracing setting outside our instances: each event's enable, filter
// and trigger, and the top files, read from a tracefs mount.
func tracingState(t *testing.T, mount string) map[string]string {
	t.Helper()
	st := map[string]string{}
	for _, f := range []string{"tracing_on", "buffer_size_kb", "current_tracer", "trace_clock", "set_event", "tracing_cpumask", "trace_options"} {
		b, err := os.ReadFile(filepath.Join(mount, f))
		if err == nil {
			st[f] = string(b)
		}
	}
	for _, pat := range []string{"events/*/*/enable", "events/*/*/filter", "events/*/*/trigger", "events/*/enable", "events/*/filter"} {
		ps, _ := filepath.Glob(filepath.Join(mount, pat))
		for _, p := range ps {
			b, err := os.ReadFile(p)
			if err == nil {
				st[strings.TrimPrefix(p, mount)] = string(b)
			}
		}
	}
	if len(st) < 100 {
		t.Fatalf("read only %d tracing settings under %s", len(st), mount)
	}
	return st
}

func tracefsMountsNow(t *testing.T) []string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, l := range strings.Split(string(b), "\n") {
		if _, post, ok := strings.Cut(l, " - "); ok && strings.HasPrefix(post, "tracefs ") {
			out = append(out, strings.Fields(l)[4])
		}
	}
	slices.Sort(out)
	return out
}

// viewMount returns a tracefs mount to look through: an existing one, or one of the test's
// own (removed at the end).
func viewMount(t *testing.T) string {
	t.Helper()
	if m := tracefsMountsNow(t); len(m) > 0 {
		return m[0]
	}
	dir := t.TempDir()
	if err := unix.Mount("nodev", dir, "tracefs", 0, ""); err != nil {
		t.Fatalf("mount tracefs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

func TestTraceCountsRcvbuffDropsAndRestores(t *testing.T) {
	needTrace(t)
	mounts0 := tracefsMountsNow(t)
	// A window with nothing mounted first (the usual case here): it mounts and unmounts.
	if len(mounts0) == 0 {
		tr, err := source.StartTrace(source.TraceOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tr.Stop(); err != nil {
			t.Fatal(err)
		}
		if m := tracefsMountsNow(t); !slices.Equal(m, mounts0) {
			t.Fatalf("tracefs mounts after the window: %v, before: %v", m, mounts0)
		}
	}
	view := viewMount(t)
	before := tracingState(t, view)
	stop, rcvbuf := udpFlood(t, 20000)
	tr, err := source.StartTrace(source.TraceOptions{})
	if err != nil {
		stop()
		t.Fatal(err)
	}
	// Drops the namespace counted while the tracepoint was surely on: the trace must hold
	// at least these (other processes' drops can only add).
	first := rcvbuf()
	inst := filepath.Join(view, "instances", fmt.Sprintf("headroom-%d", os.Getpid()))
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
	after := tracingState(t, view)
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s changed: %q, was %q", k, after[k], v)
		}
	}
	if len(after) != len(before) {
		t.Errorf("%d tracing settings after, %d before", len(after), len(before))
	}
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
	needTrace(t)
	mounts0 := tracefsMountsNow(t)
	var before map[string]string
	if len(mounts0) > 0 {
		before = tracingState(t, mounts0[0])
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
	if len(mounts0) == 0 && len(tracefsMountsNow(t)) != 1 {
		t.Errorf("the child did not mount tracefs: %v", tracefsMountsNow(t))
	}
	if err := cmd.Process.Signal(unix.SIGKILL); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	// The guard restores once the child is gone: the mount it made goes last.
	inst := fmt.Sprintf("instances/headroom-%d", pid)
	deadline := time.Now().Add(15 * time.Second)
	for {
		m := tracefsMountsNow(t)
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
	view := viewMount(t)
	if _, err := os.Stat(filepath.Join(view, inst)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("instance %s left after SIGKILL: %v", inst, err)
	}
	if before != nil {
		after := tracingState(t, view)
		for k, v := range before {
			if after[k] != v {
				t.Errorf("%s changed: %q, was %q", k, after[k], v)
			}
		}
	}
}
