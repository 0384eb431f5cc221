package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Every registered command answers -h and --help with its usage, its flags, at least two
// examples and the exit codes, on standard output, with exit status 0 (issue 32: doctor,
// record, tune, report, watch, capture, check and explain exited 3; explain -h printed only
// "Usage of explain:").
func TestEveryCommandHelp(t *testing.T) {
	names := commandNames()
	for cmd, subs := range subcommands {
		for _, sub := range subs {
			names = append(names, cmd+" "+sub)
		}
	}
	for _, name := range names {
		for _, h := range []string{"-h", "--help"} {
			var out, errb bytes.Buffer
			code := run(append(strings.Fields(name), h), IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
			if code != exitOK {
				t.Errorf("headroom %s %s: exit %d, want 0; stderr: %s", name, h, code, errb.String())
			}
			s := out.String()
			if !strings.Contains(s, "usage:") {
				t.Errorf("headroom %s %s: no usage line on stdout:\n%s", name, h, s)
			}
			_, ex, found := strings.Cut(s, "\nExamples:\n")
			if !found {
				t.Errorf("headroom %s %s: no examples:\n%s", name, h, s)
				continue
			}
			ex, _, _ = strings.Cut(ex, "\n\n")
			if n := strings.Count(ex, "headroom "); n < 2 {
				t.Errorf("headroom %s %s: %d examples, want at least 2:\n%s", name, h, n, ex)
			}
			for _, code := range []string{"\n  0 ", "\n  3 ", "\n  130 "} {
				if !strings.Contains(s, code) {
					t.Errorf("headroom %s %s: exit status %q not listed", name, h, strings.TrimSpace(code))
				}
			}
		}
	}
}

// A usage error names the flag and exits 3; numeric flags refuse 0 and negative values the
// same way (plan --streams 0 used to mean "not given").
func TestUsageErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"doctor", "--bogus"}, "-bogus"},
		{[]string{"explain", "--bogus"}, "-bogus"},
		{[]string{"plan", "--bandwidth", "1Gbit", "--rtt", "10ms", "--streams", "0"}, "--streams 0"},
		{[]string{"plan", "--bandwidth", "1Gbit", "--rtt", "10ms", "--streams", "-5"}, "--streams -5"},
		{[]string{"doctor", "--interval", "0s"}, "--interval 0s"},
		{[]string{"watch", "--interval", "-1s"}, "--interval -1s"},
		{[]string{"record", "-o", os.DevNull, "--max-files", "-1"}, "--max-files -1"},
		{[]string{"doctor", "--format", "yaml"}, "--format"},
		{[]string{"version", "--format", "yaml"}, "--format"},
	} {
		var out, errb bytes.Buffer
		code := run(tc.args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
		if code != exitFailure {
			t.Errorf("%q: exit %d, want 3", tc.args, code)
		}
		if !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%q: stderr does not name %q:\n%s", tc.args, tc.want, errb.String())
		}
	}
	// 0 where the flag gives it a meaning stays accepted.
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.Duration("duration", 0, "")
	fs.Parse([]string{"--duration", "0"})
	if err := validateNumbers(fs); err != nil {
		t.Errorf("record --duration 0 (until interrupted) refused: %v", err)
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		var out bytes.Buffer
		if code := run(args, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &out}); code != exitOK {
			t.Errorf("%q: exit %d: %s", args, code, out.String())
		}
		if !strings.HasPrefix(out.String(), "headroom ") || !strings.Contains(out.String(), "linux/") && !strings.Contains(out.String(), "/") {
			t.Errorf("%q: %q", args, out.String())
		}
	}
}

// SIGINT while doctor samples: the command returns through its cleanup, and headroom says
// "interrupted" and exits 130 instead of "headroom doctor: context canceled", exit 3.
func TestInterruptExits130(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	started := make(chan struct{}, 1)
	flagSetHook = func(*flag.FlagSet) { started <- struct{}{} } // after run installed its handlers
	defer func() { flagSetHook = nil }()
	stderr := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"doctor", "--duration", "60s", "--state-dir", t.TempDir()}, IO{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: stderr})
	}()
	<-started
	time.Sleep(200 * time.Millisecond)
	if err := syscall.Kill(os.Getpid(), syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitInterrupted {
			t.Errorf("doctor exited %d after SIGINT, want %d: %s", code, exitInterrupted, stderr.String())
		}
		if s := stderr.String(); !strings.Contains(s, "headroom doctor: interrupted") || strings.Contains(s, "context canceled") {
			t.Errorf("stderr after SIGINT: %q", s)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("doctor still running 20 s after SIGINT")
	}
}

