package lab

import (
	"bufio"
	"context"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"headroom/lab/netlab"
	"headroom/model"

	"github.com/vishvananda/netlink"
)

// hostState is everything of the host a lab run must leave as it found it.
type hostState struct {
	owned   netlab.Owned      // namespaces, owner files, cgroups, swap, scratch, journals
	links   []string          // links of the host's namespace
	qdiscs  []string          // qdiscs of the host's namespace
	sysctls map[string]string // net.core.*, net.ipv4.* (top level), vm.*
	orphans int64             // TCP orphans (sockets closed but alive)
	runs    *runWatch         // the lab runs seen from this snapshot on (the before state's)
}

// runWatch records every lab run that has an owner file on the host between a before
// snapshot and compare, with the global sysctls it journaled: the runs of other processes
// (another `make check` beside this one, a helper's `lab run`) among them are told apart
// from the test's own only at compare, when the test knows its children's run ids.
type runWatch struct {
	mu   sync.Mutex
	seen map[string][]string // run id → journaled global sysctls (/proc/sys paths)
	stop chan struct{}
	done chan struct{}
}

// runWatchPoll is how often the watch lists the owner files: a run of another process lasts
// seconds at the least (its namespaces, its measurement), many polls.
const runWatchPoll = 50 * time.Millisecond

func watchRuns(t *testing.T) *runWatch {
	w := &runWatch{seen: map[string][]string{}, stop: make(chan struct{}), done: make(chan struct{})}
	w.poll()
	go func() {
		defer close(w.done)
		tk := time.NewTicker(runWatchPoll)
		defer tk.Stop()
		for {
			select {
			case <-w.stop:
				return
			case <-tk.C:
				w.poll()
			}
		}
	}()
	t.Cleanup(w.finish)
	return w
}

func (w *runWatch) poll() {
	now := netlab.RunsOnHost()
	w.mu.Lock()
	defer w.mu.Unlock()
	for id, keys := range now {
		w.seen[id] = append(w.seen[id], keys...)
	}
}

// finish stops the watch (once) after a last look.
func (w *runWatch) finish() {
	select {
	case <-w.stop:
	default:
		close(w.stop)
	}
	<-w.done
	w.poll()
}

// others are the runs seen that mine does not accept, and the global sysctls they journaled.
func (w *runWatch) others(mine func(string) bool) (runs []string, sysctls map[string]string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	sysctls = map[string]string{}
	for id, keys := range w.seen {
		if mine(id) {
			continue
		}
		runs = append(runs, id)
		for _, k := range keys {
			sysctls[k] = id
		}
	}
	sort.Strings(runs)
	return runs, sysctls
}

// snapshotHost is the host's state now; it also starts watching for other processes' lab
// runs until compare.
func snapshotHost(t *testing.T) hostState {
	t.Helper()
	w := watchRuns(t)
	owned, err := netlab.SnapshotOwned()
	if err != nil {
		t.Fatal(err)
	}
	st := hostState{owned: owned, sysctls: map[string]string{}, runs: w}
	links, err := netlink.LinkList()
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range links {
		st.links = append(st.links, fmt.Sprintf("%d:%s", l.Attrs().Index, l.Attrs().Name))
	}
	qs, err := netlink.QdiscList(nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range qs {
		a := q.Attrs()
		st.qdiscs = append(st.qdiscs, fmt.Sprintf("dev %d %s %s parent %s", a.LinkIndex, q.Type(), netlink.HandleStr(a.Handle), netlink.HandleStr(a.Parent)))
	}
	sort.Strings(st.qdiscs)
	for _, dir := range []string{"/proc/sys/net/core", "/proc/sys/net/ipv4", "/proc/sys/vm"} {
		filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return nil
			}
			if d.IsDir() {
				if p != dir {
					return fs.SkipDir // conf/, neigh/, route/: per-device, not ours to check
				}
				return nil
			}
			if b, err := os.ReadFile(p); err == nil {
				st.sysctls[p] = netlab.NormalizeSysctl(string(b))
			}
			return nil
		})
	}
	// Counters and caches that move by themselves.
	for _, k := range []string{"/proc/sys/vm/drop_caches", "/proc/sys/vm/stat_refresh", "/proc/sys/vm/compact_memory"} {
		delete(st.sysctls, k)
	}
	st.orphans = tcpOrphans(t)
	return st
}

