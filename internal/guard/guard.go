// Package guard is the process that restores what a run changed when the run cannot: the lab's
// guardian (lab/netlab/guardian.go) and the trace guard (source/traceguard.go) are both one.
//
// Nothing runs in a process killed with SIGKILL or by the OOM killer. So a run that changes
// the host starts, before it changes anything, a guard: this same executable (/proc/self/exe,
// the binary that runs even if the file was replaced on disk), with an environment that
// selects the guard's work, in a session of its own (setsid: the terminal's SIGHUP and SIGINT
// of a dropped ssh session or a ^C do not reach it), holding the read end of a pipe whose
// only write end is the run's. The kernel closes that end when the run exits in any way (all
// of a process's descriptors are closed in do_exit → exit_files, kernel/exit.c), so the
// guard's read returns one byte when the run restored everything itself (Release(true)), or
// EOF when it did not: then the guard restores.
package guard

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"
)

// readyWait bounds the wait for a guard to report that it runs.
const readyWait = 10 * time.Second

// Guard is the run's handle on its guard process.
type Guard struct {
	cmd  *exec.Cmd
	ctl  *os.File // write end of the pipe; its closing is the signal
	done chan struct{}
}

// Start starts this executable with env as a guard and waits until it runs (Serve).
// Stdin, stdout and stderr are /dev/null: a guard holding the terminal or an ssh channel
// open would keep a dropped session from closing.
func Start(env []string) (*Guard, error) { return StartFiles(env, nil) }

// FirstExtraFD is the guard's descriptor of StartFiles' first extra file (the next ones
// follow it).
const FirstExtraFD = 5

// StartFiles is Start handing the guard extra open files too, as descriptors FirstExtraFD,
// FirstExtraFD+1, ...: what it restores may be reachable only through them (the trace
// guard's detached tracefs, source/traceguard.go).
func StartFiles(env []string, extra []*os.File) (*Guard, error) {
	ctlR, ctlW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("guard pipe: %w", err)
	}
	readyR, readyW, err := os.Pipe()
	if err != nil {
		ctlR.Close()
		ctlW.Close()
		return nil, fmt.Errorf("guard pipe: %w", err)
	}
	cmd := exec.Command("/proc/self/exe")
	cmd.Env = env
	cmd.ExtraFiles = append([]*os.File{ctlR, readyW}, extra...) // fds 3 and 4, then FirstExtraFD...
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	ctlR.Close()
	readyW.Close()
	if err != nil {
		ctlW.Close()
		readyR.Close()
		return nil, fmt.Errorf("start guard: %w", err)
	}
	g := &Guard{cmd: cmd, ctl: ctlW, done: make(chan struct{})}
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
	case <-time.After(readyWait):
		err = errors.New("no answer")
	}
	if err != nil {
		ctlW.Close()
		cmd.Process.Kill()
		<-g.done
		return nil, fmt.Errorf("guard did not start: %v", err)
	}
	return g, nil
}

// Release tells the guard that the run restored everything (clean) or that it could not:
// then the guard restores once this process is gone. After a clean release it waits up to
// wait for the guard to exit.
func (g *Guard) Release(clean bool, wait time.Duration) {
	if clean {
		g.ctl.Write([]byte{1})
	}
	g.ctl.Close()
	if clean {
		select {
		case <-g.done:
		case <-time.After(wait):
		}
	}
}

// Serve is the guard's side: it says it runs, then waits for the run's word. It returns
// true when the run restored everything itself. On SIGTERM (a systemd stop, which signals
// the run too) it waits up to termWait for the run's own restore; ok is false when that
// wait ran out (the guard should then leave the run alone: it may still be restoring).
func Serve(termWait time.Duration) (clean, ok bool, err error) {
	// Terminal signals reach the run's process group, not this session; ignore them anyway
	// in case someone signals the group by hand.
	signal.Ignore(syscall.SIGHUP, syscall.SIGINT, syscall.SIGPIPE)
	term := make(chan os.Signal, 1)
	signal.Notify(term, syscall.SIGTERM)
	ctl, ready := os.NewFile(3, "guard-ctl"), os.NewFile(4, "guard-ready")
	if ctl == nil || ready == nil {
		return false, false, errors.New("fds 3 and 4 not passed")
	}
	if _, err := ready.Write([]byte{1}); err != nil {
		return false, false, fmt.Errorf("ready: %w", err)
	}
	ready.Close()
	got := make(chan bool, 1) // true: the run said it is done
	go func() {
		var b [1]byte
		n, _ := ctl.Read(b[:])
		got <- n > 0
	}()
	select {
	case clean = <-got:
		return clean, true, nil
	case <-term:
		select {
		case clean = <-got:
			return clean, true, nil
		case <-time.After(termWait):
			return false, false, nil
		}
	}
}

// Done is closed when the guard process has exited.
func (g *Guard) Done() <-chan struct{} { return g.done }
