package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveLoopback runs an HTTP/1.0 service on 127.0.0.1 that takes 2 ms per request. After
// stopAfter connections (0: never) it stops accepting, as a server out of descriptors does.
func serveLoopback(t *testing.T, stopAfter int) string {
	t.Helper()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var held []net.Conn
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range held {
			c.Close()
		}
		mu.Unlock()
	})
	go func() {
		for n := 0; stopAfter == 0 || n < stopAfter; n++ {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				r := bufio.NewReader(c)
				for {
					l, err := r.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				time.Sleep(2 * time.Millisecond)
				c.Write([]byte("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok"))
				if stopAfter > 0 {
					mu.Lock()
					held = append(held, c) // the leak: never closed
					mu.Unlock()
					return
				}
				c.Close()
			}()
		}
	}()
	return ln.Addr().String()
}

func runRecoveryCmd(args ...string) (int, string, string) {
	var o, e bytes.Buffer
	code := runRecovery(context.Background(), args, IO{Stdin: strings.NewReader(""), Stdout: &o, Stderr: &e})
	return code, o.String(), e.String()
}

func TestRecoveryCommand(t *testing.T) {
	small := []string{"--requests", "100", "--flood", "200", "--concurrency", "20", "--idle", "100ms", "--repeat", "1", "--max-phase", "1s", "--request-timeout", "300ms"}
	for _, tc := range []struct {
		name      string
		stopAfter int
		code      int
		verdict   string
	}{{"healthy", 0, exitOK, "recovered"}, {"leaking", 250, exitCritical, "did not recover"}} {
		t.Run(tc.name, func(t *testing.T) {
			addr := serveLoopback(t, tc.stopAfter)
			code, out, errOut := runRecoveryCmd(append([]string{"--target", addr, "--format", "json"}, small...)...)
			if code != tc.code {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tc.code, errOut)
			}
			var rep struct {
				Target   string  `json:"target"`
				Verdict  string  `json:"verdict"`
				Baseline float64 `json:"baseline_connections_per_sec"`
				Phases   []struct {
					Name   string  `json:"name"`
					PerSec float64 `json:"connections_per_sec"`
				} `json:"phases"`
				NotReturned []struct {
					Name string `json:"name"`
				} `json:"not_returned"`
			}
			if err := json.Unmarshal([]byte(out), &rep); err != nil {
				t.Fatalf("stdout is not JSON: %v\n%s", err, out)
			}
			if rep.Target != addr || rep.Verdict != tc.verdict || rep.Baseline <= 0 || len(rep.Phases) != 5 {
				t.Errorf("report %+v", rep)
			}
			if !strings.Contains(errOut, "baseline") {
				t.Errorf("no progress on stderr:\n%s", errOut)
			}
		})
	}
	// Text output of the healthy service.
	addr := serveLoopback(t, 0)
	code, out, _ := runRecoveryCmd(append([]string{"--target", addr}, small...)...)
	if code != exitOK || !strings.Contains(out, "recovered: worst re-measure / baseline") || !strings.Contains(out, "re-measure 1") {
		t.Errorf("text output (exit %d):\n%s", code, out)
	}
}

func TestRecoveryUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "--target HOST:PORT is required"},
		{[]string{"--target", "localhost"}, "want HOST:PORT"},
		{[]string{"--target", "127.0.0.1:1", "--format", "xml"}, "want text or json"},
		{[]string{"--target", "127.0.0.1:1", "--ratio", "2"}, "--ratio in (0, 1]"},
		{[]string{"--target", "127.0.0.1:1", "extra"}, "unexpected arguments"},
	} {
		code, out, errOut := runRecoveryCmd(tc.args...)
		if code != exitFailure || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("recovery %v: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, errOut, out, exitFailure, tc.want)
		}
	}
}