// tcpOrphans is the host's TCP orphan count (/proc/net/sockstat).
func tcpOrphans(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/net/sockstat")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "TCP:"); ok {
			f := strings.Fields(rest)
			for i := 0; i+1 < len(f); i += 2 {
				if f[i] == "orphan" {
					n, _ := strconv.ParseInt(f[i+1], 10, 64)
					return n
				}
			}
		}
	}
	return 0
}

// orphanGrace is how long compare waits for the kernel to destroy the sockets of the run's
// deleted namespaces.
const orphanGrace = 10 * time.Second

// compare fails t for what the test's own runs (this process's, and the children's run ids
// the test names) left on the host. Another process's lab run beside the test is not the
// test's leak: its namespaces, cgroups, owner files and scratch carry its run id and are left
// out; the global sysctls its journal names are not compared; and the figures that carry
// no run id (swap areas, zram devices, the host's TCP orphan count) are compared only when
// no other run was seen from the before snapshot to now, and otherwise skipped with the
// reason logged. A test alone on the host is checked in full.
func (before hostState) compare(t *testing.T, after hostState, children ...string) {
	t.Helper()
	after.runs.finish()
	before.runs.finish()
	mine := netlab.Mine(children...)
	others, othersSysctls := before.runs.others(mine)
	eq := func(what string, a, b []string) {
		if strings.Join(a, "\n") != strings.Join(b, "\n") {
			t.Errorf("%s changed:\nbefore %q\nafter  %q", what, a, b)
		}
	}
	b, a := before.owned.Only(mine), after.owned.Only(mine)
	if len(others) > 0 {
		t.Logf("lab runs of other processes were on the host during the test (%s): swap areas, zram devices and the TCP orphan count, which carry no run id, are not compared; their own objects are left out", strings.Join(others, ", "))
		b.Swaps, b.Zram, a.Swaps, a.Zram = nil, nil, nil, nil
	}
	for _, c := range b.Changes(a) {
		t.Error(c)
	}
	eq("host links", ownLinks(before.links, mine), ownLinks(after.links, mine))
	eq("host qdiscs", before.qdiscs, after.qdiscs)
	for k, v := range before.sysctls {
		if after.sysctls[k] == v {
			continue
		}
		if id, ok := othersSysctls[k]; ok {
			t.Logf("sysctl %s changed from %q to %q: not compared, lab run %s of another process journaled it", k, v, after.sysctls[k], id)
			continue
		}
		t.Errorf("sysctl %s changed from %q to %q", k, v, after.sysctls[k])
	}
	// A deleted namespace's sockets are destroyed by the kernel's netns cleanup, which runs
	// later in a workqueue (net/core/net_namespace.c cleanup_net), so an orphan of the run can
	// still be counted just after teardown; on a busy host, for a while. Only orphans that
	// outlive orphanGrace are the run's leak.
	if after.orphans > before.orphans && len(others) == 0 {
		deadline := time.Now().Add(orphanGrace)
		for after.orphans > before.orphans && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
			after.orphans = tcpOrphans(t)
		}
		if after.orphans > before.orphans {
			t.Errorf("TCP orphans grew from %d to %d and stayed %v: sockets of the run outlived it", before.orphans, after.orphans, orphanGrace)
		}
	}
	if out, err := exec.Command("ip", "netns", "list").Output(); err == nil {
		for _, f := range strings.Fields(string(out)) {
			if id, lab := netlab.RunOf(f); lab && mine(id) {
				t.Errorf("ip netns list still shows lab namespace %s:\n%s", f, out)
			}
		}
	}
}

// ownLinks leaves out the host links named after another process's lab run.
func ownLinks(links []string, mine func(string) bool) []string {
	var out []string
	for _, l := range links {
		_, name, _ := strings.Cut(l, ":")
		if id, lab := netlab.RunOf(name); lab && !mine(id) {
			continue
		}
		out = append(out, l)
	}
	return out
}

// changedMidRun says whether the child's run runID holds the global key at a value it wrote,
// other than the value before it (its journal, netlab.JournaledSysctl). A value the test
// read before the child started is no reference: another process's run (another make
// check beside this one) may have held the key then, at the very value the child writes.
func changedMidRun(runID, key string) error {
	old, set, ok := netlab.JournaledSysctl(runID, key)
	if !ok {
		return fmt.Errorf("run %s: global sysctl %s not journaled mid-run", runID, key)
	}
	v, err := netlab.ReadSysctl(key)
	if err != nil {
		return err
	}
	if v == old || !slices.Contains(set, v) {
		return fmt.Errorf("run %s: global sysctl %s is %q mid-run; the run journaled %q before it and wrote %q", runID, key, v, old, set)
	}
	return nil
}

