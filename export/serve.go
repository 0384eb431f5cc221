package export

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/common/expfmt"
	"golang.org/x/sys/unix"

	"headroom/input"
	"headroom/internal/privdrop"
	"headroom/kernel"
	"headroom/source"
)

// ServeOptions are `headroom serve`'s, as cmd/headroom parsed them from its flags.
type ServeOptions struct {
	// Listen is the address of /metrics, the status page and /healthz.
	Listen string
	// Once writes one exposition (Prometheus text) to Stdout and returns.
	Once bool
	// Trace counts the kernel's drop reasons and stalls into headroom_trace_* (source.StartTrace).
	Trace bool
	// From (a capture), Root (a directory laid out like /) or HostRoot (the host's /
	// mounted in a container): what to read instead of this host.
	From, Root, HostRoot string
	// Collector are the collector's options (its Trace is set here with Trace).
	Collector Options
	// DropPrivileges re-executes serve started as root with CAP_SYSLOG alone (KeepCaps);
	// Daemon sets the Go runtime for a long-running process (daemonRuntime). Both act on the
	// whole process: the tests that run serve inside theirs leave them off.
	DropPrivileges, Daemon bool
	Stdout, Stderr         io.Writer
}

// KeepCaps are the capabilities of serve. Everything serve reads is readable by any user
// (docs/serve.md), except two things:
//
//   - /dev/kmsg when kernel.dmesg_restrict=1: devkmsg_open checks CAP_SYSLOG
//     (kernel/printk/printk.c check_syslog_permissions). Kept.
//   - /proc/pagetypeinfo (--pagetypeinfo) is mode 0400 owned by root: uid 0 reads it as
//     the file's owner, without CAP_DAC_OVERRIDE. Serve keeps uid 0, so nothing to keep.
//
// CAP_NET_ADMIN is needed by no reader: the ethtool commands serve sends (GSET, GDRVINFO,
// GRINGPARAM, GSSET_INFO, GSTRINGS, GSTATS) are on dev_ethtool's list of commands anyone
// may run (net/ethtool/ioctl.c), and sock_diag dumps are unprivileged (net/ipv4/inet_diag.c);
// TestUnprivileged runs them all as nobody. So serve started as root keeps CAP_SYSLOG alone.
//
// serve --trace keeps CAP_SYSLOG alone too. Of a traced window, only mount(2) of tracefs
// needs CAP_SYS_ADMIN; serve mounts it (when it is mounted nowhere) before the drop,
// detaches the mount at once and hands its open root to the re-executed serve
// (source.MountTraceFS, serveTraceFS). The rest is allowed to uid 0 by the files' modes,
// which serve keeps: creating and removing the instance, enabling its events, reading its
// per-CPU buffers and stats, restoring (and the guard's restore after a SIGKILL) — measured
// under setpriv with CapEff 0x400000000, and by cmd/headroom's TestLabServeTraceCaps.
// CAP_SYSLOG also names the drop locations: /proc/kallsyms shows addresses to an opener
// with it when kptr_restrict is 1, or 0 with perf_event_paranoid above 1
// (kernel/kallsyms.c kallsyms_show_value), as on this host (0 and 2).
//
// How they are dropped is internal/privdrop's.
var KeepCaps = []int{unix.CAP_SYSLOG}

