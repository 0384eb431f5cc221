package report

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/model"
	"headroom/record"
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
	// Finish turns the window into a finished Timeline before the rules run: input.Finish,
	// passed in by the CLI so that report (imported by the readers' tests) does not import
	// the readers. Nil derives only the rates.
	Finish func(*model.Timeline)
}

// Watch is the record.Sink of `headroom watch`: one line per interval with the columns of this
// domain, and the rules run over a sliding window of the last samples, printing the ids
// that start firing (+id, with the severity) or stop (-id).
type Watch struct {
	opt    WatchOptions
	host   model.Host
	src    model.SourceInfo
	win    []model.Sample
	log    []model.LogRecord
	firing map[string]diagnose.Severity
	lines  int
	err    error
	// Fired counts rule firings seen (a rule that fires, stops and fires again counts twice).
	Fired int
}

// NewWatch returns the live-view sink.
func NewWatch(opt WatchOptions) *Watch {
	if opt.Window <= 0 {
		opt.Window = 10
	}
	return &Watch{opt: opt, firing: map[string]diagnose.Severity{}}
}

func (w *Watch) Begin(h record.Header) error {
	w.host = h.Host
	w.host.SetPageSize(h.Host.PageSize)
	w.src = model.SourceInfo{Kind: model.SourceLive, Name: h.Source.Name}
	w.printf("headroom watch: %s, kernel %s, every %s; rules over the last %d samples\n", h.Source.Name, h.Host.Kernel, time.Duration(h.Interval), w.opt.Window)
	return w.err
}

func (w *Watch) Sample(s *model.Sample) error {
	w.win = append(w.win, *s)
	if len(w.win) > w.opt.Window {
		w.win = w.win[len(w.win)-w.opt.Window:]
	}
	if n := len(w.win); n >= 2 {
		pair := model.Timeline{Host: w.host, Samples: w.win[n-2:]}
		pair.Samples[1].Rates = nil
		pair.DeriveRates()
	}
	return nil
}

func (w *Watch) Marker(m model.Marker) error {
	w.printf("-- marker %q at %s\n", m.Text, m.Time.Format("15:04:05"))
	return w.err
}

func (w *Watch) Log(recs []model.LogRecord) error {
	w.log = append(w.log, recs...)
	return nil
}

func (w *Watch) NotAvailable(u []model.Unavailable) error { return nil }

// Header is the column header of the lines.
const watchHeader = "time      zone     free/low      ord  kswapd/s  direct/s compact/s   si/s   so/s tcpmem%%  nicdrop/s softnet/s sockdrop/s  retr/s  us  sy  si  wa  rules\n"

func (w *Watch) EndInterval() error {
	if len(w.win) == 0 {
		return nil
	}
	if w.lines == 0 || (w.opt.HeaderEvery > 0 && w.lines%w.opt.HeaderEvery == 0) {
		w.printf(watchHeader)
	}
	w.lines++
	cur := &w.win[len(w.win)-1]
	var prev *model.Sample
	if len(w.win) >= 2 {
		prev = &w.win[len(w.win)-2]
	}
	cols := w.columns(cur, prev)
	if rules := w.rules(); rules != "" {
		w.printf("%s  %s\n", cols, rules)
	} else {
		w.printf("%s\n", cols)
	}
	return w.err
}

// rules runs the registry on the window and returns the changes since the last interval.
func (w *Watch) rules() string {
	if len(w.win) < 2 {
		return ""
	}
	tl := &model.Timeline{Source: w.src, Host: w.host, Samples: w.win}
	from := w.win[0].Time
	keep := w.log[:0]
	for _, l := range w.log {
		if l.Time.IsZero() || !l.Time.Before(from) {
			keep = append(keep, l)
		}
	}
	w.log = keep
	tl.Log = keep
	// The window's samples already carry their rates (Sample derives each pair as it
	// arrives), so Finish only adds the events of the window's kernel log: the same
	// derivation every other Timeline gets.
	if w.opt.Finish != nil {
		w.opt.Finish(tl)
	} else {
		tl.DeriveRates()
	}
	d := diagnose.Run(tl, w.opt.Skip)
	now := map[string]diagnose.Severity{}
	for _, f := range d.Findings {
		if s, ok := now[f.ID]; !ok || f.Severity > s {
			now[f.ID] = f.Severity
		}
	}
	var parts []string
	for _, id := range sortedIDs(now) {
		if _, was := w.firing[id]; !was {
			w.Fired++
			parts = append(parts, w.sev(now[id], "+"+id+"("+now[id].String()[:1]+")"))
		}
	}
	for _, id := range sortedIDs(w.firing) {
		if _, is := now[id]; !is {
			parts = append(parts, "-"+id)
		}
	}
	w.firing = now
	return strings.Join(parts, " ")
}

func sortedIDs(m map[string]diagnose.Severity) []string {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool {
		if m[ids[i]] != m[ids[j]] {
			return m[ids[i]] > m[ids[j]]
		}
		return ids[i] < ids[j]
	})
	return ids
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
