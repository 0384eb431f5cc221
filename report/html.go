package report

import (
	_ "embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"headroom/diagnose"
	"headroom/internal/lazyre"
	"headroom/model"
	"headroom/report/chart"
	"headroom/units"
)

// HTMLOptions tune the HTML report.
type HTMLOptions struct {
	Title     string // "" gives "headroom report: SOURCE"
	Generator string // printed in the footer ("headroom v1.2"); tests leave it empty
}

// WriteHTML writes one self-contained HTML file: the findings first (severity, evidence,
// changes, and when they held), then the host summary, then the time series as inline SVG
// charts with phase markers and finding intervals shaded. It loads nothing: no script, no
// font, no image from anywhere, and its Content-Security-Policy forbids it, so it opens
// the same offline, attached to a ticket, or from a mail.
func WriteHTML(w io.Writer, tl *model.Timeline, d diagnose.Diagnosis, opt HTMLOptions) error {
	s := Summarize(tl)
	title := opt.Title
	if title == "" {
		title = "headroom report: " + sourceLine(tl)
	}
	data := htmlData{
		Title:      title,
		Source:     sourceLine(tl),
		Host:       orUnknown(hostLine(tl.Host)),
		Style:      template.CSS(pageStyle + verdictStyle + chart.Style),
		Generator:  opt.Generator,
		Summary:    s,
		Samples:    summarySamples(s),
		Unparsed:   unreadLeft(tl),
		ReadInPart: tl.ReadInPart,
		NotAvail:   tl.NotAvailable,
		PageSizeKB: pageKBOf(tl),
	}
	if v, ok := makeVerdict(storyOf(d)); ok {
		v.NotRead = notReadLines(storyOf(d))
		data.Verdict = &v
	} else if nr := notReadLines(storyOf(d)); len(nr) > 0 {
		data.Verdict = &verdict{Quiet: true, NotRead: nr}
	}
	if s.MemTotalKB != nil {
		data.Memory = memoryLine(s, tl.Host)
	}
	for _, z := range s.Zones {
		data.Zones = append(data.Zones, zoneRow(z, tl.Host))
	}
	if t := s.TCPMem; t != nil {
		data.TCPMem = tcpMemLine(t)
	}
	if len(s.Sockets) > 0 {
		var parts []string
		for _, st := range sortedStates(s.Sockets) {
			parts = append(parts, fmt.Sprintf("%s %d", st, s.Sockets[st]))
		}
		data.Sockets = strings.Join(parts, ", ")
		if s.Orphans != nil {
			data.Sockets += fmt.Sprintf("; orphans %d", *s.Orphans)
		}
	}
	for _, f := range d.Findings {
		hf := htmlFinding{Finding: f, Sev: f.Severity.String(), Anchor: "f-" + f.ID}
		if f.When != nil {
			hf.When = whenText(*f.When)
		}
		data.Findings = append(data.Findings, hf)
	}
	for _, c := range d.Checks {
		switch c.Status {
		case diagnose.StatusOK:
			data.OK++
		case diagnose.StatusNotChecked:
			data.NotChecked = append(data.NotChecked, c)
		}
	}
	data.Rules = len(d.Checks)
	for _, g := range Charts(tl, d) {
		hg := htmlGroup{Title: g.Title, Note: g.Note}
		for i := range g.Charts {
			hg.SVGs = append(hg.SVGs, template.HTML(g.Charts[i].SVG()))
		}
		data.Groups = append(data.Groups, hg)
	}
	return htmlTemplate.Execute(w, data)
}

type htmlData struct {
	Verdict                                      *verdict
	Title, Source, Host, Memory, TCPMem, Sockets string
	Style                                        template.CSS
	Generator                                    string
	Summary                                      Summary
	Samples                                      string
	Zones                                        []zoneHTML
	Findings                                     []htmlFinding
	Rules, OK                                    int
	NotChecked                                   []diagnose.Check
	Groups                                       []htmlGroup
	Unparsed                                     []model.Unparsed
	ReadInPart                                   []model.Unparsed // fix52a: read lines with a remark
	NotAvail                                     []model.Unavailable
	PageSizeKB                                   float64
}

