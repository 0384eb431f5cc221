package lab

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"headroom/kernel"
	"headroom/lab/netlab"
)

// The guest sink: the receiving application of the failure scenarios that run in a QEMU
// guest (guest_lowmem_tcp.go, guest_atomic_rx.go). It runs inside the guest as a helper
// mode of the guest's own headroom (HEADROOM_LAB_HELPER=guest-sink, started by the
// scenario's script), accepts the host's TCP streams and reads them in phases: reading,
// stalled (the receive queues fill the way seed 004's busy receivers did), or alternating
// the two, optionally appending what it reads to a file (the page cache of a file being
// written, as seed 000's NAS did). It watches the guest's kernel log itself, so a stall can
// end at the first allocation failure, and writes its account to a JSON file in the share.

// guestSinkPhase is one phase of the sink.
type guestSinkPhase struct {
	Name string `json:"name"`
	// Read: the streams are read during the phase; otherwise they are not (stalled).
	Read bool `json:"read"`
	// CycleRead/CycleStall > 0 alternate reading for CycleRead and stalling for CycleStall
	// (Read is then ignored).
	CycleRead  time.Duration `json:"cycle_read,omitempty"`
	CycleStall time.Duration `json:"cycle_stall,omitempty"`
	For        time.Duration `json:"for"`
	// EndOnFailure ends the phase early at the first allocation failure or OOM kill in the
	// kernel log; EndWhenStable ends it once TCP memory (sockstat "mem") has not grown for
	// that long (the limits hold it).
	EndOnFailure  bool          `json:"end_on_failure,omitempty"`
	EndWhenStable time.Duration `json:"end_when_stable,omitempty"`
}

// guestSinkConfig is the guest-sink helper's configuration.
type guestSinkConfig struct {
	Listen      string `json:"listen"`
	RcvBufBytes int    `json:"rcvbuf_bytes,omitempty"` // SO_RCVBUF on the listener (capped by rmem_max)
	Streams     int    `json:"streams"`                // phases start once this many are connected
	// ConnectWait bounds the wait for the streams (default 60 s).
	ConnectWait time.Duration    `json:"connect_wait,omitempty"`
	Phases      []guestSinkPhase `json:"phases"`
	WriteFile   string           `json:"write_file,omitempty"`   // append what is read here (wraps at WrapBytes)
	WrapBytes   int64            `json:"wrap_bytes,omitempty"`   // default 1 GiB
	ResultFile  string           `json:"result_file"`            // the account, rewritten every second
	ProgressTag string           `json:"progress_tag,omitempty"` // printed on /dev/console at each phase start
}

// guestSinkResult is the sink's account.
type guestSinkResult struct {
	Connected int                    `json:"connected"`
	Phases    []guestSinkPhaseResult `json:"phases"`
	// Failures are the allocation-failure and OOM lines the kernel printed while the sink
	// ran, as the kernel printed them (at most 20).
	Failures        []string `json:"failures,omitempty"`
	FailureCount    int      `json:"failure_count"`
	OOMKills        int      `json:"oom_kills"`
	PeakTCPMemPages int64    `json:"peak_tcp_mem_pages"`
	// Current is the phase under way (saved every second; EndedBy "running").
	Current *guestSinkPhaseResult `json:"current,omitempty"`
	Done    bool                  `json:"done"`
	Error   string                `json:"error,omitempty"`
}

type guestSinkPhaseResult struct {
	Name           string  `json:"name"`
	Seconds        float64 `json:"seconds"`
	BytesRead      int64   `json:"bytes_read"`
	GoodputBits    float64 `json:"goodput_bits_per_sec"`
	EndedBy        string  `json:"ended_by"` // "time", "failure", "stable"
	FailuresDuring int     `json:"failures_during"`
	PeakTCPMem     int64   `json:"peak_tcp_mem_pages"`
}

// kmsgWatch follows the kernel log from now on and counts allocation failures and OOM kills.
type kmsgWatch struct {
	mu       sync.Mutex
	lines    []string
	failures int
	ooms     int
	changed  chan struct{}
}

// Messages of mm/page_alloc.c warn_alloc ("%s: page allocation failure: order:%u, mode:%#x(%pGg)")
// and mm/oom_kill.c (dump_header "invoked oom-killer", __oom_kill_process "Out of memory:
// Killed process" / "Killed process" before 4.19... the guest is 6.1).
var (
	kmsgFailure = "page allocation failure"
	kmsgOOM     = "Out of memory: Killed process"
	kmsgKeep    = []string{kmsgFailure, "invoked oom-killer", kmsgOOM, "TCP: out of memory"}
)

