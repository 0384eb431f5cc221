package record

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// Options are `headroom record`'s, as cmd/headroom parsed them from its flags.
type Options struct {
	// Out is the archive (appended to when it exists).
	Out string
	// Interval between samples; Duration stops the recording (0: until ctx ends).
	Interval, Duration time.Duration
	// MaxSize rotates the archive at this size ("100MB"; "0": never), keeping MaxFiles
	// rotated files besides the current one.
	MaxSize  string
	MaxFiles int
	// Mark is a phase marker: added to the recording a running recorder writes to Out, or
	// the first marker of a new one.
	Mark string
	// PageTypes and Sockets: the sampler's /proc/pagetypeinfo and sock_diag dump.
	PageTypes, Sockets bool
	// Root reads the kernel files under this directory instead of / (tests).
	Root string
	// Trace also traces the kernel (source.StartTrace), writing its counts every TraceEvery.
	Trace      bool
	TraceEvery time.Duration
	// Stderr receives the recorder's notes (where it records, what it wrote).
	Stderr io.Writer
}

// Record runs `headroom record`: it hands the marker to a running recorder of Out, or
// records this host (or Root) into Out until ctx ends or Duration passes, with a marker on
// each SIGUSR1.
func Record(ctx context.Context, o Options) error {
	if o.Interval <= 0 {
		return errors.New("--interval must be positive")
	}
	size, err := ParseSize(o.MaxSize)
	if err != nil {
		return fmt.Errorf("--max-size: %w", err)
	}
	if o.Mark != "" {
		pid, err := RecorderPID(o.Out)
		if err != nil {
			return err
		}
		if pid > 0 {
			if err := AppendMark(o.Out, model.Marker{Time: time.Now(), Text: o.Mark}); err != nil {
				return err
			}
			fmt.Fprintf(o.Stderr, "headroom record: marked %q in %s (recorder pid %d)\n", o.Mark, o.Out, pid)
			return nil
		}
	}
	root := kernel.HostRoot()
	if o.Root != "" {
		root = kernel.DirRoot(o.Root)
	}
	marks := make(chan model.Marker, 16)
	if o.Mark != "" {
		marks <- model.Marker{Time: time.Now(), Text: o.Mark}
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
	if o.Trace {
		if o.Root != "" {
			return errors.New("--trace traces this host's kernel: not with --root")
		}
		if o.TraceEvery <= 0 {
			return errors.New("--trace-every must be positive")
		}
		var err error
		tracer, err = source.StartTrace(source.TraceOptions{})
		var na *source.TraceUnavailable
		switch {
		case errors.As(err, &na):
			unavailable = append(unavailable, model.Unavailable{What: "kernel tracepoints (--trace)", Why: "not available: " + na.Why})
		case err != nil:
			return err
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
	opts.PageTypes, opts.Sockets = o.PageTypes, o.Sockets
	sink := &ArchiveSink{Path: o.Out, Opt: WriterOptions{MaxSizeBytes: size, MaxFiles: o.MaxFiles},
		OnCreate: func(w *Writer) {
			if w.Repaired != "" {
				fmt.Fprintf(o.Stderr, "headroom record: repaired %s: %s\n", o.Out, w.Repaired)
			}
			until := "until interrupted"
			if o.Duration > 0 {
				until = "for " + o.Duration.String()
			}
			fmt.Fprintf(o.Stderr, "headroom record: recording to %s every %s %s (pid %d); mark a phase with: headroom record -o %s --mark TEXT\n",
				o.Out, o.Interval, until, os.Getpid(), o.Out)
		}}
	err = Loop(ctx, root, LoopOptions{Interval: o.Interval, Duration: o.Duration, Sampler: opts,
		Marks: marks, MarksFile: MarksPath(o.Out), Tool: "headroom record",
		Trace: tracer, TraceEvery: o.TraceEvery, Unavailable: unavailable}, sink)
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
	if cerr := sink.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(o.Stderr, "headroom record: wrote %d samples to %s (%d bytes)\n", sink.Written, o.Out, sink.W.Size())
	return nil
}