type htmlFinding struct {
	diagnose.Finding
	Sev, Anchor, When string
}

type htmlGroup struct {
	Title, Note string
	SVGs        []template.HTML
}

type zoneHTML struct {
	Node                             int
	Zone, Free, Min, Low, High, Best string
	Below                            bool // free under the low watermark
}

func zoneRow(z ZoneSummary, h model.Host) zoneHTML {
	r := zoneHTML{Node: z.Node, Zone: z.Zone, Free: kb(z.FreeKB), Min: kb(z.MinKB), Low: kb(z.LowKB), High: kb(z.HighKB), Best: "n/a", Below: z.FreeKB < z.LowKB}
	if z.HighestFreeOrder != nil {
		if *z.HighestFreeOrder < 0 {
			r.Best = "none"
		} else {
			page := int64(h.PageSize / 1024)
			if page <= 0 {
				page = 4
			}
			r.Best = fmt.Sprintf("order %d (%s)", *z.HighestFreeOrder, kb(page<<*z.HighestFreeOrder))
		}
	}
	return r
}

func sourceLine(tl *model.Timeline) string {
	src := tl.Source.Kind
	if tl.Source.Name != "" {
		src += " " + tl.Source.Name
	}
	return src
}

func summarySamples(s Summary) string {
	out := fmt.Sprintf("%d sample", s.Samples)
	if s.Samples != 1 {
		out += "s"
	}
	if s.SpanSeconds > 0 {
		out += " over " + (time.Duration(s.SpanSeconds * float64(time.Second))).Round(time.Second).String()
	}
	return out
}

func memoryLine(s Summary, h model.Host) string {
	line := kb(*s.MemTotalKB) + " total"
	if s.MemAvailableKB != nil {
		line += ", " + kb(*s.MemAvailableKB) + " available"
	}
	if s.MemFreeKB != nil {
		line += ", " + kb(*s.MemFreeKB) + " free"
	}
	if s.SwapUsedKB != nil {
		line += ", swap used " + kb(*s.SwapUsedKB)
	}
	if h.LowTotalKB > 0 {
		line += ", lowmem " + kb(h.LowTotalKB)
	}
	return line
}

func tcpMemLine(t *TCPMemSummary) string {
	ps := int64(t.PageSize)
	if ps == 0 {
		ps = 4096
	}
	line := "n/a"
	if t.Pages != nil {
		line = fmt.Sprintf("%d pages (%s)", *t.Pages, units.FormatBytes(*t.Pages*ps))
	}
	if len(t.Limits) == 3 {
		line += fmt.Sprintf(" against tcp_mem pressure %d pages (%s), limit %d pages (%s)", t.Limits[1], units.FormatBytes(t.Limits[1]*ps), t.Limits[2], units.FormatBytes(t.Limits[2]*ps))
	}
	return line
}

// whenText prints a finding's interval: "from 14:02:10 to 14:05:40" (with the date when
// it spans days).
func whenText(iv diagnose.Interval) string {
	layout := "15:04:05"
	if iv.From.YearDay() != iv.To.YearDay() || iv.From.Year() != iv.To.Year() {
		layout = "2006-01-02 15:04:05"
	}
	return "from " + iv.From.Format(layout) + " to " + iv.To.Format(layout)
}

func pageKBOf(tl *model.Timeline) float64 {
	if tl.Host.PageSize > 0 {
		return float64(tl.Host.PageSize) / 1024
	}
	return 4
}

// ChartGroup is a set of charts over one axis: the whole timeline when its samples have
// clock times, else one pasted table (a vmstat table, a buddyinfo series).
type ChartGroup struct {
	Title  string
	Note   string
	Charts []chart.Chart
}

