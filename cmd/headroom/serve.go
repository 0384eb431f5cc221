package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/prometheus/common/expfmt"
	"golang.org/x/sys/unix"

	"headroom/export"
	"headroom/input"
	"headroom/internal/privdrop"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

func init() {
	register("serve", "serve this host's kernel memory and network metrics and findings to Prometheus", runServe)
}

type serveFlags struct {
	listen        string
	minInterval   time.Duration
	window        time.Duration
	windowSamples int
	windowEvery   time.Duration
	rulesInterval time.Duration
	logSince      time.Duration
	sockets       bool
	pagetype      bool
	ethtool       bool
	skip          string
	root          string
	hostRoot      string
	from          string
	once          bool
	trace         bool
}

// newServeFlags declares serve's flags on a FlagSet; the deploy tests parse the systemd
// unit's and the DaemonSet's arguments with it.
func newServeFlags(stdio IO) (*flag.FlagSet, *serveFlags) {
	fs := newFlagSet("serve", stdio)
	var f serveFlags
	fs.StringVar(&f.listen, "listen", "127.0.0.1:9781", "address to serve /metrics, the status page / and /healthz on")
	fs.DurationVar(&f.minInterval, "min-interval", time.Second, "least time between two samples; scrapes sooner share the last one")
	fs.DurationVar(&f.window, "window", 10*time.Minute, "how far back the rules look (samples and kernel-log events)")
	fs.IntVar(&f.windowSamples, "window-samples", 60, "most samples kept in the window")
	fs.DurationVar(&f.windowEvery, "window-interval", 0, "least time between two samples of the window; scrapes in between read only the files the metrics carry (0: --window / --window-samples, 10s by default; negative, e.g. -1s: every sample)")
	fs.DurationVar(&f.logSince, "log-since", time.Hour, "how far back the rules read the kernel log when longer than --window: records older than 5 min before the window are a warning at most, as doctor's --log-since")
	fs.DurationVar(&f.rulesInterval, "rules-interval", export.DefaultRulesInterval, "least time between two runs of the rules over the window (a new kernel-log event runs them sooner); 0 runs them on every sample")
	fs.BoolVar(&f.sockets, "sockets", false, "dump every TCP socket (sock_diag) each sample for per-state counts; costs more with many sockets")
	fs.BoolVar(&f.pagetype, "pagetypeinfo", false, "read /proc/pagetypeinfo each sample (root only; takes the zone lock)")
	fs.BoolVar(&f.ethtool, "ethtool", true, "read driver statistics and ring sizes of the physical NICs")
	fs.StringVar(&f.skip, "skip", "", "comma-separated rule ids not to run")
	fs.StringVar(&f.root, "root", "", "read the kernel files under this directory instead of /")
	fs.StringVar(&f.hostRoot, "host-root", "", "the host's / (or its /proc and /sys) is mounted here, as in a container: sample it live, read the host's network through its proc/1/net and every cgroup's socket memory through its sys/fs/cgroup; ethtool and net.* sysctls still see this process's network namespace (run with hostNetwork)")
	fs.StringVar(&f.from, "from", "", "serve a capture (.txtar from headroom capture) instead of this host")
	fs.BoolVar(&f.once, "once", false, "print the metrics once (Prometheus text format) to stdout and exit")
	fs.BoolVar(&f.trace, "trace", false, "trace the kernel's drop reasons (skb:kfree_skb) and its direct-reclaim and compaction stalls into the headroom_trace_* counters, in a tracefs instance of serve's own, removed on exit (by a guard process after SIGKILL); needs root; tracefs is mounted (detached, when mounted nowhere) before serve drops every capability but CAP_SYSLOG")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom serve [--listen 127.0.0.1:9781] [flags]")
		fmt.Fprintln(fs.Output(), "Serves /metrics (Prometheus and OpenMetrics), a live status page at /, /healthz, and the rule pages at /docs/rules/ID.md.")
		fs.PrintDefaults()
	}
	return fs, &f
}

