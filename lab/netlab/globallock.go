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

// lockGlobal takes the host-wide global-sysctl lock for the run unless it holds it already,
// waiting up to globalLockWait for another run to release it.
func (l *Lab) lockGlobal() error {
	l.mu.Lock()
	held, closed := l.global != nil, l.closed
	l.mu.Unlock()
	if closed {
		return fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	if held {
		return nil
	}
	// Another run of this process holding the lock would wait for itself.
	heldHere.Lock()
	other := heldHere.by
	heldHere.Unlock()
	if other != "" {
		return fmt.Errorf("lab: run %s: run %s of this process changes global sysctls; one run at a time", l.RunID, other)
	}
	if err := os.MkdirAll(ownerDir, 0o755); err != nil {
		return fmt.Errorf("lab: %w", err)
	}
	p := filepath.Join(ownerDir, globalLockName)
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return fmt.Errorf("lab: global-sysctl lock: %w", err)
	}
	start := time.Now()
	var noted time.Time
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, unix.EWOULDBLOCK) && !errors.Is(err, unix.EINTR) {
			f.Close()
			return fmt.Errorf("lab: global-sysctl lock %s: %w", p, err)
		}
		waited := time.Since(start)
		if waited > globalLockWait {
			f.Close()
			return fmt.Errorf("lab: run %s: another lab run (%s) has changed global sysctls for more than %v; not changing them beside it", l.RunID, globalHolders(l.RunID), globalLockWait)
		}
		if noted.IsZero() || time.Since(noted) >= globalLockNote {
			l.note(fmt.Sprintf("run %s: waiting for lab run %s, which changes global sysctls (one run at a time; %s, waited %v)", l.RunID, globalHolders(l.RunID), p, waited.Round(time.Second)))
			noted = time.Now()
		}
		time.Sleep(globalLockPoll)
	}
	// The lock is ours. A run killed while it held it has left its journal; its guardian
	// restores it within seconds. Reading the host's values before that would journal the
	// killed run's values as the ones to restore.
	for deadline := time.Now().Add(killedJournalWait); ; time.Sleep(globalLockPoll) {
		ids := killedRunJournals(l.RunID)
		if len(ids) == 0 {
			break
		}
		if time.Now().After(deadline) {
			l.note(fmt.Sprintf("run %s: killed runs %s still journal global sysctls after %v (their sweep failed: `headroom lab cleanup` reports why); going on", l.RunID, strings.Join(ids, ", "), killedJournalWait))
			break
		}
	}
	if waited := time.Since(start); waited >= time.Second {
		l.note(fmt.Sprintf("run %s: global-sysctl lock taken after %v", l.RunID, waited.Round(time.Second)))
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		f.Close()
		return fmt.Errorf("lab: run %s already closed", l.RunID)
	}
	l.global = f
	heldHere.Lock()
	heldHere.by = l.RunID
	heldHere.Unlock()
	return nil
}

// killedJournalWait bounds the wait for the guardian of a killed run to restore the values
// it journaled (it starts within guardianPoll of the death; guardianTermWait is its longest
// wait). A variable for the test of the wait.
var killedJournalWait = 3 * guardianTermWait

// heldHere is the run of this process that holds the global-sysctl lock.
var heldHere struct {
	sync.Mutex
	by string
}

// unlockGlobal releases the lock; l.mu is held (Close).
func (l *Lab) unlockGlobal() {
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
