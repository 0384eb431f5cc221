package diagnose

import (
	"fmt"
	"headroom/kernel"
	"headroom/units"
	"strings"

	"headroom/model"
)

// sysctlInts returns a sysctl of the timeline's host as integers ("tcp_mem" → 3 values).
func sysctlInts(tl *model.Timeline, key string) (vals []int64, source string, ok bool) {
	v, src, ok := tl.Sysctl(key)
	if !ok {
		return nil, "", false
	}
	vals, ok = kernel.SysctlInts(v)
	return vals, src, ok
}

// pageSize returns the host's page size, 4096 when unknown (and says so through known).
func pageSize(tl *model.Timeline) (bytes int64, known bool) {
	if tl.Host.PageSize > 0 {
		return int64(tl.Host.PageSize), true
	}
	return 4096, false
}

// pagesStr prints a page count with its size: "98304 pages (384.0 MiB)".
func pagesStr(pages, pageSize int64) string {
	return fmt.Sprintf("%d pages (%s)", pages, units.FormatBytes(pages*pageSize))
}

// window describes the time between a timeline's first and last readings, for evidence:
// "over 3.0 s", or "between the readings" when they have no times.
func window(tl *model.Timeline) string {
	if d := tl.Span(); d > 0 {
		return fmt.Sprintf("over %.1f s", d.Seconds())
	}
	// Every caller names a difference between two readings: without their times it is
	// the change between them, not a count since boot (a paste of two tables).
	return "between the readings (their times are not in the input)"
}

// sampleSource names where a sample's values came from.
func sampleSource(s *model.Sample, file string) string {
	if s.Source != "" && s.Source != "/proc" {
		return s.Source
	}
	return file
}

// statedBy says who states a stated sample's figures, for an evidence's value (fix50a):
// "stated by the author", or "stated by RouterOS's own log line, not the author" when the
// statement was read from a program's own log record (model.OwnLogSource).
func statedBy(s *model.Sample) string {
	if s != nil {
		if by := model.StatedBy(s.Source); by != "" {
			return "stated by " + by + ", not the author"
		}
	}
	return "stated by the author"
}

// logMatches returns the log records whose message contains any of the needles.
func logMatches(tl *model.Timeline, needles ...string) []model.LogRecord {
	var out []model.LogRecord
	for _, r := range tl.Log.All() {
		for _, n := range needles {
			if strings.Contains(r.Message, n) {
				out = append(out, r)
				break
			}
		}
	}
	return out
}

// logEvidence turns matching log records into evidence: the count and the first message.
func logEvidence(what string, recs []model.LogRecord) Evidence {
	src := recs[0].Where()
	if src == "" {
		src = "kernel log"
	}
	v := fmt.Sprintf("%d× %q", len(recs), recs[0].Message)
	return Evidence{What: what, Value: v, Source: src}
}

// counterGrowth returns how much a counter grew over the timeline's samples (ok false
// without two samples that have it), and its last value (ok false when no sample has it).
type growth struct {
	delta, last int64
	seconds     float64
	hasDelta    bool
	hasLast     bool
	source      string
	from        model.CountedFrom // from when last counts: since boot unless nstat printed it
}

func counterGrowth(tl *model.Timeline, file string, get func(*model.Sample) (int64, bool)) growth {
	var g growth
	g.delta, g.seconds, g.hasDelta = tl.CounterDelta(get)
	if s := tl.LastWith(func(s *model.Sample) bool { _, ok := get(s); return ok }); s != nil {
		g.last, _ = get(s)
		g.hasLast = true
		g.source = sampleSource(s, file)
	}
	return g
}

// netGrowth is counterGrowth for a /proc/net/netstat or snmp counter ("TcpExt",
// "ListenOverflows"): nstat's increments are added, not differenced (Timeline.NetStatDelta),
// and the growth knows from when its last value counts.
func netGrowth(tl *model.Timeline, file, group, name string) growth {
	get := func(s *model.Sample) (int64, bool) { return s.NetStat.Get(group, name) }
	g := counterGrowth(tl, file, get)
	g.delta, g.seconds, g.hasDelta = tl.NetStatDelta(group, name)
	if s := tl.LastWith(func(s *model.Sample) bool { _, ok := get(s); return ok }); s != nil {
		g.from = s.NetStatFrom
	}
	return g
}

// since says from when the last value counts, for evidence: "since boot", or nstat's
// increments since its previous run (model.SinceLastRun), or either (model.SinceUnsaid).
func (g growth) since() string {
	switch g.from {
	case model.SinceLastRun:
		return "since nstat's previous run"
	case model.SinceUnsaid:
		return "since boot, or since nstat's previous run if it ran without -a"
	}
	return "since boot"
}

// over: the span the last value averages over ("over the uptime").
func (g growth) over() string {
	switch g.from {
	case model.SinceLastRun:
		return "over an interval the text does not give"
	case model.SinceUnsaid:
		return "over the uptime, or over nstat's interval if it ran without -a"
	}
	return "over the uptime"
}

// rising reports whether the counter grew during the observed window.
func (g growth) rising() bool { return g.hasDelta && g.delta > 0 }

// describe prints the growth for evidence: "+12 over 3.0 s (total 1234 since boot)".
func (g growth) describe() string {
	switch {
	case g.hasDelta && g.seconds > 0 && g.from == model.SinceBoot:
		return fmt.Sprintf("+%d over %.1f s (%d since boot)", g.delta, g.seconds, g.last)
	case g.hasDelta && g.seconds > 0:
		return fmt.Sprintf("+%d over %.1f s", g.delta, g.seconds)
	case g.hasDelta && g.from == model.SinceBoot:
		return fmt.Sprintf("+%d between first and last sample (%d in total)", g.delta, g.last)
	case g.hasDelta:
		return fmt.Sprintf("+%d between first and last sample", g.delta)
	default:
		return fmt.Sprintf("%d %s (one sample: no rate)", g.last, g.since())
	}
}