// Serve runs `headroom serve`: it listens (and drops capabilities), starts the tracer, and
// serves the collector over HTTP until ctx ends; with Once it writes one exposition instead.
func Serve(ctx context.Context, o ServeOptions) error {
	root, err := serveRoot(o)
	if err != nil {
		return err
	}
	if o.Trace && (o.Once || o.From != "" || o.Root != "") {
		return errors.New("--trace counts this host's kernel events over time: not with --once, --from or --root")
	}
	// --trace: tracefs is mounted before the capabilities go (mount(2) is the one step of a
	// traced window that needs CAP_SYS_ADMIN: source.MountTraceFS), and handed over the
	// re-execution as an open directory.
	var traceNA error
	var tracefs *os.File
	if o.Trace {
		if tracefs, traceNA = serveTraceFS(); traceNA != nil {
			var na *source.TraceUnavailable
			if !errors.As(traceNA, &na) {
				return fmt.Errorf("--trace: %w", traceNA)
			}
		}
		if tracefs != nil {
			defer tracefs.Close()
		}
	}
	var ln net.Listener
	if !o.Once {
		// Listen before dropping capabilities (a port below 1024 needs
		// CAP_NET_BIND_SERVICE), and before the collector opens anything.
		if ln, err = listenServe(o, tracefs); err != nil {
			return err
		}
		defer ln.Close()
	}
	// The tracer starts after listenServe, which may re-execute serve to drop capabilities:
	// the new image is the one that traces.
	if o.Trace {
		var tracer *source.Tracer
		err := traceNA
		if err == nil {
			tracer, err = source.StartTrace(source.TraceOptions{MountDir: tracefs})
		}
		var na *source.TraceUnavailable
		switch {
		case errors.As(err, &na):
			fmt.Fprintf(o.Stderr, "headroom serve: --trace: not available: %s; serving without it\n", na.Why)
		case err != nil:
			return fmt.Errorf("--trace: %w", err)
		default:
			// Every return restores (a signal ends ctx, and serve returns); a SIGKILL leaves it
			// to the trace guard.
			defer func() {
				if _, err := tracer.Stop(); err != nil {
					fmt.Fprintf(o.Stderr, "headroom serve: --trace: %v\n", err)
				}
			}()
			o.Collector.Trace = tracer.Cut
			fmt.Fprintln(o.Stderr, "headroom serve: tracing the kernel's drop reasons and reclaim/compaction stalls (headroom_trace_*)")
		}
	}
	o.Collector.ReleaseMemory = !o.Once
	c := NewCollector(root, o.Collector)
	defer c.Close()

	if o.Once {
		return serveOnce(c, o.Stdout)
	}
	if o.Daemon {
		daemonRuntime()
	}

	addr := ln.Addr().(*net.TCPAddr)
	fmt.Fprintf(o.Stderr, "headroom serve: listening on http://%s/ (metrics at /metrics)\n", addr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintln(o.Stderr, "headroom serve: not a loopback address: whoever reaches it sees this host's kernel counters and finding ids")
	}
	handler, mh := newHandler(c, logTo{o.Stderr})
	srv := &http.Server{
		Handler:           handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
		ConnContext:       connContext, // holdHeader finds its connection
	}
	errc := make(chan error, 1)
	// Raw reads and writes: a scrape's system calls do not wake the runtime's sysmon
	// (rawconn.go); a Prometheus scrape is answered without net/http (fastpath.go).
	go func() { errc <- srv.Serve(newFastServer(ln, mh, srv)) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(o.Stderr, "headroom serve: shutdown: %v\n", err)
	}
	return nil
}

// serveTraceFSEnv names the descriptor of the tracefs that serve --trace mounted before it
// dropped its capabilities, in the re-executed serve.
const serveTraceFSEnv = "HEADROOM_SERVE_TRACEFS_FD"

// serveTraceFS is the tracefs serve --trace traces through: the one the serve before the
// re-execution mounted, or source.MountTraceFS's (nil: tracefs is mounted here already).
func serveTraceFS() (*os.File, error) {
	v, ok := os.LookupEnv(serveTraceFSEnv)
	if !ok {
		return source.MountTraceFS()
	}
	os.Unsetenv(serveTraceFSEnv)
	fd, err := strconv.Atoi(v)
	if err != nil || fd < 3 {
		return nil, fmt.Errorf("%s=%q: not a descriptor", serveTraceFSEnv, v)
	}
	unix.CloseOnExec(fd)
	var st unix.Statfs_t
	if err := unix.Fstatfs(fd, &st); err != nil || st.Type != unix.TRACEFS_MAGIC {
		return nil, fmt.Errorf("%s=%d: not a tracefs directory", serveTraceFSEnv, fd)
	}
	return os.NewFile(uintptr(fd), "tracefs"), nil
}

