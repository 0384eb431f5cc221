package netlab

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// The global-sysctl lock. A global sysctl (tcp_mem, tcp_max_orphans, netdev_max_backlog:
// keys that exist only in the initial namespace) is one value for the whole host, so two
// runs that change global sysctls at the same time measure each other's settings (one run's
// tcp_mem of 2 MiB starves the other run's streams) and journal each other's values as the
// ones to restore. Such runs therefore take turns: the first global write of a run takes an
// exclusive flock(2) on globalLockName in the owner directory and keeps it until Close, and
// a second run waits for it there, saying so, before it reads the value it will restore.
// flock locks belong to the open file, which the kernel closes when the process dies in any
// way (SIGKILL too), so a killed holder never blocks the host; its journal is then restored
// by its guardian (guardian.go), and a waiting run also waits for that sweep before it reads
// the host's values (killedRunJournals).

const (
	globalLockName = "global-sysctls.lock"
	// globalIntentName is taken exclusively by a run waiting for the exclusive lock, shared
	// by a run on its way to the shared one: a waiting writer holds new readers back.
	globalIntentName = "global-sysctls.intent"
	// globalLockWait bounds the wait for another run's global sysctls: longer than any
	// scenario of the lab runs (a `lab run` with minutes of measurement is still shorter).
	globalLockWait = 15 * time.Minute
	globalLockPoll = 100 * time.Millisecond
	// globalLockNote is how often a waiting run says again that it still waits.
	globalLockNote = 30 * time.Second
)

func (l *Lab) note(msg string) {
	if l.Progress != nil {
		l.Progress(msg)
		return
	}
	fmt.Fprintf(os.Stderr, "%s\n", msg)
}

// lockGlobal takes the host-wide global-sysctl lock exclusively for the run unless it holds
// it already, waiting up to globalLockWait for the runs that hold it (shared or exclusive).
func (l *Lab) lockGlobal() error {
	l.mu.Lock()
	held, closed, shared := l.global != nil, l.closed, l.shared
	l.shared = nil // given up before waiting: another run may be waiting to take it too
	l.mu.Unlock()
	if shared != nil {
		unix.Flock(int(shared.Fd()), unix.LOCK_UN)
		shared.Close()
	}
	if closed {
		return fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	if held {
		return nil
	}
	// Another run of this process holding the lock would wait for itself.
	if other := heldHereBy(); other != "" {
		return fmt.Errorf("lab: run %s: run %s of this process changes global sysctls; one run at a time", l.RunID, other)
	}
	if err := l.takeLock(unix.LOCK_EX, &l.global, "run %s: global-sysctl lock taken after %v"); err != nil {
		return err
	}
	heldHere.Lock()
	heldHere.by = l.RunID
	heldHere.Unlock()
	return nil
}

// heldHereBy is the run of this process that holds the lock exclusively, "" when none does.
func heldHereBy() string {
	heldHere.Lock()
	defer heldHere.Unlock()
	return heldHere.by
}

// LockHost takes the lock exclusively for a run that changes no global sysctl but disturbs
// what every other run measures on the host (swap-under-load's swap traffic): it runs alone.
func (l *Lab) LockHost() error { return l.lockGlobal() }

// ShareHost takes the global-sysctl lock shared for a run that measures on the host's
// kernel (RunCase, RunFailure): it waits while another run changes global sysctls, whose
// values (tcp_mem of 2 MiB, tcp_max_orphans 4) would be in this run's measurement too —
// orphan-hoard found 0 of 8 closed sockets in FIN_WAIT1 while another make check's
// orphan-limit scenario had tcp_max_orphans at 4. Runs that share it run side by side.
// Close releases it; a global write of the run itself (lockGlobal) trades it for the
// exclusive lock.
func (l *Lab) ShareHost() error {
	l.mu.Lock()
	held := l.shared != nil || l.global != nil
	l.mu.Unlock()
	if held {
		return nil
	}
	if heldHereBy() != "" {
		return nil // this process's own global run: its values are the caller's to know
	}
	return l.takeLock(unix.LOCK_SH, &l.shared, "run %s: no other run changes global sysctls now; going on after %v")
}

// takeLock takes the global-sysctl lock how (LOCK_EX or LOCK_SH) behind the intent lock,
// waits for a killed run's guardian to restore its values, and keeps the lock in *into
// (under l.mu; refused when the run closed meanwhile); a wait of a second or more is noted
// with waitedFmt (the run id, the time waited).
func (l *Lab) takeLock(how int, into **os.File, waitedFmt string) error {
	start := time.Now()
	// The intent lock first: while an exclusive taker waits, no new run takes the lock
	// shared, so the runs that share it now end and the taker is not starved by the next.
	intent, err := l.flockWait(globalIntentName, how, start)
	if err != nil {
		return err
	}
	f, err := l.flockWait(globalLockName, how, start)
	intent.Close() // closing the last descriptor of the open file releases its flock
	if err != nil {
		return err
	}
	l.waitKilledJournals()
	if waited := time.Since(start); waited >= time.Second {
		l.note(fmt.Sprintf(waitedFmt, l.RunID, waited.Round(time.Second)))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		f.Close()
		return fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	*into = f
	return nil
}

// flockWait opens name in the owner directory and takes how (LOCK_SH or LOCK_EX) on it,
// polling, saying every globalLockNote for which run it waits, up to globalLockWait from
// start.
func (l *Lab) flockWait(name string, how int, start time.Time) (*os.File, error) {
	if err := os.MkdirAll(ownerDir, 0o755); err != nil {
		return nil, fmt.Errorf("lab: %w", err)
	}
	p := filepath.Join(ownerDir, name)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("lab: global-sysctl lock: %w", err)
	}
	var noted time.Time
	for {
		err := unix.Flock(int(f.Fd()), how|unix.LOCK_NB)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return nil, fmt.Errorf("lab: global-sysctl lock %s: %w", p, err)
		}
		waited := time.Since(start)
		if waited > globalLockWait {
			f.Close()
			return nil, fmt.Errorf("lab: run %s: lab runs (%s) have held the global-sysctl lock %s for more than %v", l.RunID, globalHolders(l.RunID), p, globalLockWait)
		}
		if noted.IsZero() || time.Since(noted) >= globalLockNote {
			if how == unix.LOCK_EX {
				l.note(fmt.Sprintf("run %s: waiting for lab run %s, which changes global sysctls or measures with the host's (one run at a time changes them; %s, waited %v)", l.RunID, globalHolders(l.RunID), p, waited.Round(time.Second)))
			} else {
				l.note(fmt.Sprintf("run %s: waiting for lab run %s, which changes global sysctls (they would be in this run's measurement; %s, waited %v)", l.RunID, globalHolders(l.RunID), p, waited.Round(time.Second)))
			}
			noted = time.Now()
		}
		time.Sleep(globalLockPoll)
	}
}