// Charts builds the charts of a timeline: over time for samples with clock times (a
// recording, a live run), with phase markers and the intervals of placed findings shaded;
// and one group per pasted table of two or more rows, over its rows. A chart appears only
// when the timeline has its data.
func Charts(tl *model.Timeline, d diagnose.Diagnosis) []ChartGroup {
	var groups []ChartGroup
	var timed []int
	for i := range tl.Samples {
		if !tl.Samples[i].Time.IsZero() {
			timed = append(timed, i)
		}
	}
	if len(timed) >= 2 {
		v := newView(tl, timed)
		v.start = tl.Samples[timed[0]].Time
		for i, k := range timed {
			v.x[i] = tl.Samples[k].Time.Sub(v.start).Seconds()
		}
		v.fillDT()
		for _, f := range d.Findings {
			if f.When == nil {
				continue
			}
			v.bands = append(v.bands, chart.Band{From: f.When.From.Sub(v.start).Seconds(), To: f.When.To.Sub(v.start).Seconds(),
				Label: f.ID, Class: f.Severity.String()})
		}
		var markers []string
		for _, m := range tl.Markers {
			t := m.Time
			if t.IsZero() && m.Index >= 0 && m.Index < len(tl.Samples) {
				t = tl.Samples[m.Index].Time
			}
			if !t.IsZero() {
				// A marker set just before the first sample (record --mark at start) marks it.
				v.marks = append(v.marks, chart.Mark{X: math.Max(0, t.Sub(v.start).Seconds()), Label: m.Text})
				markers = append(markers, fmt.Sprintf("%s “%s”", t.Format("15:04:05"), m.Text))
			}
		}
		g := ChartGroup{Title: "Over time", Note: fmt.Sprintf("%d samples from %s to %s", len(timed),
			v.start.Format("2006-01-02 15:04:05"), tl.Samples[timed[len(timed)-1]].Time.Format("15:04:05"))}
		if len(markers) > 0 {
			g.Note += "; phase markers: " + strings.Join(markers, ", ")
		}
		g.Charts = v.build("t")
		if len(g.Charts) > 0 {
			groups = append(groups, g)
		}
	}
	for si, seg := range tl.Segments {
		if seg.First < 0 || seg.Last >= len(tl.Samples) || seg.Last-seg.First < 1 {
			continue
		}
		var idx []int
		for i := seg.First; i <= seg.Last; i++ {
			if tl.Samples[i].Time.IsZero() {
				idx = append(idx, i)
			}
		}
		if len(idx) < 2 {
			continue
		}
		v := newView(tl, idx)
		step, unit := segmentStep(seg)
		v.xunit = unit
		for i := range idx {
			v.x[i] = float64(i) * step
		}
		v.fillDT()
		g := ChartGroup{Title: segmentTitle(seg), Note: segmentNote(seg, len(idx))}
		g.Charts = v.build(fmt.Sprintf("s%d", si))
		if len(g.Charts) > 0 {
			groups = append(groups, g)
		}
	}
	return groups
}

func segmentTitle(seg model.Segment) string {
	return seg.Name
}

func segmentNote(seg model.Segment, rows int) string {
	l := strings.Join(strings.Fields(seg.Label), " ")
	if l == "" {
		return fmt.Sprintf("%d rows", rows)
	}
	return fmt.Sprintf("%d rows; the text before it: “%s”", rows, l)
}

var (
	vmstatDelayRE = lazyre.New(`(?i)\bvmstat\s+(\d+)\b`)
	everyRE       = lazyre.New(`(?i)(\d+)\s*(?:s|sec|secs|second|seconds)\s+intervals?|@\s*(\d+)\s*(?:s|sec|second)s?\b|every\s+(\d+)\s*(?:s|sec|second)s?\b`)
)

// segmentStep reads the interval between rows from the text before a table ("vmstat 1",
// "@ 1 second intervals"); without one the axis counts rows, since a pasted table does
// not say its clock otherwise.
func segmentStep(seg model.Segment) (float64, string) {
	text := seg.Label + " " + seg.Name
	if m := vmstatDelayRE.FindStringSubmatch(text); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil && n > 0 {
			return float64(n), fmt.Sprintf("seconds (rows of “vmstat %d”)", n)
		}
	}
	if m := everyRE.FindStringSubmatch(text); m != nil {
		for _, g := range m[1:] {
			if n, err := strconv.Atoi(g); err == nil && n > 0 {
				return float64(n), fmt.Sprintf("seconds (rows %d s apart, as the text says)", n)
			}
		}
	}
	return 1, "row"
}

