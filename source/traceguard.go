package source

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"headroom/internal/guard"
)

// The trace guard (internal/guard). A traced window creates a tracefs instance (and may mount tracefs), and
// Tracer.Stop removes both on every exit the process lives through: return, panic (deferred),
// SIGINT, SIGTERM, SIGHUP (the CLI cancels its context on each). Nothing runs in a process
// killed with SIGKILL or by the OOM killer, and an instance left behind keeps its tracepoints
// enabled and its buffers allocated for ever. So before it creates anything the tracer starts
// a guard, as the lab's guardian does (lab/netlab/guardian.go): this executable again, in a
// session of its own (the terminal's SIGINT and SIGHUP do not reach it), holding the read end
// of a pipe whose only write end is the tracer's. The kernel closes that end when the tracer's
// process exits in any way (do_exit → exit_files, kernel/exit.c), so the guard's read returns
// one byte when the tracer restored everything itself, or EOF when it did not: then the guard
// disables the instance's events, removes the instance and unmounts what the tracer mounted.
// The tracer's trace_pipe_raw descriptors are closed by the same exit_files, after which the
// instance can be removed (instance_rmdir refuses a busy instance with EBUSY, kernel/trace/
// trace.c __remove_instance), so the guard retries for traceGuardBusyWait.

const (
	traceGuardEnv      = "HEADROOM_TRACE_GUARD"
	traceGuardTermWait = 10 * time.Second
	traceGuardBusyWait = 10 * time.Second
)

// traceGuardConfig is what the guard restores.
type traceGuardConfig struct {
	PID      int    `json:"pid"`
	Instance string `json:"instance"`        // instances/headroom-<pid>-<start ticks> under the mount
	Mount    string `json:"mount,omitempty"` // set when the tracer mounted tracefs there
	// MountFD is the guard's descriptor of the tracer's detached tracefs
	// (TraceOptions.MountDir): Instance is then relative to it.
	MountFD int `json:"mount_fd,omitempty"`
}

func init() {
	if cfg := os.Getenv(traceGuardEnv); cfg != "" {
		if err := runTraceGuard([]byte(cfg)); err != nil {
			fmt.Fprintf(os.Stderr, "headroom trace guard: %v\n", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
}

// startTraceGuard starts the guard of cfg and waits until it runs. mountDir, when not nil,
// is the tracer's detached tracefs (reached through /proc/self/fd only): the guard is
// handed its own descriptor of it, and its instance path is rewritten to go through that.
func startTraceGuard(cfg traceGuardConfig, mountDir *os.File) (*guard.Guard, error) {
	var extra []*os.File
	if mountDir != nil {
		extra = []*os.File{mountDir}
		cfg.MountFD = guard.FirstExtraFD
		cfg.Instance = filepath.Join(fmt.Sprintf("/proc/self/fd/%d", cfg.MountFD), "instances", filepath.Base(cfg.Instance))
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	env := []string{}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, traceGuardEnv+"=") {
			env = append(env, kv)
		}
	}
	g, err := guard.StartFiles(append(env, traceGuardEnv+"="+string(b)), extra)
	if err != nil {
		return nil, fmt.Errorf("trace: %w", err)
	}
	return g, nil
}

func runTraceGuard(cfgJSON []byte) error {
	var cfg traceGuardConfig
	if err := json.Unmarshal(cfgJSON, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if cfg.PID <= 0 || !filepath.IsAbs(cfg.Instance) || !strings.HasPrefix(filepath.Base(cfg.Instance), traceInstancePrefix) {
		return fmt.Errorf("config: bad pid %d or instance %q", cfg.PID, cfg.Instance)
	}
	clean, _, err := guard.Serve(traceGuardTermWait)
	if err != nil || clean {
		return err
	}
	// Not clean, or a SIGTERM whose run did not finish in time: restore. Both steps are
	// idempotent, and the removal waits while the run still holds the instance open.
	return restoreTrace(cfg.Instance, cfg.Mount, traceGuardBusyWait)
}

// restoreTrace disables every event of an instance, removes it, and unmounts mount when it
// is not empty: what Tracer.Stop, the guard and the sweep of dead tracers' instances share.
// Each step is done even when one before failed; a missing instance is not an error.
func restoreTrace(instance, mount string, busyWait time.Duration) error {
	var errs []error
	if _, err := os.Stat(instance); err == nil {
		// Off first, so nothing more is written while the instance goes.
		for _, f := range []string{"tracing_on", "events/enable"} {
			if err := os.WriteFile(filepath.Join(instance, f), []byte("0"), 0); err != nil && !errors.Is(err, os.ErrNotExist) {
				errs = append(errs, err)
			}
		}
		deadline := time.Now().Add(busyWait)
		for {
			err := unix.Rmdir(instance)
			if err == nil || errors.Is(err, unix.ENOENT) {
				break
			}
			if !errors.Is(err, unix.EBUSY) || time.Now().After(deadline) {
				errs = append(errs, fmt.Errorf("remove %s: %w", instance, err))
				break
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	if mount != "" {
		if err := unix.Unmount(mount, 0); err != nil && !errors.Is(err, unix.EINVAL) && !errors.Is(err, unix.ENOENT) {
			// EBUSY: something still uses it; detach it so it goes when that ends.
			if err2 := unix.Unmount(mount, unix.MNT_DETACH); err2 != nil {
				errs = append(errs, fmt.Errorf("unmount %s: %w", mount, err))
			}
		}
		if err := os.Remove(mount); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
