package main

import (
	"context"
	"fmt"
	"time"

	"headroom/record"
)

func init() {
	register("record", "record this host to a .jsonl.gz archive (leave running, attach to a ticket)", runRecord)
}

func runRecord(ctx context.Context, args []string, stdio IO) int {
	fs := newFlagSet("record", stdio)
	out := fs.String("o", "", "archive to write (appended to when it exists): host.jsonl.gz")
	interval := fs.Duration("interval", time.Second, "time between samples")
	duration := fs.Duration("duration", 0, "stop after this long (0: until interrupted)")
	maxSize := fs.String("max-size", "100MB", "rotate the archive at this size (0: never); host.jsonl.gz → host.1.jsonl.gz")
	maxFiles := fs.Int("max-files", 9, "rotated files to keep besides the current one")
	mark := fs.String("mark", "", "phase marker: added to the recording that is writing -o, or the first marker of a new one")
	pagetype := fs.Bool("pagetypeinfo", false, "also read /proc/pagetypeinfo each sample (takes the zone lock)")
	sockets := fs.Bool("sockets", true, "dump TCP sockets through sock_diag each sample (socket states, orphans)")
	rootDir := fs.String("root", "", "read the kernel files under this directory instead of / (tests)")
	trace := fs.Bool("trace", false, "also trace the kernel while recording (as doctor --trace): drops by the kernel's reason and location, reclaim and compaction stalls; needs root and tracefs, restores every tracing setting after")
	traceEvery := fs.Duration("trace-every", time.Minute, "with --trace: write the counts of the tracepoints this often")
	fs.Usage = func() {
		fmt.Fprintln(fs.Output(), "usage: headroom record -o host.jsonl.gz [--interval 1s] [--duration 24h] [--max-size 100MB] [--mark TEXT]")
		fmt.Fprintln(fs.Output(), "       headroom record -o host.jsonl.gz --mark TEXT   (while a recorder runs: add a phase marker)")
		fmt.Fprintln(fs.Output(), "A running recorder also adds a marker on SIGUSR1. See docs/record.md.")
		fs.PrintDefaults()
	}
	if _, code, ok := parseFlags(fs, stdio, args, false); !ok {
		return code
	}
	if *out == "" || fs.NArg() != 0 {
		fs.Usage()
		return exitFailure
	}
	err := record.Record(ctx, record.Options{Out: *out, Interval: *interval, Duration: *duration, MaxSize: *maxSize, MaxFiles: *maxFiles,
		Mark: *mark, PageTypes: *pagetype, Sockets: *sockets, Root: *rootDir, Trace: *trace, TraceEvery: *traceEvery, Stderr: stdio.Stderr})
	if err != nil {
		return failed(stdio, "record", err)
	}
	return exitOK
}
