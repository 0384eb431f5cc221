package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/tune"
)

// A journaled key raised behind headroom's back is reported as drift by `tune --status` and
// by `doctor`; a sysctl.d file sorting after the drop-in is reported as overriding it.
func TestTuneStatusAndDoctorReportDrift(t *testing.T) {
	root := t.TempDir()
	procSys := filepath.Join(root, "proc/sys")
	sysctlDir := filepath.Join(root, "etc/sysctl.d")
	for k, v := range tuneVals {
		p, _ := tune.KeyPath(k)
		writeTestFile(t, filepath.Join(procSys, p), v+"\n")
	}
	if err := os.MkdirAll(sysctlDir, 0o755); err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	plan := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(plan, []byte(tunePlanJSON), 0o644)
	if code, _, stderr := runTuneCmd(t, "", "--from", plan, "--apply", "--persist", "--proc-sys", procSys, "--state-dir", state, "--sysctl-dir", sysctlDir); code != exitOK {
		t.Fatalf("apply %d: %s", code, stderr)
	}
	status := func() (int, string) {
		code, stdout, stderr := runTuneCmd(t, "", "--status", "--proc-sys", procSys, "--state-dir", state, "--sysctl-dir", sysctlDir, "--boot-root", root)
		if stderr != "" {
			t.Errorf("stderr: %s", stderr)
		}
		return code, stdout
	}
	if code, out := status(); code != exitOK || !strings.Contains(out, "net.core.somaxconn: entry 1 set 4096 → 8192\n  now: 8192  (as applied)\n  next boot: headroom's drop-in wins: /etc/sysctl.d/90-headroom.conf:") {
		t.Fatalf("status before any drift %d:\n%s", code, out)
	}
	doctor := func() (int, map[string]any) {
		var out, errb bytes.Buffer
		code := run([]string{"doctor", "--root", root, "--state-dir", state, "--duration", "20ms", "--interval", "10ms", "--format", "json"},
			IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		var rep map[string]any
		if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
			t.Fatalf("doctor %d: %v\n%s\n%s", code, err, out.String(), errb.String())
		}
		for _, f := range rep["findings"].([]any) {
			if f.(map[string]any)["id"] == "settings-drifted" {
				return code, f.(map[string]any)
			}
		}
		return code, nil
	}
	if _, f := doctor(); f != nil {
		t.Fatalf("settings-drifted before any drift: %v", f)
	}

	// Behind headroom's back: somaxconn raised, and a local file sorting after the drop-in.
	writeTestFile(t, filepath.Join(procSys, "net/core/somaxconn"), "65535\n")
	writeTestFile(t, filepath.Join(sysctlDir, "99-local.conf"), "# local\nnet.ipv4.tcp_rmem = 4096 87380 212992\n")

	code, out := status()
	for _, want := range []string{
		"net.core.somaxconn: entry 1 set 4096 → 8192\n  now: 65535  DRIFTED from 8192",
		"net.ipv4.tcp_rmem: entry 1 set 4096 131072 6291456 → 4096 131072 16777216\n  now: 4096 131072 16777216  (as applied)\n  next boot: OVERRIDDEN at boot: /etc/sysctl.d/99-local.conf:2 sets 4096 87380 212992 after headroom's drop-in /etc/sysctl.d/90-headroom.conf:",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("status lacks %q:\n%s", want, out)
		}
	}
	if code != exitWarning {
		t.Errorf("status exit %d, want %d", code, exitWarning)
	}
	code, f := doctor()
	if f == nil {
		t.Fatal("doctor: no settings-drifted finding")
	}
	ev, _ := json.Marshal(f["evidence"])
	if f["severity"] != "warning" || !strings.Contains(f["title"].(string), "1 setting(s) headroom applied changed since, and 1 will be overridden") ||
		!strings.Contains(string(ev), "65535 now, headroom applied 8192") || !strings.Contains(string(ev), "99-local.conf:2") {
		t.Errorf("finding: %v", f)
	}
	if code < exitWarning {
		t.Errorf("doctor exit %d with a warning finding", code)
	}
}

