package netlab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"time"
)

// The guardian. A run restores what it changed (global sysctls with --allow-global) and
// removes what it created (namespaces, cgroups, zram swap) in Close, which runs on return,
// panic, SIGINT, SIGTERM and SIGHUP (cmd/headroom cancels the context on all three).
// Nothing runs in a process killed with SIGKILL, or by the OOM killer, so every lab run
// (Lab.Guard, from RunCase and RunFailure before anything is created) and any run before
// its first global value is written starts a guardian: this same executable
// in the helper mode "guardian", in a session of its own (setsid, so the terminal's SIGHUP
// and SIGINT of a dropped ssh session or a ^C do not reach it), holding the read end of a
// pipe whose only write end is the run's. The kernel closes that write end when the run
// exits in any way (all of a process's descriptors are closed in do_exit, kernel/exit.c), so
// the guardian's read returns:
//
//   - one byte: the run closed cleanly (it restored everything itself); the guardian exits;
//   - EOF: the run is dying or dead without having said so. The guardian waits until the
//     process is gone (a zombie counts as gone), then sweeps that run alone, as `headroom lab
//     cleanup` would: its namespaces, cgroups, swap, and its journaled global sysctls, and
//     writes what it did to /run/headroom-lab/<runid>.guardian, which the next sweep (`lab
//     cleanup`, or the start of the next run) prints and removes.
//
// Restoring a global sysctl never overwrites a value someone else set after the lab: the
// journal keeps every value the run wrote (journalEntry.Set), and a key whose current
// value is none of them is left alone and reported (restoreGlobalSysctls).
//
// The guardian shares the run's cgroup: a systemd stop that kills the whole unit kills it
// too, after sending SIGTERM to both; on SIGTERM the guardian waits up to guardianTermWait
// for the run's own restore before giving up.

const (
	guardianMode     = "guardian"
	guardianSuffix   = ".guardian"
	guardianTermWait = 10 * time.Second
	// guardianPoll is how often the guardian looks whether the run's process is gone after
	// the pipe closed (it is gone already after a SIGKILL; a zombie is reaped by its parent).
	guardianPoll = 100 * time.Millisecond
	// guardianReadyWait bounds the wait for a guardian to report that it runs.
	guardianReadyWait = 10 * time.Second
)

// guardianConfig is the guardian's HEADROOM_LAB_HELPER_CONFIG.
type guardianConfig struct {
	RunID      string `json:"run_id"`
	PID        int    `json:"pid"`
	StartTicks uint64 `json:"start_ticks"`
	OwnerDir   string `json:"owner_dir"`
	NetnsDir   string `json:"netns_dir"`
}

// GuardianReport is what a guardian leaves in <runid>.guardian.
type GuardianReport struct {
	RunID  string    `json:"run_id"`
	Time   time.Time `json:"time"`
	Did    []string  `json:"did"`
	Errors []string  `json:"errors,omitempty"`
}

// guardian is the run's handle on its guardian process.
type guardian struct {
	cmd  *exec.Cmd
	ctl  *os.File // write end of the pipe; its closing is the signal
	done chan struct{}
}

// startGuardian starts the guardian of run o and waits until it runs.
func startGuardian(o *owner) (*guardian, error) {
	cfg, err := json.Marshal(guardianConfig{RunID: o.RunID, PID: o.PID, StartTicks: o.StartTicks, OwnerDir: ownerDir, NetnsDir: netnsDir})
	if err != nil {
		return nil, err
	}
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("lab: guardian pipe: %w", err)
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		return nil, fmt.Errorf("lab: guardian pipe: %w", err)
	}
	// /proc/self/exe rather than os.Executable's path: a test binary or an upgraded
	// headroom may have been replaced on disk since this process started.
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = HelperEnv(guardianMode, cfg)
	cmd.ExtraFiles = []*os.File{ctlR, readyW} // fds 3 and 4
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// Stdin, Stdout and Stderr stay nil (/dev/null): a guardian holding the terminal or an
	// ssh channel open would keep a dropped session from closing.
	err = cmd.Start()
	ctlR.Close()
	readyW.Close()
	if err != nil {
		ctlW.Close()
		readyR.Close()
		return nil, fmt.Errorf("lab: start guardian: %w", err)
	}
	g := &guardian{cmd: cmd, ctl: ctlW, done: make(chan struct{})}
	go func() { cmd.Wait(); close(g.done) }()
	ready := make(chan error, 1)
	go func() {
		var b [1]byte
		_, err := io.ReadFull(readyR, b[:])
		readyR.Close()
		ready <- err
	}()
	select {
	case err = <-ready:
	case <-time.After(guardianReadyWait):
		err = errors.New("no answer")
	}
	if err != nil {
		ctlW.Close()
		cmd.Process.Kill()
		<-g.done
		return nil, fmt.Errorf("lab: guardian did not start: %v", err)
	}
	return g, nil
}

