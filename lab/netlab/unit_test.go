package netlab

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// chanEndpoint is a packet endpoint for DelayLine tests: reads come from in, writes go to
// out with their arrival time.
type chanEndpoint struct {
	in     chan []byte
	out    chan stamped
	closed chan struct{}
	once   sync.Once
}

type stamped struct {
	p  []byte
	at time.Time
}

func newChanEndpoint() *chanEndpoint {
	return &chanEndpoint{in: make(chan []byte, 64), out: make(chan stamped, 64), closed: make(chan struct{})}
}

func (e *chanEndpoint) Read(b []byte) (int, error) {
	select {
	case p := <-e.in:
		return copy(b, p), nil
	case <-e.closed:
		return 0, io.EOF
	}
}

func (e *chanEndpoint) Write(b []byte) (int, error) {
	e.out <- stamped{p: append([]byte(nil), b...), at: time.Now()}
	return len(b), nil
}

func (e *chanEndpoint) Close() error { e.once.Do(func() { close(e.closed) }); return nil }

func TestDelayLineMovesPacketsAfterDelay(t *testing.T) {
	a, b := newChanEndpoint(), newChanEndpoint()
	const d = 30 * time.Millisecond
	dl := NewDelayLine(a, b, NewDelayQueue(DelayQueueConfig{Delay: d}, WallClock), NewDelayQueue(DelayQueueConfig{Delay: d}, WallClock))
	defer dl.Close()
	sent := time.Now()
	a.in <- []byte("a→b 1")
	a.in <- []byte("a→b 2")
	b.in <- bytes.Repeat([]byte{7}, 3000) // a large packet takes the other buffer class
	for i, want := range []string{"a→b 1", "a→b 2"} {
		got := <-b.out
		if string(got.p) != want {
			t.Fatalf("packet %d at b = %q, want %q", i, got.p, want)
		}
		if el := got.at.Sub(sent); el < d || el > d+50*time.Millisecond {
			t.Errorf("packet %d delivered after %v, want %v..%v", i, el, d, d+50*time.Millisecond)
		}
	}
	got := <-a.out
	if len(got.p) != 3000 || got.at.Sub(sent) < d {
		t.Errorf("b→a packet: %d bytes after %v", len(got.p), got.at.Sub(sent))
	}
	st := dl.Stats()
	if st.AB.Dequeued != 2 || st.BA.Dequeued != 1 {
		t.Errorf("stats %+v", st)
	}
	if err := dl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := dl.Err(); err != nil {
		t.Errorf("Err after a clean close: %v", err)
	}
}

func TestSmallHelpers(t *testing.T) {
	st, err := parseStatStartTicks([]byte("1234 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20"))
	if err != nil || st != 987654 {
		t.Errorf("parseStatStartTicks = %d, %v; want 987654", st, err)
	}
	if _, err := parseStatStartTicks([]byte("1 (x) S 1 2")); err == nil {
		t.Error("short stat accepted")
	}
	if id, ok := runIDOf("hr-1a2b3c4d-a"); !ok || id != "1a2b3c4d" {
		t.Errorf("runIDOf = %q, %v", id, ok)
	}
	for _, bad := range []string{"hr--a", "hx-1a2b3c4d-a", "hr-abc", "hr-kt-0a1b2c3d", "hr-1A2B3C4D-a", "hr-1a2b3c4d-"} {
		if _, ok := runIDOf(bad); ok {
			t.Errorf("runIDOf(%q) accepted", bad)
		}
	}
	a, b, err := linkAddrs(300)
	if err != nil || a.String() != "198.19.44.1" || b.String() != "198.19.44.2" {
		t.Errorf("linkAddrs(300) = %v %v %v", a, b, err)
	}
	if _, _, err := linkAddrs(512); err == nil {
		t.Error("link 512 is outside 198.18.0.0/15 but was accepted")
	}
	if got := burstBytes(100e6); got != 2*65536+1514 {
		t.Errorf("burst at 100 Mbit/s = %d", got)
	}
	if got := burstBytes(1e9); got != 500000 {
		t.Errorf("burst at 1 Gbit/s = %d, want 500000 (4 ms at HZ=250)", got)
	}
	if p, err := SysctlPath("net.ipv4.tcp_rmem"); err != nil || p != "/proc/sys/net/ipv4/tcp_rmem" {
		t.Errorf("SysctlPath = %q, %v", p, err)
	}
	r, err := parseIperf3JSON([]byte(`{"end": {"sum_sent": {"retransmits": 4}, "sum_received": {"bits_per_second": 9.5e7}}}`))
	if err != nil || r.ReceivedBitsPerSec != 9.5e7 || r.Retransmits != 4 {
		t.Errorf("parseIperf3JSON = %+v, %v", r, err)
	}
	if _, err := parseIperf3JSON([]byte(`{"error": "unable to connect to server"}`)); err == nil {
		t.Error("iperf3 error document accepted")
	}
	if _, err := parseIperf3JSON([]byte(`{"end": {}}`)); err == nil {
		t.Error("iperf3 document without sums accepted")
	}
}

