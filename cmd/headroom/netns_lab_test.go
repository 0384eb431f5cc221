package main

// Lab tests of the container-aware reading, on the real kernel: they need root and
// iproute2, and skip otherwise. Each makes its own network namespace (a stand-in for a
// pod's) and removes it.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/input"
	"headroom/kernel"
	"headroom/report"
)

func labNetns(t *testing.T) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root: creates a network namespace")
	}
	if _, err := exec.LookPath("ip"); err != nil {
		t.Skip("needs iproute2's ip")
	}
	name := fmt.Sprintf("hri21-%d", os.Getpid())
	if out, err := exec.Command("ip", "netns", "add", name).CombinedOutput(); err != nil {
		t.Skipf("ip netns add: %v: %s", err, out)
	}
	t.Cleanup(func() { exec.Command("ip", "netns", "del", name).Run() })
	return name
}

// A namespace whose tcp_rmem is below the host's shows the gap in doctor --netns, with the
// namespace's own value read after setns, and the pod-level change.
func TestLabDoctorNetnsGap(t *testing.T) {
	name := labNetns(t)
	hostV, err := kernel.ReadSysctl(kernel.HostRoot(), "net.ipv4.tcp_rmem")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(hostV)
	hostMax, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || len(f) != 3 {
		t.Fatalf("host tcp_rmem %q", hostV)
	}
	nsV := fmt.Sprintf("%s %s %d", f[0], f[1], hostMax/2)
	if out, err := exec.Command("ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv4.tcp_rmem="+nsV).CombinedOutput(); err != nil {
		t.Fatalf("setting tcp_rmem in %s: %v: %s", name, err, out)
	}

	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{"--duration=0s", "--format=json", "--netns=" + name}, IO{Stdout: &out, Stderr: &errb})
	if code == exitFailure {
		t.Fatalf("doctor: exit %d: %s", code, errb.String())
	}
	var rep report.Document
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(rep.Findings, func(f diagnose.Finding) bool { return f.ID == "netns-tcp-gap" })
	if i < 0 {
		t.Fatalf("no netns-tcp-gap finding; findings %v", findingIDs(rep))
	}
	fd := rep.Findings[i]
	var sawNs, sawHost bool
	for _, e := range fd.Evidence {
		sawNs = sawNs || (strings.Contains(e.What, "netns "+name) && strings.Join(strings.Fields(e.Value), " ") == nsV)
		sawHost = sawHost || (strings.Contains(e.What, "on the host") && e.Value == hostV)
	}
	if !sawNs || !sawHost {
		t.Errorf("evidence %+v: want the host's %q and the namespace's %q", fd.Evidence, hostV, nsV)
	}
	if len(fd.Changes) == 0 || !strings.Contains(fd.Changes[0].Key, "securityContext.sysctls net.ipv4.tcp_rmem") {
		t.Errorf("changes %+v", fd.Changes)
	}
	t.Logf("host tcp_rmem %q, %s %q: %s", hostV, name, nsV, fd.Title)

	// The same namespace found through a process in it, as a pod's container is (--pid).
	sleeper := exec.Command("ip", "netns", "exec", name, "sleep", "60")
	if err := sleeper.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { sleeper.Process.Kill(); sleeper.Wait() }()
	// ip netns exec enters the namespace, then execs sleep in the same process: wait until
	// the process has left ours.
	mine, _ := os.Readlink("/proc/self/ns/net")
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if theirs, _ := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", sleeper.Process.Pid)); theirs != "" && theirs != mine {
			break
		}
	}
	out.Reset()
	code = runDoctor(context.Background(), []string{"--duration=0s", "--format=json", "--pid=" + strconv.Itoa(sleeper.Process.Pid)}, IO{Stdout: &out, Stderr: &errb})
	rep = report.Document{}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatalf("doctor --pid: exit %d %v: %s", code, err, errb.String())
	}
	i = slices.IndexFunc(rep.Findings, func(f diagnose.Finding) bool { return f.ID == "netns-tcp-gap" })
	if i < 0 || !strings.Contains(rep.Findings[i].Title, fmt.Sprintf("pid %d", sleeper.Process.Pid)) {
		t.Errorf("doctor --pid %d: findings %v", sleeper.Process.Pid, findingIDs(rep))
	} else {
		t.Logf("--pid: %s", rep.Findings[i].Title)
	}

	// Raised to the host's values, the namespace has no gap.
	if out, err := exec.Command("ip", "netns", "exec", name, "sysctl", "-qw", "net.ipv4.tcp_rmem="+hostV).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	out.Reset()
	runDoctor(context.Background(), []string{"--duration=0s", "--format=json", "--netns=" + name}, IO{Stdout: &out, Stderr: &errb})
	rep = report.Document{}
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	for _, c := range rep.Checks {
		if c.ID == "netns-tcp-gap" && c.Status != diagnose.StatusOK {
			t.Errorf("after raising: %+v", c)
		}
	}
}

