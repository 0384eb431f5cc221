package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"headroom/lab"
)

func init() {
	register("recovery", "the LKML firewall report's procedure: baseline, flood, idle, re-measure a service; did it recover?", runRecovery)
}

// runRecovery measures a service's connection rate before and after floods (lab.RunRecovery)
// and reports whether it came back and which host metrics did not. It floods the target with
// many concurrent connections: point it only at a service you own.
func runRecovery(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("recovery", stdio)
	var (
		target      = fs.String("target", "", "HOST:PORT of your own service (required)")
		requests    = fs.Int("requests", 400, "sequential requests of the baseline and of each re-measure (the seed's ab -n 400)")
		flood       = fs.Int("flood", 5000, "requests of each flood")
		concurrency = fs.Int("concurrency", 200, "concurrent connections of each flood")
		idle        = fs.Duration("idle", 10*time.Second, "pause after each flood")
		repeat      = fs.Int("repeat", 4, "flood/idle/re-measure rounds")
		maxPhase    = fs.Duration("max-phase", 60*time.Second, "time bound of one phase")
		timeout     = fs.Duration("request-timeout", time.Second, "time bound of one request")
		ratio       = fs.Float64("ratio", 0.8, "share of the baseline rate a re-measure must reach to count as recovered")
		connectOnly = fs.Bool("connect-only", false, "connect, read until the service closes, close (no HTTP request)")
		format      = fs.String("format", "text", "output: text or json")
	)
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom recovery --target HOST:PORT [flags]")
		fmt.Fprintln(fs.Output(), "Floods the target: use it only on a service you own (loopback, a test host).")
		fmt.Fprintln(fs.Output(), "Exit status: 0 recovered, 2 did not recover, 3 could not run.")
		fs.PrintDefaults()
	}
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stdio.Stderr, "headroom recovery: unexpected arguments %q\n", fs.Args())
		return exitFailure
	}
	if *target == "" {
		fmt.Fprintln(stdio.Stderr, "headroom recovery: --target HOST:PORT is required")
		return exitFailure
	}
	host, port, err := net.SplitHostPort(*target)
	if err != nil || host == "" || port == "" {
		fmt.Fprintf(stdio.Stderr, "headroom recovery: --target %q: want HOST:PORT\n", *target)
		return exitFailure
	}
	if *format != "text" && *format != "json" {
		fmt.Fprintf(stdio.Stderr, "headroom recovery: --format %q: want text or json\n", *format)
		return exitFailure
	}
	if *requests <= 0 || *flood <= 0 || *concurrency <= 0 || *repeat <= 0 || *ratio <= 0 || *ratio > 1 {
		fmt.Fprintln(stdio.Stderr, "headroom recovery: --requests, --flood, --concurrency and --repeat must be positive, --ratio in (0, 1]")
		return exitFailure
	}
	cfg := lab.RecoveryConfig{
		Target: *target, MeasureRequests: *requests, FloodRequests: *flood, FloodConcurrency: *concurrency,
		Idle: *idle, Repeat: *repeat, MaxPhase: *maxPhase, RequestTimeout: *timeout, RecoveredRatio: *ratio,
		Progress: lab.Progress(stdio.Stderr),
	}
	if *connectOnly {
		cfg.Request = []byte{}
	}
	recovered, err := lab.RecoverService(ctx, cfg, *format, stdio.Stdout)
	if err != nil {
		return failed(stdio, "recovery", err)
	}
	if !recovered {
		return exitCritical
	}
	return exitOK
}
