package tune

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"headroom/kernel"
	"headroom/plan"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/model"
)

// newTestNetns creates a throwaway network namespace and deletes it when the test ends,
// failed or not. Tests only touch per-namespace keys inside it: nothing global on the host
// changes.
func newTestNetns(t *testing.T) string {
	t.Helper()
	return makeTestNetns(t, true)
}

// makeTestNetns creates the namespace; mustDelete says whether its cleanup insists on
// deleting it (a test that deletes it itself passes false).
func makeTestNetns(t *testing.T, mustDelete bool) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create a network namespace")
	}
	ip, err := exec.LookPath("ip")
	if err != nil {
		t.Skip("needs iproute2's ip")
	}
	var b [4]byte
	rand.Read(b[:])
	name := "headroom-tune-test-" + hex.EncodeToString(b[:])
	if out, err := exec.Command(ip, "netns", "add", name).CombinedOutput(); err != nil {
		t.Skipf("ip netns add: %v: %s", err, out)
	}
	t.Cleanup(func() {
		out, err := exec.Command(ip, "netns", "del", name).CombinedOutput()
		if err != nil && (mustDelete || fileExists(filepath.Join(NetnsDir, name))) {
			t.Errorf("ip netns del %s: %v: %s", name, err, out)
		}
	})
	return name
}

func openTestNetnsFS(t *testing.T, name string) *NetnsFS {
	t.Helper()
	fs, err := OpenNetns(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fs.Close() })
	return fs
}

func liveOpener(t *testing.T) func(string) (SysctlFS, func(), error) {
	return func(ns string) (SysctlFS, func(), error) {
		if ns == "" {
			t.Fatal("rollback asked for the host's sysctls")
		}
		fs, err := OpenNetns(ns)
		if err != nil {
			return nil, nil, err
		}
		return fs, func() { fs.Close() }, nil
	}
}

// perNetnsChanges builds five changes to per-namespace keys from their current values, so
// each one really changes something. The third can be made invalid for the kernel.
func perNetnsChanges(t *testing.T, fs SysctlFS, badThird bool) (orig map[string]string, changes []model.Change) {
	t.Helper()
	keys := []string{"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_congestion_control", "net.core.somaxconn", "net.ipv4.tcp_max_syn_backlog"}
	orig = map[string]string{}
	for _, k := range keys {
		v, err := fs.Read(k)
		if err != nil {
			t.Fatal(err)
		}
		orig[k] = v
	}
	bump := func(v string, by int) string {
		f := strings.Fields(v)
		n, err := strconv.Atoi(f[len(f)-1])
		if err != nil {
			t.Fatal(err)
		}
		f[len(f)-1] = strconv.Itoa(n + by)
		return strings.Join(f, " ")
	}
	cc := "reno" // built in whenever TCP is (net/ipv4/tcp_cong.c tcp_reno)
	if orig["net.ipv4.tcp_congestion_control"] == "reno" {
		cc = "cubic"
	}
	if badThird {
		// The kernel looks the name up (and may try to load tcp_<name>): ENOENT.
		cc = "nosuchcc"
	}
	changes = []model.Change{
		sysctl(keys[0], bump(orig[keys[0]], 4096), "test: receive buffer"),
		sysctl(keys[1], bump(orig[keys[1]], 4096), "test: send buffer"),
		sysctl(keys[2], cc, "test: congestion control"),
		sysctl(keys[3], bump(orig[keys[3]], 1), "test: accept queue"),
		sysctl(keys[4], bump(orig[keys[4]], 1), "test: SYN queue"),
	}
	return orig, changes
}

func readAll(t *testing.T, fs SysctlFS, keys map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	for k := range keys {
		v, err := fs.Read(k)
		if err != nil {
			t.Fatal(err)
		}
		out[k] = v
	}
	return out
}

func TestLiveApplyRollbackInNetns(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	orig, changes := perNetnsChanges(t, fs, false)
	host := readAll(t, HostProcSys(), orig)

	dir := t.TempDir()
	j := openTestJournal(t, dir)
	var logs logBuffer
	a := &Applier{FS: fs, Netns: ns, Journal: j, Log: testLogger(&logs), Limits: testLimits}
	e, _, err := a.Apply(context.Background(), changes)
	if err != nil {
		t.Fatal(err)
	}
	after := readAll(t, fs, orig)
	for _, c := range changes {
		if !SameValue(after[c.Key], c.Recommended) {
			t.Errorf("%s = %q in the namespace, want %q", c.Key, after[c.Key], c.Recommended)
		}
	}
	if d := diffMaps(host, readAll(t, HostProcSys(), orig)); d != "" {
		t.Fatalf("the host changed:\n%s", d)
	}
	if e.Netns != ns || strings.Count(logs.String(), "netns="+ns) < 5 {
		t.Errorf("entry netns %q; log:\n%s", e.Netns, logs.String())
	}

	rb := &Rollbacker{Journal: j, OpenFS: liveOpener(t), Log: testLogger(&logs)}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	// Exactly the bytes the kernel printed before (tabs included).
	if d := diffMaps(orig, readAll(t, fs, orig)); d != "" {
		t.Errorf("after rollback:\n%s", d)
	}
}

