package export

import (
	_ "embed"
	"headroom/units"
	"html/template"
	"io"
	"strconv"
	"sync"
	"time"

	"headroom/diagnose"
	"headroom/report"
	"headroom/report/chart"
)

//go:embed status.html
var statusHTML string

// statusTmpl is parsed at the first page view, not at start: a serve that is only scraped
// never holds it.
var statusTmpl = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("status").Funcs(template.FuncMap{
		"runbook": RunbookPath,
		"kb":      humanKB,
		"order":   orderText,
	}).Parse(statusHTML))
})

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
	// Diagnosed is the newest sample the rules' last run saw (RFC 3339), DiagnosedWindow
	// the samples it saw.
	Diagnosed       string
	DiagnosedWindow int
	NotChecked      []diagnose.Check
	Healthy         int
	Zones           []report.ZoneSummary
	ChartStyle      template.CSS
	Charts          []chartGroup
	Unavailable     []SourceStatus
	Empty           bool
}

type statusFinding struct {
	ID, Severity, Title string
}

// chartGroup is one group of report.Charts, rendered.
type chartGroup struct {
	Title, Note string
	SVGs        []template.HTML
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
		p.Diagnosed = s.DiagnosedAt.UTC().Format(time.RFC3339)
		p.DiagnosedWindow = s.DiagnosisWindow
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
		// The HTML report's charts: the same renderer, over the window.
		p.ChartStyle = template.CSS(chart.Style)
		for _, g := range report.Charts(tl, s.Diagnosis) {
			cg := chartGroup{Title: g.Title, Note: g.Note}
			for i := range g.Charts {
				cg.SVGs = append(cg.SVGs, template.HTML(g.Charts[i].SVG()))
			}
			p.Charts = append(p.Charts, cg)
		}
		for _, src := range s.Sources {
			if !src.Available {
				p.Unavailable = append(p.Unavailable, src)
			}
		}
	}
	return statusTmpl().Execute(w, p)
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

// humanKB prints a kB figure with the one byte formatter (units.FormatBytes).
func humanKB(kb int64) string { return units.FormatBytes(kb * 1024) }
