// Package input turns whatever the user points headroom at into a finished model.Timeline:
// the live host or a directory sampled live, a capture (a captured directory or a .txtar), a
// recording (.jsonl.gz), or pasted text (a file, a FIFO or standard input). It is the one
// place that knows how a path becomes a Timeline, so the commands only call Open, and the
// one place that finishes what it reads (judge.Finish: the events of its kernel log and the
// rates between its samples, once).
//
// Every read is bounded and cancellable. Text is read up to Options.MaxTextBytes and the rest
// is skipped and said so; a recording's decompressed size and its kernel log are bounded (a
// small gzip file can inflate to gigabytes); a capture larger than MaxCaptureBytes is refused.
// A read from standard input or a FIFO (which can block for ever, and whose open blocks until
// a writer appears) returns as soon as ctx is cancelled.
package input

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/rogpeppe/go-internal/txtar"

	"headroom/artifact"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/record"
	"headroom/source"
)

// Kind says what a path is.
type Kind string

const (
	// Auto guesses from the path: "-" is text on standard input; a directory or a .txtar is
	// a capture; a .jsonl.gz is a recording; any other file is pasted text.
	Auto Kind = ""
	// Text is pasted text: a file, a FIFO, or "-" for standard input.
	Text Kind = "text"
	// Snapshot is a capture (a directory or a .txtar) or a recording: doctor --from.
	Snapshot Kind = "snapshot"
	// Live samples a root for Options.Duration: "" or "/" is this host, another path a
	// directory laid out like / (doctor --root).
	Live Kind = "live"
)

// Default limits. Text pastes are kilobytes to a few megabytes; 64 MiB holds a day of a busy
// host's syslog while keeping the parser's peak (about four times the text) near 300 MB.
const (
	DefaultMaxTextBytes    = 64 << 20
	DefaultMaxCaptureBytes = 256 << 20
	// A recording rotates at 100 MB compressed by default (record --max-size), about 30
	// hours at 1 s of 27 KB samples that compress to 0.9 KB (docs/record.md): some 3 GB of
	// JSON. Reading stops at 4 GiB of JSON, and keeps 64 MiB of kernel log lines, the part a
	// gzip bomb inflates.
	DefaultMaxRecordingBytes = 4 << 30
	DefaultMaxLogBytes       = 64 << 20
)

// Options say how to read an input.
type Options struct {
	Kind Kind

	// Text: the kernel release the text came from, when it does not say (decodes GFP modes).
	Kernel string
	// Stdin is what "-" reads; nil means os.Stdin.
	Stdin io.Reader

	// Live and captures: kernel log records older than this before the first sample are
	// history (model.Timeline.LogCurrentSince).
	LogSince time.Duration
	// Live: how long and how often to sample, whether to read /proc/pagetypeinfo, and a
	// progress callback (source.CollectOptions).
	Duration, Interval time.Duration
	PageTypes          bool
	Progress           func(i, n int)
	// MountedHost: the live path is a running host's / mounted in a container
	// (kernel.MountedHostRoot): sampled live, network files through its proc/1/net.
	MountedHost bool

	// Limits; 0 takes the default.
	MaxTextBytes      int64
	MaxCaptureBytes   int64
	MaxRecordingBytes int64
	MaxLogBytes       int64
	// MaxSampleBytes bounds what a recording's samples keep in memory
	// (record.Limits.MaxSampleBytes; 0: record.DefaultMaxSampleBytes).
	MaxSampleBytes int64
}

func (o *Options) defaults() {
	if o.MaxTextBytes <= 0 {
		o.MaxTextBytes = DefaultMaxTextBytes
	}
	if o.MaxCaptureBytes <= 0 {
		o.MaxCaptureBytes = DefaultMaxCaptureBytes
	}
	if o.MaxRecordingBytes <= 0 {
		o.MaxRecordingBytes = DefaultMaxRecordingBytes
	}
	if o.MaxLogBytes <= 0 {
		o.MaxLogBytes = DefaultMaxLogBytes
	}
	if o.Stdin == nil {
		o.Stdin = os.Stdin
	}
}