func TestLivePersistInNetnsWithSysctlDir(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	orig, changes := perNetnsChanges(t, fs, false)
	sysctlDir := t.TempDir()
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: fs, Netns: ns, Journal: j, Limits: testLimits, Persist: &PersistOptions{Dir: sysctlDir}}
	if _, _, err := a.Apply(context.Background(), changes); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sysctlDir, DropInName)
	content, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range changes {
		if !strings.Contains(string(content), "\n"+c.Key+" = "+NormalizeValue(c.Recommended)+"\n") ||
			!strings.Contains(string(content), "# "+c.Key+": "+c.Why) {
			t.Errorf("drop-in lacks %s with its reason:\n%s", c.Key, content)
		}
	}
	if !strings.Contains(string(content), "ip netns exec "+ns+" sysctl -p "+path) {
		t.Errorf("drop-in does not say how to load it into the namespace:\n%s", content)
	}
	// The drop-in is what `sysctl -p` would load: loading it in a second fresh namespace
	// gives the same values as the apply did in the first.
	if sysctlBin, err := exec.LookPath("sysctl"); err == nil {
		ns2 := newTestNetns(t)
		if out, err := exec.Command("ip", "netns", "exec", ns2, sysctlBin, "-q", "-p", path).CombinedOutput(); err != nil {
			t.Fatalf("sysctl -p: %v\n%s", err, out)
		}
		fs2 := openTestNetnsFS(t, ns2)
		for _, c := range changes {
			if v, _ := fs2.Read(c.Key); !SameValue(v, c.Recommended) {
				t.Errorf("sysctl -p of the drop-in set %s = %q, want %q", c.Key, v, c.Recommended)
			}
		}
	}
	rb := &Rollbacker{Journal: j, OpenFS: liveOpener(t)}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if fileExists(path) {
		t.Error("drop-in left after rollback")
	}
	if d := diffMaps(orig, readAll(t, fs, orig)); d != "" {
		t.Errorf("after rollback:\n%s", d)
	}
}

// The third of five writes fails in the kernel itself (ENOENT for an unknown congestion
// control): the first two are restored exactly, the journal says what happened.
func TestLiveThirdOfFiveFailsInKernel(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	orig, changes := perNetnsChanges(t, fs, true)
	dir := t.TempDir()
	a := &Applier{FS: fs, Netns: ns, Journal: openTestJournal(t, dir), Limits: testLimits}
	_, _, err := a.Apply(context.Background(), changes)
	var ae *ApplyError
	if !errors.As(err, &ae) || ae.Index != 3 || ae.Key != "net.ipv4.tcp_congestion_control" {
		t.Fatalf("got %v", err)
	}
	if d := diffMaps(orig, readAll(t, fs, orig)); d != "" {
		t.Errorf("not restored exactly:\n%s", d)
	}
	e := mustReadJournal(t, dir).Entries[0]
	if e.State != StateFailedRestored || e.Changes[0].Status != StatusRestored || e.Changes[1].Status != StatusRestored ||
		e.Changes[2].Status != StatusFailed || e.Changes[3].Status != StatusPlanned {
		t.Errorf("journal entry: %+v", e)
	}
	if !strings.Contains(e.Changes[2].Error, "no such file or directory") || !strings.Contains(e.Changes[2].Error, "no such algorithm") {
		t.Errorf("failed change's error: %q", e.Changes[2].Error)
	}
	if !strings.Contains(e.Error, "change 3 of 5 (net.ipv4.tcp_congestion_control) failed") ||
		!strings.Contains(e.Error, "restored the 2 change(s) already written") {
		t.Errorf("entry error: %q", e.Error)
	}
}

func TestLiveGlobalKeysRefusedInNetns(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	a := &Applier{FS: fs, Netns: ns, Journal: openTestJournal(t, t.TempDir()), Limits: plan.Limits{MemTotalKB: 1 << 30, PageSizeBytes: 4096}, AllOrNothing: true}
	_, items, err := a.Apply(context.Background(), []model.Change{
		sysctl("net.core.rmem_max", "1073741823", "x"),
		sysctl("net.core.netdev_max_backlog", "4096", "x"),
		sysctl("net.ipv4.tcp_mem", "100 200 300", "x"),
		sysctl("vm.min_free_kbytes", "65536", "x"),
	})
	var re *RefusedError
	if !errors.As(err, &re) || len(re.Items) != 4 {
		t.Fatalf("got %v", err)
	}
	for _, it := range items {
		if !strings.Contains(it.Reason, "global, not per network namespace") {
			t.Errorf("%s: %q", it.Change.Key, it.Reason)
		}
	}
}

