package lab

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// Helper processes. A failure scenario's "service" must be a process of its own: a memory
// cgroup charges page cache and anonymous memory to the cgroup of the process that owns the
// mm (mm->owner, mm/memcontrol.c get_mem_cgroup_from_mm), so the threads of the lab process
// cannot be squeezed separately; and a forking proxy is, by definition, processes.
//
// A helper is this same executable (the headroom binary, or a test binary: both import this
// package) started with HEADROOM_LAB_HELPER=<mode>; this package's init runs the mode and
// exits before main or the tests start. The helper is forked from a thread that has entered
// the host's network namespace, so the whole process lives there (a child inherits the
// namespaces of the thread that forked it). That thread stays alive until the helper exits:
// PR_SET_PDEATHSIG fires when the forking *thread* dies (prctl(2)), and the lab uses it so
// that a helper dies with a killed lab (SIGKILL cannot run any cleanup).
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
	mode := os.Getenv(helperEnv)
	if mode == "" {
		return
	}
	run := helperMode(mode)
	if run == nil {
		fmt.Fprintf(os.Stderr, "headroom lab helper: unknown mode %q\n", mode)
		os.Exit(3)
	}
	if err := run([]byte(os.Getenv(helperCfgEnv))); err != nil {
		fmt.Fprintf(os.Stderr, "headroom lab helper %s: %v\n", mode, err)
		os.Exit(1)
	}
	os.Exit(0)
}

// helperMode returns the function of a helper mode. A static switch rather than a registry
// filled by init functions: this init must not depend on the init order of other files.
func helperMode(mode string) func([]byte) error {
	switch mode {
	case "service":
		return runServiceHelper
	case "proxy":
		return runProxyHelper
	case "proxy-child":
		return runProxyChildHelper
	case guardianMode:
		return runGuardianHelper
	}
	return nil
}

// helperProc is a running helper.
type helperProc struct {
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

// startHelper starts mode with cfg (JSON) inside host h's namespace (the lab process's own
// namespace when h is nil) and waits until the helper prints its first status line, which
// it does once it has joined its cgroups and is listening. extraFiles are passed as fds 3...
func startHelper(h *Host, mode string, cfg any, extraFiles []*os.File, timeout time.Duration) (*helperProc, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("lab: helper: own executable: %w", err)
	}
	cj, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	p := &helperProc{Mode: mode, ready: make(chan struct{}), done: make(chan struct{})}
	started := make(chan error, 1)
	run := func() error {
		cmd := exec.Command(exe)
		cmd.Env = append(helperEnviron(), helperEnv+"="+mode, helperCfgEnv+"="+string(cj))
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
			err = lockedDo(run)
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

// lockedDo runs fn on a locked thread of the process's own namespace: the thread must
// outlive the child for Pdeathsig, and must not be handed back to the scheduler mid-way.
func lockedDo(fn func() error) error {
	errc := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		errc <- fn()
	}()
	return <-errc
}

func helperEnviron() []string {
	var out []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, helperEnv+"=") || strings.HasPrefix(kv, helperCfgEnv+"=") {
			continue
		}
		out = append(out, kv)
	}
	return out
}

type limitedWriter struct {
	p   *helperProc
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
func (p *helperProc) Stderr() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return strings.TrimSpace(p.stderr.String())
}

