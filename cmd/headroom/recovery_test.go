package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"headroom/internal/contention"
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
			meter := contention.Start()
			addr := serveLoopback(t, tc.stopAfter)
			code, out, errOut := runRecoveryCmd(append([]string{"--target", addr, "--format", "json"}, small...)...)
			if code != tc.code {
				if tc.code == exitOK && code == exitCritical { // a busy host makes a healthy service look slow afterwards
					meter.Fail(t, "exit %d, want %d; stderr:\n%s", code, tc.code, errOut)
					return
				}
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
	meter := contention.Start()
	addr := serveLoopback(t, 0)
	code, out, _ := runRecoveryCmd(append([]string{"--target", addr}, small...)...)
	switch {
	case code == exitCritical && strings.Contains(out, "did not recover: worst re-measure / baseline"):
		meter.Fail(t, "text output (exit %d):\n%s", code, out)
	case code != exitOK || !strings.Contains(out, "recovered: worst re-measure / baseline") || !strings.Contains(out, "re-measure 1"):
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

// TestLabRunFloodRecovery runs seed 002's procedure in the lab through the command line
// (root only): the JSON report must tell the leaking proxy from the healthy one. A healthy
// proxy that measured as not recovered on a busy machine is run once more, alone.
func TestLabRunFloodRecovery(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: needs root to create network namespaces")
	}
	type run struct {
		Settings string `json:"settings"`
		Metric   struct {
			Name   string   `json:"name"`
			Before *float64 `json:"before"`
			After  *float64 `json:"after"`
			OK     bool     `json:"ok"`
		} `json:"metric"`
		Findings []string `json:"findings"`
		Recovery struct {
			Verdict string `json:"verdict"`
		} `json:"recovery"`
	}
	parse := func(out string) []run {
		var doc struct {
			Scenario string `json:"scenario"`
			Runs     []run  `json:"runs"`
		}
		if err := json.Unmarshal([]byte(out), &doc); err != nil {
			t.Fatalf("stdout is not the JSON report: %v\n%s", err, out)
		}
		if doc.Scenario != "flood-recovery" {
			t.Fatalf("scenario %q", doc.Scenario)
		}
		return doc.Runs
	}
	meter := contention.Start()
	code, out, errOut := runLabCmd("run", "flood-recovery", "--format", "json")
	runs := parse(out)
	if len(runs) != 2 {
		t.Fatalf("exit %d, %d runs; stderr:\n%s", code, len(runs), errOut)
	}
	if runs[0].Settings == "healthy" && runs[0].Recovery.Verdict != "recovered" {
		t.Logf("healthy proxy measured %q on the first try; again, alone", runs[0].Recovery.Verdict)
		code, out, errOut = runLabCmd("run", "flood-recovery", "--variant", "healthy", "--format", "json")
		runs[0] = parse(out)[0]
		if runs[1].Metric.OK && runs[0].Metric.OK && code != exitOK {
			t.Errorf("exit %d with every margin met", code)
		}
	}
	want := map[string]string{"healthy": "recovered", "leaking": "did not recover"}
	for _, r := range runs {
		switch {
		case r.Metric.Name != "connections_per_sec" || r.Metric.Before == nil || r.Metric.After == nil:
			t.Errorf("%s proxy: %+v; stderr:\n%s", r.Settings, r, errOut)
		case r.Recovery.Verdict == want[r.Settings] && r.Metric.OK:
		case r.Settings == "healthy": // a busy host makes a healthy proxy look slow afterwards
			meter.Fail(t, "%s proxy: %+v; stderr:\n%s", r.Settings, r, errOut)
		default:
			t.Errorf("%s proxy: %+v; stderr:\n%s", r.Settings, r, errOut)
		}
	}
	leak := false
	for _, id := range runs[1].Findings {
		leak = leak || id == "listen-overflow"
	}
	if !leak {
		// The accept queue overflows only when the flood comes faster than the proxy
		// accepts: on a machine whose CPUs other jobs hold, the flood itself is too slow.
		meter.Fail(t, "leaking proxy: doctor reported %v, want listen-overflow", runs[1].Findings)
	}
}

func TestLabRunFailureUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "udp-flood", "--rate", "1Gbit"}, "--rate do not apply"},
		{[]string{"compare", "udp-flood"}, "is a failure scenario"},
		{[]string{"run", "tcp-mem-low"}, "--allow-global"},
		{[]string{"run", "flood-recovery", "--variant", "sideways"}, "no variant"},
	} {
		code, out, errOut := runLabCmd(tc.args...)
		if code != exitFailure || !strings.Contains(errOut, tc.want) || out != "" {
			t.Errorf("lab %v: exit %d, stderr %q, stdout %q; want exit %d and %q", tc.args, code, errOut, out, exitFailure, tc.want)
		}
	}
}
