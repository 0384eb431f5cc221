package main

import (
	"context"
	"fmt"
	"time"

	"headroom/kernel"
	"headroom/report"
)

func init() {
	register("watch", "live view: one line per interval (like vmstat 1) with this domain's columns, flags rules as they fire", runWatch)
}

func runWatch(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("watch", stdio)
	interval := fs.Duration("interval", time.Second, "time between lines")
	duration := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	window := fs.Int("window", 10, "samples the rules see each interval")
	skip := fs.String("skip", "", "comma-separated rule ids not to run")
	sockets := fs.Bool("sockets", true, "dump TCP sockets through sock_diag each interval")
	rootDir := fs.String("root", "", "read the kernel files under this directory instead of / (tests)")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom watch [--interval 1s] [--duration D] [--window 10]")
		fmt.Fprintln(fs.Output(), "Columns: the zone nearest its low watermark (free/low, MiB), its highest free order, reclaim scans/s,")
		fmt.Fprintln(fs.Output(), "compaction stalls/s, swap kB/s, TCP memory in % of tcp_mem pressure, receive drops/s per layer")
		fmt.Fprintln(fs.Output(), "(NIC, softnet backlog, sockets), retransmits/s, CPU %; then +rule (severity) when a rule starts")
		fmt.Fprintln(fs.Output(), "firing on the last --window samples, -rule when it stops.")
		fs.PrintDefaults()
	}
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if fs.NArg() != 0 || *interval <= 0 {
		fs.Usage()
		return exitFailure
	}
	root := kernel.HostRoot()
	if *rootDir != "" {
		root = kernel.DirRoot(*rootDir)
	}
	opt := report.WatchOptions{Out: stdio.Stdout, Window: *window, Skip: splitSet(*skip)}
	if isTerminal(stdio.Stdout) {
		opt.Color, opt.HeaderEvery = true, 40
	}
	if err := report.WatchLive(ctx, root, *interval, *duration, *sockets, opt); err != nil {
		return failed(stdio, "watch", err)
	}
	return exitOK
}