// TestScopeTableMatchesKernel checks the scope table against the running kernel: in a fresh
// namespace a per-netns key is present and writable, a global one absent or read-only.
func TestScopeTableMatchesKernel(t *testing.T) {
	ns := newTestNetns(t)
	fs := openTestNetnsFS(t, ns)
	for key, info := range kernel.SysctlScopeTable() {
		if _, err := HostProcSys().Read(key); err != nil {
			continue // not on this host (module not loaded, older kernel)
		}
		_, rerr := fs.Read(key)
		w, werr := fs.Writable(key)
		switch info.Scope {
		case kernel.ScopePerNetns:
			if rerr != nil || werr != nil || !w {
				t.Errorf("%s: table says per-netns, but in a namespace read: %v, writable: %v %v", key, rerr, w, werr)
			}
		case kernel.ScopeGlobal:
			if rerr == nil && werr == nil && w {
				t.Errorf("%s: table says global, but a namespace can write it", key)
			}
		}
	}
}

func TestLiveNetnsMissing(t *testing.T) {
	if _, err := OpenNetns("headroom-tune-test-does-not-exist"); !errors.Is(err, ErrNoNetns) {
		t.Errorf("got %v", err)
	}
}

// Rollback of an entry whose namespace was deleted since: its settings went with it,
// nothing to undo, and the journal says so.
func TestLiveRollbackAfterNetnsDeleted(t *testing.T) {
	ns := makeTestNetns(t, false)
	fs, err := OpenNetns(ns)
	if err != nil {
		t.Fatal(err)
	}
	_, changes := perNetnsChanges(t, fs, false)
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	a := &Applier{FS: fs, Netns: ns, Journal: j, Limits: testLimits}
	if _, _, err := a.Apply(context.Background(), changes[:1]); err != nil {
		t.Fatal(err)
	}
	fs.Close()
	if out, err := exec.Command("ip", "netns", "del", ns).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	rb := &Rollbacker{Journal: j, OpenFS: liveOpener(t)}
	done, err := rb.Rollback(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if done[0].State != StateRolledBack || len(done[0].Notes) != 1 || !strings.Contains(done[0].Notes[0], "no longer exists") {
		t.Errorf("entry %+v", done[0])
	}
}

// A rate limit on a veth inside a throwaway namespace, through the real tc: applied only
// with NIC on, read back, and rolled back to the kernel's default root qdisc.
func TestLiveTCRateLimitInNetns(t *testing.T) {
	ns := newTestNetns(t)
	if _, err := exec.LookPath("tc"); err != nil {
		t.Skip("needs tc")
	}
	for _, args := range [][]string{
		{"-n", ns, "link", "add", "hr0", "type", "veth", "peer", "name", "hr1"},
		{"-n", ns, "link", "set", "hr0", "up"},
		{"-n", ns, "link", "set", "hr1", "up"},
	} {
		if out, err := exec.Command("ip", args...).CombinedOutput(); err != nil {
			t.Skipf("ip %v: %v %s", args, err, out)
		}
	}
	runner := ExecRunner{Netns: ns}
	show := func() string {
		out, err := runner.Run(context.Background(), "tc", "qdisc", "show", "dev", "hr0", "root")
		if err != nil {
			t.Fatal(err)
		}
		return strings.TrimSpace(out)
	}
	before := show()
	j := openTestJournal(t, t.TempDir())
	change := model.Change{Kind: model.ChangeTC, Key: "hr0 root tbf", Recommended: "rate 100mbit burst 32kb latency 50ms", Why: "test: pace below the bottleneck"}
	a := &Applier{Runner: runner, Netns: ns, Journal: j, Limits: testLimits}
	if e, items, err := a.Apply(context.Background(), []model.Change{change}); err != nil || e != nil || items[0].Action != ActionNeedsNIC {
		t.Fatalf("without NIC: entry %v err %v", e, err)
	}
	if show() != before {
		t.Fatal("qdisc changed without NIC")
	}
	a.NIC = true
	if _, _, err := a.Apply(context.Background(), []model.Change{change}); err != nil {
		t.Fatal(err)
	}
	if s := show(); !strings.Contains(s, "qdisc tbf ") || !strings.Contains(s, "rate 100Mbit") {
		t.Fatalf("after apply: %q", s)
	}
	rb := &Rollbacker{Journal: j, OpenFS: liveOpener(t), Runner: func(ns string) Runner { return ExecRunner{Netns: ns} }}
	if _, err := rb.Rollback(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	if s := show(); s != before {
		t.Errorf("after rollback %q, want %q", s, before)
	}
}
