package report

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/record"
	"headroom/source"
)

// WatchOptions tune the live view.
type WatchOptions struct {
	Out io.Writer
	// Color marks a zone below its low watermark and the rules' severities with ANSI
	// colours; only for a terminal.
	Color bool
	// Window is how many samples the rules see each interval (0: 10).
	Window int
	Skip   map[string]bool
	// HeaderEvery reprints the column header every this many lines (0: only once), as
	// vmstat does on a terminal.
	HeaderEvery int
}

// Watch is the record.Sink of `headroom watch`: one line per interval with the columns of this
// domain, and the rules run over a sliding window of the last samples, printing the ids
// that start firing (+id, with the severity) or stop (-id).
//
// The window, its rates and the rules' verdict on it are judge.Runner's; Watch renders them.
type Watch struct {
	opt   WatchOptions
	host  model.Host
	run   judge.Runner
	lines int
	err   error
	// Fired counts rule firings seen (a rule that fires, stops and fires again counts twice).
	Fired int
}

// NewWatch returns the live-view sink.
func NewWatch(opt WatchOptions) *Watch {
	if opt.Window <= 0 {
		opt.Window = 10
	}
	return &Watch{opt: opt, run: judge.Runner{Bounds: judge.Bounds{Samples: opt.Window}, Skip: opt.Skip}}
}

func (w *Watch) Begin(h record.Header) error {
	w.host = h.Host
	w.host.SetPageSize(h.Host.PageSize)
	w.run.Begin(model.SourceInfo{Kind: model.SourceLive, Name: h.Source.Name}, w.host)
	w.printf("headroom watch: %s, kernel %s, every %s; rules over the last %d samples\n", h.Source.Name, h.Host.Kernel, time.Duration(h.Interval), w.opt.Window)
	return w.err
}

func (w *Watch) Sample(s *model.Sample) error {
	w.run.Add(*s)
	return nil
}

func (w *Watch) Marker(m model.Marker) error {
	w.printf("-- marker %q at %s\n", m.Text, m.Time.Format("15:04:05"))
	return w.err
}

func (w *Watch) Log(recs []model.LogRecord) error {
	w.run.Log(recs)
	return nil
}

func (w *Watch) NotAvailable(u []model.Unavailable) error { return nil }

// Header is the column header of the lines.
const watchHeader = "time      zone     free/low      ord  kswapd/s  direct/s compact/s   si/s   so/s tcpmem%%  nicdrop/s softnet/s sockdrop/s  retr/s  us  sy  si  wa  rules\n"

func (w *Watch) EndInterval() error {
	win := w.run.Samples()
	if len(win) == 0 {
		return nil
	}
	if w.lines == 0 || (w.opt.HeaderEvery > 0 && w.lines%w.opt.HeaderEvery == 0) {
		w.printf(watchHeader)
	}
	w.lines++
	cur := &win[len(win)-1]
	var prev *model.Sample
	if len(win) >= 2 {
		prev = &win[len(win)-2]
	}
	cols := w.columns(cur, prev)
	if rules := w.rules(); rules != "" {
		w.printf("%s  %s\n", cols, rules)
	} else {
		w.printf("%s\n", cols)
	}
	return w.err
}

// rules renders the runner's verdict on the window: the ids that started firing since the
// last interval (+id, with the first letter of the severity) and those that stopped (-id).
func (w *Watch) rules() string {
	v, ok := w.run.Judge()
	if !ok {
		return ""
	}
	w.Fired += len(v.Started)
	var parts []string
	for _, id := range v.Started {
		s := v.Firing[id]
		parts = append(parts, w.sev(s, "+"+id+"("+s.String()[:1]+")"))
	}
	for _, id := range v.Stopped {
		parts = append(parts, "-"+id)
	}
	return strings.Join(parts, " ")
}

func (w *Watch) sev(s diagnose.Severity, text string) string {
	if !w.opt.Color {
		return text
	}
	switch s {
	case diagnose.Critical:
		return "\033[1;31m" + text + "\033[0m"
	case diagnose.Warning:
		return "\033[33m" + text + "\033[0m"
	}
	return text
}

