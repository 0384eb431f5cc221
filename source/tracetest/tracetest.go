// Package tracetest holds what the root tests of traced windows share (source's and the
// CLI's): the skip check, the UDP flood that makes SOCKET_RCVBUFF drops inside a lab
// namespace, and a snapshot of every tracing setting to compare before and after. It is
// imported only by tests.
package tracetest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/lab/netlab/netlabtest"
	"headroom/source"
)

// Need skips t unless this process can trace with drop reasons: root, namespaces, tracefs
// (mounted or mountable), skb:kfree_skb with its reason field (5.17+).
func Need(t *testing.T) {
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

// Flood sends pps 64-byte datagrams a second to a 4 KiB receive buffer that is never read,
// on loopback inside a lab namespace, until stop (which returns how many were sent);
// rcvbuf reads the namespace's Udp RcvbufErrors.
func Flood(t *testing.T, pps int) (stop func() int64, rcvbuf func() int64) {
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
	stopped := false
	stop = func() int64 {
		if !stopped {
			stopped = true
			s.Stop()
			r.Close()
		}
		return s.Sent()
	}
	t.Cleanup(func() { stop() })
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
	return stop, rcvbuf
}

// State is every tracing setting outside the instances: each event's enable, filter and
// trigger, each system's, and the top files, read through a tracefs mount.
func State(t *testing.T, mount string) map[string]string {
	t.Helper()
	st := map[string]string{}
	for _, f := range []string{"tracing_on", "buffer_size_kb", "current_tracer", "trace_clock", "set_event", "tracing_cpumask", "trace_options"} {
		if b, err := os.ReadFile(filepath.Join(mount, f)); err == nil {
			st[f] = string(b)
		}
	}
	for _, pat := range []string{"events/*/*/enable", "events/*/*/filter", "events/*/*/trigger", "events/*/enable", "events/*/filter"} {
		ps, _ := filepath.Glob(filepath.Join(mount, pat))
		for _, p := range ps {
			if b, err := os.ReadFile(p); err == nil {
				st[strings.TrimPrefix(p, mount)] = string(b)
			}
		}
	}
	if len(st) < 100 {
		t.Fatalf("read only %d tracing settings under %s", len(st), mount)
	}
	return st
}

// SameState reports every setting that differs. A setting that appeared while the test ran
// (a module loaded meanwhile registers its events; eventfs, 6.6+, lists an event system
// only once something looked it up) is reported only when it is not the kernel's default:
// an event enabled, filtered or triggered that was not before is a leak, a new event
// directory at rest is not. One that vanished is reported: nothing of ours removes events.
func SameState(t *testing.T, before, after map[string]string) {
	t.Helper()
	for k, v := range before {
		if a, ok := after[k]; !ok || a != v {
			t.Errorf("%s changed: %q, was %q", k, a, v)
		}
	}
	for k, v := range after {
		if _, ok := before[k]; !ok && !atRest(k, v) {
			t.Errorf("%s appeared as %q", k, v)
		}
	}
}

// atRest reports whether an event file holds what the kernel gives a new event: enable 0,
// filter "none", no trigger (the trigger file lists only its comment header).
func atRest(key, v string) bool {
	v = strings.TrimSpace(v)
	switch filepath.Base(key) {
	case "enable":
		return v == "0"
	case "filter":
		return v == "none"
	case "trigger":
		for _, l := range strings.Split(v, "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				return false
			}
		}
		return true
	}
	return false
}

// Mounts lists this mount namespace's tracefs mount points, sorted.
func Mounts(t *testing.T) []string {
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

// View returns a tracefs mount to look through: an existing one, or one of the test's own
// (removed when t ends).
func View(t *testing.T) string {
	t.Helper()
	if m := Mounts(t); len(m) > 0 {
		return m[0]
	}
	dir := t.TempDir()
	if err := unix.Mount("nodev", dir, "tracefs", 0, ""); err != nil {
		t.Fatalf("mount tracefs: %v", err)
	}
	t.Cleanup(func() { unix.Unmount(dir, unix.MNT_DETACH) })
	return dir
}

// Instance is the name of the tracefs instance of process pid ("headroom-<pid>-<start
// ticks>"), read while it lives; tracefs-<the same> names the mount it makes when tracefs
// was mounted nowhere.
func Instance(t *testing.T, pid int) string {
	t.Helper()
	st, err := kernel.ReadTaskStat(kernel.HostRoot(), pid)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("headroom-%d-%d", pid, st.StartTicks)
}

// Restored reports what a traced process (pid, alive when this is called: its instance's
// name has its start time) left behind after its window ended: its instance in the tracefs
// at view, and any tracing setting that differs from before.
func Restored(t *testing.T, view string, pid int, before map[string]string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(view, "instances", Instance(t, pid))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the instance of pid %d left behind: %v", pid, err)
	}
	SameState(t, before, State(t, view))
}
