package export

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
	"headroom/model"
	"headroom/report"
)

//go:embed status.html
var statusHTML string

var statusTmpl = template.Must(template.New("status").Funcs(template.FuncMap{
	"runbook": RunbookPath,
	"kb":      humanKB,
	"order":   orderText,
}).Parse(statusHTML))

// statusPage is what the template renders. It holds kernel numbers, rule ids and titles,
// and the names of sources that could not be read: the same things the metrics expose.
// Evidence and explanations (which may quote process names or socket addresses) are left
// to `headroom doctor` on the host.
type statusPage struct {
	Kernel      string
	PageSize    int
	Sampled     string // RFC 3339
	SampledUnix int64
	Window      int
	Span        string
	Findings    []statusFinding
	NotChecked  []diagnose.Check
	Healthy     int
	Zones       []report.ZoneSummary
	Charts      []chart
	Unavailable []SourceStatus
	Empty       bool
}

type statusFinding struct {
	ID, Severity, Title string
}

// WriteStatus renders the status page of a snapshot.
func WriteStatus(w io.Writer, s *Snapshot) error {
	p := statusPage{Empty: s == nil || s.Sample == nil}
	if !p.Empty {
		tl := s.Timeline
		p.Kernel = tl.Host.Kernel
		p.PageSize = tl.Host.PageSize
		p.Sampled = s.Time.UTC().Format(time.RFC3339)
		p.SampledUnix = s.Time.Unix()
		p.Window = len(tl.Samples)
		p.Span = tl.Span().Round(time.Second).String()
		for _, f := range s.Diagnosis.Findings {
			p.Findings = append(p.Findings, statusFinding{ID: f.ID, Severity: f.Severity.String(), Title: f.Title})
		}
		for _, c := range s.Diagnosis.Checks {
			switch c.Status {
			case diagnose.StatusNotChecked:
				p.NotChecked = append(p.NotChecked, c)
			case diagnose.StatusOK:
				p.Healthy++
			}
		}
		p.Zones = report.Summarize(tl).Zones
		p.Charts = statusCharts(tl)
		for _, src := range s.Sources {
			if !src.Available {
				p.Unavailable = append(p.Unavailable, src)
			}
		}
	}
	return statusTmpl.Execute(w, p)
}

// orderText says the largest free block of a zone (report.ZoneSummary.HighestFreeOrder).
func orderText(o *int) string {
	switch {
	case o == nil:
		return "n/a"
	case *o < 0:
		return "none"
	}
	return "order " + strconv.Itoa(*o)
}

func humanKB(kb int64) string {
	switch {
	case kb >= 1<<20:
		return fmt.Sprintf("%.2f GiB", float64(kb)/(1<<20))
	case kb >= 1<<10:
		return fmt.Sprintf("%.1f MiB", float64(kb)/(1<<10))
	}
	return fmt.Sprintf("%d KiB", kb)
}

// chart is a small SVG line chart of the window.
type chart struct {
	Title  string
	Unit   string
	Max    string // the top of the y axis, formatted
	Series []chartSeries
	Note   string // why there is nothing to draw
}

type chartSeries struct {
	Name   string
	Color  string
	Points string // SVG polyline points in the 0..chartW × 0..chartH box
	Last   string
}

const (
	chartW = 600.0
	chartH = 120.0
)

var chartColors = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd"}

// seriesOf is one line: the value of each sample, NaN when the sample lacks it.
type seriesOf struct {
	name string
	get  func(i int, s *model.Sample) float64
}

