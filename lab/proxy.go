package lab

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"headroom/lab/netlab"

	"golang.org/x/sys/unix"
)

// The forking proxy of seed 002: a parent that accepts connections and starts one process
// per connection to relay it to the backend, like inetd-era proxies (the seed's firewall ran
// "forking proxies" and lost 3/4 of its connection rate after floods). Go cannot fork without
// exec, so each child is this executable again in mode "proxy-child", handed the accepted
// socket as fd 3; that costs an exec per connection, as a fork+exec proxy does.
//
// The leaking variant keeps a duplicate of every accepted socket's descriptor in the parent
// forever: the child's close() then never releases the socket (a socket closes when its last
// descriptor does), so no FIN is sent, the connection sits in CLOSE_WAIT once the client
// closes, and the parent's descriptor table fills. With RLIMIT_NOFILE reached, accept(2)
// fails with EMFILE and new connections wait in the listen backlog until they time out:
// the service does not recover after the flood, however long it idles.

// proxyConfig configures the "proxy" helper.
type proxyConfig struct {
	Cgroups []string `json:"cgroups"`
	Listen  string   `json:"listen"`
	Backend string   `json:"backend"`
	Leak    bool     `json:"leak"`
	// MaxFDs is the parent's RLIMIT_NOFILE (soft and hard). The Go runtime raises the soft
	// limit to the hard one at start (os: "raise open file limit", Go 1.19), so the helper
	// sets both itself.
	MaxFDs uint64 `json:"max_fds"`
}

func runProxyHelper(raw []byte) error {
	var cfg proxyConfig
	if err := startHelper(raw, &cfg, &cfg.Cgroups); err != nil {
		return err
	}
	if cfg.MaxFDs > 0 {
		lim := unix.Rlimit{Cur: cfg.MaxFDs, Max: cfg.MaxFDs}
		if err := unix.Setrlimit(unix.RLIMIT_NOFILE, &lim); err != nil {
			return fmt.Errorf("setrlimit NOFILE %d: %w", cfg.MaxFDs, err)
		}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp4", cfg.Listen)
	if err != nil {
		return err
	}
	childCfg, _ := json.Marshal(proxyChildConfig{Backend: cfg.Backend})
	env := netlab.HelperEnv("proxy-child", childCfg)
	var accepted, spawned, spawnErrs, acceptErrs, running atomic.Int64
	var leaked []io.Closer // never closed: the leak
	var mu sync.Mutex
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				acceptErrs.Add(1)
				// EMFILE: a real server would log and retry; the connection stays in the
				// backlog.
				time.Sleep(10 * time.Millisecond)
				continue
			}
			accepted.Add(1)
			// The leaking parent keeps a descriptor of every connection it accepted, also on
			// the error paths below (out of descriptors for the dup or the exec): so once the
			// table is full it stops accepting, as a forking server whose fork needs no new
			// descriptor would, and connections wait in the accept queue.
			keep := func(cl io.Closer) {
				if cfg.Leak {
					mu.Lock()
					leaked = append(leaked, cl)
					mu.Unlock()
				} else {
					cl.Close()
				}
			}
			f, err := c.(*net.TCPConn).File() // a dup(2) of the socket, in blocking mode
			if err != nil {
				spawnErrs.Add(1)
				keep(c)
				continue
			}
			c.Close()
			cmd := exec.Command(exe)
			cmd.Env = env
			cmd.ExtraFiles = []*os.File{f}
			cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
			if err := cmd.Start(); err != nil {
				spawnErrs.Add(1)
				keep(f)
				continue
			}
			spawned.Add(1)
			running.Add(1)
			keep(f)
			go func() {
				cmd.Wait()
				running.Add(-1)
			}()
		}
	}()
	// The lab counts the proxy's open descriptors itself (/proc/PID/fd): the proxy cannot,
	// once it is out of them.
	start := time.Now()
	for {
		mu.Lock()
		nleak := len(leaked)
		mu.Unlock()
		netlab.HelperStatus(os.Stdout, map[string]int64{
			"ms": time.Since(start).Milliseconds(), "accepted": accepted.Load(), "spawned": spawned.Load(),
			"spawn_errors": spawnErrs.Load(), "accept_errors": acceptErrs.Load(), "children": running.Load(),
			"leaked_fds": int64(nleak),
		})
		time.Sleep(netlab.HelperStatusEvery)
	}
}

