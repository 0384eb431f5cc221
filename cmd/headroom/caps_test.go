package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/privdrop"
)

const dropCapsTestEnv = "HEADROOM_TEST_DROP_CAPS"

// serve started as root keeps CAP_SYSLOG and nothing else, in every thread, and still reads
// the kernel log and /proc/pagetypeinfo.
func TestServeDropsCapabilities(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("serve drops capabilities only when started as root; run the tests as root to check it")
	}
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// This test binary runs as "headroom" when its argv[0] says so (TestMain).
	cmd := &exec.Cmd{Path: exe, Args: []string{"headroom", "serve", "--listen", "127.0.0.1:0", "--pagetypeinfo"},
		Env: append(os.Environ(), dropCapsTestEnv+"=1")}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	}()
	lines := make(chan string, 16)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	var base string
	var said []string
	for base == "" {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatalf("serve exited before listening: %q", said)
			}
			said = append(said, l)
			if m := listeningRE.FindStringSubmatch(l); m != nil {
				base = m[1]
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("serve not listening after 20 s: %q", said)
		}
	}
	go func() {
		for range lines {
		}
	}()
	for _, l := range said {
		if strings.Contains(l, "could not drop") {
			t.Error(l)
		}
	}
	want := uint64(1) << unix.CAP_SYSLOG
	tasks, err := filepath.Glob("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/task/*/status")
	if err != nil || len(tasks) == 0 {
		t.Fatalf("threads of serve: %v %v", tasks, err)
	}
	for _, p := range append([]string{"/proc/" + strconv.Itoa(cmd.Process.Pid) + "/status"}, tasks...) {
		st, err := privdrop.ProcCaps(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"CapEff", "CapPrm", "CapBnd"} {
			if st[k] != want {
				t.Errorf("%s: %s = %016x, want %016x (CAP_SYSLOG only)", p, k, st[k], want)
			}
		}
		if st["CapInh"]&^want != 0 || st["CapAmb"]&^want != 0 {
			t.Errorf("%s: inheritable %016x, ambient %016x: more than CAP_SYSLOG", p, st["CapInh"], st["CapAmb"])
		}
	}
	t.Logf("%d threads, each with CapEff=CapPrm=CapBnd=%016x", len(tasks), want)
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, src := range []string{"/dev/kmsg", "/proc/pagetypeinfo"} {
		line := `headroom_source_available{source="` + src + `"} 1`
		if !strings.Contains(string(body), line) {
			t.Errorf("after the drop, /metrics lacks %s", line)
		}
	}
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("serve still running 10 s after SIGTERM")
	}
}
