package vm

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vishvananda/netlink"
	"golang.org/x/sys/unix"

	"headroom/internal/lazyre"
	"headroom/lab/netlab"
)

// NIC is one virtio-net interface of the guest (ethN), on a tap "tapN" in the run's host
// namespace.
type NIC struct {
	MTU int // 0: 1500
	// RxQueueSize is virtio-net's RX ring (QEMU's rx_queue_size, a power of 2 from 256 to
	// 1024; 0: QEMU's 256). virtio_net refills the ring from NAPI with GFP_ATOMIC
	// (try_fill_recv), so the ring bounds one atomic burst.
	RxQueueSize int
}

// Disk is one virtio-blk disk of the guest.
type Disk struct {
	SizeMiB int
	// Mount, when set, is where /init mounts the disk after formatting it ext2 (busybox
	// mke2fs; Debian's ext4 module mounts ext2); empty leaves the raw device.
	Mount string
	// WriteBytesPerSec > 0 caps the disk's writes (QEMU's throttling.bps-write) and opens
	// the image without the host's page cache (cache=none): a slow disk whose writeback
	// lags, as a small box's USB disk does.
	WriteBytesPerSec int64
}

func (n NIC) mtu() int {
	if n.MTU == 0 {
		return 1500
	}
	return n.MTU
}

// Spec describes one guest run.
type Spec struct {
	Kernel    string   // a name from Kernels(), e.g. "debian-6.1-686-pae"
	MemoryMiB int      // guest RAM (default 512)
	CPUs      int      // guest CPUs (default 1)
	Cmdline   []string // extra kernel command-line words (after the defaults, so they win)
	// Script is the sh script the guest runs as root once it is up. Its stdout and stderr
	// come back as Result.Stdout and Result.Stderr, its exit status as Result.ExitCode, and
	// every file it writes under $OUT as Result.Files. The guest powers off when it ends.
	Script  string
	Env     map[string]string // exported to the script
	Files   []File            // more files in the guest (helpers, configuration, data)
	Modules []string          // more kernel modules to load before the script (e.g. "sch_netem")
	// NICs are the guest's network interfaces; nil means one with MTU 1500, an empty
	// non-nil slice none.
	NICs []NIC
	// Disks are virtio-blk disks backed by sparse files in the run's scratch directory
	// (removed with it): /dev/vda, /dev/vdb, ... in the guest. Page cache that is really
	// file-backed (tmpfs pages are shmem) needs one.
	Disks []Disk
	// Headroom is a static headroom built for the guest's architecture; "" builds or finds
	// one (GuestHeadroom); "-" leaves it out.
	Headroom string
	Timeout  time.Duration // bound on the whole run from QEMU's start (default 5 min)
	Progress func(string)  // progress lines (default: none)
	Cache    string        // kernel cache (default CacheDir())
}

// Result is what a guest run brought back.
type Result struct {
	Kernel   Status      `json:"kernel"`
	Accel    AccelChoice `json:"accel"`
	QEMUArgs []string    `json:"qemu_args"`
	Cmdline  string      `json:"cmdline"`
	// ExitCode is the script's exit status, -1 when the guest did not report one (it
	// crashed, timed out, or /init failed: see Error and Console).
	ExitCode int               `json:"exit_code"`
	Stdout   string            `json:"stdout"`
	Stderr   string            `json:"stderr"`
	Files    map[string][]byte `json:"-"`       // $OUT's files, by path relative to $OUT
	Console  string            `json:"console"` // the serial console: kernel log and /init's markers
	Dmesg    string            `json:"dmesg"`   // the guest's whole kernel log at the script's end
	// GuestRelease and GuestMachine are what the guest's uname said at the ready marker.
	GuestRelease string        `json:"guest_release"`
	GuestMachine string        `json:"guest_machine"`
	BootTime     time.Duration `json:"boot_ns"`    // QEMU start to the ready marker
	Elapsed      time.Duration `json:"elapsed_ns"` // QEMU start to QEMU exit
	Error        string        `json:"error,omitempty"`
}

// Guest is a running guest. Close it (defer it): it stops QEMU and removes the run's
// namespace, taps, scratch directory and journal.
type Guest struct {
	Spec   Spec
	Kernel Status
	Accel  AccelChoice

	lab      *netlab.Lab
	objs     *netlab.Objects
	host     *netlab.Host
	dir      string // scratch directory: initramfs, share
	share    string
	taps     []*os.File
	cmd      *exec.Cmd
	args     []string
	cmdline  string
	start    time.Time
	done     chan struct{}
	waitErr  *error
	deadline *time.Timer

	mu       sync.Mutex
	console  bytes.Buffer
	consDone chan struct{}
	changed  chan struct{} // closed and replaced on every console line
	ready    time.Time
	release  string
	machine  string
	exitCode int
	initErr  string
	closed   bool
}

