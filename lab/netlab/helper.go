package netlab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Helper processes. Some lab work must be a process of its own: a memory cgroup charges
// page cache and anonymous memory to the cgroup of the process that owns the mm (mm->owner,
// mm/memcontrol.c get_mem_cgroup_from_mm), so the threads of the lab process cannot be
// squeezed separately; a forking proxy is, by definition, processes; and the guardian must
// outlive a killed run.
//
// A helper is this same executable (the headroom binary, or a test binary: both import this
// package) started with HEADROOM_LAB_HELPER=<mode>. The guardian mode belongs to this
// package and its init runs it; the modes of the packages built on top (a scenario's
// service, a proxy) are run by ServeHelpers, which such a package calls from its own init
// (Go runs an imported package's init first, so a registry filled by the importer would not
// be filled yet when this init runs). Either way the helper exits before main or the tests
// start. The helper is forked from a thread that has entered the host's network namespace,
// so the whole process lives there (a child inherits the namespaces of the thread that
// forked it). That thread stays alive until the helper exits: PR_SET_PDEATHSIG fires when
// the forking *thread* dies (prctl(2)), and the lab uses it so that a helper dies with a
// killed lab (SIGKILL cannot run any cleanup).
const (
	helperEnv    = "HEADROOM_LAB_HELPER"
	helperCfgEnv = "HEADROOM_LAB_HELPER_CONFIG"
)

func init() {
	// Keep the main thread out of namespace work. Namespaces are entered on throwaway locked
	// threads (Netns.Do, kernel.InNetns); when such a goroutine ends, the runtime terminates
	// its thread, except the main thread, which it cannot end and wedges instead
	// (runtime.mexit) — in the namespace it was left in. /proc/self/net, and so every
	// /proc/net read of kernel.HostRoot(), follows the main thread (the thread-group leader):
	// measured, after a single lab run the leader was in the run's (deleted) namespace.
	// Locking the main goroutine to the main thread here, before main runs, means no other
	// goroutine is ever scheduled on it (runtime.LockOSThread: "called from an init
	// function ... the main function is invoked on the main thread").
	runtime.LockOSThread()
	if os.Getenv(helperEnv) == guardianMode {
		runHelper(guardianMode, runGuardianHelper)
	}
}

// ServeHelpers runs this process as a helper when it was started as one of modes, and
// exits; a process started as a helper of a mode nobody serves exits with status 3. It
// returns when the process is not a helper. Call it from an init function (before main or
// the tests run), once, in the package that owns the modes.
func ServeHelpers(modes map[string]func(config []byte) error) {
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	run := modes[mode]
	if run == nil {
		fmt.Fprintf(os.Stderr, "headroom lab helper: unknown mode %q\n", mode)
		os.Exit(3)
	}
	runHelper(mode, run)
}

func runHelper(mode string, run func([]byte) error) {
	if err := run([]byte(os.Getenv(helperCfgEnv))); err != nil {
		fmt.Fprintf(os.Stderr, "headroom lab helper %s: %v\n", mode, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// Helper is a running helper.
type Helper struct {
	Mode string
	PID  int

	mu      sync.Mutex
	last    map[string]json.RawMessage
	lines   int
	stderr  bytes.Buffer
	ready   chan struct{}
	done    chan struct{}
	waitErr error
	stdin   io.WriteCloser
}

// StartHelper starts mode with cfg (JSON) inside host h's namespace (the lab process's own
// namespace when h is nil) and waits until the helper prints its first status line, which
// it does once it has joined its cgroups and is listening. extraFiles are passed as fds 3...
func StartHelper(h *Host, mode string, cfg any, extraFiles []*os.File, timeout time.Duration) (*Helper, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("lab: helper: own executable: %w", err)
	}
	cj, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	p := &Helper{Mode: mode, ready: make(chan struct{}), done: make(chan struct{})}
	started := make(chan error, 1)
	run := func() error {
		cmd := exec.Command(exe)
		cmd.Env = HelperEnv(mode, cj)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
		cmd.ExtraFiles = extraFiles
		cmd.Stderr = &limitedWriter{p: p, max: 8 << 10}
		out, err := cmd.StdoutPipe()
		if err != nil {
			started <- err
			return nil
		}
		in, err := cmd.StdinPipe()
		if err != nil {
			started <- err
			return nil
		}
		if err := cmd.Start(); err != nil {
			started <- fmt.Errorf("lab: start helper %s: %w", mode, err)
			return nil
		}
		p.PID = cmd.Process.Pid
		p.stdin = in
		go p.readStatus(out)
		started <- nil
		err = cmd.Wait()
		p.mu.Lock()
		p.waitErr = err
		p.mu.Unlock()
		close(p.done)
		return nil
	}
	go func() {
		var err error
		if h != nil {
			err = h.Do(run)
		} else {
			err = LockedDo(run)
		}
		if err != nil {
			started <- err
		}
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	select {
	case <-p.ready:
		return p, nil
	case <-p.done:
		return nil, fmt.Errorf("lab: helper %s exited before it was ready: %v: %s", mode, p.waitErr, p.Stderr())
	case <-time.After(timeout):
		p.Kill()
		return nil, fmt.Errorf("lab: helper %s not ready after %v: %s", mode, timeout, p.Stderr())
	}
}

// LockedDo runs fn on a locked thread of the process's own namespace: the thread must
// outlive the child for Pdeathsig, and must not be handed back to the scheduler mid-way.
func LockedDo(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		errc <- fn()
	}()
	return <-errc
}

// HelperEnv is the environment that starts this executable as a helper of mode with config
// cfg: this process's environment without its own helper variables, plus the two of mode.
// StartHelper uses it; a helper that starts helpers of its own (a forking proxy) too.
func HelperEnv(mode string, cfg []byte) []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, helperEnv+"=") || strings.HasPrefix(kv, helperCfgEnv+"=") {
			continue
		}
		out = append(out, kv)
	}
	return append(out, helperEnv+"="+mode, helperCfgEnv+"="+string(cfg))
}

