package judge

import (
	"slices"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/model"
)

// Bounds is how much of a stream of samples a window holds, back from its newest sample.
type Bounds struct {
	// Samples is the most samples the window holds (0: no bound by count).
	Samples int
	// Span drops samples taken more than this before the newest (0: no bound by time).
	Span time.Duration
}

// Drop returns how many of the oldest of n samples leave a window whose newest sample was
// taken at now; at(i) is the time of sample i, oldest first. The newest sample always stays.
func (b Bounds) Drop(n int, now time.Time, at func(i int) time.Time) int {
	drop := 0
	for drop < n-1 && ((b.Samples > 0 && n-drop > b.Samples) || (b.Span > 0 && at(drop).Before(now.Add(-b.Span)))) {
		drop++
	}
	return drop
}

// Sub returns the sub-timeline of samples a..b (inclusive): the same host facts, the
// markers and segments inside it re-indexed, and the log records and events whose time
// falls between the sample before a and b. Records and events without a time are left
// out: they cannot be placed.
func Sub(tl *model.Timeline, a, b int) *model.Timeline {
	sub := &model.Timeline{Source: tl.Source, Host: tl.Host, Samples: tl.Samples[a : b+1],
		Settings: tl.Settings, Profiles: tl.Profiles, NotAvailable: tl.NotAvailable}
	for _, m := range tl.Markers {
		if m.Index >= a && m.Index <= b {
			m.Index -= a
			sub.Markers = append(sub.Markers, m)
		}
	}
	for _, s := range tl.Segments {
		if s.Last < a || s.First > b {
			continue
		}
		s.First, s.Last = max(s.First, a)-a, min(s.Last, b)-a
		sub.Segments = append(sub.Segments, s)
	}
	from := tl.Samples[max(a-1, 0)].Time
	to := tl.Samples[b].Time
	sub.Trace = model.TracesBetween(tl.TraceParts, from, to)
	in := func(t time.Time) bool { return !t.IsZero() && !t.Before(from) && !t.After(to) }
	for _, e := range tl.Events {
		if in(e.Time) {
			sub.Events = append(sub.Events, e)
		}
	}
	for _, l := range tl.Log.All() {
		if in(l.Time()) {
			sub.Log.Append(l)
		}
	}
	return sub
}

// Runner judges a stream of samples window by window. A stream's consumer (watch) hands it
// each sample as it is taken (Add) and the kernel log as it is read (Log), and asks for the
// verdict on the window when its schedule says (Judge); a consumer that keeps its window
// elsewhere (serve packs its samples; tune --verify records each window whole) judges it with
// JudgeWindow. Either way the Runner remembers what fired in the window judged before, so
// that every consumer tells "started" and "stopped" the same way.
//
// The zero Runner is ready: no bounds (the window grows), every rule.
type Runner struct {
	// Bounds bound the window of Add's stream.
	Bounds Bounds
	// Skip lists rule ids not to run.
	Skip map[string]bool

	// stream holds the window's samples, after the seed when seeded is set: the last sample
	// that left the window, which dates the interval leading to the window's first sample
	// (its rates, the log records logged in it).
	stream model.Timeline
	seeded bool
	firing map[string]diagnose.Severity
}

// Verdict is the outcome of the rules on one window.
type Verdict struct {
	Diagnosis diagnose.Diagnosis
	// Firing is the highest severity of each rule id that fired in the window.
	Firing map[string]diagnose.Severity
	// Started lists the ids that fire in this window and did not in the one judged before;
	// Stopped those that fired then and do not now. Both by severity (highest first, Stopped
	// by the severity they had), then id.
	Started, Stopped []string
}