// A permission error says what needs root and what works without it (before: only
// "setns: operation not permitted").
func TestPermissionErrorSaysWhatNeedsRoot(t *testing.T) {
	var errb bytes.Buffer
	code := failed(IO{Stderr: &errb}, "doctor", fmt.Errorf("netns x: setns: %w", syscall.EPERM))
	if code != exitFailure || !strings.Contains(errb.String(), "CAP_SYS_ADMIN") || !strings.Contains(errb.String(), "Without root") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
	errb.Reset()
	failed(IO{Stderr: &errb}, "doctor", fmt.Errorf("no such file: %w", syscall.ENOENT))
	if strings.Contains(errb.String(), "not permitted") {
		t.Errorf("ENOENT explained as a permission error: %q", errb.String())
	}
}

// The README's table of exit codes is the one -h prints.
func TestREADMEExitCodes(t *testing.T) {
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range exitCodes {
		if row := fmt.Sprintf("| %d | %s |", e.code, e.what); !strings.Contains(string(b), row) {
			t.Errorf("README.md lacks the row %q", row)
		}
	}
}

// doctor --format markdown is report's ticket format (one renderer), and an input with
// nothing headroom reads is refused by both with 3 (report used to write an empty report,
// exit 0).
func TestDoctorMarkdownAndEmptyInput(t *testing.T) {
	seed := "../../testdata/seeds/000_f481d10e6cc28585.txt"
	var dmd, rmd, errb bytes.Buffer
	if code := run([]string{"doctor", "--format", "markdown", seed}, IO{Stdin: strings.NewReader(""), Stdout: &dmd, Stderr: &errb}); code == exitFailure {
		t.Fatalf("doctor --format markdown: exit 3: %s", errb.String())
	}
	if code := run([]string{"report", "--format", "markdown", seed}, IO{Stdin: strings.NewReader(""), Stdout: &rmd, Stderr: &errb}); code != exitOK {
		t.Fatalf("report --format markdown: exit %d: %s", code, errb.String())
	}
	if !strings.HasPrefix(dmd.String(), "## headroom: ") || dmd.String() != rmd.String() {
		t.Errorf("doctor's markdown differs from report's:\n%s\n---\n%s", dmd.String(), rmd.String())
	}
	empty := t.TempDir() + "/empty.txt"
	os.WriteFile(empty, nil, 0o644)
	for _, cmd := range []string{"doctor", "report"} {
		errb.Reset()
		if code := run([]string{cmd, empty}, IO{Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &errb}); code != exitFailure || !strings.Contains(errb.String(), "nothing in") {
			t.Errorf("%s on an empty file: exit %d, want 3: %s", cmd, code, errb.String())
		}
	}
}

// The build is in doctor's JSON, a capture's headroom/host.json and a recording's header.
func TestBuildInfoEverywhere(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	want := `"build":{"version":"`
	var out, errb bytes.Buffer
	run([]string{"doctor", "--format", "json", "../../testdata/seeds/000_f481d10e6cc28585.txt"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	var doc struct {
		Build struct{ Version, GoVersion string } `json:"build"`
	}
	if err := json.Unmarshal(out.Bytes(), &doc); err != nil || doc.Build.Version == "" {
		t.Errorf("doctor JSON: no build (%v): %.200s", err, out.String())
	}
	out.Reset()
	if code := run([]string{"capture", "-o", "-"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != exitOK {
		t.Fatalf("capture: %d %s", code, errb.String())
	}
	_, host, _ := strings.Cut(out.String(), "-- headroom/host.json --\n")
	if !strings.Contains(host, want) {
		t.Errorf("capture host.json has no build: %.300s", host)
	}
	arch := t.TempDir() + "/r.jsonl.gz"
	if code := run([]string{"record", "-o", arch, "--duration", "1s", "--interval", "1s"}, IO{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}); code != exitOK {
		t.Fatalf("record: %d %s", code, errb.String())
	}
	f, err := os.Open(arch)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	first, _ := bufio.NewReader(zr).ReadString('\n')
	if !strings.Contains(first, want) {
		t.Errorf("recording header has no build: %.300s", first)
	}
}
