package record

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"time"

	"headroom/internal/buildinfo"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// Sink receives what the loop reads, in order. The archive Writer is one (via
// ArchiveSink); watch's line printer is another.
type Sink interface {
	Begin(h Header) error
	Sample(s *model.Sample) error
	Marker(m model.Marker) error
	Log(recs []model.LogRecord) error
	NotAvailable(u []model.Unavailable) error
	// EndInterval is called once per interval after everything of that interval.
	EndInterval() error
}

// LoopOptions say how long and how often to sample, and where markers come from.
type LoopOptions struct {
	Interval time.Duration // 0: 1 s
	Duration time.Duration // 0: until ctx is done
	Sampler  source.Options
	// Marks delivers markers (SIGUSR1, the --mark of the starting command); they are
	// written at the end of the interval in which they arrive, with their own time.
	Marks <-chan model.Marker
	// MarksFile is polled each interval for lines appended by AppendMark (another
	// `headroom record --mark` while this one runs). "" polls nothing.
	MarksFile string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Tool names the writer in the header.
	Tool string
	// KeepSamples hands the sink a fresh Sample each interval, which it may keep (watch's
	// window); otherwise one Sample is reused (SampleInto) and the sink must not keep it.
	KeepSamples bool
	// Trace, when set, is cut every TraceEvery (record --trace) and each part handed to a
	// sink that takes them (TraceSink); the caller stops it and writes the last part.
	Trace      *source.Tracer
	TraceEvery time.Duration
	// Unavailable is written after the header with what the loop itself finds missing
	// (record --trace on a host that cannot be traced).
	Unavailable []model.Unavailable
}

// TraceSink is a Sink that keeps the parts of a traced recording (the archive does; the
// live watch view does not trace).
type TraceSink interface {
	Trace(w *model.TraceWindow) error
}

// Loop samples root every interval until the duration is over or ctx is done, and hands
// each sample, the kernel log records logged since the previous one, new markers and
// newly unavailable interfaces to sink. It reads through the same source.Sampler as
// doctor, with the kernel log followed from the loop's start (records already in the ring
// buffer belong to the past, and `headroom doctor` reads those). A done ctx is a normal end.
func Loop(ctx context.Context, root kernel.Root, opt LoopOptions, sink Sink) error {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	interval := opt.Interval
	if interval <= 0 {
		interval = time.Second
	}
	n := -1
	if opt.Duration > 0 {
		n = int(opt.Duration/interval) + 1
	}
	s := source.NewSampler(root, opt.Sampler)
	defer s.Close()
	host, missing := source.ReadHost(root, s.NICs())
	h := Header{Host: host, Source: model.SourceInfo{Kind: model.SourceLive, Name: host.Hostname}, Started: now(),
		Interval: Duration(interval), Sampler: opt.Sampler, Tool: opt.Tool, Build: new(buildinfo.Get())}
	if h.Source.Name == "" {
		h.Source.Name = root.Name
	}
	if err := sink.Begin(h); err != nil {
		return err
	}
	reported := map[string]bool{}
	if err := sink.NotAvailable(newUnavailable(append(missing, opt.Unavailable...), reported)); err != nil {
		return err
	}
	follower, logErr := kernel.NewKmsgFollower(root, false)
	if logErr != nil {
		if err := sink.NotAvailable(newUnavailable([]model.Unavailable{{What: "kernel log (/dev/kmsg)", Why: logErr.Error()}}, reported)); err != nil {
			return err
		}
	} else {
		defer follower.Close()
		// A capture root returns its whole log on the first read; the live host nothing
		// older than the open.
	}
	var marks *marksReader
	if opt.MarksFile != "" {
		marks = openMarks(opt.MarksFile)
		defer marks.close()
	}
	var boot time.Time
	var sm model.Sample
	next := now()
	lastCut := next
	for i := 0; n < 0 || i < n; i++ {
		if i > 0 {
			next = next.Add(interval)
			if !sleepUntil(ctx, next, now) {
				return nil
			}
		}
		if opt.KeepSamples {
			sm = s.Sample(now())
		} else {
			s.SampleInto(&sm, now())
		}
		if boot.IsZero() && sm.Stat != nil {
			if bt, ok := sm.Stat.Scalars.Get("btime"); ok {
				boot = time.Unix(bt, 0)
			}
		}
		if err := sink.Sample(&sm); err != nil {
			return err
		}
		if follower != nil {
			recs, err := follower.ReadNew()
			if err != nil {
				if err := sink.NotAvailable(newUnavailable([]model.Unavailable{{What: "kernel log (/dev/kmsg)", Why: err.Error()}}, reported)); err != nil {
					return err
				}
			}
			if err := sink.Log(logRecords(recs, boot, root)); err != nil {
				return err
			}
		}
		if err := sink.NotAvailable(newUnavailable(s.Unavailable(), reported)); err != nil {
			return err
		}
		if err := drainMarks(opt.Marks, marks, sink); err != nil {
			return err
		}
		if ts, ok := sink.(TraceSink); ok && opt.Trace != nil && opt.TraceEvery > 0 && now().Sub(lastCut) >= opt.TraceEvery {
			lastCut = now()
			if err := ts.Trace(opt.Trace.Cut()); err != nil {
				return err
			}
		}
		if err := sink.EndInterval(); err != nil {
			return err
		}
		if ctx.Err() != nil {
			return nil
		}
	}
	return nil
}

