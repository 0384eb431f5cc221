package main

// A live test of issue 27 on the real kernel, in a network namespace of its own: 800 idle
// loopback connections are no TCP memory exposure. It needs root and iproute2 and skips
// otherwise; it judges only what it creates (its own namespace's sockets) and only the rule
// of buffer arithmetic, so other processes and the kernel log's history cannot change it.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// idleHoldEnv makes the test binary hold that many idle loopback connections (both ends in
// this process), print "ready" and wait for its stdin to close (TestMain).
const idleHoldEnv = "HEADROOM_TEST_HOLD_IDLE"

func holdIdleConnections(count string) int {
	n, err := strconv.Atoi(count)
	if err != nil || n <= 0 {
		fmt.Fprintf(os.Stderr, "%s=%q: want a positive count\n", idleHoldEnv, count)
		return 3
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var conns []net.Conn
	for range n {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		a, err := ln.Accept()
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 1
		}
		conns = append(conns, c, a)
	}
	fmt.Println("ready")
	bufio.NewReader(os.Stdin).ReadString('\n') // until the test closes stdin
	for _, c := range conns {
		c.Close()
	}
	return 0
}

func TestLabIdleConnectionsAreNoExposure(t *testing.T) {
	name := labNetns(t)
	if out, err := exec.Command("ip", "-n", name, "link", "set", "lo", "up").CombinedOutput(); err != nil {
		t.Fatalf("lo up in %s: %v: %s", name, err, out)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The test binary runs as headroom when its argv[0] is named so (TestMain).
	bin := filepath.Join(t.TempDir(), "headroom")
	if err := os.Symlink(exe, bin); err != nil {
		t.Fatal(err)
	}
	hold := exec.Command("ip", "netns", "exec", name, exe)
	hold.Env = append(os.Environ(), idleHoldEnv+"=800")
	stdin, err := hold.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := hold.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	hold.Stderr = os.Stderr
	if err := hold.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); hold.Wait() }()
	if line, _ := bufio.NewReader(stdout).ReadString('\n'); strings.TrimSpace(line) != "ready" {
		t.Fatalf("holder: %q", line)
	}
	out, err := exec.Command("ip", "netns", "exec", name, bin, "doctor", "--format", "json").Output()
	if err != nil && len(out) == 0 {
		t.Fatalf("doctor in %s: %v", name, err)
	}
	var rep struct {
		Findings []struct{ ID, Severity, Title string }
		Checks   []struct{ ID, Status, Why string }
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("doctor's JSON: %v\n%s", err, out)
	}
	for _, f := range rep.Findings {
		if f.ID == "tcp-buffers-exceed-budget" {
			t.Errorf("1600 idle sockets: %s %s", f.Severity, f.Title)
		}
	}
	seen := false
	for _, c := range rep.Checks {
		if c.ID == "tcp-buffers-exceed-budget" {
			seen = true
			t.Logf("tcp-buffers-exceed-budget: %s: %s", c.Status, c.Why)
			if !strings.Contains(c.Why, "1600 connections, 0 busy") {
				t.Errorf("the check does not count this namespace's 1600 idle sockets: %s", c.Why)
			}
		}
	}
	if !seen {
		t.Errorf("tcp-buffers-exceed-budget not among the checks")
	}
}
