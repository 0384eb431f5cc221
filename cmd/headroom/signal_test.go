package main

import (
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"testing"
	"time"
)

// SIGHUP (a dropped ssh session) ends a command as SIGINT does: its context is cancelled and
// it returns through its cleanup (a lab run restores the global sysctls it changed). Before,
// SIGHUP's default action killed the process where it stood.
func TestSIGHUPCancelsCommand(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	if signal.Ignored(syscall.SIGHUP) {
		t.Skip("SIGHUP is ignored in this process (nohup?): headroom leaves it ignored, by design")
	}
	stderr := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run([]string{"serve", "--listen", "127.0.0.1:0"}, IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr})
	}()
	for deadline := time.Now().Add(10 * time.Second); listeningRE.FindStringSubmatch(stderr.String()) == nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("serve did not start: %s", stderr.String())
		}
	}
	// serve listens only after run installed its signal handlers.
	if err := syscall.Kill(os.Getpid(), syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("serve exited %d after SIGHUP, want %d: %s", code, exitOK, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve still running 10 s after SIGHUP")
	}
}

func TestStopSignalsKeepIgnoredSIGHUP(t *testing.T) {
	has := func() bool {
		for _, s := range stopSignals() {
			if s == syscall.SIGHUP {
				return true
			}
		}
		return false
	}
	if signal.Ignored(syscall.SIGHUP) {
		t.Skip("SIGHUP already ignored in this process")
	}
	if !has() {
		t.Error("SIGHUP not among the stop signals")
	}
	signal.Ignore(syscall.SIGHUP)
	defer signal.Reset(syscall.SIGHUP)
	if has() {
		t.Error("SIGHUP ignored at start (nohup) but stopSignals would catch it")
	}
}