// columns formats one line's values. The zone shown is the one nearest its low watermark
// (free/low smallest): the one kswapd wakes for first. "ord" is the highest order with a
// free block in that zone; an order-2 or order-3 RX refill fails when it falls below.
func (w *Watch) columns(cur, prev *model.Sample) string {
	pageKB := float64(w.host.PageSizeBytes) / 1024
	if pageKB <= 0 {
		pageKB = 4
	}
	zone, freeLow, ord := "-", "-", "-"
	best := math.Inf(1)
	below := false
	for _, zv := range cur.ZoneWatermarks() {
		free, low := zv.Free, zv.Low
		if !zv.HasFree || !zv.HasWatermarks || zv.Present == 0 || low == 0 {
			continue
		}
		if r := float64(free) / float64(low); r < best {
			best = r
			zone = zv.Zone
			freeLow = mib(float64(free)*pageKB) + "/" + mib(float64(low)*pageKB)
			below = free < low
			ord = "-"
			if zv.HasBuddy {
				ord = strconv.Itoa(zv.LargestFreeOrder)
			}
		}
	}
	if below && w.opt.Color {
		freeLow = "\033[1;31m" + fmt.Sprintf("%-12s", freeLow) + "\033[0m"
	} else {
		freeLow = fmt.Sprintf("%-12s", freeLow)
	}
	r := cur.Rates
	rate := func(key string) string {
		if v, ok := r.Get(key); ok {
			return num(v)
		}
		return "-"
	}
	tcp := "-"
	if mem, ok := cur.SockStat.Get("TCP", "mem"); ok {
		tcp = strconv.FormatInt(mem, 10) + "p"
		if p, ok := w.host.Sysctls["net.ipv4.tcp_mem"]; ok {
			if f := strings.Fields(p); len(f) == 3 {
				if pr, err := strconv.ParseFloat(f[1], 64); err == nil && pr > 0 {
					tcp = strconv.FormatFloat(100*float64(mem)/pr, 'f', 1, 64)
				}
			}
		}
	}
	pct := func(key string) string {
		if v, ok := r.Get(key); ok {
			return strconv.Itoa(int(math.Round(v)))
		}
		return "-"
	}
	return fmt.Sprintf("%-8s  %-7s  %s %3s %9s %9s %9s %6s %6s %7s %10s %9s %10s %7s %3s %3s %3s %3s",
		cur.Time.Format("15:04:05"), zone, freeLow, ord,
		rate(model.RatePgscanKswapdPerSec), rate(model.RatePgscanDirectPerSec), rate(model.RateCompactStallPerSec),
		rate(model.RateSwapInKBPerSec), rate(model.RateSwapOutKBPerSec), tcp,
		rate(model.RateNICRxDropPerSec), rate(model.RateSoftnetDropPerSec), rate(model.RateSocketDropPerSec), rate(model.RateTCPRetransPerSec),
		pct(model.RateCPUUserPct), pct(model.RateCPUSystemPct), pct(model.RateCPUSoftIRQPct), pct(model.RateCPUIOWaitPct))
}

// num prints a rate compactly in at most 7 characters.
func num(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e7:
		return strconv.FormatFloat(v/1e6, 'f', 0, 64) + "M"
	case a >= 1e5:
		return strconv.FormatFloat(v/1e3, 'f', 0, 64) + "k"
	case a >= 100 || v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func mib(kb float64) string {
	if kb >= 10*1024*1024 {
		return strconv.FormatFloat(kb/1024/1024, 'f', 0, 64) + "G"
	}
	return strconv.FormatFloat(kb/1024, 'f', 0, 64) + "M"
}

func (w *Watch) printf(format string, args ...any) {
	if w.err != nil {
		return
	}
	_, w.err = fmt.Fprintf(w.opt.Out, format, args...)
}

// WatchLive runs `headroom watch` on root: the sampling loop (record.Loop, with or without
// the sock_diag dump) feeding the view every interval until ctx ends or duration passes.
func WatchLive(ctx context.Context, root kernel.Root, interval, duration time.Duration, sockets bool, opt WatchOptions) error {
	w := NewWatch(opt)
	so := source.DefaultOptions()
	so.Sockets = sockets
	return record.Loop(ctx, root, record.LoopOptions{Interval: interval, Duration: duration, Sampler: so, KeepSamples: true, Tool: "headroom watch"}, w)
}