// view is the samples one chart group draws, with their x positions.
type view struct {
	tl     *model.Timeline
	idx    []int
	x      []float64
	dt     []float64 // seconds since the previous sample of the view; 0 for the first
	start  time.Time
	xunit  string
	bands  []chart.Band
	marks  []chart.Mark
	pageKB float64
}

func newView(tl *model.Timeline, idx []int) *view {
	return &view{tl: tl, idx: idx, x: make([]float64, len(idx)), dt: make([]float64, len(idx)), pageKB: pageKBOf(tl)}
}

func (v *view) fillDT() {
	for i := 1; i < len(v.x); i++ {
		v.dt[i] = v.x[i] - v.x[i-1]
	}
}

func (v *view) sample(i int) *model.Sample { return &v.tl.Samples[v.idx[i]] }

// gauge is a series of a value read from each sample.
func (v *view) gauge(name string, get func(s *model.Sample) (float64, bool)) chart.Series {
	s := chart.Series{Name: name, X: v.x, Y: make([]float64, len(v.idx))}
	for i := range v.idx {
		if y, ok := get(v.sample(i)); ok {
			s.Y[i] = y
		} else {
			s.Y[i] = math.NaN()
		}
	}
	return s
}

// rate is a series of a derived rate (Sample.Rates).
func (v *view) rate(name, key string) chart.Series {
	return v.gauge(name, func(s *model.Sample) (float64, bool) { return s.Rates.Get(key) })
}

// counter is a per-second series of a counter, from consecutive samples of the view; a
// counter that went backwards (wrap, reset) gives a gap, not a negative rate.
func (v *view) counter(name string, get func(s *model.Sample) (int64, bool)) chart.Series {
	s := chart.Series{Name: name, X: v.x, Y: make([]float64, len(v.idx))}
	for i := range v.idx {
		s.Y[i] = math.NaN()
		if i == 0 || v.dt[i] <= 0 {
			continue
		}
		a, okA := get(v.sample(i - 1))
		b, okB := get(v.sample(i))
		if okA && okB && b >= a {
			s.Y[i] = float64(b-a) / v.dt[i]
		}
	}
	return s
}

func hasData(s chart.Series) bool {
	for _, y := range s.Y {
		if !math.IsNaN(y) {
			return true
		}
	}
	return false
}

// chart assembles a chart from the series that have data; nil when none has.
func (v *view) chart(id, title, unit string, series ...chart.Series) *chart.Chart {
	var keep []chart.Series
	solid := 0
	for _, s := range series {
		if hasData(s) {
			keep = append(keep, s)
			if !s.Dashed {
				solid++
			}
		}
	}
	if solid == 0 {
		return nil
	}
	return &chart.Chart{ID: id, Title: title, YUnit: unit, XUnit: v.xunit, Start: v.start, Series: keep, Bands: v.bands, Marks: v.marks}
}