func statusCharts(tl *model.Timeline) []chart {
	pageKB := float64(tl.Host.PageSize) / 1024
	if pageKB <= 0 {
		pageKB = 4
	}
	var charts []chart
	// One chart per zone that the network's allocations use: DMA is 16 MiB that GFP_ATOMIC
	// rarely reaches, Movable and HighMem are not usable by the kernel's own allocations.
	if last := tl.Last(); last != nil {
		for _, z := range last.Zones {
			if managed, _ := z.Fields.Get("managed"); managed == 0 || z.Name == "DMA" || z.Name == "Movable" || z.Name == "HighMem" || z.Name == "Device" {
				continue
			}
			node, name := z.Node, z.Name
			field := func(f string) func(int, *model.Sample) float64 {
				return func(_ int, s *model.Sample) float64 {
					zz := s.Zone(node, name)
					if zz == nil {
						return math.NaN()
					}
					v, ok := zz.Fields.Get(f)
					if !ok {
						return math.NaN()
					}
					return float64(v) * pageKB / 1024
				}
			}
			charts = append(charts, makeChart(tl, fmt.Sprintf("Node %d %s: free memory against the watermarks", node, name), "MiB",
				seriesOf{"free", field("free")}, seriesOf{"low", field("low")}, seriesOf{"min", field("min")}))
		}
	}
	tcpMem := func(_ int, s *model.Sample) float64 {
		v, ok := s.SockStat.Get("TCP", "mem")
		if !ok {
			return math.NaN()
		}
		return float64(v)
	}
	limit := func(i int) func(int, *model.Sample) float64 {
		lim := sysctlInts(tl, "net.ipv4.tcp_mem")
		return func(int, *model.Sample) float64 {
			if len(lim) != 3 {
				return math.NaN()
			}
			return float64(lim[i])
		}
	}
	charts = append(charts, makeChart(tl, "TCP memory against tcp_mem pressure", "pages",
		seriesOf{"TCP memory", tcpMem}, seriesOf{"tcp_mem pressure", limit(1)}))
	rate := func(key string) func(int, *model.Sample) float64 {
		return func(_ int, s *model.Sample) float64 {
			v, ok := s.Rates.Get(key)
			if !ok {
				return math.NaN()
			}
			return v
		}
	}
	charts = append(charts, makeChart(tl, "Softnet backlog drops and squeezes", "per second",
		seriesOf{"dropped", rate(model.RateSoftnetDropPerSec)}, seriesOf{"squeezed", rate(model.RateSoftnetSqueezePerSec)}))
	charts = append(charts, makeChart(tl, "Reclaim: pages scanned and direct-reclaim stalls", "per second",
		seriesOf{"scanned by kswapd", rate(model.RatePgscanKswapdPerSec)}, seriesOf{"scanned in direct reclaim", rate(model.RatePgscanDirectPerSec)},
		seriesOf{"allocstall", rate(model.RateAllocstallPerSec)}))
	psi := func(full bool) func(int, *model.Sample) float64 {
		return func(i int, s *model.Sample) float64 {
			if i == 0 {
				return math.NaN()
			}
			prev := &tl.Samples[i-1]
			a, b := psiTotal(prev, full), psiTotal(s, full)
			dt := s.Time.Sub(prev.Time).Seconds()
			if a < 0 || b < 0 || b < a || dt <= 0 {
				return math.NaN()
			}
			return 100 * float64(b-a) / 1e6 / dt
		}
	}
	charts = append(charts, makeChart(tl, "Memory pressure stall (PSI)", "% of time",
		seriesOf{"some", psi(false)}, seriesOf{"full", psi(true)}))
	return charts
}

func psiTotal(s *model.Sample, full bool) int64 {
	p := s.Pressure("memory")
	if p == nil {
		return -1
	}
	l := p.Some
	if full {
		l = p.Full
	}
	if l == nil {
		return -1
	}
	return l.TotalUsec
}

func makeChart(tl *model.Timeline, title, unit string, series ...seriesOf) chart {
	c := chart{Title: title, Unit: unit}
	n := len(tl.Samples)
	if n < 2 {
		c.Note = "needs two samples: reload after the next scrape"
		return c
	}
	t0, t1 := tl.Samples[0].Time, tl.Samples[n-1].Time
	span := t1.Sub(t0).Seconds()
	vals := make([][]float64, len(series))
	top := 0.0
	any := false
	for k, sr := range series {
		vals[k] = make([]float64, n)
		for i := range tl.Samples {
			v := sr.get(i, &tl.Samples[i])
			vals[k][i] = v
			if !math.IsNaN(v) {
				any = true
				top = math.Max(top, v)
			}
		}
	}
	if !any {
		c.Note = "not available from this host"
		return c
	}
	if top <= 0 {
		top = 1
	}
	c.Max = formatNum(top)
	for k, sr := range series {
		var pts []string
		last := math.NaN()
		for i := range tl.Samples {
			v := vals[k][i]
			if math.IsNaN(v) {
				continue
			}
			x := 0.0
			if span > 0 {
				x = tl.Samples[i].Time.Sub(t0).Seconds() / span * chartW
			}
			y := chartH - v/top*chartH
			pts = append(pts, strconv.FormatFloat(x, 'f', 1, 64)+","+strconv.FormatFloat(y, 'f', 1, 64))
			last = v
		}
		cs := chartSeries{Name: sr.name, Color: chartColors[k%len(chartColors)], Points: strings.Join(pts, " ")}
		if !math.IsNaN(last) {
			cs.Last = formatNum(last)
		}
		c.Series = append(c.Series, cs)
	}
	return c
}

func formatNum(v float64) string {
	switch {
	case v >= 1e6:
		return strconv.FormatFloat(v/1e6, 'f', 2, 64) + "M"
	case v >= 1e4:
		return strconv.FormatFloat(v/1e3, 'f', 1, 64) + "k"
	case v == math.Trunc(v):
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}