func drainMarks(ch <-chan model.Marker, mf *marksReader, sink Sink) error {
	for {
		select {
		case m := <-ch:
			if err := sink.Marker(m); err != nil {
				return err
			}
			continue
		default:
		}
		break
	}
	if mf != nil {
		for _, m := range mf.readNew() {
			if err := sink.Marker(m); err != nil {
				return err
			}
		}
	}
	return nil
}

func newUnavailable(u []model.Unavailable, reported map[string]bool) []model.Unavailable {
	var out []model.Unavailable
	for _, x := range u {
		if !reported[x.What] {
			reported[x.What] = true
			out = append(out, x)
		}
	}
	return out
}

// sleepUntil waits for t; false when ctx ended first.
func sleepUntil(ctx context.Context, t time.Time, now func() time.Time) bool {
	d := t.Sub(now())
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-timer.C:
		return true
	}
}

// logRecords converts /dev/kmsg records. The wall time is boot time (/proc/stat btime)
// plus the record's CLOCK_MONOTONIC timestamp, which runs behind the wall clock by the
// time spent suspended: good enough to place a message among samples a second apart on a
// server, and the uptime is kept as printed.
func logRecords(recs []kernel.KmsgRecord, boot time.Time, root kernel.Root) []model.LogRecord {
	if len(recs) == 0 {
		return nil
	}
	src := "/dev/kmsg"
	if !root.IsHost() {
		src = root.Name + " dev/kmsg"
	}
	out := make([]model.LogRecord, 0, len(recs))
	for _, r := range recs {
		lr := model.LogRecord{UptimeUsec: r.TimestampUsec, Priority: r.Priority, Message: r.Message}
		lr.SetSource(fmt.Sprintf("%s seq %d", src, r.Seq))
		if !boot.IsZero() {
			lr.SetTime(boot.Add(time.Duration(r.TimestampUsec) * time.Microsecond))
		}
		out = append(out, lr)
	}
	return out
}

// MarksPath is the side file through which `headroom record --mark TEXT` hands a marker to
// the recorder already writing archive.
func MarksPath(archive string) string { return archive + ".marks" }

// AppendMark appends a marker for the recorder of archive to pick up within one interval.
// One write(2) with O_APPEND per marker, so concurrent markers do not interleave.
func AppendMark(archive string, m model.Marker) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(MarksPath(archive), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// marksReader follows the marks file from where it ended when the recorder started
// (markers left from an earlier run are not replayed).
type marksReader struct {
	path string
	off  int64
	rest []byte
}

func openMarks(path string) *marksReader {
	m := &marksReader{path: path}
	if st, err := os.Stat(path); err == nil {
		m.off = st.Size()
	}
	return m
}

func (m *marksReader) readNew() []model.Marker {
	f, err := os.Open(m.path)
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.Size() < m.off {
		m.off, m.rest = 0, nil // truncated or replaced: start over
	}
	if _, err := f.Seek(m.off, io.SeekStart); err != nil {
		return nil
	}
	b, _ := io.ReadAll(f)
	m.off += int64(len(b))
	b = append(m.rest, b...)
	var out []model.Marker
	for {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			break // a line still being written
		}
		var mk model.Marker
		if json.Unmarshal(b[:i], &mk) == nil && mk.Text != "" {
			out = append(out, mk)
		}
		b = b[i+1:]
	}
	m.rest = append([]byte(nil), b...)
	return out
}

func (m *marksReader) close() { os.Remove(m.path) }

// ArchiveSink writes what Loop reads to an archive, creating it at Begin.
type ArchiveSink struct {
	Path string
	Opt  WriterOptions
	W    *Writer
	// OnCreate is called once the writer exists (to report a repaired tail).
	OnCreate func(w *Writer)
	// Written counts samples.
	Written int
}

func (a *ArchiveSink) Begin(h Header) error {
	w, err := Create(a.Path, h, a.Opt)
	if err != nil {
		return err
	}
	a.W = w
	if a.OnCreate != nil {
		a.OnCreate(w)
	}
	return nil
}
func (a *ArchiveSink) Sample(s *model.Sample) error {
	a.Written++
	return a.W.WriteSample(s)
}
func (a *ArchiveSink) Marker(m model.Marker) error              { return a.W.WriteMarker(m) }
func (a *ArchiveSink) Log(recs []model.LogRecord) error         { return a.W.WriteLog(recs) }
func (a *ArchiveSink) NotAvailable(u []model.Unavailable) error { return a.W.WriteNotAvailable(u) }
func (a *ArchiveSink) EndInterval() error                       { return a.W.Flush() }
func (a *ArchiveSink) Trace(t *model.TraceWindow) error         { return a.W.WriteTrace(t) }

// Close closes the archive.
func (a *ArchiveSink) Close() error {
	if a.W == nil {
		return nil
	}
	return a.W.Close()
}