// build draws every chart the view has data for, in the order of the issue: memory
// against watermarks, fragmentation, reclaim and compaction, swap, TCP memory, sockets,
// drops per layer, retransmits, CPU, context switches and interrupts, kernel threads, run
// queue.
func (v *view) build(prefix string) []chart.Chart {
	var out []chart.Chart
	add := func(c *chart.Chart) {
		if c != nil {
			out = append(out, *c)
		}
	}
	for _, c := range v.zoneCharts(prefix) {
		add(c)
	}
	for _, c := range v.buddyCharts(prefix) {
		add(c)
	}
	add(v.chart(prefix+"-reclaim", "Reclaim and compaction", "per second",
		v.rate("pgscan kswapd (pages)", model.RatePgscanKswapdPerSec),
		v.rate("pgscan direct (pages)", model.RatePgscanDirectPerSec),
		v.rate("pgsteal kswapd (pages)", model.RatePgstealKswapdPerSec),
		v.rate("pgsteal direct (pages)", model.RatePgstealDirectPerSec),
		v.rate("allocstall (direct reclaim entries)", model.RateAllocstallPerSec),
		v.rate("compact_stall", model.RateCompactStallPerSec),
		v.rate("compact_fail", model.RateCompactFailPerSec)))
	add(v.chart(prefix+"-swap", "Swap in and out", "kB/s",
		v.rate("swap in (si)", model.RateSwapInKBPerSec),
		v.rate("swap out (so)", model.RateSwapOutKBPerSec)))
	add(v.tcpMemChart(prefix))
	add(v.socketChart(prefix))
	add(v.dropsChart(prefix))
	add(v.chart(prefix+"-retrans", "TCP retransmits", "per second",
		v.rate("retransmitted segments", model.RateTCPRetransPerSec),
		v.counter("retransmit timeouts (TcpExt TCPTimeouts)", netstat("TcpExt", "TCPTimeouts"))))
	add(v.cpuChart(prefix))
	add(v.chart(prefix+"-intr", "Context switches and interrupts", "per second",
		v.rate("context switches (cs)", model.RateCtxtPerSec),
		v.rate("interrupts (in)", model.RateIntrPerSec),
		v.rate("TLB shootdowns", model.RateTLBShootdownPerSec)))
	add(v.chart(prefix+"-kthreads", "Kernel threads' CPU", "% of one CPU",
		v.rate("kswapd", model.RateKswapdCPUPct),
		v.rate("kcompactd", model.RateKcompactdCPUPct),
		v.rate("ksoftirqd", model.RateKsoftirqdCPUPct)))
	add(v.chart(prefix+"-procs", "Run queue", "tasks",
		v.rate("runnable (r)", model.RateRunnable),
		v.rate("blocked (b)", model.RateBlocked)))
	return out
}

type zoneKey struct {
	node int
	name string
}

// zoneCharts draws free memory against the min/low/high watermarks of each populated
// zone (zoneinfo); without zoneinfo, free and available memory from meminfo or a vmstat
// table's free column.
func (v *view) zoneCharts(prefix string) []*chart.Chart {
	var zones []zoneKey
	seen := map[zoneKey]bool{}
	for i := range v.idx {
		for _, z := range v.sample(i).Zones {
			k := zoneKey{z.Node, z.Name}
			if p, ok := z.Fields.Get("present"); !ok || p == 0 || seen[k] {
				continue
			}
			seen[k] = true
			zones = append(zones, k)
		}
	}
	mib := v.pageKB / 1024
	var out []*chart.Chart
	for _, k := range zones {
		field := func(name string) func(s *model.Sample) (float64, bool) {
			return func(s *model.Sample) (float64, bool) {
				z := s.Zone(k.node, k.name)
				if z == nil {
					return 0, false
				}
				n, ok := z.Fields.Get(name)
				return float64(n) * mib, ok
			}
		}
		free := v.gauge("free", field("free"))
		min, low, high := v.gauge("min watermark", field("min")), v.gauge("low watermark", field("low")), v.gauge("high watermark", field("high"))
		min.Dashed, low.Dashed, high.Dashed = true, true, true
		min.Color, low.Color, high.Color = "#d62728", "#ff7f0e", "#2ca02c"
		id := fmt.Sprintf("%s-zone-%d-%s", prefix, k.node, strings.ToLower(k.name))
		out = append(out, v.chart(id, fmt.Sprintf("Free memory against watermarks: node %d, zone %s", k.node, k.name), "MiB", free, min, low, high))
	}
	if len(zones) > 0 {
		return out
	}
	mem := func(name string) func(s *model.Sample) (float64, bool) {
		return func(s *model.Sample) (float64, bool) {
			n, ok := s.Mem(name)
			return float64(n) / 1024, ok
		}
	}
	out = append(out, v.chart(prefix+"-mem", "Free memory (no zone watermarks in the input)", "MiB",
		v.gauge("free", mem("MemFree")), v.gauge("available", mem("MemAvailable")),
		v.gauge("buffers", mem("Buffers")), v.gauge("cached", mem("Cached"))))
	return out
}

