package main

import (
	"context"
	"flag"
	"fmt"
	"time"

	"headroom/input"
	"headroom/kernel"
	"headroom/record"
	"headroom/report"
	"headroom/source"
)

func init() {
	register("watch", "live view: one line per interval (like vmstat 1) with this domain's columns, flags rules as they fire", runWatch)
}

func runWatch(ctx context.Context, args []string, stdio IO) int {
	fs := flag.NewFlagSet("watch", flag.ContinueOnError)
	fs.SetOutput(stdio.Stderr)
	interval := fs.Duration("interval", time.Second, "time between lines")
	duration := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	window := fs.Int("window", 10, "samples the rules see each interval")
	skip := fs.String("skip", "", "comma-separated rule ids not to run")
	sockets := fs.Bool("sockets", true, "dump TCP sockets through sock_diag each interval")
	rootDir := fs.String("root", "", "read the kernel files under this directory instead of / (tests)")
	fs.Usage = func() {
		fmt.Fprintln(stdio.Stderr, "usage: headroom watch [--interval 1s] [--duration D] [--window 10]")
		fmt.Fprintln(stdio.Stderr, "Columns: the zone nearest its low watermark (free/low, MiB), its highest free order, reclaim scans/s,")
		fmt.Fprintln(stdio.Stderr, "compaction stalls/s, swap kB/s, TCP memory in % of tcp_mem pressure, receive drops/s per layer")
		fmt.Fprintln(stdio.Stderr, "(NIC, softnet backlog, sockets), retransmits/s, CPU %; then +rule (severity) when a rule starts")
		fmt.Fprintln(stdio.Stderr, "firing on the last --window samples, -rule when it stops.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return exitFailure
	}
	if fs.NArg() != 0 || *interval <= 0 {
		fs.Usage()
		return exitFailure
	}
	root := kernel.HostRoot()
	if *rootDir != "" {
		root = kernel.DirRoot(*rootDir)
	}
	tty := isTerminal(stdio.Stdout)
	headerEvery := 0
	if tty {
		headerEvery = 40
	}
	w := report.NewWatch(report.WatchOptions{Out: stdio.Stdout, Color: tty, Window: *window, Skip: splitSet(*skip), HeaderEvery: headerEvery, Finish: input.Finish})
	opts := source.DefaultOptions()
	opts.Sockets = *sockets
	err := record.Loop(ctx, root, record.LoopOptions{Interval: *interval, Duration: *duration, Sampler: opts, KeepSamples: true, Tool: "headroom watch"}, w)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom watch: %v\n", err)
		return exitFailure
	}
	return exitOK
}
