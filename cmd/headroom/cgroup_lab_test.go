package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"

	"headroom/diagnose"
	"headroom/export"
	"headroom/kernel"
	"headroom/report"
)

const cgroupV1Memory = "/sys/fs/cgroup/memory"

// A cgroup v1 memory cgroup with a 256 KiB TCP limit runs a loopback connection whose
// reader never reads: the sender fills the receive queue and its own send queue, the
// charges pass the limit and are refused. doctor names the cgroup in cgroup-tcp-limit and
// lists it first by socket memory; serve exports its socket memory, limit and refusals.
func TestLabCgroupTCPLimit(t *testing.T) {
	if os.Getenv("HEADROOM_I21_TCPLOAD") != "" {
		tcpLoadHelper()
		return
	}
	if os.Geteuid() != 0 {
		t.Skip("needs root: creates a memory cgroup")
	}
	if _, err := os.Stat(filepath.Join(cgroupV1Memory, "memory.kmem.tcp.limit_in_bytes")); err != nil {
		t.Skipf("no cgroup v1 memory controller with TCP accounting: %v", err)
	}
	name := fmt.Sprintf("hri21-%d", os.Getpid())
	dir := filepath.Join(cgroupV1Memory, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Skipf("mkdir %s: %v", dir, err)
	}
	t.Cleanup(func() {
		for i := 0; i < 50 && os.Remove(dir) != nil; i++ {
			time.Sleep(100 * time.Millisecond) // the child's sockets are freed after it exits
		}
	})
	const limit = 256 << 10
	if err := os.WriteFile(filepath.Join(dir, "memory.kmem.tcp.limit_in_bytes"), []byte(fmt.Sprint(limit)), 0o644); err != nil {
		t.Skipf("setting the TCP limit: %v", err)
	}
	// The child joins the cgroup before it creates a socket: a socket is charged to the
	// cgroup of the task that creates or accepts it (mem_cgroup_sk_alloc).
	cmd := exec.Command("sh", "-c", `echo $$ > "$1/cgroup.procs" && exec "$2" -test.run='^TestLabCgroupTCPLimit$'`, "sh", dir, os.Args[0])
	cmd.Env = append(os.Environ(), "HEADROOM_I21_TCPLOAD=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		stdin.Close() // the child exits when its stdin closes
		cmd.Wait()
	}()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "loaded") {
		t.Fatalf("child: %q %v", line, err)
	}
	t.Logf("child: %s", strings.TrimSpace(line))

	// doctor
	var out, errb bytes.Buffer
	code := runDoctor(context.Background(), []string{"--duration=0s", "--format=json"}, IO{Stdout: &out, Stderr: &errb})
	if code == exitFailure {
		t.Fatalf("doctor: %s", errb.String())
	}
	var rep report.Document
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var f *diagnose.Finding
	for i := range rep.Findings {
		if rep.Findings[i].ID == "cgroup-tcp-limit" && strings.Contains(rep.Findings[i].Title, "/"+name) {
			f = &rep.Findings[i]
		}
	}
	if f == nil {
		t.Fatalf("doctor: no cgroup-tcp-limit finding naming /%s; findings %v", name, findingIDs(rep))
	}
	t.Logf("doctor: %s %s: %v", f.Severity, f.Title, f.Evidence)
	out.Reset()
	runDoctor(context.Background(), []string{"--duration=0s"}, IO{Stdout: &out, Stderr: &errb})
	text := out.String()
	i := strings.Index(text, "Socket memory by cgroup")
	if i < 0 || !strings.Contains(text[i:], "/"+name) {
		t.Errorf("doctor's text does not list /%s under socket memory by cgroup:\n%s", name, text)
	}

	// serve
	c := export.NewCollector(kernel.HostRoot(), export.Options{RulesInterval: -1})
	defer c.Close()
	prom, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain,
		"headroom_cgroup_socket_memory_bytes", "headroom_cgroup_tcp_memory_limit_bytes", "headroom_cgroup_tcp_memory_failures_total", "headroom_finding")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		fmt.Sprintf(`headroom_cgroup_socket_memory_bytes{cgroup="/%s",version="1"}`, name),
		fmt.Sprintf(`headroom_cgroup_tcp_memory_limit_bytes{cgroup="/%s"} %d`, name, limit),
		fmt.Sprintf(`headroom_cgroup_tcp_memory_failures_total{cgroup="/%s"}`, name),
		`headroom_finding{id="cgroup-tcp-limit"`,
	} {
		if !bytes.Contains(prom, []byte(want)) {
			t.Errorf("serve: no %s in\n%s", want, prom)
		}
	}
	for _, l := range strings.Split(string(prom), "\n") {
		if strings.Contains(l, name) || strings.Contains(l, "cgroup-tcp-limit") {
			t.Logf("serve: %s", l)
		}
	}
}

// tcpLoadHelper runs in the child, inside the cgroup: a loopback connection whose receiver
// never reads, written to until the kernel stops taking data.
func tcpLoadHelper() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			accepted <- c
		}
	}()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		fmt.Println("error:", err)
		os.Exit(1)
	}
	peer := <-accepted
	buf := make([]byte, 64<<10)
	written := 0
	conn.SetWriteDeadline(time.Now().Add(3 * time.Second))
	for {
		n, err := conn.Write(buf)
		written += n
		if err != nil {
			break
		}
	}
	fmt.Printf("loaded: %d bytes written before the kernel stopped taking them\n", written)
	io.Copy(io.Discard, os.Stdin) // hold the sockets until the test is done
	peer.Close()
	conn.Close()
	os.Exit(0)
}