func watchKmsg() (*kmsgWatch, error) {
	f, err := os.Open("/dev/kmsg")
	if err != nil {
		return nil, err
	}
	// From now on: records already in the buffer are the boot's (devkmsg_llseek SEEK_END).
	if _, err := f.Seek(0, 2); err != nil {
		f.Close()
		return nil, err
	}
	w := &kmsgWatch{changed: make(chan struct{}, 1)}
	go func() {
		buf := make([]byte, 8192)
		for {
			n, err := f.Read(buf)
			if err != nil {
				if err == syscall.EPIPE { // overwritten records: continue with the next
					continue
				}
				return
			}
			rec, perr := kernel.ParseKmsgRecord(buf[:n])
			if perr != nil {
				continue
			}
			w.note(rec.Message)
		}
	}()
	return w, nil
}

func (w *kmsgWatch) note(msg string) {
	keep := false
	for _, k := range kmsgKeep {
		if strings.Contains(msg, k) {
			keep = true
		}
	}
	if !keep {
		return
	}
	w.mu.Lock()
	if strings.Contains(msg, kmsgFailure) {
		w.failures++
	}
	if strings.Contains(msg, kmsgOOM) {
		w.ooms++
	}
	if len(w.lines) < 20 {
		w.lines = append(w.lines, msg)
	}
	w.mu.Unlock()
	select {
	case w.changed <- struct{}{}:
	default:
	}
}

func (w *kmsgWatch) counts() (failures, ooms int, lines []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.failures, w.ooms, append([]string(nil), w.lines...)
}

// tcpMemPages is netlab.TCPMemPages, -1 when it cannot be read.
func tcpMemPages() int64 {
	v, err := netlab.TCPMemPages()
	if err != nil {
		return -1
	}
	return v
}

