package lab

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync/atomic"
	"syscall"
	"time"

	"headroom/lab/netlab"
	"headroom/lab/vm"

	"golang.org/x/sys/unix"
)

// The helper modes of the scenarios (netlab.ServeHelpers says how helpers start). A failure
// scenario's "service" must be a process of its own: a memory cgroup charges page cache and
// anonymous memory to the cgroup of the process that owns the mm (mm->owner,
// mm/memcontrol.c get_mem_cgroup_from_mm), so the threads of the lab process cannot be
// squeezed separately; and a forking proxy is, by definition, processes. A static map in
// this init rather than a registry filled by other init functions: the modes must be known
// before any other init of this package runs.
func init() {
	netlab.ServeHelpers(map[string]func([]byte) error{
		"service":     runServiceHelper,
		"proxy":       runProxyHelper,
		"proxy-child": runProxyChildHelper,
		"cpu-burn":    runCPUBurnHelper,
		"guest-sink":  runGuestSink,
		"guest-hog":   runGuestHog,
		"guest-drops": runGuestDrops,
		vm.QdiscMode:  vm.RunQdiscHelper, // the guest's own netem and fq (lab/vm/qdisc.go)
	})
}

// startHelper is how a helper that serves inside the run's cgroups starts: it decodes its
// JSON configuration into cfg, joins the cgroups it names (cgroups points into cfg) and
// exits when the lab closes its stdin, so a helper never outlives its run.
func startHelper(raw []byte, cfg any, cgroups *[]string) error {
	if err := json.Unmarshal(raw, cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := netlab.JoinCgroups(*cgroups); err != nil {
		return err
	}
	netlab.ExitOnStdinClose()
	return nil
}

// cpuBurnConfig is the "cpu-burn" helper: a process that spins on one CPU, the other job
// of a shared machine that a load-sensitive measurement must survive.
type cpuBurnConfig struct {
	CPU int `json:"cpu"`
}

// runCPUBurnHelper pins every thread of this process to cfg.CPU (sched_setaffinity acts on
// one thread, and threads made later inherit the mask of the thread that makes them:
// sched_setaffinity(2)) and spins there at normal priority until its stdin closes or it is
// killed, printing how many rounds it spun.
func runCPUBurnHelper(raw []byte) error {
	var cfg cpuBurnConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var set unix.CPUSet
	set.Set(cfg.CPU)
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		return err
	}
	for _, task := range tasks {
		var tid int
		if _, err := fmt.Sscan(task.Name(), &tid); err != nil {
			continue
		}
		if err := unix.SchedSetaffinity(tid, &set); err != nil {
			return fmt.Errorf("pin thread %d to CPU %d: %w", tid, cfg.CPU, err)
		}
	}
	netlab.ExitOnStdinClose()
	var rounds atomic.Int64
	go func() {
		for {
			for i := 0; i < 1<<20; i++ {
				touchSink.Add(1)
			}
			rounds.Add(1)
		}
	}()
	for {
		netlab.HelperStatus(os.Stdout, map[string]int64{"cpu": int64(cfg.CPU), "rounds": rounds.Load()})
		time.Sleep(netlab.HelperStatusEvery)
	}
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
	if err := startHelper(raw, &cfg, &cfg.Cgroups); err != nil {
		return err
	}
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
		netlab.HelperStatus(os.Stdout, map[string]int64{
			"ms": time.Since(start).Milliseconds(), "rx_bytes": rx.Load(), "conns": conns.Load(),
			"file_bytes": fileBytes.Load(), "hog_pages": hogPages.Load(),
		})
		time.Sleep(netlab.HelperStatusEvery)
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