// Open reads one input into a finished Timeline.
func Open(ctx context.Context, path string, opt Options) (*model.Timeline, error) {
	opt.defaults()
	tl, err := open(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	judge.Finish(tl)
	return tl, nil
}

// OpenAll reads several inputs into one finished Timeline (model.Merge, with a break between
// inputs so that no rate spans two of them). doctor reads several pasted files this way.
func OpenAll(ctx context.Context, paths []string, opt Options) (*model.Timeline, error) {
	opt.defaults()
	if len(paths) == 0 {
		return nil, errors.New("no input given")
	}
	var tls []*model.Timeline
	for _, p := range paths {
		tl, err := open(ctx, p, opt)
		if err != nil {
			return nil, err
		}
		tls = append(tls, tl)
	}
	tl := tls[0]
	if len(tls) > 1 {
		tl = model.Merge(tls...)
	}
	judge.Finish(tl)
	return tl, nil
}

func open(ctx context.Context, path string, opt Options) (*model.Timeline, error) {
	kind := opt.Kind
	if kind == Auto {
		kind = guess(path)
	}
	switch kind {
	case Text:
		return openText(ctx, path, opt)
	case Live:
		root := kernel.HostRoot()
		if path != "" && path != "/" {
			if st, err := os.Stat(path); err != nil {
				return nil, err
			} else if !st.IsDir() {
				return nil, fmt.Errorf("%s: not a directory", path)
			}
			root = kernel.DirRoot(path)
			if opt.MountedHost {
				root = kernel.MountedHostRoot(path)
			}
		}
		so := source.DefaultOptions()
		so.PageTypes = opt.PageTypes
		return source.Collect(ctx, root, source.CollectOptions{Options: so,
			Duration: opt.Duration, Interval: opt.Interval, LogSince: opt.LogSince, Progress: opt.Progress})
	case Snapshot:
		return openSnapshot(ctx, path, opt)
	}
	return nil, fmt.Errorf("input kind %q unknown", kind)
}

func guess(path string) Kind {
	if path == "-" {
		return Text
	}
	if strings.HasSuffix(path, ".txtar") || record.IsArchive(path) {
		return Snapshot
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return Snapshot
	}
	return Text
}

// openSnapshot reads a capture or a recording.
func openSnapshot(ctx context.Context, path string, opt Options) (*model.Timeline, error) {
	if record.IsArchive(path) {
		if err := regularFile(path); err != nil {
			return nil, err
		}
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		tl, _, err := record.FromReaderLimits(readerWithContext(ctx, f), filepath.Base(path),
			record.Limits{MaxBytes: opt.MaxRecordingBytes, MaxLogBytes: opt.MaxLogBytes, MaxSampleBytes: opt.MaxSampleBytes})
		if err != nil && ctx.Err() != nil {
			return nil, fmt.Errorf("%s: %w", path, ctx.Err())
		}
		return tl, err
	}
	root, err := CaptureRoot(path, opt.MaxCaptureBytes)
	if err != nil {
		return nil, err
	}
	return source.Collect(ctx, root, source.CollectOptions{Options: source.DefaultOptions(), LogSince: opt.LogSince})
}

// CaptureRoot opens a captured host, a directory or a .txtar, as a kernel.Root, after
// checking it is one and no larger than maxBytes (0: DefaultMaxCaptureBytes): /dev/zero or a
// FIFO given as a capture would otherwise be read for ever. serve --from uses it too.
func CaptureRoot(path string, maxBytes int64) (kernel.Root, error) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxCaptureBytes
	}
	st, err := os.Stat(path)
	if err != nil {
		return kernel.Root{}, err
	}
	if st.IsDir() {
		if err := boundedDir(path, maxBytes); err != nil {
			return kernel.Root{}, err
		}
		return kernel.DirRoot(path), nil
	}
	if err := regularFile(path); err != nil {
		return kernel.Root{}, err
	}
	if st.Size() > maxBytes {
		return kernel.Root{}, fmt.Errorf("%s: %d MiB, larger than a capture can be (%s); is it a capture?", path, st.Size()>>20, mib(maxBytes))
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return kernel.Root{}, err
	}
	a := txtar.Parse(data)
	if len(a.Files) == 0 {
		return kernel.Root{}, fmt.Errorf("%s: not a capture (no files in the txtar archive); for pasted text, give the file as an argument without --from", path)
	}
	return kernel.TxtarRoot(a, filepath.Base(path)), nil
}