type proxyChildConfig struct {
	Backend string `json:"backend"`
}

// runProxyChildHelper relays the connection on fd 3 to the backend and exits.
func runProxyChildHelper(raw []byte) error {
	var cfg proxyChildConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	f := os.NewFile(3, "client")
	if f == nil {
		return errors.New("no client socket on fd 3")
	}
	cc, err := net.FileConn(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("client socket: %w", err)
	}
	defer cc.Close()
	bc, err := net.DialTimeout("tcp4", cfg.Backend, 5*time.Second)
	if err != nil {
		return fmt.Errorf("backend %s: %w", cfg.Backend, err)
	}
	defer bc.Close()
	deadline := time.Now().Add(30 * time.Second)
	cc.SetDeadline(deadline)
	bc.SetDeadline(deadline)
	done := make(chan struct{})
	go func() {
		io.Copy(bc, cc)
		bc.(*net.TCPConn).CloseWrite()
		close(done)
	}()
	io.Copy(cc, bc)
	<-done
	return nil
}

// Backend is the service behind the proxy: a minimal HTTP/1.0 server that answers every
// request with a fixed body and closes, run by the lab process inside a namespace.
type Backend struct {
	ln       net.Listener
	served   atomic.Int64
	wg       sync.WaitGroup
	bodySize int
}

// StartBackend listens on addr inside h.
func StartBackend(h *netlab.Host, addr string, bodyBytes int) (*Backend, error) {
	b := &Backend{bodySize: bodyBytes}
	if err := h.Do(func() (err error) { b.ln, err = net.Listen("tcp4", addr); return err }); err != nil {
		return nil, fmt.Errorf("lab: backend listen %s in %s: %w", addr, h.Netns(), err)
	}
	resp := []byte(fmt.Sprintf("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", bodyBytes, strings.Repeat("x", bodyBytes)))
	b.wg.Add(1)
	go func() {
		defer b.wg.Done()
		for {
			c, err := b.ln.Accept()
			if err != nil {
				if errors.Is(err, net.ErrClosed) {
					return
				}
				time.Sleep(5 * time.Millisecond)
				continue
			}
			go func() {
				defer c.Close()
				c.SetDeadline(time.Now().Add(10 * time.Second))
				r := bufio.NewReaderSize(c, 4096)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return
					}
					if line == "\r\n" || line == "\n" {
						break
					}
				}
				c.Write(resp)
				b.served.Add(1)
			}()
		}
	}()
	return b, nil
}

// Served is how many requests the backend answered.
func (b *Backend) Served() int64 { return b.served.Load() }

// Close stops accepting.
func (b *Backend) Close() error {
	err := b.ln.Close()
	b.wg.Wait()
	return err
}

// doRequest makes one request like ab(1) does against an HTTP/1.0 service: connect, send a
// GET, read the response up to its Content-Length (or to EOF without one), close. An error
// means the request failed or timed out. dial is the dialer (bound to a namespace by the
// caller).
func doRequest(ctx context.Context, dial func(ctx context.Context) (net.Conn, error), req []byte, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, err := dial(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	dl, _ := ctx.Deadline()
	c.SetDeadline(dl)
	if len(req) > 0 {
		if _, err := c.Write(req); err != nil {
			return err
		}
	}
	r := bufio.NewReaderSize(c, 8192)
	status, err := r.ReadString('\n')
	if err != nil {
		if len(req) == 0 && errors.Is(err, io.EOF) {
			return nil // connect-only probe against a service that closes
		}
		return fmt.Errorf("response: %w", err)
	}
	if !strings.HasPrefix(status, "HTTP/") {
		// Not HTTP: whatever the service sends until it closes is the response.
		_, err := io.Copy(io.Discard, r)
		return err
	}
	length := int64(-1)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return fmt.Errorf("response headers: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		if k, v, ok := strings.Cut(line, ":"); ok && strings.EqualFold(strings.TrimSpace(k), "Content-Length") {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				length = n
			}
		}
	}
	if length >= 0 {
		_, err = io.CopyN(io.Discard, r, length)
		return err
	}
	_, err = io.Copy(io.Discard, r)
	return err
}

// httpRequest is the request doRequest sends to host.
func httpRequest(host string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "GET / HTTP/1.0\r\nHost: %s\r\nUser-Agent: headroom-recovery\r\n\r\n", host)
	return b.Bytes()
}