// buddyCharts draws free blocks per order for each zone of buddyinfo, on a log scale:
// counts run from thousands of order-0 pages to a handful of large blocks, and the
// orders that fall to zero are what fragmentation looks like.
func (v *view) buddyCharts(prefix string) []*chart.Chart {
	var zones []zoneKey
	orders := map[zoneKey]int{}
	for i := range v.idx {
		for _, b := range v.sample(i).Buddy {
			k := zoneKey{b.Node, b.Zone}
			if _, ok := orders[k]; !ok {
				zones = append(zones, k)
			}
			orders[k] = max(orders[k], len(b.Free))
		}
	}
	var out []*chart.Chart
	for _, k := range zones {
		var series []chart.Series
		for o := 0; o < orders[k]; o++ {
			s := v.gauge(fmt.Sprintf("order %d (%s)", o, kb(int64(v.pageKB)<<o)), func(s *model.Sample) (float64, bool) {
				for _, b := range s.Buddy {
					if b.Node == k.node && b.Zone == k.name && o < len(b.Free) {
						return float64(b.Free[o]), true
					}
				}
				return 0, false
			})
			series = append(series, s)
		}
		c := v.chart(fmt.Sprintf("%s-buddy-%d-%s", prefix, k.node, strings.ToLower(k.name)),
			fmt.Sprintf("Free blocks per order: node %d, zone %s (fragmentation)", k.node, k.name), "free blocks", series...)
		if c != nil {
			c.YLog = true
			out = append(out, c)
		}
	}
	return out
}

func netstat(group, name string) func(s *model.Sample) (int64, bool) {
	return func(s *model.Sample) (int64, bool) { return s.NetStat.Get(group, name) }
}

func sockstat(group, name string) func(s *model.Sample) (float64, bool) {
	return func(s *model.Sample) (float64, bool) {
		n, ok := s.SockStat.Get(group, name)
		return float64(n), ok
	}
}

// tcpMemChart draws TCP's memory (sockstat "TCP: mem", pages) against the three
// thresholds of net.ipv4.tcp_mem, in MiB.
func (v *view) tcpMemChart(prefix string) *chart.Chart {
	mib := v.pageKB / 1024
	used := v.gauge("TCP memory (sockstat mem)", func(s *model.Sample) (float64, bool) {
		n, ok := s.SockStat.Get("TCP", "mem")
		return float64(n) * mib, ok
	})
	series := []chart.Series{used}
	if lim := sysctlInts(v.tl, "net.ipv4.tcp_mem"); len(lim) == 3 && hasData(used) {
		for i, name := range []string{"tcp_mem min", "tcp_mem pressure", "tcp_mem max"} {
			val := float64(lim[i]) * mib
			s := v.gauge(name, func(*model.Sample) (float64, bool) { return val, true })
			s.Dashed = true
			s.Color = []string{"#2ca02c", "#ff7f0e", "#d62728"}[i]
			series = append(series, s)
		}
	}
	return v.chart(prefix+"-tcpmem", "TCP memory against tcp_mem", "MiB", series...)
}

// socketChart draws TCP sockets per state (sock_diag dump) and the orphan and TIME_WAIT
// counts of sockstat.
func (v *view) socketChart(prefix string) *chart.Chart {
	states := map[string]int64{}
	for i := range v.idx {
		if s := v.sample(i).Sockets; s != nil {
			for st, tot := range s.ByState {
				states[st] += tot.Count
			}
		}
	}
	var series []chart.Series
	for _, st := range sortedStates(states) {
		series = append(series, v.gauge(st, func(s *model.Sample) (float64, bool) {
			if s.Sockets == nil {
				return 0, false
			}
			return float64(s.Sockets.ByState[st].Count), true
		}))
	}
	series = append(series, v.gauge("orphans (sockstat)", sockstat("TCP", "orphan")))
	if len(states) == 0 {
		series = append(series, v.gauge("in use (sockstat)", sockstat("TCP", "inuse")), v.gauge("TIME_WAIT (sockstat tw)", sockstat("TCP", "tw")))
	}
	return v.chart(prefix+"-sockets", "TCP sockets by state, and orphans", "sockets", series...)
}