// regularFile says what path is when it is not a regular file.
func regularFile(path string) error {
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	if !st.Mode().IsRegular() && !st.IsDir() {
		return fmt.Errorf("%s: a %s, not a capture or a recording (a directory, a .txtar or a .jsonl.gz file); for pasted text, give it as an argument without --from", path, fileType(st.Mode()))
	}
	return nil
}

// boundedDir refuses a captured directory whose files add up to more than limit bytes: the
// readers hold a file's contents (a kernel log of gigabytes would be held whole), and a
// capture is a few megabytes.
func boundedDir(dir string, limit int64) error {
	var total int64
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		// A file above the opener's per-file cap is refused by name when read
		// (kernel.MaxRootFileBytes), not counted against the capture.
		if info, err := d.Info(); err == nil && info.Size() <= kernel.MaxRootFileBytes {
			total += info.Size()
		}
		if total > limit {
			return fmt.Errorf("%s: its files add up to more than %s, larger than a capture can be; is it a captured host?", dir, mib(limit))
		}
		return nil
	})
	return err
}

func fileType(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "FIFO"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeSocket != 0:
		return "socket"
	}
	return "special file"
}

// openText reads pasted text from a file, a FIFO or standard input ("-"), up to
// MaxTextBytes, and parses it.
func openText(ctx context.Context, path string, opt Options) (*model.Timeline, error) {
	name := filepath.Base(path)
	if path == "-" {
		name = "stdin"
	}
	data, more, err := readText(ctx, path, opt)
	if err != nil {
		return nil, err
	}
	limitTextMemory(len(data))
	tl, err := artifact.ParseBytes(data, name, artifact.Options{Kernel: opt.Kernel})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if more {
		tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: name + " after " + mib(int64(len(data))),
			Why: fmt.Sprintf("the text is longer than %s, the most headroom reads; the rest was skipped (give the part around the problem)", mib(opt.MaxTextBytes))})
	}
	return tl, nil
}

// limitTextMemory sets a soft memory limit for a process that reads a big text: 48 MiB
// and two and a half times the text, unless GOMEMLIMIT (or an earlier, lower limit) says
// otherwise. What the parser keeps of a text is bounded (artifact/retain.go) and, with the
// text itself, stays under about twice its size; the garbage collector's default pacing
// (GOGC=100) lets the heap grow to twice what is live before it collects, which put the
// peak of a 50 MB paste at 350 MB. Near the limit it collects sooner instead (a soft limit:
// it never fails an allocation, and gives the collector at most half the CPU).
func limitTextMemory(textBytes int) {
	if textBytes < 8<<20 || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := int64(48<<20) + int64(textBytes)*5/2
	if cur := debug.SetMemoryLimit(-1); cur > limit {
		debug.SetMemoryLimit(limit)
	}
}

func mib(n int64) string { return fmt.Sprintf("%d MiB", (n+1<<19)>>20) }

// readText returns up to opt.MaxTextBytes of the text, cut at the last line end when there
// is more (more is then true). Binary input is an error as soon as its first bytes are read.
func readText(ctx context.Context, path string, opt Options) (data []byte, more bool, err error) {
	return readCancellable(ctx, path, opt.Stdin, opt.MaxTextBytes, true)
}