func runServe(ctx context.Context, args []string, stdio IO) int {
	fs, f := newServeFlags(stdio)
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom serve: unexpected argument %q\n", fs.Arg(0))
		return exitFailure
	}
	root, err := serveRoot(f)
	if err != nil {
		return failed(stdio, "serve", err)
	}
	if f.trace && (f.once || f.from != "" || f.root != "") {
		fmt.Fprintln(stdio.Stderr, "headroom serve: --trace counts this host's kernel events over time: not with --once, --from or --root")
		return exitFailure
	}
	// --trace: tracefs is mounted before the capabilities go (mount(2) is the one step of a
	// traced window that needs CAP_SYS_ADMIN: source.MountTraceFS), and handed over the
	// re-execution as an open directory.
	var traceNA string
	var tracefs *os.File
	if f.trace {
		if tracefs, err = serveTraceFS(); err != nil {
			var na *source.TraceUnavailable
			if !errors.As(err, &na) {
				return failed(stdio, "serve", fmt.Errorf("--trace: %w", err))
			}
			traceNA = na.Why
		}
		if tracefs != nil {
			defer tracefs.Close()
		}
	}
	var ln net.Listener
	if !f.once {
		// Listen before dropping capabilities (a port below 1024 needs
		// CAP_NET_BIND_SERVICE), and before the collector opens anything.
		if ln, err = listenServe(f.listen, tracefs, stdio); err != nil {
			return failed(stdio, "serve", err)
		}
		defer ln.Close()
	}
	rules := f.rulesInterval
	if rules <= 0 {
		rules = -1 // every sample
	}
	// The tracer starts after listenServe, which may re-execute serve to drop capabilities:
	// the new image is the one that traces.
	var cut func() *model.TraceWindow
	if f.trace && traceNA != "" {
		fmt.Fprintf(stdio.Stderr, "headroom serve: --trace: not available: %s; serving without it\n", traceNA)
	}
	if f.trace && traceNA == "" {
		tracer, err := source.StartTrace(source.TraceOptions{MountDir: tracefs})
		var na *source.TraceUnavailable
		switch {
		case errors.As(err, &na):
			fmt.Fprintf(stdio.Stderr, "headroom serve: --trace: not available: %s; serving without it\n", na.Why)
		case err != nil:
			return failed(stdio, "serve", fmt.Errorf("--trace: %w", err))
		default:
			// Every return restores (a signal ends ctx, and serve returns); a SIGKILL leaves it
			// to the trace guard.
			defer func() {
				if _, err := tracer.Stop(); err != nil {
					fmt.Fprintf(stdio.Stderr, "headroom serve: --trace: %v\n", err)
				}
			}()
			cut = tracer.Cut
			fmt.Fprintln(stdio.Stderr, "headroom serve: tracing the kernel's drop reasons and reclaim/compaction stalls (headroom_trace_*)")
		}
	}
	c := export.NewCollector(root, export.Options{
		MinInterval:    f.minInterval,
		Window:         f.window,
		WindowSamples:  f.windowSamples,
		WindowInterval: f.windowEvery,
		RulesInterval:  rules,
		LogSince:       f.logSince,
		Sockets:        f.sockets,
		PageTypes:      f.pagetype,
		Ethtool:        f.ethtool,
		Skip:           splitSet(f.skip),
		ReleaseMemory:  !f.once,
		Trace:          cut,
	})
	defer c.Close()

	if f.once {
		return serveOnce(c, stdio)
	}
	if tuneRuntime {
		daemonRuntime()
	}

	addr := ln.Addr().(*net.TCPAddr)
	fmt.Fprintf(stdio.Stderr, "headroom serve: listening on http://%s/ (metrics at /metrics)\n", addr)
	if !addr.IP.IsLoopback() {
		fmt.Fprintln(stdio.Stderr, "headroom serve: not a loopback address: whoever reaches it sees this host's kernel counters and finding ids")
	}
	srv := &http.Server{
		Handler:           export.NewHandler(c, logTo{stdio}),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    16 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return failed(stdio, "serve", err)
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		fmt.Fprintf(stdio.Stderr, "headroom serve: shutdown: %v\n", err)
	}
	return exitOK
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

// listenServe listens on addr, or takes the socket a re-executed serve inherited; as root,
// it then drops every capability but CAP_SYSLOG by re-executing serve (internal/privdrop),
// handing over tracefs (serve --trace's detached mount) when not nil.
func listenServe(addr string, tracefs *os.File, stdio IO) (net.Listener, error) {
	ln, err := privdrop.InheritedListener()
	if err != nil {
		return nil, err
	}
	if ln != nil {
		// The re-executed serve: check that the drop took.
		if err := privdrop.Check(serveKeepCaps); err != nil {
			ln.Close()
			return nil, err
		}
		return ln, nil
	}
	if ln, err = net.Listen("tcp", addr); err != nil {
		return nil, err
	}
	if dropPrivileges {
		var keep []*os.File
		if tracefs != nil {
			keep = []*os.File{tracefs}
			os.Setenv(serveTraceFSEnv, strconv.Itoa(int(tracefs.Fd())))
		}
		// Only returns when there was nothing to drop, or on failure.
		err := privdrop.Drop(ln, serveKeepCaps, keep...)
		os.Unsetenv(serveTraceFSEnv)
		if err != nil {
			fmt.Fprintf(stdio.Stderr, "headroom serve: could not drop capabilities, running with all of them: %v\n", err)
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

// tuneRuntime is false in the tests, which run serve inside the test process: the settings
// below are process-wide.
var tuneRuntime = true

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
func serveRoot(f *serveFlags) (kernel.Root, error) {
	switch {
	case f.hostRoot != "" && (f.root != "" || f.from != ""):
		return kernel.Root{}, errors.New("give --host-root alone, without --root or --from")
	case f.from != "" && f.root != "":
		return kernel.Root{}, errors.New("give --from or --root, not both")
	case f.from != "":
		return input.CaptureRoot(f.from, 0)
	case f.hostRoot != "":
		return kernel.MountedHostRoot(f.hostRoot), nil
	case f.root != "":
		return kernel.DirRoot(f.root), nil
	}
	return kernel.HostRoot(), nil
}

// serveOnce writes one exposition to stdout: for a node_exporter textfile directory, or to
// look at what a scrape would see.
func serveOnce(c *export.Collector, stdio IO) int {
	mfs, err := export.NewRegistry(c).Gather()
	if err != nil {
		return failed(stdio, "serve", err)
	}
	enc := expfmt.NewEncoder(stdio.Stdout, expfmt.NewFormat(expfmt.TypeTextPlain))
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			return failed(stdio, "serve", err)
		}
	}
	return exitOK
}

// logTo adapts stdio.Stderr to the HTTP layer's logger.
type logTo struct{ stdio IO }

func (l logTo) Println(v ...any) { fmt.Fprintln(l.stdio.Stderr, v...) }