// release tells the guardian that the run cleaned up after itself (clean is true) or that
// it could not (its owner file stays): then the guardian sweeps once this process is gone.
func (g *guardian) release(clean bool) {
	if clean {
		g.ctl.Write([]byte{1})
	}
	g.ctl.Close()
	if clean {
		select {
		case <-g.done:
		case <-time.After(5 * time.Second):
		}
	}
}

// runGuardianHelper is the guardian process (helper mode "guardian").
func runGuardianHelper(cfgJSON []byte) error {
	var cfg guardianConfig
	if err := json.Unmarshal(cfgJSON, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if !isRunID(cfg.RunID) || cfg.PID <= 0 || !filepath.IsAbs(cfg.OwnerDir) || !filepath.IsAbs(cfg.NetnsDir) {
		return fmt.Errorf("config: bad run %q, pid %d or directories %q, %q", cfg.RunID, cfg.PID, cfg.OwnerDir, cfg.NetnsDir)
	}
	ownerDir, netnsDir = cfg.OwnerDir, cfg.NetnsDir
	// Terminal signals reach the run's process group, not this session; ignore them anyway
	// in case someone signals the group by hand.
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	ctl := os.NewFile(3, "guardian-ctl")
	ready := os.NewFile(4, "guardian-ready")
	if ctl == nil || ready == nil {
		return errors.New("fds 3 and 4 not passed")
	}
	if _, err := ready.Write([]byte{1}); err != nil {
		return fmt.Errorf("ready: %w", err)
	}
	ready.Close()
	got := make(chan bool, 1) // true: the run said it is done
	go func() {
		var b [1]byte
		n, _ := ctl.Read(b[:])
		got <- n > 0
	}()
	var clean bool
	select {
	case clean = <-got:
	case <-term:
		// A systemd stop: the run got SIGTERM too and restores by itself.
		select {
		case clean = <-got:
		case <-time.After(guardianTermWait):
			return nil
		}
	}
	if clean {
		return nil
	}
	run := owner{RunID: cfg.RunID, PID: cfg.PID, StartTicks: cfg.StartTicks}
	for run.alive() {
		time.Sleep(guardianPoll)
	}
	did, err := CleanupAll(NamePrefix + cfg.RunID + "-")
	rep := GuardianReport{RunID: cfg.RunID, Time: time.Now().UTC(), Did: did}
	if err != nil {
		rep.Errors = strings.Split(err.Error(), "\n")
	}
	// Written even when empty (a concurrent sweep got there first): it says the guardian
	// ran; the sweep prints nothing for it.
	return writeState(filepath.Join(ownerDir, cfg.RunID+guardianSuffix), rep)
}

// collectGuardianReports returns, and removes, what the guardians of killed runs did, one
// line each, for the sweep to print.
func collectGuardianReports() ([]string, error) {
	es, err := os.ReadDir(ownerDir)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("lab: read %s: %w", ownerDir, err)
	}
	var out []string
	var errs []error
	for _, e := range es {
		id, ok := strings.CutSuffix(e.Name(), guardianSuffix)
		if !ok || !isRunID(id) {
			continue
		}
		p := filepath.Join(ownerDir, e.Name())
		b, err := os.ReadFile(p)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		var rep GuardianReport
		if err := json.Unmarshal(b, &rep); err != nil {
			errs = append(errs, fmt.Errorf("lab: %s: %w", p, err))
		} else {
			at := rep.Time.Local().Format("2006-01-02 15:04:05")
			for _, d := range rep.Did {
				out = append(out, fmt.Sprintf("run %s was killed; its guardian at %s: %s", id, at, SweepLine(d)))
			}
			for _, e := range rep.Errors {
				out = append(out, fmt.Sprintf("run %s was killed; its guardian at %s failed: %s", id, at, e))
			}
		}
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	sort.Strings(out)
	return out, errors.Join(errs...)
}

// SweepEarlierRuns is the sweep at the start of every run: what dead runs left, and what
// their guardians did, one progress line each.
func SweepEarlierRuns(progress func(string)) {
	removed, err := CleanupAll(NamePrefix)
	for _, r := range removed {
		progress("earlier runs: " + SweepLine(r))
	}
	if err != nil {
		progress(fmt.Sprintf("cleanup of earlier runs: %v", err))
	}
}

// SweepLine words one entry of CleanupAll's list the way `lab cleanup` prints it: a
// sentence as it is, a namespace or another object as "removed ...".
func SweepLine(d string) string {
	if isSweepNote(d) {
		return d
	}
	if strings.HasPrefix(d, NamePrefix) {
		return "removed namespace " + d
	}
	return "removed " + d
}

// isSweepNote reports whether an entry of CleanupAll's list is a sentence of its own (a
// sysctl restored or left alone, a guardian's report) rather than the name of something
// removed.
func isSweepNote(s string) bool {
	return strings.HasPrefix(s, "sysctl ") || strings.HasPrefix(s, "run ")
}
