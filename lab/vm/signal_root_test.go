package vm

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"headroom/lab/netlab"
)

const signalChildEnv = "HEADROOM_TEST_VM_SIGNAL_CHILD"

// TestSignalChild is the run TestSignals kills: a guest whose script sleeps, in a process
// that handles SIGINT, SIGTERM and SIGHUP as cmd/headroom does (cancel the context, return
// through Close). It prints "ready <runid> <qemu pid>" once the guest is up.
func TestSignalChild(t *testing.T) {
	name := os.Getenv(signalChildEnv)
	if name == "" {
		t.Skip("the guest run that TestSignals starts and kills; not a test by itself")
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	g, err := Start(ctx, Spec{Kernel: name, MemoryMiB: 192, Headroom: "-", Timeout: 3 * time.Minute, Script: "echo up > /dev/console\nsleep 300\n"})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	if err := g.WaitConsole(ctx, "up"); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("ready %s %d\n", g.Lab().RunID, g.cmd.Process.Pid)
	g.Wait(ctx)
	if ctx.Err() == nil {
		t.Fatal("guest ended without a signal")
	}
}

// TestSignals kills a guest run with SIGINT, SIGTERM, SIGHUP (the run cleans up itself)
// and SIGKILL (QEMU dies by PR_SET_PDEATHSIG, the guardian removes the namespace, taps and
// scratch directory), and checks each time that QEMU is gone and nothing of the run is left.
func TestSignals(t *testing.T) {
	const name = "debian-6.1-amd64"
	needGuest(t, name)
	for _, sig := range []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			before, err := netlab.SnapshotOwned()
			if err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("/proc/self/exe", "-test.run=^TestSignalChild$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), signalChildEnv+"="+name)
			cmd.Stderr = os.Stderr
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			lines := make(chan string, 16)
			go func() {
				sc := bufio.NewScanner(out)
				for sc.Scan() {
					lines <- sc.Text()
				}
				close(lines)
			}()
			var runID string
			var qemuPID int
			timeout := time.After(3 * time.Minute)
			for runID == "" {
				select {
				case l, ok := <-lines:
					if !ok {
						t.Fatal("child ended before its guest was up")
					}
					if f := strings.Fields(l); len(f) == 3 && f[0] == "ready" {
						runID = f[1]
						qemuPID, _ = strconv.Atoi(f[2])
					}
				case <-timeout:
					t.Fatal("guest not up within 3 minutes")
				}
			}
			qemuStart, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", qemuPID))
			if err != nil {
				t.Fatalf("qemu %d not running: %v", qemuPID, err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			go func() {
				for range lines {
				}
			}()
			werr := cmd.Wait()
			t.Logf("child after %v: %v", sig, werr)
			if sig == syscall.SIGKILL {
				// The guardian sweeps and leaves a report; the start of any other lab run on
				// this machine (another test, another session) sweeps too and consumes
				// reports, so a missing report is not a failure: what is left is checked below.
				rep, err := netlab.WaitGuardianReport(runID, 30*time.Second)
				if err != nil {
					t.Logf("no guardian report (%v): another run's sweep may have taken it", err)
				} else {
					t.Logf("guardian: %v %v", rep.Did, rep.Errors)
					if len(rep.Errors) > 0 {
						t.Errorf("guardian errors: %v", rep.Errors)
					}
				}
			} else if werr != nil {
				t.Errorf("child did not return cleanly after %v: %v", sig, werr)
			}
			// QEMU gone (or its pid reused by another process: compare the start time).
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", qemuPID))
				if err != nil || string(b[:strings.LastIndexByte(string(b), ')')]) != string(qemuStart[:strings.LastIndexByte(string(qemuStart), ')')]) || strings.Contains(string(b), ") Z ") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("qemu %d still running 10 s after %v of the run", qemuPID, sig)
				}
			}
			after, err := netlab.SnapshotOwned()
			if err != nil {
				t.Fatal(err)
			}
			if ch := before.RunChanges(after, netlab.Mine(runID)); len(ch) > 0 {
				t.Errorf("left behind after %v: %v", sig, ch)
			}
			if _, err := os.Stat("/run/netns/hr-" + runID + "-vm"); err == nil {
				t.Errorf("namespace hr-%s-vm left", runID)
			}
		})
	}
}
