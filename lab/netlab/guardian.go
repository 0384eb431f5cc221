package netlab

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"headroom/internal/guard"
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

// guardian is the run's handle on its guardian process (internal/guard).
type guardian struct{ g *guard.Guard }

// startGuardian starts the guardian of run o and waits until it runs.
func startGuardian(o *owner) (*guardian, error) {
	cfg, err := json.Marshal(guardianConfig{RunID: o.RunID, PID: o.PID, StartTicks: o.StartTicks, OwnerDir: ownerDir, NetnsDir: netnsDir})
	if err != nil {
		return nil, err
	}
	g, err := guard.Start(HelperEnv(guardianMode, cfg))
	if err != nil {
		return nil, fmt.Errorf("lab: %w", err)
	}
	return &guardian{g}, nil
}

// release tells the guardian that the run cleaned up after itself (clean is true) or that
// it could not (its owner file stays): then the guardian sweeps once this process is gone.
func (g *guardian) release(clean bool) { g.g.Release(clean, 5*time.Second) }

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
	clean, ok, err := guard.Serve(guardianTermWait)
	if err != nil {
		return err
	}
	if !ok {
		return nil // a systemd stop whose run did not finish its own restore in time
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