// waitKilledJournals waits for the guardians of killed runs to restore the global sysctls
// they journaled. A run killed while it held the lock has left its journal; its guardian
// restores it within seconds. Reading or measuring with the host's values before that would
// see the killed run's values.
func (l *Lab) waitKilledJournals() {
	for deadline := time.Now().Add(killedJournalWait); ; time.Sleep(globalLockPoll) {
		ids := killedRunJournals(l.RunID)
		if len(ids) == 0 {
			return
		}
		if time.Now().After(deadline) {
			l.note(fmt.Sprintf("run %s: killed runs %s still journal global sysctls after %v (their sweep failed: `headroom lab cleanup` reports why); going on", l.RunID, strings.Join(ids, ", "), killedJournalWait))
			return
		}
	}
}

// killedJournalWait bounds the wait for the guardian of a killed run to restore the values
// it journaled (it starts within guardianPoll of the death; guardianTermWait is its longest
// wait). A variable for the test of the wait.
var killedJournalWait = 3 * guardianTermWait

// heldHere is the run of this process that holds the global-sysctl lock exclusively.
var heldHere struct {
	sync.Mutex
	by string
}

// unlockGlobal releases the lock, shared or exclusive; l.mu is held (Close).
func (l *Lab) unlockGlobal() {
	if l.shared != nil {
		unix.Flock(int(l.shared.Fd()), unix.LOCK_UN)
		l.shared.Close()
		l.shared = nil
	}
	if l.global == nil {
		return
	}
	unix.Flock(int(l.global.Fd()), unix.LOCK_UN)
	l.global.Close()
	l.global = nil
	heldHere.Lock()
	heldHere.by = ""
	heldHere.Unlock()
}

// globalHolders names the live runs other than self whose journal names a global sysctl:
// the likely holders of the lock ("unknown" between a holder's lock and its journal).
func globalHolders(self string) string {
	var ids []string
	for id := range RunsOnHost() {
		if id == self {
			continue
		}
		if o, err := readOwner(id); err == nil && len(o.Sysctls) > 0 && o.alive() {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		return "unknown"
	}
	sort.Strings(ids)
	return strings.Join(ids, ", ")
}

// killedRunJournals lists the runs other than self whose process is gone and whose journal
// still names global sysctls (their guardian has not restored them yet).
func killedRunJournals(self string) []string {
	var ids []string
	for id := range RunsOnHost() {
		if id == self {
			continue
		}
		if o, err := readOwner(id); err == nil && len(o.Sysctls) > 0 && !o.alive() {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids
}

// waitKeyFree waits up to globalLockWait while a live run other than l journals key
// without holding the lock (a build of headroom from before it), saying so.
func (l *Lab) waitKeyFree(key string) error {
	start := time.Now()
	var noted time.Time
	for {
		other, ok := liveRunHolding(key, l.RunID)
		if !ok {
			return nil
		}
		if time.Since(start) > globalLockWait {
			return fmt.Errorf("lab: global sysctl %s is changed by live run %s; not changing it again", key, other)
		}
		if noted.IsZero() || time.Since(noted) >= globalLockNote {
			l.note(fmt.Sprintf("run %s: waiting for lab run %s, which changes global sysctl %s", l.RunID, other, key))
			noted = time.Now()
		}
		time.Sleep(globalLockPoll)
	}
}
