package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"headroom/export"
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
	rules := f.rulesInterval
	if rules <= 0 {
		rules = -1 // every sample
	}
	err := export.Serve(ctx, export.ServeOptions{
		Listen: f.listen, Once: f.once, Trace: f.trace, From: f.from, Root: f.root, HostRoot: f.hostRoot,
		Collector: export.Options{
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
		},
		DropPrivileges: dropPrivileges, Daemon: tuneRuntime,
		Stdout: stdio.Stdout, Stderr: stdio.Stderr,
	})
	if err != nil {
		return failed(stdio, "serve", err)
	}
	return exitOK
}

// dropPrivileges and tuneRuntime act on the whole process (export.ServeOptions): false in
// the tests, which run serve inside the test process.
var dropPrivileges, tuneRuntime = true, true
