package tune

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"headroom/model"
)

// procSysTree lays out sysctl files under a temporary directory, as /proc/sys would.
func procSysTree(t *testing.T, vals map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for k, v := range vals {
		p, err := KeyPath(k)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, p), []byte(v+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// The flows of `headroom tune`, as cmd/headroom calls them: a dry run changes nothing and is
// held when --apply would refuse a change; --apply journals, says what it did and how to undo
// it; --rollback undoes it; a rendering leaves a refused change out and fails; --status says
// what the journal applied.
func TestCommandFlows(t *testing.T) {
	procSys := procSysTree(t, map[string]string{"net.core.somaxconn": "4096", "net.ipv4.tcp_rmem": "4096 131072 6291456"})
	state := filepath.Join(t.TempDir(), "state")
	changes := []model.Change{
		sysctl("net.core.somaxconn", "8192", "accept queue"),
		sysctl("net.ipv4.tcp_rmem", "4096 131072 99999999999", "out of bounds"),
	}
	run := func(c Command) (bool, error, string, string) {
		var out, errb bytes.Buffer
		c.Changes, c.ProcSysDir, c.StateDir, c.SysctlDir, c.Stdout, c.Stderr = changes, procSys, state, t.TempDir(), &out, &errb
		if c.Format == "" {
			c.Format = "text"
		}
		held, err := c.Run(context.Background())
		return held, err, out.String(), errb.String()
	}
	read := func(key string) string {
		v, err := (ProcSys{Dir: procSys}).Read(key)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}

	held, err, out, stderr := run(Command{})
	if err != nil || !held || !strings.Contains(out, "REFUSED") || !strings.Contains(stderr, "--apply would refuse 1 change(s)") || read("net.core.somaxconn") != "4096" {
		t.Fatalf("dry run: held %v, %v\n%s%s", held, err, out, stderr)
	}
	held, err, out, _ = run(Command{Apply: true})
	if err != nil || !held || !strings.Contains(out, "net.core.somaxconn: 4096 → 8192") || !strings.Contains(out, "undo with: headroom tune --rollback --to 1") ||
		!strings.Contains(out, "not applied:") || read("net.core.somaxconn") != "8192" {
		t.Fatalf("apply: held %v, %v\n%s", held, err, out)
	}
	var sb bytes.Buffer
	if held, err := ShowStatus(context.Background(), state, procSys, t.TempDir(), t.TempDir(), "text", &sb); err != nil || held || !strings.Contains(sb.String(), "net.core.somaxconn") {
		t.Errorf("status: held %v, %v\n%s", held, err, sb.String())
	}
	if _, err := ShowStatus(context.Background(), state, procSys, t.TempDir(), t.TempDir(), "yaml", &sb); err == nil || !strings.Contains(err.Error(), "want text or json") {
		t.Errorf("status as yaml: %v", err)
	}
	sb.Reset()
	if err := Rollback(context.Background(), 0, false, state, procSys, &sb, &bytes.Buffer{}); err != nil || !strings.Contains(sb.String(), "journal entry 1: rolled-back") || read("net.core.somaxconn") != "4096" {
		t.Errorf("rollback: %v\n%s (somaxconn %s)", err, sb.String(), read("net.core.somaxconn"))
	}
	_, err, out, _ = run(Command{Format: "sysctl"})
	if err == nil || !strings.Contains(err.Error(), "left out of the --format sysctl output") || !strings.Contains(err.Error(), "net.ipv4.tcp_rmem") ||
		!strings.Contains(out, "net.core.somaxconn = 8192") || strings.Contains(out, "99999999999") {
		t.Errorf("render: %v\n%s", err, out)
	}
}
