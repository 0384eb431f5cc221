package source

import (
	"context"
	"fmt"
	"time"

	"headroom/internal/ctxsleep"
	"headroom/kernel"
	"headroom/model"
)

// CollectOptions say how long and how often to sample.
type CollectOptions struct {
	Options
	Duration time.Duration // total sampling window; 0 takes one sample
	Interval time.Duration // between samples; 0 means 1 s
	// Progress, when set, is called after each sample with its index and the total.
	Progress func(i, n int)
	// Now is the clock; nil means time.Now. Tests inject a fake.
	Now func() time.Time
	// Kind overrides the timeline's source kind (live for the host, capture otherwise).
	Kind string
	// LogSince, when positive, makes kernel log records and events logged more than this
	// before the first sample history (model.Timeline.LogCurrentSince): the rules report
	// what they show as info. Zero keeps every record current.
	LogSince time.Duration
}

// Collect samples root for the given window and returns the Timeline: host facts, samples,
// the kernel log, and what was not available. A captured root (txtar or directory) has one
// instant, so it yields one sample. The rates and the events of the kernel log are derived by
// input.Finish (input.Open calls Collect and then Finish).
func Collect(ctx context.Context, root kernel.Root, opt CollectOptions) (*model.Timeline, error) {
	now := opt.Now
	if now == nil {
		now = time.Now
	}
	if !root.IsLive() {
		// A capture is one instant: the time it was taken, when it says.
		if at := readHostExtra(root).CapturedAt; !at.IsZero() {
			now = func() time.Time { return at }
		}
	}
	interval := opt.Interval
	if interval <= 0 {
		interval = time.Second
	}
	n := 1
	if root.IsLive() && opt.Duration > 0 {
		n = int(opt.Duration/interval) + 1
	}
	s := NewSampler(root, opt.Options)
	defer s.Close()

	tl := &model.Timeline{Source: model.SourceInfo{Kind: opt.Kind, Name: root.Name}}
	if tl.Source.Kind == "" {
		tl.Source.Kind = model.SourceCapture
		if root.IsLive() {
			tl.Source.Kind = model.SourceLive
		}
	}
	if root.IsLive() {
		tl.Source.NetView = kernel.NetView(root)
	}
	var hostMissing []model.Unavailable
	tl.Host, hostMissing = ReadHost(root, s.NICs())
	if tl.Source.Kind == model.SourceLive && tl.Host.Hostname != "" {
		tl.Source.Name = tl.Host.Hostname
	}

	var follower *kernel.KmsgFollower
	var logErr error
	var recs []kernel.KmsgRecord
	follower, logErr = kernel.NewKmsgFollower(root, true)
	if logErr == nil {
		defer follower.Close()
		recs, logErr = follower.ReadNew()
	}

	next := now()
	for i := 0; i < n; i++ {
		if i > 0 {
			next = next.Add(interval)
			if err := sleepUntil(ctx, next, now); err != nil {
				return nil, err
			}
		}
		tl.Samples = append(tl.Samples, s.Sample(now()))
		if opt.Progress != nil {
			opt.Progress(i+1, n)
		}
	}
	if follower != nil {
		more, err := follower.ReadNew()
		if err == nil {
			recs = append(recs, more...)
		}
	}
	if logErr != nil {
		if why := readHostExtra(root).KernelLogError; !root.IsLive() && why != "" {
			logErr = fmt.Errorf("not in the capture: when it was taken, %s", why)
		}
		s.note("kernel log (/dev/kmsg)", logErr)
	}

	tl.Settings = readSysctlConf(root)
	tl.Log = model.NewLog(logRecords(recs, bootTime(tl), root))
	if opt.LogSince > 0 && len(tl.Samples) > 0 && !tl.Samples[0].Time.IsZero() && (root.IsLive() || !readHostExtra(root).CapturedAt.IsZero()) {
		tl.LogCurrentSince = tl.Samples[0].Time.Add(-opt.LogSince)
	}
	tl.NotAvailable = append(hostMissing, s.Unavailable()...)
	if root.IsLive() {
		// Once, at the end: the walk costs one read per cgroup and file, too much for every
		// sample of a node with hundreds of pods.
		cg, err := kernel.ReadCgroupSockets(root)
		tl.Cgroups = cg
		if err != nil {
			tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: "cgroup socket memory", Why: err.Error()})
		}
	}
	return tl, nil
}

func sleepUntil(ctx context.Context, t time.Time, now func() time.Time) error {
	return ctxsleep.Sleep(ctx, t.Sub(now()))
}

// bootTime returns the wall time of boot from /proc/stat btime, zero when unknown.
func bootTime(tl *model.Timeline) time.Time {
	for i := range tl.Samples {
		if st := tl.Samples[i].Stat; st != nil {
			if bt, ok := st.Scalars.Get("btime"); ok {
				return time.Unix(bt, 0)
			}
		}
	}
	return time.Time{}
}

// logRecords converts kmsg records. The wall time is boot time plus the monotonic
// timestamp, which drifts from the wall clock by the time spent suspended (CLOCK_MONOTONIC
// stops in suspend): good enough to place a message, and said so in the docs.
func logRecords(recs []kernel.KmsgRecord, boot time.Time, root kernel.Root) []model.LogRecord {
	out := make([]model.LogRecord, 0, len(recs))
	src := "/dev/kmsg"
	if !root.IsHost() {
		src = root.Name + " dev/kmsg"
	}
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