// maxConsole bounds the console kept in memory; the rest is counted, not kept.
const maxConsole = 32 << 20

// maxFiles bounds what Result.Files holds.
const maxFiles = 64 << 20

// Start boots a guest running spec.Script and returns once QEMU runs. The run's
// namespace, taps, scratch files and QEMU are journaled and guarded (a SIGKILL of this
// process leaves the guardian to remove them; QEMU dies with the thread that started it).
func Start(ctx context.Context, spec Spec) (g *Guest, err error) {
	if spec.MemoryMiB == 0 {
		spec.MemoryMiB = 512
	}
	if spec.CPUs == 0 {
		spec.CPUs = 1
	}
	if spec.Timeout == 0 {
		spec.Timeout = 5 * time.Minute
	}
	if spec.NICs == nil {
		spec.NICs = []NIC{{}}
	}
	if spec.Cache == "" {
		spec.Cache = CacheDir()
	}
	if spec.Progress == nil {
		spec.Progress = func(string) {}
	}
	if err := checkSpec(spec); err != nil {
		return nil, err
	}
	k, err := LookupKernel(spec.Kernel)
	if err != nil {
		return nil, err
	}
	st := k.Stat(spec.Cache)
	if !st.Present {
		return nil, fmt.Errorf("vm: kernel %s is not in %s: %s", k.Name, spec.Cache, st.Missing)
	}
	qemu, err := exec.LookPath("qemu-system-x86_64")
	if err != nil {
		return nil, fmt.Errorf("vm: qemu-system-x86_64 not found (apt-get install qemu-system-x86): %w", err)
	}
	headroom := spec.Headroom
	if headroom == "" {
		if headroom, err = GuestHeadroom(ctx, k.GOARCH, spec.Cache); err != nil {
			return nil, err
		}
	}
	if headroom == "-" {
		headroom = ""
	}
	ix, err := loadModuleIndex(st.ModulesDir())
	if err != nil {
		return nil, err
	}
	want := append([]string(nil), baseModules...)
	if len(spec.Disks) > 0 {
		want = append(want, diskModules...)
	}
	mods, err := ix.resolve(append(want, spec.Modules...))
	if err != nil {
		return nil, err
	}
	accel, err := ChooseAccel(ctx, spec.Cache, qemu, st.Vmlinuz)
	if err != nil {
		return nil, err
	}

	l, err := netlab.New()
	if err != nil {
		return nil, err
	}
	g = &Guest{Spec: spec, Kernel: st, Accel: accel, lab: l, exitCode: -1, changed: make(chan struct{}), consDone: make(chan struct{})}
	defer func() {
		if err != nil {
			g.Close()
			g = nil
		}
	}()
	// The guardian first: from here on everything is journaled before it exists, and a
	// SIGKILL leaves the guardian to sweep it.
	if err := l.Guard(); err != nil {
		return g, err
	}
	if g.objs, err = netlab.NewObjects(l.RunID); err != nil {
		return g, err
	}
	if g.dir, err = g.objs.NewDir("vm"); err != nil {
		return g, err
	}
	g.share = filepath.Join(g.dir, "share")
	if err := os.MkdirAll(filepath.Join(g.share, "out"), 0o755); err != nil {
		return g, err
	}
	env := map[string]string{}
	for k, v := range spec.Env {
		env[k] = v
	}
	for i := range spec.NICs {
		env[fmt.Sprintf("HOST_ADDR%d", i)] = HostAddr(i).String()
		env[fmt.Sprintf("GUEST_ADDR%d", i)] = GuestAddr(i).String()
	}
	initrd := filepath.Join(g.dir, "initramfs.cpio")
	t0 := time.Now()
	if err := writeInitramfs(initrd, initramfsSpec{Busybox: st.Busybox, Headroom: headroom, ModDir: st.ModulesDir(), Release: st.Release,
		Modules: mods, NICs: spec.NICs, Disks: spec.Disks, Env: env, Script: spec.Script, Files: spec.Files}); err != nil {
		return g, err
	}
	if fi, err := os.Stat(initrd); err == nil {
		spec.Progress(fmt.Sprintf("vm %s: initramfs %.1f MiB (%d modules) in %v", l.RunID, float64(fi.Size())/(1<<20), len(mods), time.Since(t0).Round(time.Millisecond)))
	}
	var disks []string
	var diskBPS []int64
	var rxQueues []int
	for _, n := range spec.NICs {
		rxQueues = append(rxQueues, n.RxQueueSize)
	}
	for i, d := range spec.Disks {
		p := filepath.Join(g.dir, fmt.Sprintf("disk%d.img", i))
		f, err := os.Create(p)
		if err == nil {
			err = f.Truncate(int64(d.SizeMiB) << 20)
			f.Close()
		}
		if err != nil {
			return g, fmt.Errorf("vm: disk %d: %w", i, err)
		}
		disks = append(disks, p)
		diskBPS = append(diskBPS, d.WriteBytesPerSec)
	}
	if len(spec.NICs) > 0 {
		if g.host, err = l.AddHost("vm"); err != nil {
			return g, err
		}
		for i, n := range spec.NICs {
			tap, err := openTap(g.host, fmt.Sprintf("tap%d", i), HostAddr(i), n.mtu())
			if err != nil {
				return g, err
			}
			g.taps = append(g.taps, tap)
		}
	}
	g.cmdline = kernelCmdline(spec.Cmdline)
	g.args = qemuArgs(bootParams{Accel: accel.Accel, MemoryMiB: spec.MemoryMiB, CPUs: spec.CPUs, Vmlinuz: st.Vmlinuz,
		Initrd: initrd, Append: g.cmdline, NICs: len(g.taps), Share: g.share, Disks: disks, DiskWriteBPS: diskBPS, RxQueueSizes: rxQueues})
	cmd := exec.Command(qemu, g.args...)
	cmd.SysProcAttr = pdeathsig()
	cmd.ExtraFiles = g.taps
	// A pipe of our own rather than StdoutPipe: Wait (on the starting thread) would close
	// StdoutPipe's read end as soon as QEMU exits, losing the console's last lines (the
	// exit marker among them). This read end reaches EOF once QEMU, its only writer, exits.
	out, w, err := os.Pipe()
	if err != nil {
		return g, fmt.Errorf("vm: %w", err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	g.start = time.Now()
	g.done, g.waitErr, err = startLocked(cmd)
	w.Close()
	if err != nil {
		out.Close()
		return g, fmt.Errorf("vm: start qemu: %w", err)
	}
	g.cmd = cmd
	// The taps are QEMU's now; ours would keep the devices alive after QEMU exits.
	for _, t := range g.taps {
		t.Close()
	}
	g.taps = nil
	go g.readConsole(out)
	g.deadline = time.AfterFunc(spec.Timeout, func() { cmd.Process.Kill() })
	if err := g.objs.TrackProcess(cmd.Process.Pid); err != nil {
		return g, err
	}
	spec.Progress(fmt.Sprintf("vm %s: %s (%s) booting under %s, %d MiB, %d CPU: %s", l.RunID, k.Name, st.Release, accel.Accel, spec.MemoryMiB, spec.CPUs, accel.Reason))
	return g, nil
}

func checkSpec(s Spec) error {
	if s.MemoryMiB < 64 || s.MemoryMiB > 64<<10 {
		return fmt.Errorf("vm: memory %d MiB: want 64..65536", s.MemoryMiB)
	}
	if s.CPUs < 1 || s.CPUs > 64 {
		return fmt.Errorf("vm: %d CPUs: want 1..64", s.CPUs)
	}
	if len(s.NICs) > 8 {
		return fmt.Errorf("vm: %d NICs: at most 8", len(s.NICs))
	}
	if len(s.Disks) > 8 {
		return fmt.Errorf("vm: %d disks: at most 8", len(s.Disks))
	}
	for i, d := range s.Disks {
		if d.SizeMiB < 1 || d.SizeMiB > 64<<10 {
			return fmt.Errorf("vm: disk %d: %d MiB: want 1..65536", i, d.SizeMiB)
		}
		if d.Mount != "" && (!strings.HasPrefix(d.Mount, "/") || strings.ContainsAny(d.Mount, " \t\n'\"$`\\")) {
			return fmt.Errorf("vm: disk %d: mount point %q: want an absolute path without blanks or quotes", i, d.Mount)
		}
	}
	for _, n := range s.NICs {
		if n.MTU != 0 && (n.MTU < 68 || n.MTU > 65521) {
			return fmt.Errorf("vm: NIC MTU %d: want 68..65521", n.MTU)
		}
	}
	for k := range s.Env {
		if !envName.MatchString(k) {
			return fmt.Errorf("vm: environment name %q", k)
		}
	}
	for _, w := range s.Cmdline {
		if strings.ContainsAny(w, " \t\n") {
			return fmt.Errorf("vm: kernel command-line word %q has blanks", w)
		}
	}
	return nil
}

var envName = lazyre.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// openTap creates tap device name in h's namespace with the host side's address and MTU,
// and returns its file for QEMU (-netdev tap,fd=N). IFF_VNET_HDR lets QEMU pass
// virtio-net's offloads (GSO, checksum) through; QEMU finds it set with TUNGETIFF. The
// device goes away when the last descriptor (QEMU's) closes: it is not persistent.
func openTap(h *netlab.Host, name string, addr netip.Addr, mtu int) (*os.File, error) {
	var f *os.File
	err := h.Do(func() error {
		fd, err := unix.Open("/dev/net/tun", unix.O_RDWR|unix.O_CLOEXEC, 0)
		if err != nil {
			return fmt.Errorf("vm: open /dev/net/tun: %w", err)
		}
		ifr, err := unix.NewIfreq(name)
		if err != nil {
			unix.Close(fd)
			return err
		}
		ifr.SetUint16(unix.IFF_TAP | unix.IFF_NO_PI | unix.IFF_VNET_HDR)
		if err := unix.IoctlIfreq(fd, unix.TUNSETIFF, ifr); err != nil {
			unix.Close(fd)
			return fmt.Errorf("vm: TUNSETIFF %s: %w", name, err)
		}
		f = os.NewFile(uintptr(fd), "/dev/net/tun:"+name)
		return nil
	})
	if err != nil {
		return nil, err
	}
	nl := h.Netlink()
	lk, err := nl.LinkByName(name)
	if err == nil {
		err = nl.LinkSetMTU(lk, mtu)
	}
	if err == nil {
		err = nl.AddrAdd(lk, &netlink.Addr{IPNet: netipPrefix(addr, netPrefixLen)})
	}
	if err == nil {
		err = nl.LinkSetUp(lk)
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("vm: configure %s in %s: %w", name, h.Netns(), err)
	}
	return f, nil
}

func (g *Guest) readConsole(r *os.File) {
	defer close(g.consDone)
	defer r.Close()
	br := bufio.NewReaderSize(r, 64<<10)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			line = strings.TrimRight(line, "\r\n") + "\n"
			g.mu.Lock()
			if g.console.Len() < maxConsole {
				g.console.WriteString(line)
			}
			g.marker(line)
			close(g.changed)
			g.changed = make(chan struct{})
			g.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// marker records what /init's markers say (g.mu held). A marker may follow kernel text on
// the same console line (the kernel and /init share the serial port), so it is searched,
// not only matched at the start.
func (g *Guest) marker(line string) {
	i := strings.Index(line, markerPfx)
	if i < 0 {
		return
	}
	f := strings.Fields(line[i:])
	switch f[0] {
	case markerReady:
		if g.ready.IsZero() {
			g.ready = time.Now()
		}
		if len(f) >= 3 {
			g.release, g.machine = f[1], f[2]
		}
	case markerExit:
		if len(f) >= 2 {
			if n, err := strconv.Atoi(f[1]); err == nil {
				g.exitCode = n
			}
		}
	case markerError:
		g.initErr = strings.TrimSpace(strings.TrimPrefix(line[i:], markerError))
	}
}

// Host is the run's host namespace holding the taps (nil when the guest has no NIC): run
// the host side of traffic in it (Host().Do, netlab.StartHelper(Host(), ...)).
func (g *Guest) Host() *netlab.Host { return g.host }

// Lab is the netlab run the guest belongs to (its run id names the namespace, the scratch
// directory and the journal).
func (g *Guest) Lab() *netlab.Lab { return g.lab }

// ShareDir is the host directory the guest sees as /share (live, both ways): the script's
// stdout, stderr and $OUT (/share/out) are there while it runs, and the host may drop files
// for the guest to read.
func (g *Guest) ShareDir() string { return g.share }

// Console returns the serial console so far.
func (g *Guest) Console() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.console.String()
}

// WaitConsole waits until a console line contains text (printed by the kernel or by the
// script: the script's stdout goes to the share, so a script that wants to be waited for
// echoes to /dev/console), the guest ends, or ctx is done.
func (g *Guest) WaitConsole(ctx context.Context, text string) error {
	from := 0 // the console before from has been searched (up to a match's length back)
	for {
		g.mu.Lock()
		b := g.console.Bytes()
		has := bytes.Contains(b[max(0, from-len(text)):], []byte(text))
		from = len(b)
		ch := g.changed
		g.mu.Unlock()
		if has {
			return nil
		}
		select {
		case <-ch:
		case <-g.consDone:
			if strings.Contains(g.Console(), text) {
				return nil
			}
			return fmt.Errorf("vm: guest ended before printing %q", text)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Ready waits for /init's ready marker (modules loaded, share mounted, NICs up): the guest
// answers on its addresses from then on.
func (g *Guest) Ready(ctx context.Context) error { return g.WaitConsole(ctx, markerReady) }

// Wait waits until the guest powers off (or Spec.Timeout kills it, or ctx is done, which
// kills it too) and collects the result. The guest's files stay readable until Close.
func (g *Guest) Wait(ctx context.Context) (*Result, error) {
	select {
	case <-g.done:
	case <-ctx.Done():
		g.cmd.Process.Kill()
		<-g.done
	}
	g.deadline.Stop()
	<-g.consDone
	elapsed := time.Since(g.start)
	g.mu.Lock()
	r := &Result{Kernel: g.Kernel, Accel: g.Accel, QEMUArgs: g.args, Cmdline: g.cmdline, ExitCode: g.exitCode,
		Console: g.console.String(), GuestRelease: g.release, GuestMachine: g.machine, Elapsed: elapsed}
	if !g.ready.IsZero() {
		r.BootTime = g.ready.Sub(g.start)
	}
	initErr := g.initErr
	g.mu.Unlock()
	r.Stdout = readSmall(filepath.Join(g.share, "stdout"))
	r.Stderr = readSmall(filepath.Join(g.share, "stderr"))
	r.Dmesg = readSmall(filepath.Join(g.share, "dmesg"))
	if b, err := os.ReadFile(filepath.Join(g.share, "exit")); err == nil && r.ExitCode < 0 {
		if n, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			r.ExitCode = n
		}
	}
	r.Files = readTree(filepath.Join(g.share, "out"))
	var errs []string
	if initErr != "" {
		errs = append(errs, "guest /init: "+initErr)
	}
	if ctx.Err() != nil {
		errs = append(errs, "cancelled: "+ctx.Err().Error())
	} else if r.ExitCode < 0 && elapsed >= g.Spec.Timeout {
		errs = append(errs, fmt.Sprintf("guest killed after its timeout of %v", g.Spec.Timeout))
	}
	if r.ExitCode < 0 && len(errs) == 0 {
		errs = append(errs, fmt.Sprintf("guest ended without an exit status (qemu: %v; console ends: %s)", *g.waitErr, lastLines(r.Console, 3)))
	}
	if len(errs) > 0 {
		r.Error = strings.Join(errs, "; ")
		return r, errors.New("vm: " + r.Error)
	}
	return r, nil
}

func readSmall(p string) string {
	f, err := os.Open(p)
	if err != nil {
		return ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, maxConsole))
	return string(b)
}

func readTree(dir string) map[string][]byte {
	out := map[string][]byte{}
	total := 0
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil || total+len(b) > maxFiles {
			return nil
		}
		total += len(b)
		rel, _ := filepath.Rel(dir, p)
		out[rel] = b
		return nil
	})
	return out
}

// Close stops QEMU if it still runs and removes the run's namespace (and with it the taps),
// scratch directory and journal. Safe to call more than once.
func (g *Guest) Close() error {
	g.mu.Lock()
	if g.closed {
		g.mu.Unlock()
		return nil
	}
	g.closed = true
	g.mu.Unlock()
	var errs []error
	if g.cmd != nil && g.cmd.Process != nil {
		g.cmd.Process.Kill()
		<-g.done
	}
	if g.deadline != nil {
		g.deadline.Stop()
	}
	for _, t := range g.taps {
		t.Close()
	}
	if g.objs != nil {
		if err := g.objs.Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := g.lab.Close(); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// Run boots a guest, waits for its script and cleans up.
func Run(ctx context.Context, spec Spec) (*Result, error) {
	g, err := Start(ctx, spec)
	if err != nil {
		return nil, err
	}
	defer g.Close()
	return g.Wait(ctx)
}