// TestCleanupSweepsOnlyDeadRuns checks the sweeper's bookkeeping on a scratch directory:
// pinned "namespaces" here are plain files (unmount reports EINVAL and is skipped).
func TestCleanupSweepsOnlyDeadRuns(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: umount(2) on the scratch files needs root")
	}
	oldNetns, oldOwner := netnsDir, ownerDir
	netnsDir, ownerDir = t.TempDir(), t.TempDir()
	defer func() { netnsDir, ownerDir = oldNetns, oldOwner }()
	touch := func(dir, name string) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := processStartTicks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	writeOwner(&owner{RunID: "11110001", PID: os.Getpid(), StartTicks: st})
	writeOwner(&owner{RunID: "dead0001", PID: os.Getpid(), StartTicks: st + 1}) // pid reused
	for _, n := range []string{"hr-11110001-a", "hr-dead0001-a", "hr-dead0001-b", "hr-00000bad-a", "hr-kt-12345678", "other-ns"} {
		touch(netnsDir, n)
	}
	removed, err := Cleanup(NamePrefix)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, " ") != "hr-00000bad-a hr-dead0001-a hr-dead0001-b" {
		t.Errorf("removed %v", removed)
	}
	left := dirNames(netnsDir)
	if strings.Join(left, " ") != "hr-11110001-a hr-kt-12345678 other-ns" {
		t.Errorf("left %v", left)
	}
	if owners := dirNames(ownerDir); strings.Join(owners, " ") != "11110001.json" {
		t.Errorf("owner files left %v", owners)
	}
	if _, err := Cleanup("other-"); err == nil {
		t.Error("Cleanup accepted a prefix outside hr-")
	}
}

// niceOf reads field 19 (nice) of /proc/self/task/TID/stat.
func niceOf(t *testing.T, tid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		return 999 // thread gone
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, err := strconv.Atoi(f[19-3])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRaisePriorityRestores(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: lowering nice needs CAP_SYS_NICE")
	}
	before := map[int]int{}
	for _, tid := range threadIDs() {
		before[tid] = niceOf(t, tid)
	}
	restore := RaisePriority()
	for _, tid := range threadIDs() {
		if n := niceOf(t, tid); n != runNice && n != 999 {
			t.Errorf("thread %d nice %d while raised, want %d", tid, n, runNice)
		}
	}
	restore()
	for tid, n := range before {
		if got := niceOf(t, tid); got != n && got != 999 {
			t.Errorf("thread %d nice %d after restore, want %d", tid, got, n)
		}
	}
}

// TestOwnedOnly: a leak check keeps the objects of its own runs (New's in this process and
// the children it names) and leaves out another process's, which carry their run id;
// swap and zram carry none and stay.
func TestOwnedOnly(t *testing.T) {
	startedHere.Store("aaaa0001", true)
	defer startedHere.Delete("aaaa0001")
	o := Owned{
		Netns:   []string{"hr-aaaa0001-a", "hr-bbbb0002-a", "hr-cccc0003-vm"},
		Owners:  []string{"aaaa0001.json", "bbbb0002.json", "cccc0003.json"},
		Cgroups: []string{"/sys/fs/cgroup/hr-aaaa0001-svc", "/sys/fs/cgroup/hr-bbbb0002-svc"},
		Swaps:   []string{"/dev/zram1"},
		Zram:    []string{"zram0", "zram1"},
		Scratch: []string{"aaaa0001", "bbbb0002", "cccc0003"},
		Objects: []string{"bbbb0002.objects.json", "cccc0003.objects.json"},
	}
	got := o.Only(Mine("cccc0003"))
	want := Owned{
		Netns:   []string{"hr-aaaa0001-a", "hr-cccc0003-vm"},
		Owners:  []string{"aaaa0001.json", "cccc0003.json"},
		Cgroups: []string{"/sys/fs/cgroup/hr-aaaa0001-svc"},
		Swaps:   []string{"/dev/zram1"},
		Zram:    []string{"zram0", "zram1"},
		Scratch: []string{"aaaa0001", "cccc0003"},
		Objects: []string{"cccc0003.objects.json"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Only:\n got %v\nwant %v", got, want)
	}
	// Another process's killed run appearing is not this check's change; its own is.
	after := o
	after.Netns = append(after.Netns, "hr-dddd0004-vm")
	if ch := o.RunChanges(after, Mine("cccc0003")); len(ch) != 0 {
		t.Errorf("another run's namespace counted: %q", ch)
	}
	after.Netns = append(after.Netns, "hr-cccc0003-b")
	if ch := o.RunChanges(after, Mine("cccc0003")); len(ch) != 1 {
		t.Errorf("the child's leaked namespace not counted: %q", ch)
	}
	if Mine()("bbbb0002") || !Mine()("aaaa0001") {
		t.Error("Mine() accepts only this process's runs")
	}
}
