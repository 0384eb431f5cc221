package netlab

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// TestGlobalLockWaitsForAnotherRun: while another open file holds the host-wide lock (as a
// run of another process does), a run's first global write waits, says for whom, and goes
// on once the lock is released; a second run of the same process is refused at once
// instead of waiting for its own process; Close releases the lock.
func TestGlobalLockWaitsForAnotherRun(t *testing.T) {
	oldOwner := ownerDir
	ownerDir = t.TempDir()
	defer func() { ownerDir = oldOwner }()
	st, err := processStartTicks(os.Getppid())
	if err != nil {
		t.Fatal(err)
	}
	// The holder: a live run (this test's parent process stands for its process) whose
	// journal names a global sysctl.
	if err := writeOwner(&owner{RunID: "0a0a0a0a", PID: os.Getppid(), StartTicks: st, Sysctls: []journalEntry{{Key: "net.ipv4.tcp_mem", Old: "1 2 3"}}}); err != nil {
		t.Fatal(err)
	}
	holder, err := os.OpenFile(filepath.Join(ownerDir, globalLockName), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notes []string
	l := &Lab{RunID: "0b0b0b0b", Progress: func(m string) { mu.Lock(); notes = append(notes, m); mu.Unlock() }}
	done := make(chan error, 1)
	go func() { done <- l.lockGlobal() }()
	select {
	case err := <-done:
		t.Fatalf("lockGlobal returned %v while another run held the lock", err)
	case <-time.After(500 * time.Millisecond):
	}
	mu.Lock()
	got := strings.Join(notes, "\n")
	mu.Unlock()
	if !strings.Contains(got, "run 0b0b0b0b: waiting for lab run 0a0a0a0a, which changes global sysctls") {
		t.Errorf("the waiting run did not say for whom it waits: %q", got)
	}
	unix.Flock(int(holder.Fd()), unix.LOCK_UN)
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("lockGlobal still waiting 5 s after the lock was released")
	}
	// Held by l now: another open file cannot take it.
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB); err == nil {
		t.Fatal("the lock was free while run 0b0b0b0b held it")
	}
	l2 := &Lab{RunID: "0c0c0c0c"}
	if err := l2.lockGlobal(); err == nil || !strings.Contains(err.Error(), "run 0b0b0b0b of this process") {
		t.Errorf("second run of this process: %v, want a refusal naming run 0b0b0b0b", err)
	}
	l.mu.Lock()
	l.unlockGlobal()
	l.mu.Unlock()
	if err := unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatalf("lock not released: %v", err)
	}
	unix.Flock(int(holder.Fd()), unix.LOCK_UN)
}

// TestGlobalLockWaitsForKilledRunsSweep: a killed run's journal of global sysctls (its
// guardian has not restored them yet) holds the next run back until it is gone, and a
// journal that outlives killedJournalWait is named and passed.
func TestGlobalLockWaitsForKilledRunsSweep(t *testing.T) {
	oldOwner, oldWait := ownerDir, killedJournalWait
	ownerDir, killedJournalWait = t.TempDir(), 2*time.Second
	defer func() { ownerDir, killedJournalWait = oldOwner, oldWait }()
	st, err := processStartTicks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	dead := &owner{RunID: "0d0d0d0d", PID: os.Getpid(), StartTicks: st + 1, Sysctls: []journalEntry{{Key: "net.ipv4.tcp_mem", Old: "1 2 3"}}} // pid reused: dead
	if err := writeOwner(dead); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(500 * time.Millisecond); os.Remove(ownerPath(dead.RunID)) }() // the guardian's sweep
	l := &Lab{RunID: "0e0e0e0e"}
	start := time.Now()
	if err := l.lockGlobal(); err != nil {
		t.Fatal(err)
	}
	if w := time.Since(start); w < 400*time.Millisecond || w > killedJournalWait {
		t.Errorf("took the lock after %v, want after the sweep at 500 ms", w)
	}
	l.mu.Lock()
	l.unlockGlobal()
	l.mu.Unlock()

	if err := writeOwner(dead); err != nil {
		t.Fatal(err)
	}
	var notes []string
	l = &Lab{RunID: "0e0e0e0e", Progress: func(m string) { notes = append(notes, m) }}
	if err := l.lockGlobal(); err != nil {
		t.Fatal(err)
	}
	defer func() { l.mu.Lock(); l.unlockGlobal(); l.mu.Unlock() }()
	if !strings.Contains(strings.Join(notes, "\n"), "killed runs 0d0d0d0d still journal global sysctls") {
		t.Errorf("a journal that is never swept was not named: %q", notes)
	}
}

// TestShareHost: runs that measure with the host's global values share the lock and run
// side by side; one waits while another run changes global sysctls, and while a run waits
// to change them (so that it is not starved); a sharing run's own global write trades its
// shared lock for the exclusive one.
func TestShareHost(t *testing.T) {
	oldOwner := ownerDir
	ownerDir = t.TempDir()
	defer func() { ownerDir = oldOwner }()
	release := func(l *Lab) { l.mu.Lock(); l.unlockGlobal(); l.mu.Unlock() }
	a, b := &Lab{RunID: "1a1a1a1a"}, &Lab{RunID: "1b1b1b1b"}
	if err := a.ShareHost(); err != nil {
		t.Fatal(err)
	}
	if err := b.ShareHost(); err != nil {
		t.Fatalf("two measuring runs must share the lock: %v", err)
	}
	// Another process changing global sysctls: an exclusive flock on its own open file.
	other, err := os.OpenFile(filepath.Join(ownerDir, globalLockName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	if unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil {
		t.Fatal("exclusive lock taken while two runs share it")
	}
	// a changes a global: it gives up its share and waits for b's.
	done := make(chan error, 1)
	go func() { done <- a.lockGlobal() }()
	time.Sleep(300 * time.Millisecond)
	// A new measuring run now waits behind the waiting writer.
	c := &Lab{RunID: "1c1c1c1c", Progress: func(string) {}}
	cdone := make(chan error, 1)
	go func() { cdone <- c.ShareHost() }()
	select {
	case err := <-done:
		t.Fatalf("lockGlobal returned %v while run b shared the lock", err)
	case err := <-cdone:
		t.Fatalf("a new run took the shared lock (%v) while run a waited for the exclusive one", err)
	case <-time.After(500 * time.Millisecond):
	}
	release(b)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-cdone:
		t.Fatalf("run c shared the lock (%v) while run a changed global sysctls", err)
	case <-time.After(300 * time.Millisecond):
	}
	release(a)
	select {
	case err := <-cdone:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("run c still waiting 5 s after run a released the lock")
	}
	release(c)
	if err := unix.Flock(int(other.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
		t.Fatalf("lock not free after every run released it: %v", err)
	}
}