func writeTestFile(t *testing.T, p, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestTuneVerifyFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--verify", "10s"},                                  // without --apply
		{"--apply", "--verify", "0s"},                        // not positive
		{"--apply", "--verify-interval", "1s"},               // without --verify
		{"--status", "--apply"},                              // --status reads only
		{"--boot-root", "/", "--from", "x"},                  // --boot-root goes with --status
		{"--status", "--status-format", "yaml"},              // unknown format
		{"--apply", "--keep-undecided"},                      // without --verify
		{"--apply", "--keep-unmeasured"},                     // without --verify
		{"--apply", "--verify-max", "30s"},                   // without --verify
		{"--apply", "--verify", "10s", "--verify-max", "5s"}, // shorter than the window
	} {
		if code, _, stderr := runTuneCmd(t, "", args...); code != exitFailure || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	// The guards cannot be sampled under a tree without /proc/net: the baseline fails and
	// nothing is journaled or changed.
	root := t.TempDir()
	procSys := filepath.Join(root, "proc/sys")
	for k, v := range tuneVals {
		p, _ := tune.KeyPath(k)
		writeTestFile(t, filepath.Join(procSys, p), v+"\n")
	}
	state := t.TempDir()
	plan := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(plan, []byte(tunePlanJSON), 0o644)
	code, _, stderr := runTuneCmd(t, "", "--from", plan, "--apply", "--verify", "2s", "--proc-sys", procSys, "--state-dir", state)
	if code != exitFailure || !strings.Contains(stderr, "baseline window, nothing was changed") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if readProcSys(t, procSys, "net.core.somaxconn") != "4096" {
		t.Error("changed without a baseline")
	}
	if _, err := os.Stat(filepath.Join(state, tune.JournalName)); err == nil {
		t.Error("journaled without a baseline")
	}
}

// Issue 27 item 4, through the command: on a host tree whose counters do not move (no
// traffic at all), --verify says the changes were not measured and rolls them back; --status
// shows it with the figures; --keep-unmeasured keeps them.
func TestTuneVerifyNothingMeasured(t *testing.T) {
	root := t.TempDir()
	procSys := filepath.Join(root, "proc/sys")
	for k, v := range tuneVals {
		p, _ := tune.KeyPath(k)
		writeTestFile(t, filepath.Join(procSys, p), v+"\n")
	}
	// Counters as the kernel prints them, frozen: every window reads the same. The tree is
	// read as a mounted host's / (the network files of its PID 1).
	writeTestFile(t, filepath.Join(root, "proc/1/net/netstat"), "TcpExt: PruneCalled RcvPruned TCPRcvQDrop\nTcpExt: 0 0 0\nIpExt: InOctets OutOctets\nIpExt: 123456789 98765432\n")
	writeTestFile(t, filepath.Join(root, "proc/1/net/snmp"), "Tcp: RtoAlgorithm RetransSegs OutSegs\nTcp: 1 10 5000\n")
	writeTestFile(t, filepath.Join(root, "proc/1/net/dev"), "Inter-|   Receive                                                |  Transmit\n"+
		" face |bytes    packets errs drop fifo frame compressed multicast|bytes    packets errs drop fifo colls carrier compressed\n"+
		"    lo: 1000 10 0 0 0 0 0 0 1000 10 0 0 0 0 0 0\n")
	plan := filepath.Join(t.TempDir(), "plan.json")
	os.WriteFile(plan, []byte(tunePlanJSON), 0o644)

	state := t.TempDir()
	code, stdout, stderr := runTuneCmd(t, "", "--from", plan, "--apply", "--verify", "2s", "--proc-sys", procSys, "--state-dir", state)
	t.Logf("exit %d:\n%s", code, stdout)
	for _, want := range []string{
		"windows of 2s (every 1s) before and after: not measured, rolled back\n",
		"idle      IP bytes delivered in (IpExt InOctets): not measured, idle: 0 MB/s → 0 MB/s, below the 0.131 MB/s this guard can tell from noise",
		"  not measured: net.ipv4.tcp_rmem: no guard measured it (",
		"  not measured: net.core.somaxconn: no guard measured it (",
		"not measured, rolled back\nnot measured (above): keep changes no guard could measure with --keep-unmeasured\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("lacks %q", want)
		}
	}
	if strings.Contains(stdout, "no guard got worse") || code != exitWarning {
		t.Errorf("exit %d, stderr %s", code, stderr)
	}
	if v := readProcSys(t, procSys, "net.core.somaxconn"); v != "4096" {
		t.Errorf("somaxconn %s after the rollback", v)
	}
	code, stdout, _ = runTuneCmd(t, "", "--status", "--proc-sys", procSys, "--state-dir", state, "--boot-root", root)
	if !strings.Contains(stdout, "entry 1 verification (rolled-back):\n  windows of 2s (every 1s) before and after: not measured, rolled back\n") ||
		!strings.Contains(stdout, "not measured, idle: 0 MB/s → 0 MB/s") || !strings.Contains(stdout, "  not measured: net.core.somaxconn: no guard measured it") {
		t.Errorf("--status, exit %d:\n%s", code, stdout)
	}

	code, stdout, stderr = runTuneCmd(t, "", "--from", plan, "--apply", "--verify", "2s", "--keep-unmeasured", "--proc-sys", procSys, "--state-dir", state)
	if code != exitOK || !strings.Contains(stdout, "not measured, kept (--keep-unmeasured)") || readProcSys(t, procSys, "net.core.somaxconn") != "8192" {
		t.Errorf("--keep-unmeasured: exit %d\n%s%s", code, stdout, stderr)
	}
}
