package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/record"
	"headroom/source"
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
	if *interval <= 0 {
		fmt.Fprintln(stdio.Stderr, "headroom record: --interval must be positive")
		return exitFailure
	}
	size, err := record.ParseSize(*maxSize)
	if err != nil {
		fmt.Fprintf(stdio.Stderr, "headroom record: --max-size: %v\n", err)
		return exitFailure
	}
	if *mark != "" {
		pid, err := record.RecorderPID(*out)
		if err != nil {
			return failed(stdio, "record", err)
		}
		if pid > 0 {
			if err := record.AppendMark(*out, model.Marker{Time: time.Now(), Text: *mark}); err != nil {
				return failed(stdio, "record", err)
			}
			fmt.Fprintf(stdio.Stderr, "headroom record: marked %q in %s (recorder pid %d)\n", *mark, *out, pid)
			return exitOK
		}
	}
	root := kernel.HostRoot()
	if *rootDir != "" {
		root = kernel.DirRoot(*rootDir)
	}
	marks := make(chan model.Marker, 16)
	if *mark != "" {
		marks <- model.Marker{Time: time.Now(), Text: *mark}
	}
	usr1 := make(chan os.Signal, 1)
	signal.Notify(usr1, syscall.SIGUSR1)
	defer signal.Stop(usr1)
	go func() {
		for k := 1; ; k++ {
			select {
			case <-usr1:
				select {
				case marks <- model.Marker{Time: time.Now(), Text: fmt.Sprintf("SIGUSR1 mark %d", k)}:
				default:
				}
			case <-ctx.Done():
				return
			}
		}
	}()
	var tracer *source.Tracer
	var unavailable []model.Unavailable
	if *trace {
		if *rootDir != "" {
			fmt.Fprintln(stdio.Stderr, "headroom record: --trace traces this host's kernel: not with --root")
			return exitFailure
		}
		if *traceEvery <= 0 {
			fmt.Fprintln(stdio.Stderr, "headroom record: --trace-every must be positive")
			return exitFailure
		}
		var err error
		tracer, err = source.StartTrace(source.TraceOptions{})
		var na *source.TraceUnavailable
		switch {
		case errors.As(err, &na):
			unavailable = append(unavailable, model.Unavailable{What: "kernel tracepoints (--trace)", Why: "not available: " + na.Why})
		case err != nil:
			return failed(stdio, "record", err)
		}
		// Every exit path restores (a signal cancels ctx and the loop returns); a SIGKILL
		// leaves it to the trace guard.
		defer func() {
			if tracer != nil {
				tracer.Stop()
			}
		}()
	}
	opts := source.DefaultOptions()
	opts.PageTypes, opts.Sockets = *pagetype, *sockets
	sink := &record.ArchiveSink{Path: *out, Opt: record.WriterOptions{MaxSizeBytes: size, MaxFiles: *maxFiles},
		OnCreate: func(w *record.Writer) {
			if w.Repaired != "" {
				fmt.Fprintf(stdio.Stderr, "headroom record: repaired %s: %s\n", *out, w.Repaired)
			}
			until := "until interrupted"
			if *duration > 0 {
				until = "for " + duration.String()
			}
			fmt.Fprintf(stdio.Stderr, "headroom record: recording to %s every %s %s (pid %d); mark a phase with: headroom record -o %s --mark TEXT\n",
				*out, *interval, until, os.Getpid(), *out)
		}}
	err = record.Loop(ctx, root, record.LoopOptions{Interval: *interval, Duration: *duration, Sampler: opts,
		Marks: marks, MarksFile: record.MarksPath(*out), Tool: "headroom record",
		Trace: tracer, TraceEvery: *traceEvery, Unavailable: unavailable}, sink)
	if tracer != nil {
		w, terr := tracer.Stop()
		tracer = nil
		if err == nil && sink.W != nil {
			if terr == nil {
				terr = sink.Trace(w)
			}
			err = terr
		}
	}
	cerr := sink.Close()
	if err == nil {
		err = cerr
	}
	if err != nil {
		return failed(stdio, "record", err)
	}
	fmt.Fprintf(stdio.Stderr, "headroom record: wrote %d samples to %s (%d bytes)\n", sink.Written, *out, sink.W.Size())
	return exitOK
}
