package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"text/tabwriter"
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
		Target: *target,
		Dial: func(ctx context.Context) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "tcp", *target)
		},
		MeasureRequests: *requests, FloodRequests: *flood, FloodConcurrency: *concurrency,
		Idle: *idle, Repeat: *repeat, MaxPhase: *maxPhase, RequestTimeout: *timeout, RecoveredRatio: *ratio,
		Progress: func(m string) { fmt.Fprintf(stdio.Stderr, "%s %s\n", time.Now().Format("15:04:05"), m) },
	}
	if *connectOnly {
		cfg.Request = []byte{}
	}
	// Host metrics of this host's own network namespace, where a local service's sockets are.
	smp := lab.NewHostRecoverySampler()
	defer smp.Close()
	cfg.Sampler = smp
	rep, err := lab.RunRecovery(ctx, cfg)
	if err != nil {
		return failed(stdio, "recovery", err)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdio.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return failed(stdio, "recovery", err)
		}
	} else {
		writeRecoveryText(stdio, rep)
	}
	if !rep.Recovered {
		return exitCritical
	}
	return exitOK
}

func writeRecoveryText(stdio IO, rep *lab.RecoveryReport) {
	w := stdio.Stdout
	fmt.Fprintf(w, "recovery of %s\n", rep.Target)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  phase\trequests\tfailed\tconnections/s\tsystem CPU %\tslab kB\tTCP in use\tTIME_WAIT")
	g := func(m map[string]float64, k string) string {
		if v, ok := m[k]; ok {
			return fmt.Sprintf("%.0f", v)
		}
		return "-"
	}
	for _, p := range rep.Phases {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\n", p.Name, p.Requests, p.Failed, p.PerSec,
			g(p.Host, lab.RecSystemCPUPct), g(p.Host, lab.RecSlabKB), g(p.Host, lab.RecTCPInUse), g(p.Host, lab.RecTimeWait))
	}
	tw.Flush()
	fmt.Fprintf(w, "%s: worst re-measure / baseline = %.3f (threshold %.2f)\n", rep.Verdict, rep.RecoveryRatio, rep.RecoveredRatio)
	for _, d := range rep.NotReturned {
		fmt.Fprintf(w, "  did not return to baseline: %s %.1f → %.1f (tolerance %.1f)", d.Name, d.Baseline, d.Final, d.Tolerance)
		if d.Why != "" {
			fmt.Fprintf(w, ": %s", d.Why)
		}
		fmt.Fprintln(w)
	}
	if len(rep.Findings) > 0 {
		fmt.Fprintf(w, "doctor over the phases: %v (headroom explain ID)\n", rep.Findings)
	}
}