func (p *helperProc) readStatus(r io.Reader) {
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
func (p *helperProc) Int(key string) (int64, bool) {
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
// helperStatusEvery apart), so a value read afterwards is at most that old.
func (p *helperProc) WaitStatus(n int, timeout time.Duration) error {
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
func (p *helperProc) Exited() (bool, error) {
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
func (p *helperProc) Kill() {
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

// helperStatusEvery is how often helpers print their counters.
const helperStatusEvery = 100 * time.Millisecond

// helperStatus prints one status line; helpers call it from a single goroutine.
func helperStatus(w io.Writer, kv map[string]int64) {
	b, _ := json.Marshal(kv)
	w.Write(append(b, '\n'))
}

// helperJoinCgroups moves the helper into its cgroups before it allocates anything the
// scenario measures.
func helperJoinCgroups(dirs []string) error {
	for _, d := range dirs {
		p := d + "/cgroup.procs"
		if err := os.WriteFile(p, []byte(strconv.Itoa(os.Getpid())), 0); err != nil {
			return fmt.Errorf("join %s: %w", p, err)
		}
	}
	return nil
}

// exitOnStdinClose ends the helper when the lab closes its stdin or dies.
func exitOnStdinClose() {
	go func() {
		io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	}()
}

// serviceConfig is the "service" helper: a process in a memory cgroup that receives TCP
// streams and, optionally, reads a file through the page cache and keeps anonymous memory
// in use.
type serviceConfig struct {
	Cgroups []string `json:"cgroups"`
	// Listen, when set, accepts TCP connections there and reads them (a sink).
	Listen string `json:"listen,omitempty"`
	// RcvBufBytes > 0 sets SO_RCVBUFFORCE on the listener (accepted sockets inherit it).
	RcvBufBytes int `json:"rcvbuf_bytes,omitempty"`
	// File, when set, is read from start to end over and over in 1 MiB chunks, with read(2)
	// or, with Mmap, by touching each page of a shared read-only mapping. DontNeed drops
	// each chunk from the page cache once read (POSIX_FADV_DONTNEED / MADV_DONTNEED): the
	// drop-behind a streaming reader should do.
	File     string `json:"file,omitempty"`
	Mmap     bool   `json:"mmap,omitempty"`
	DontNeed bool   `json:"dont_need,omitempty"`
	// HogBytes > 0 maps that much anonymous memory and writes to every page of it in a
	// loop, so all of it stays in use.
	HogBytes int64 `json:"hog_bytes,omitempty"`
}

func runServiceHelper(raw []byte) error {
	var cfg serviceConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := helperJoinCgroups(cfg.Cgroups); err != nil {
		return err
	}
	exitOnStdinClose()
	var rx, fileBytes, hogPages atomic.Int64
	var conns atomic.Int64
	if cfg.Listen != "" {
		lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
			if cfg.RcvBufBytes <= 0 {
				return nil
			}
			var serr error
			c.Control(func(fd uintptr) {
				serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUFFORCE, cfg.RcvBufBytes)
			})
			return serr
		}}
		ln, err := lc.Listen(nil, "tcp4", cfg.Listen)
		if err != nil {
			return err
		}
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					time.Sleep(5 * time.Millisecond)
					continue
				}
				conns.Add(1)
				go func() {
					buf := make([]byte, 256<<10)
					for {
						n, err := c.Read(buf)
						rx.Add(int64(n))
						if err != nil {
							c.Close()
							return
						}
					}
				}()
			}
		}()
	}
	if cfg.File != "" {
		f, err := os.Open(cfg.File)
		if err != nil {
			return err
		}
		st, err := f.Stat()
		if err != nil {
			return err
		}
		go readFileLoop(f, st.Size(), cfg.Mmap, cfg.DontNeed, &fileBytes)
	}
	if cfg.HogBytes > 0 {
		mem, err := unix.Mmap(-1, 0, int(cfg.HogBytes), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
		if err != nil {
			return fmt.Errorf("hog: mmap %d bytes: %w", cfg.HogBytes, err)
		}
		go func() {
			page := os.Getpagesize()
			for pass := byte(1); ; pass++ {
				for i := 0; i < len(mem); i += page {
					mem[i] = pass
					hogPages.Add(1)
				}
			}
		}()
	}
	start := time.Now()
	for {
		helperStatus(os.Stdout, map[string]int64{
			"ms": time.Since(start).Milliseconds(), "rx_bytes": rx.Load(), "conns": conns.Load(),
			"file_bytes": fileBytes.Load(), "hog_pages": hogPages.Load(),
		})
		time.Sleep(helperStatusEvery)
	}
}

// touchSink keeps the mmap reader's loads alive.
var touchSink atomic.Uint32

// readFileLoop reads f from start to end forever.
func readFileLoop(f *os.File, size int64, useMmap, dontNeed bool, total *atomic.Int64) {
	const chunk = 1 << 20
	fd := int(f.Fd())
	page := os.Getpagesize()
	if useMmap {
		if size != int64(int(size)) {
			fmt.Fprintf(os.Stderr, "mmap %s: %d bytes do not fit this address space\n", f.Name(), size)
			os.Exit(1)
		}
		mem, err := unix.Mmap(fd, 0, int(size), unix.PROT_READ, unix.MAP_SHARED)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mmap %s: %v\n", f.Name(), err)
			os.Exit(1)
		}
		var sink byte
		for {
			for off := 0; off < len(mem); off += chunk {
				end := min(off+chunk, len(mem))
				for i := off; i < end; i += page {
					sink += mem[i]
				}
				// Stored where the compiler must keep it, or the loads above are dead code
				// and no page is ever faulted in.
				touchSink.Store(uint32(sink))
				total.Add(int64(end - off))
				if dontNeed {
					// Unmap the chunk, then drop it and the chunk before it from the page
					// cache: pages still in a per-CPU LRU batch or under readahead when a
					// chunk is first dropped are caught the next time.
					unix.Madvise(mem[off:end], unix.MADV_DONTNEED)
					from := max(off-chunk, 0)
					unix.Fadvise(fd, int64(from), int64(end-from), unix.FADV_DONTNEED)
				}
			}
		}
	}
	buf := make([]byte, chunk)
	for {
		for off := int64(0); off < size; off += chunk {
			n, err := f.ReadAt(buf, off)
			if n > 0 {
				total.Add(int64(n))
			}
			if err != nil && !errors.Is(err, io.EOF) {
				fmt.Fprintf(os.Stderr, "read %s: %v\n", f.Name(), err)
				os.Exit(1)
			}
			if dontNeed {
				unix.Fadvise(fd, off, chunk, unix.FADV_DONTNEED)
			}
		}
	}
}