// dropsChart draws receive drops per layer: the NIC (rx_dropped and rx_fifo_errors of
// /proc/net/dev, ethtool's rx_missed_errors), the per-CPU backlog (softnet_stat), and
// the sockets (TCP receive queue and backlog, listen queue overflows, UDP buffers).
func (v *view) dropsChart(prefix string) *chart.Chart {
	netdev := func(name string) func(s *model.Sample) (int64, bool) {
		return func(s *model.Sample) (int64, bool) {
			var sum int64
			found := false
			for _, d := range s.NetDev {
				if d.Name == "lo" {
					continue
				}
				if n, ok := d.Counters.Get(name); ok {
					sum += n
					found = true
				}
			}
			return sum, found
		}
	}
	ethtool := func(name string) func(s *model.Sample) (int64, bool) {
		return func(s *model.Sample) (int64, bool) {
			var sum int64
			found := false
			for _, n := range s.NICStats {
				if n.Stats == nil {
					continue
				}
				if x, ok := n.Stats.Get(name); ok {
					sum += x
					found = true
				}
			}
			return sum, found
		}
	}
	sum := func(gets ...func(s *model.Sample) (int64, bool)) func(s *model.Sample) (int64, bool) {
		return func(s *model.Sample) (int64, bool) {
			var t int64
			found := false
			for _, g := range gets {
				if n, ok := g(s); ok {
					t += n
					found = true
				}
			}
			return t, found
		}
	}
	return v.chart(prefix+"-drops", "Receive drops per layer", "packets/s",
		v.counter("NIC: rx_dropped (/proc/net/dev)", netdev("rx_dropped")),
		v.counter("NIC: overruns (rx_fifo_errors)", netdev("rx_fifo_errors")),
		v.counter("NIC: rx_missed_errors (ethtool)", ethtool("rx_missed_errors")),
		v.rate("softnet: backlog full", model.RateSoftnetDropPerSec),
		v.counter("socket: TCP rcvq/backlog/pruned", sum(netstat("TcpExt", "TCPRcvQDrop"), netstat("TcpExt", "TCPBacklogDrop"), netstat("TcpExt", "RcvPruned"))),
		v.counter("socket: listen overflows", netstat("TcpExt", "ListenOverflows")),
		v.counter("socket: UDP RcvbufErrors", netstat("Udp", "RcvbufErrors")))
}

func (v *view) cpuChart(prefix string) *chart.Chart {
	c := v.chart(prefix+"-cpu", "CPU split", "% of all CPU time",
		v.rate("user (us)", model.RateCPUUserPct),
		v.rate("system (sy)", model.RateCPUSystemPct),
		v.rate("softirq (si)", model.RateCPUSoftIRQPct),
		v.rate("iowait (wa)", model.RateCPUIOWaitPct),
		v.rate("irq (hi)", model.RateCPUIRQPct),
		v.rate("steal (st)", model.RateCPUStealPct))
	return c
}

// pageStyle is the report's own CSS; the verdict's and the charts' are appended to it.
//
//go:embed html.css
var pageStyle string

//go:embed html.tmpl
var htmlTemplateText string

// htmlTemplate is parsed at init, as before the move to an embedded file: story_html.go
// adds its "verdict" template to it from its own var initialiser.
var htmlTemplate = template.Must(template.New("report").Parse(htmlTemplateText))

// unreadLeft is the unread list without the lines read with a remark (fix52a).
func unreadLeft(tl *model.Timeline) []model.Unparsed {
	if len(tl.ReadInPart) > 0 {
		return tl.UnparsedLeft
	}
	return tl.Unparsed
}