// listenServe listens on o.Listen, or takes the socket a re-executed serve inherited; as
// root, it then drops every capability but CAP_SYSLOG by re-executing serve
// (internal/privdrop), handing over tracefs (serve --trace's detached mount) when not nil.
func listenServe(o ServeOptions, tracefs *os.File) (net.Listener, error) {
	ln, err := privdrop.InheritedListener()
	if err != nil {
		return nil, err
	}
	if ln != nil {
		// The re-executed serve: check that the drop took.
		if err := privdrop.Check(KeepCaps); err != nil {
			ln.Close()
			return nil, err
		}
		return ln, nil
	}
	if ln, err = net.Listen("tcp", o.Listen); err != nil {
		return nil, err
	}
	if o.DropPrivileges {
		var keep []*os.File
		if tracefs != nil {
			keep = []*os.File{tracefs}
			os.Setenv(serveTraceFSEnv, strconv.Itoa(int(tracefs.Fd())))
		}
		// Only returns when there was nothing to drop, or on failure.
		err := privdrop.Drop(ln, KeepCaps, keep...)
		os.Unsetenv(serveTraceFSEnv)
		if err != nil {
			fmt.Fprintf(o.Stderr, "headroom serve: could not drop capabilities, running with all of them: %v\n", err)
		}
	}
	return ln, nil
}

// serveGCPercent is the garbage collector's target for the daemon. What serve keeps is small
// (under 2 MB of heap on the CI VM: the newest sample, the packed window, the label sets, the
// kernel-log tail) and a scrape leaves 20 to 35 KB of garbage, so at Go's default of 100 the
// heap would grow to twice the live size between collections for nothing. At 25 a
// collection comes every 15 to 20 scrapes and marks under 2 MB; measured against 50 on the
// CI VM (paired runs of 300 scrapes 25 ms apart), it kept 0.6 to 1.0 MB less resident at
// no CPU difference the runs could resolve. GOGC in the environment wins.
const serveGCPercent = 25

// daemonRuntime sets the Go runtime for a long-running serve: the GC target above, and one
// P (GOMAXPROCS=1), as node_exporter does by default (--runtime.gomaxprocs=1). A scrape's
// work is serialised by the collector's mutex anyway; a second P only adds threads that spin
// looking for work each time a scrape wakes the process, and their stacks and caches.
// GOGC and GOMAXPROCS in the environment win.
func daemonRuntime() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(serveGCPercent)
	}
	if os.Getenv("GOMAXPROCS") == "" {
		runtime.GOMAXPROCS(1)
	}
}

// serveRoot picks what to read: a capture, a directory, or this host.
func serveRoot(o ServeOptions) (kernel.Root, error) {
	switch {
	case o.HostRoot != "" && (o.Root != "" || o.From != ""):
		return kernel.Root{}, errors.New("give --host-root alone, without --root or --from")
	case o.From != "" && o.Root != "":
		return kernel.Root{}, errors.New("give --from or --root, not both")
	case o.From != "":
		return input.CaptureRoot(o.From, 0)
	case o.HostRoot != "":
		return kernel.MountedHostRoot(o.HostRoot), nil
	case o.Root != "":
		return kernel.DirRoot(o.Root), nil
	}
	return kernel.HostRoot(), nil
}

// serveOnce writes one exposition: for a node_exporter textfile directory, or to look at
// what a scrape would see.
func serveOnce(c *Collector, w io.Writer) error {
	mfs, err := NewRegistry(c).Gather()
	if err != nil {
		return err
	}
	enc := expfmt.NewEncoder(w, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return err
		}
	}
	return nil
}

// logTo adapts a writer to the HTTP layer's Logger.
type logTo struct{ w io.Writer }

func (l logTo) Println(v ...any) { fmt.Fprintln(l.w, v...) }