// backlogChange is a global sysctl a test run changes with AllowGlobal, to prove it is
// restored: net.core.netdev_max_backlog, harmless to raise for a few seconds.
func backlogChange(t *testing.T) (model.Change, string) {
	t.Helper()
	cur, err := netlab.ReadSysctl("net.core.netdev_max_backlog")
	if err != nil {
		t.Fatal(err)
	}
	n, err := strconv.Atoi(cur)
	if err != nil {
		t.Fatal(err)
	}
	return sysctlChange("net.core.netdev_max_backlog", strconv.Itoa(n+7), "test"), cur
}

func TestRunLeavesNothingBehind(t *testing.T) {
	needRoot(t)
	sc, _ := LookupScenario("long-fat-pipe")
	cases, err := sc.Cases(Overrides{RateBitsPerSec: 100e6, RTT: 20 * time.Millisecond, Streams: 2, Warmup: time.Second, Measure: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	ch, _ := backlogChange(t)
	set := &fileSettings{name: "test", changes: []model.Change{sysctlChange("net.ipv4.tcp_rmem", "4096 131072 8388608", "test"), ch}}
	before := snapshotHost(t)
	r, err := RunCase(context.Background(), sc, cases[0], set, RunOptions{AllowGlobal: true})
	if err != nil {
		t.Fatal(err)
	}
	global := false
	for _, a := range r.Applied {
		if a.Key == ch.Key && a.Value == ch.Recommended && a.Scope == netlab.ScopeGlobal {
			global = true
		}
	}
	if !global {
		t.Fatalf("global change not applied: %+v", r.Applied)
	}
	// Only the run's own sockets are sure to show: the kernel-wide counter batches up to
	// net.core.mem_pcpu_rsv pages per CPU before it moves, and this run is small.
	if r.PeakSocketMemPages <= 0 {
		t.Errorf("socket memory not measured: %d pages", r.PeakSocketMemPages)
	}
	if r.Params.TCPRmem != "4096 131072 8388608" {
		t.Errorf("tcp_rmem in the namespace %q, want the set's", r.Params.TCPRmem)
	}
	before.compare(t, snapshotHost(t))
}

// TestRunFailureLeavesNothingBehind: a run that fails half-way (a scenario whose Build
// errors after creating a host and a link) and one that panics both tear down.
func TestRunFailureLeavesNothingBehind(t *testing.T) {
	needRoot(t)
	before := snapshotHost(t)
	for _, mode := range []string{"error", "panic"} {
		sc := &Scenario{Name: "broken-" + mode, Build: func(l *netlab.Lab, p Params) (*Topology, error) {
			a, _ := l.AddHost("a")
			b, _ := l.AddHost("b")
			if _, err := l.Connect(a, b, netlab.LinkSpec{RateBitsPerSec: 10e6, OneWayDelay: time.Millisecond, Delay: netlab.DelayUserspace}); err != nil {
				return nil, err
			}
			if mode == "panic" {
				panic("scenario bug")
			}
			return nil, fmt.Errorf("scenario failed on purpose")
		}}
		p := Params{RateBitsPerSec: 10e6, RTT: 2 * time.Millisecond, Streams: 1, Warmup: 0, Measure: time.Second}
		func() {
			defer func() {
				if r := recover(); r != nil && mode != "panic" {
					t.Errorf("unexpected panic: %v", r)
				}
			}()
			_, err := RunCase(context.Background(), sc, p, settingsSets[0], RunOptions{})
			if err == nil {
				t.Errorf("%s: RunCase succeeded", mode)
			}
		}()
	}
	before.compare(t, snapshotHost(t))
}

// TestLabChildProcess is the run that TestKilledRunCleansUp starts in a subprocess and
// interrupts. It does nothing unless HEADROOM_LAB_CHILD is set.
func TestLabChildProcess(t *testing.T) {
	if os.Getenv("HEADROOM_LAB_CHILD") == "" {
		t.Skip("helper process for TestKilledRunCleansUp")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sc, _ := LookupScenario("long-fat-pipe")
	cases, _ := sc.Cases(Overrides{RateBitsPerSec: 100e6, RTT: 20 * time.Millisecond, Streams: 2, Warmup: 30 * time.Second, Measure: 30 * time.Second})
	ch, _ := backlogChange(t)
	set := &fileSettings{name: "child", changes: []model.Change{ch}}
	_, err := RunCase(ctx, sc, cases[0], set, RunOptions{AllowGlobal: true, Progress: func(m string) {
		if strings.Contains(m, "sending for") {
			fmt.Fprintf(os.Stderr, "READY %s\n", strings.Fields(m)[1])
		}
	}})
	fmt.Fprintf(os.Stderr, "DONE %v\n", err)
}

func TestKilledRunCleansUp(t *testing.T) {
	needRoot(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGKILL} {
		t.Run(sig.String(), func(t *testing.T) {
			before := snapshotHost(t)
			// The child's global write waits while another process's run holds the
			// global-sysctl lock (netlab/globallock.go; a global scenario holds it for up to
			// 20 s, a run like this child's for a minute): READY can take that long.
			c, runID, _ := startRunChild(t, "TestLabChildProcess", "HEADROOM_LAB_CHILD", 3*time.Minute)
			// Mid-run: the namespaces and the global change exist.
			if _, err := os.Stat(filepath.Join("/run/netns", netlab.NamePrefix+runID+"-a")); err != nil {
				t.Fatalf("run %s: namespace missing mid-run: %v", runID, err)
			}
			if err := changedMidRun(runID, "net.core.netdev_max_backlog"); err != nil {
				t.Fatal(err)
			}
			c.stop(t, sig, runID)
			before.compare(t, snapshotHost(t), runID)
		})
	}
}

// runChild is a lab run in a child process: this test binary running one test, which prints
// a line with "READY " once the run is in the middle of its work.
type runChild struct {
	cmd   *exec.Cmd
	lines chan string
}

// startRunChild starts test with env=1 set and returns the child, its run id (the second
// word of the READY line, "READY <runid>" or the progress line "run <runid>: READY ...") and
// the READY line from "READY" on. Whatever fails later, the child does not outlive t and its
// run is swept.
func startRunChild(t *testing.T, test, env string, within time.Duration) (c *runChild, runID, ready string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^"+test+"$", "-test.v")
	cmd.Env = append(os.Environ(), env+"=1")
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
		netlab.CleanupAll(netlab.NamePrefix)
	})
	c = &runChild{cmd: cmd, lines: make(chan string, 100)}
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
		close(c.lines)
	}()
	deadline := time.After(within)
	for {
		select {
		case l, ok := <-c.lines:
			if !ok {
				t.Fatal("child exited before it was ready")
			}
			if i := strings.Index(l, "READY "); i >= 0 && len(strings.Fields(l)) > 1 {
				return c, strings.TrimSuffix(strings.Fields(l)[1], ":"), l[i:]
			}
		case <-deadline:
			cmd.Process.Kill()
			t.Fatalf("child not ready after %v", within)
		}
	}
}