// Critical lists the ids of the critical findings of the window, sorted.
func (v Verdict) Critical() []string {
	var ids []string
	for id, s := range v.Firing {
		if s == diagnose.Critical {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// Begin starts a stream: the source and host facts of its windows. It empties the window.
func (r *Runner) Begin(src model.SourceInfo, host model.Host) {
	r.stream = model.Timeline{Source: src, Host: host}
	r.seeded = false
}

// Add appends a sample taken after the last, derives its rates from the one before (its own
// are replaced: they are the stream's, whatever the sampler set), and drops the samples that
// leave the window by Bounds, with the kernel log older than what the window can read.
func (r *Runner) Add(s model.Sample) {
	tl := &r.stream
	tl.Samples = append(tl.Samples, s)
	if n := len(tl.Samples); n >= 2 {
		pair := model.Timeline{Host: tl.Host, Samples: tl.Samples[n-2:]}
		pair.Samples[1].Rates = nil
		pair.DeriveRates()
	}
	off := 0
	if r.seeded {
		off = 1
	}
	win := tl.Samples[off:]
	drop := r.Bounds.Drop(len(win), s.Time, func(i int) time.Time { return win[i].Time })
	if drop == 0 {
		return
	}
	// The new seed is the last sample dropped. Copied down, not resliced, so that the
	// array neither keeps dropped samples reachable nor grows.
	k := copy(tl.Samples, tl.Samples[off+drop-1:])
	clear(tl.Samples[k:])
	tl.Samples = tl.Samples[:k]
	r.seeded = true
	from := tl.Samples[0].Time
	keep := 0
	for _, l := range tl.Log.All() {
		if !l.Time().IsZero() && !l.Time().Before(from) {
			tl.Log.Set(keep, l)
			keep++
		}
	}
	tl.Log.Clear(keep)
}

// Log adds kernel log records read since the last call.
func (r *Runner) Log(recs []model.LogRecord) { r.stream.Log.Append(recs...) }

// Samples returns the window's samples, oldest first (the caller must not keep them past
// the next Add).
func (r *Runner) Samples() []model.Sample {
	if r.seeded {
		return r.stream.Samples[1:]
	}
	return r.stream.Samples
}

// Window returns the stream's window as a finished Timeline (Sub, then Finish): the window's
// samples, and the kernel log records logged since the sample before the first.
// Nil before the first sample.
func (r *Runner) Window() *model.Timeline {
	n := len(r.stream.Samples)
	if n == 0 {
		return nil
	}
	a := 0
	if r.seeded {
		a = 1
	}
	w := Sub(&r.stream, a, n-1)
	// A stream's window reaches to now: records logged after its newest sample was taken
	// (the log is read after the sample) are the window's too, not the next one's.
	last := r.stream.Samples[n-1].Time
	for _, l := range r.stream.Log.All() {
		if l.Time().After(last) {
			w.Log.Append(l)
		}
	}
	Finish(w)
	return w
}

// Judge runs the rules on the stream's window. A window is judged once it holds an
// interval (two samples: rates need two); before, ok is false and nothing is remembered.
func (r *Runner) Judge() (v Verdict, ok bool) {
	if len(r.Samples()) < 2 {
		return Verdict{}, false
	}
	return r.JudgeWindow(r.Window()), true
}

// JudgeWindow runs the rules on a finished window (Finish) and compares what fires with the
// window judged before.
func (r *Runner) JudgeWindow(w *model.Timeline) Verdict {
	v := Verdict{Diagnosis: diagnose.Run(w, r.Skip), Firing: map[string]diagnose.Severity{}}
	for _, f := range v.Diagnosis.Findings {
		if s, ok := v.Firing[f.ID]; !ok || f.Severity > s {
			v.Firing[f.ID] = f.Severity
		}
	}
	for _, id := range bySeverity(v.Firing) {
		if _, was := r.firing[id]; !was {
			v.Started = append(v.Started, id)
		}
	}
	for _, id := range bySeverity(r.firing) {
		if _, is := v.Firing[id]; !is {
			v.Stopped = append(v.Stopped, id)
		}
	}
	r.firing = v.Firing
	return v
}

// bySeverity returns m's ids, highest severity first, then by id.
func bySeverity(m map[string]diagnose.Severity) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		if m[a] != m[b] {
			return int(m[b]) - int(m[a])
		}
		return strings.Compare(a, b)
	})
	return ids
}