func findingIDs(rep report.Document) []string {
	var ids []string
	for _, f := range rep.Findings {
		ids = append(ids, f.ID)
	}
	return ids
}

// A process in a network namespace of its own with the host's /proc mounted at
// DIR/proc (a container with a hostPath volume) reads its own interfaces through
// DIR/proc/net and the host's through --host-root's DIR/proc/1/net.
func TestLabHostRootFromContainer(t *testing.T) {
	if os.Getenv("HEADROOM_I21_HOSTROOT") != "" {
		hostRootHelper()
		return
	}
	name := labNetns(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "proc"), 0o755); err != nil {
		t.Fatal(err)
	}
	// ip netns exec runs the child in a mount namespace of its own, where the bind mount
	// stays.
	cmd := exec.Command("ip", "netns", "exec", name, "sh", "-c",
		`mount --bind /proc "$1/proc" && exec "$2" -test.run='^TestLabHostRootFromContainer$'`, "sh", dir, os.Args[0])
	cmd.Env = append(os.Environ(), "HEADROOM_I21_HOSTROOT="+dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v: %s", err, out)
	}
	var got hostRootView
	if i := bytes.Index(out, []byte("{")); i < 0 || json.Unmarshal(out[i:bytes.IndexByte(out[i:], '\n')+i], &got) != nil {
		t.Fatalf("child said %q", out)
	}
	host, err := kernel.ReadNetDev(kernel.HostRoot())
	if err != nil {
		t.Fatal(err)
	}
	var hostNames []string
	for _, d := range host {
		hostNames = append(hostNames, d.Name)
	}
	slices.Sort(hostNames)
	t.Logf("host %v; container's own %v; through --host-root %v (%s)", hostNames, got.Own, got.HostRoot, got.View)
	if !slices.Equal(got.Own, []string{"lo"}) {
		t.Errorf("the child's own /proc/net/dev shows %v, want only lo (it is in a new namespace)", got.Own)
	}
	if !slices.Equal(got.HostRoot, hostNames) {
		t.Errorf("through --host-root the child read %v, the host has %v", got.HostRoot, hostNames)
	}
	if !strings.Contains(got.View, "proc/1/net") {
		t.Errorf("network view %q does not say it read proc/1/net", got.View)
	}
}

type hostRootView struct {
	Own, HostRoot []string
	View          string
}

// hostRootHelper runs in the child: it samples the mounted host as doctor --host-root does
// and prints what it read.
func hostRootHelper() {
	dir := os.Getenv("HEADROOM_I21_HOSTROOT")
	var v hostRootView
	own, _ := kernel.ReadNetDev(kernel.HostRoot())
	for _, d := range own {
		v.Own = append(v.Own, d.Name)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	tl, err := input.Open(ctx, dir, input.Options{Kind: input.Live, MountedHost: true, Interval: time.Second})
	if err != nil || len(tl.Samples) == 0 {
		fmt.Printf("error: %v\n", err)
		os.Exit(1)
	}
	for _, d := range tl.Samples[len(tl.Samples)-1].NetDev {
		v.HostRoot = append(v.HostRoot, d.Name)
	}
	slices.Sort(v.Own)
	slices.Sort(v.HostRoot)
	v.View = tl.Source.NetView
	b, _ := json.Marshal(v)
	fmt.Printf("%s\n", b)
	os.Exit(0)
}