type limitedWriter struct {
	p   *Helper
	max int
}

func (w *limitedWriter) Write(b []byte) (int, error) {
	w.p.mu.Lock()
	defer w.p.mu.Unlock()
	if room := w.max - w.p.stderr.Len(); room > 0 {
		w.p.stderr.Write(b[:min(len(b), room)])
	}
	return len(b), nil
}

// Stderr is what the helper printed on stderr (first 8 KiB).
func (p *Helper) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.TrimSpace(p.stderr.String())
}

func (p *Helper) readStatus(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	first := true
	for sc.Scan() {
		var m map[string]json.RawMessage
		if json.Unmarshal(sc.Bytes(), &m) != nil {
			continue
		}
		p.mu.Lock()
		p.last = m
		p.lines++
		p.mu.Unlock()
		if first {
			close(p.ready)
			first = false
		}
	}
}

// Int returns the latest status value key as an integer.
func (p *Helper) Int(key string) (int64, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	raw, ok := p.last[key]
	if !ok {
		return 0, false
	}
	v, err := strconv.ParseInt(string(raw), 10, 64)
	return v, err == nil
}

// WaitStatus waits until the helper has printed n more status lines (each about
// HelperStatusEvery apart), so a value read afterwards is at most that old.
func (p *Helper) WaitStatus(n int, timeout time.Duration) error {
	p.mu.Lock()
	target := p.lines + n
	p.mu.Unlock()
	deadline := time.Now().Add(timeout)
	for {
		p.mu.Lock()
		got := p.lines
		p.mu.Unlock()
		if got >= target {
			return nil
		}
		select {
		case <-p.done:
			return fmt.Errorf("lab: helper %s exited: %v: %s", p.Mode, p.waitErr, p.Stderr())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("lab: helper %s: no status for %v", p.Mode, timeout)
		}
	}
}

// Exited reports whether the helper has exited, and its wait error.
func (p *Helper) Exited() (bool, error) {
	select {
	case <-p.done:
		p.mu.Lock()
		defer p.mu.Unlock()
		return true, p.waitErr
	default:
		return false, nil
	}
}

// Kill ends the helper (SIGKILL) and waits for it.
func (p *Helper) Kill() {
	if p == nil || p.PID == 0 {
		return
	}
	if p.stdin != nil {
		p.stdin.Close()
	}
	syscall.Kill(p.PID, syscall.SIGKILL)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

// HelperStatusEvery is how often helpers print their counters.
const HelperStatusEvery = 100 * time.Millisecond

// HelperStatus prints one status line; helpers call it from a single goroutine.
func HelperStatus(w io.Writer, kv map[string]int64) {
	b, _ := json.Marshal(kv)
	w.Write(append(b, '\n'))
}

// JoinCgroups moves the calling helper into its cgroups; a helper calls it before it
// allocates anything that is measured.
func JoinCgroups(dirs []string) error {
	for _, d := range dirs {
		p := d + "/cgroup.procs"
		if err := os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fmt.Errorf("join %s: %w", p, err)
		}
	}
	return nil
}

// ExitOnStdinClose ends the helper when the lab closes its stdin or dies.
func ExitOnStdinClose() {
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
}