func runGuestSink(raw []byte) error {
	var cfg guestSinkConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if cfg.ConnectWait <= 0 {
		cfg.ConnectWait = 60 * time.Second
	}
	if cfg.WrapBytes <= 0 {
		cfg.WrapBytes = 1 << 30
	}
	res := &guestSinkResult{}
	var resMu sync.Mutex
	save := func() {
		resMu.Lock()
		b, _ := json.MarshalIndent(res, "", "  ")
		resMu.Unlock()
		tmp := cfg.ResultFile + ".tmp"
		if os.WriteFile(tmp, b, 0o644) == nil {
			os.Rename(tmp, cfg.ResultFile)
		}
	}
	kw, err := watchKmsg()
	if err != nil {
		return fmt.Errorf("kernel log: %w", err)
	}
	lc := net.ListenConfig{Control: func(_, _ string, c syscall.RawConn) error {
		if cfg.RcvBufBytes <= 0 {
			return nil
		}
		var serr error
		c.Control(func(fd uintptr) {
			serr = unix.SetsockoptInt(int(fd), unix.SOL_SOCKET, unix.SO_RCVBUF, cfg.RcvBufBytes)
		})
		return serr
	}}
	ln, err := lc.Listen(nil, "tcp4", cfg.Listen)
	if err != nil {
		return err
	}
	var out *bufio.Writer
	var outF *os.File
	var outMu sync.Mutex
	var outBytes int64
	if cfg.WriteFile != "" {
		outF, err = os.OpenFile(cfg.WriteFile, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			return err
		}
		out = bufio.NewWriterSize(outF, 1<<20)
	}
	// reading gates the readers: they read while it is true.
	var reading atomic.Bool
	var rx atomic.Int64
	gate := make(chan struct{})
	var gateMu sync.Mutex
	openGate := func(on bool) {
		gateMu.Lock()
		defer gateMu.Unlock()
		was := reading.Swap(on)
		if on && !was {
			close(gate)
		} else if !on && was {
			gate = make(chan struct{})
		}
	}
	waitGate := func() {
		for !reading.Load() {
			gateMu.Lock()
			g := gate
			gateMu.Unlock()
			if reading.Load() {
				return
			}
			<-g
		}
	}
	var connected atomic.Int64
	allIn := make(chan struct{})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			if connected.Add(1) == int64(cfg.Streams) {
				close(allIn)
			}
			go func(c net.Conn) {
				buf := make([]byte, 256<<10)
				for {
					waitGate()
					n, err := c.Read(buf)
					if n > 0 {
						rx.Add(int64(n))
						if out != nil {
							outMu.Lock()
							out.Write(buf[:n])
							outBytes += int64(n)
							if outBytes >= cfg.WrapBytes {
								out.Flush()
								outF.Seek(0, 0)
								outBytes = 0
							}
							outMu.Unlock()
						}
					}
					if err != nil {
						c.Close()
						return
					}
				}
			}(c)
		}
	}()
	fmt.Println("listening")
	select {
	case <-allIn:
	case <-time.After(cfg.ConnectWait):
	}
	resMu.Lock()
	res.Connected = int(connected.Load())
	resMu.Unlock()
	save()
	for _, ph := range cfg.Phases {
		if cfg.ProgressTag != "" {
			if con, err := os.OpenFile("/dev/console", os.O_WRONLY, 0); err == nil {
				fmt.Fprintf(con, "%s phase %s\n", cfg.ProgressTag, ph.Name)
				con.Close()
			}
		}
		f0, _, _ := kw.counts()
		r0 := rx.Load()
		start := time.Now()
		pr := guestSinkPhaseResult{Name: ph.Name, EndedBy: "time"}
		lastGrow, lastMem := start, int64(-1)
		lastSave := start
		tick := time.NewTicker(250 * time.Millisecond)
		for {
			el := time.Since(start)
			on := ph.Read
			if ph.CycleRead > 0 && ph.CycleStall > 0 {
				on = el%(ph.CycleRead+ph.CycleStall) < ph.CycleRead
			}
			openGate(on)
			m := tcpMemPages()
			if m > pr.PeakTCPMem {
				pr.PeakTCPMem = m
			}
			if m > lastMem {
				lastMem, lastGrow = m, time.Now()
			}
			f, _, _ := kw.counts()
			pr.FailuresDuring = f - f0
			resMu.Lock()
			if m > res.PeakTCPMemPages {
				res.PeakTCPMemPages = m
			}
			// The phase so far, so that a sink the OOM killer ends leaves its account.
			cur := pr
			cur.EndedBy = "running"
			cur.Seconds = el.Seconds()
			cur.BytesRead = rx.Load() - r0
			if cur.Seconds > 0 {
				cur.GoodputBits = float64(cur.BytesRead) * 8 / cur.Seconds
			}
			res.Current = &cur
			res.FailureCount, res.OOMKills, res.Failures = kw.counts()
			resMu.Unlock()
			if time.Since(lastSave) >= time.Second {
				save()
				lastSave = time.Now()
			}
			if el >= ph.For {
				break
			}
			if ph.EndOnFailure && pr.FailuresDuring > 0 {
				pr.EndedBy = "failure"
				break
			}
			if ph.EndWhenStable > 0 && time.Since(lastGrow) >= ph.EndWhenStable {
				pr.EndedBy = "stable"
				break
			}
			select {
			case <-tick.C:
			case <-kw.changed:
			}
		}
		tick.Stop()
		pr.Seconds = time.Since(start).Seconds()
		pr.BytesRead = rx.Load() - r0
		if pr.Seconds > 0 {
			pr.GoodputBits = float64(pr.BytesRead) * 8 / pr.Seconds
		}
		resMu.Lock()
		res.Phases = append(res.Phases, pr)
		res.Current = nil
		res.FailureCount, res.OOMKills, res.Failures = kw.counts()
		resMu.Unlock()
		save()
	}
	openGate(false)
	if out != nil {
		outMu.Lock()
		out.Flush()
		outMu.Unlock()
	}
	resMu.Lock()
	res.FailureCount, res.OOMKills, res.Failures = kw.counts()
	res.Done = true
	resMu.Unlock()
	save()
	return nil
}

// guestHogConfig is the guest-hog helper: a service's anonymous memory, every page written
// once per Every (default 1 s) so all of it stays in use, without keeping the guest's only
// CPU busy (the "service" helper's hog touches pages without pause, which in a 1-CPU guest
// takes the CPU from the receive path).
type guestHogConfig struct {
	Bytes int64         `json:"bytes"`
	Every time.Duration `json:"every,omitempty"`
}

func runGuestHog(raw []byte) error {
	var cfg guestHogConfig
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if cfg.Bytes <= 0 || int64(int(cfg.Bytes)) != cfg.Bytes {
		return fmt.Errorf("hog: %d bytes", cfg.Bytes)
	}
	if cfg.Every <= 0 {
		cfg.Every = time.Second
	}
	mem, err := unix.Mmap(-1, 0, int(cfg.Bytes), unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return fmt.Errorf("hog: mmap %d bytes: %w", cfg.Bytes, err)
	}
	page := os.Getpagesize()
	for pass := byte(1); ; pass++ {
		start := time.Now()
		for i := 0; i < len(mem); i += page {
			mem[i] = pass
		}
		time.Sleep(cfg.Every - min(time.Since(start), cfg.Every))
	}
}