// ReadFile reads a file, a FIFO or standard input ("-") whole, up to limit bytes (more is an
// error), and returns when ctx is done even while the open or a read blocks. tune --from
// reads its changes with it.
func ReadFile(ctx context.Context, path string, stdin io.Reader, limit int64) ([]byte, error) {
	if stdin == nil {
		stdin = os.Stdin
	}
	data, more, err := readCancellable(ctx, path, stdin, limit, false)
	if err == nil && more {
		err = fmt.Errorf("%s: larger than %d bytes, more than this input can be", displayName(path), limit)
	}
	return data, err
}

func displayName(path string) string {
	if path == "-" {
		return "standard input"
	}
	return path
}

// readCancellable reads path (or stdin for "-") up to limit. The open (which blocks on a FIFO
// until a writer comes) and the reads run apart from the caller, which returns when ctx is
// done.
func readCancellable(ctx context.Context, path string, stdin io.Reader, limit int64, text bool) (data []byte, more bool, err error) {
	type result struct {
		data []byte
		more bool
		err  error
	}
	done := make(chan result, 1)
	go func() {
		r := stdin
		if path != "-" {
			f, err := os.Open(path)
			if err != nil {
				done <- result{err: err}
				return
			}
			defer f.Close()
			if st, err := f.Stat(); err == nil && st.IsDir() {
				done <- result{err: fmt.Errorf("%s: a directory; give it with --from to read it as a captured host", path)}
				return
			}
			r = f
		}
		d, m, err := readBounded(r, limit, text)
		if err != nil {
			err = fmt.Errorf("%s: %w", strings.Replace(displayName(path), "standard input", "stdin", 1), err)
		}
		done <- result{d, m, err}
	}()
	select {
	case res := <-done:
		return res.data, res.more, res.err
	case <-ctx.Done():
		// The reading goroutine stays blocked in open(2) or read(2) until the process
		// exits, which it is about to: the commands exit on a cancelled context.
		return nil, false, fmt.Errorf("reading %s: interrupted (%w)", displayName(path), context.Cause(ctx))
	}
}

// readChunk is how much is read at a time, and how much is checked for binary content first.
const readChunk = 1 << 20

// readBounded reads r up to limit bytes. It stops there and, when there is more, cuts text
// back to the last newline so that no half line is parsed; text that looks binary is an error
// after its first 8 KiB.
func readBounded(r io.Reader, limit int64, text bool) ([]byte, bool, error) {
	var buf []byte
	if s, ok := sizeOf(r); ok {
		buf = make([]byte, 0, min(s, limit)+1)
	}
	checked := !text
	for {
		if int64(len(buf)) > limit {
			cut := buf[:limit]
			if i := bytes.LastIndexByte(cut, '\n'); i >= 0 && text {
				cut = cut[:i+1]
			}
			return cut, true, nil
		}
		if len(buf) == cap(buf) {
			// Double (from one chunk), never past max+1: the extra byte tells "more".
			buf = slices.Grow(buf, int(min(max(int64(cap(buf)), readChunk), limit+1-int64(len(buf)))))
		}
		want := min(int64(cap(buf)), limit+1)
		n, err := r.Read(buf[len(buf):want])
		buf = buf[:len(buf)+n]
		if !checked && (len(buf) >= 8<<10 || err != nil) {
			checked = true
			if artifact.LooksBinary(buf) {
				return nil, false, artifact.ErrBinary
			}
		}
		if err == io.EOF {
			return buf, false, nil
		}
		if err != nil {
			return nil, false, err
		}
	}
}

// sizeOf is the size of a regular file or an in-memory reader, for one exact allocation.
func sizeOf(r io.Reader) (int64, bool) {
	switch v := r.(type) {
	case interface{ Len() int }:
		return int64(v.Len()), true
	case *os.File:
		if st, err := v.Stat(); err == nil && st.Mode().IsRegular() {
			return st.Size(), true
		}
	}
	return 0, false
}

// readerWithContext fails the next read once ctx is done (a recording is a regular file,
// whose reads do not block; this lets a long decompression stop on SIGINT).
func readerWithContext(ctx context.Context, r io.Reader) io.Reader { return ctxReader{ctx, r} }

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.r.Read(p)
}