// stop sends sig to the child and waits for it to exit. After a SIGKILL nothing could run in
// the child: its guardian sweeps the run (netlab/guardian.go) with nobody calling Cleanup,
// and stop waits for the guardian's report. (A lab run of another test process may sweep
// first: its Cleanup sees the same dead owner. Then the guardian's report is empty.)
func (c *runChild) stop(t *testing.T, sig syscall.Signal, runID string) {
	t.Helper()
	w := watchRuns(t)
	if err := c.cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() {
		for range c.lines {
		}
		done <- c.cmd.Wait()
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		c.cmd.Process.Kill()
		t.Fatal("child did not exit within 30s of the signal")
	}
	if sig != syscall.SIGKILL {
		return
	}
	rep, err := netlab.WaitGuardianReport(runID, 10*time.Second)
	if err != nil {
		// The start of another process's lab run sweeps what dead runs left and takes the
		// guardians' reports to print them (netlab.SweepEarlierRuns). Only then is a
		// missing report not this guardian's failure; what the run left is checked after.
		w.finish()
		if others, _ := w.others(netlab.Mine(runID)); len(others) > 0 {
			t.Logf("%v; lab runs %s of other processes were on the host, and the start of one sweeps killed runs and takes their guardians' reports", err, strings.Join(others, ", "))
			return
		}
		t.Fatal(err)
	}
	t.Logf("guardian of run %s: %q, errors %q", runID, rep.Did, rep.Errors)
	if len(rep.Errors) > 0 {
		t.Errorf("guardian failed: %q", rep.Errors)
	}
}
