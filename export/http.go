package export

import (
	"fmt"
	"io"
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"headroom/docs"
	"headroom/internal/lazyre"
)

// Logger receives the HTTP layer's errors (a failed write to a scraper that went away).
type Logger interface{ Println(v ...any) }

// NewRegistry returns a registry holding only c: no Go runtime or process metrics, so the
// exposition is kernel counters and finding ids and nothing else.
func NewRegistry(c *Collector) *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(c)
	return reg
}

// NewHandler serves:
//
//	/metrics                 the Prometheus text format, or OpenMetrics when the scraper asks
//	/                        the live status page
//	/healthz                 200 "ok" once a sample has read /proc/meminfo, 503 before or when it failed
//	/docs/rules/ID.md        the rule's page (the runbook the alert rules link to)
//
// Only GET and HEAD are answered. /metrics and / each answer at most 16 requests at once
// (maxInFlight) and refuse more with 503; / is drawn once per sample (statuspage.go).
func NewHandler(c *Collector, log Logger) http.Handler {
	h, _ := newHandler(c, log)
	return h
}

// newHandler is NewHandler, with its /metrics handler (the fast path answers from it).
func newHandler(c *Collector, log Logger) (http.Handler, *metricsHandler) {
	mh := newMetricsHandler(c, NewRegistry(c), log)
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", mh)
	mux.Handle("GET /{$}", newStatusHandler(c, log))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		s := c.Last()
		switch {
		case s == nil:
			// Not sampled yet: healthy enough to be scraped, which samples.
			io.WriteString(w, "ok (no sample yet)\n")
		case !sourceOK(s.Sources, "/proc/meminfo"):
			w.WriteHeader(http.StatusServiceUnavailable)
			io.WriteString(w, "cannot read /proc/meminfo\n")
		default:
			io.WriteString(w, "ok\n")
		}
	})
	mux.HandleFunc("GET /docs/rules/{page}", func(w http.ResponseWriter, r *http.Request) {
		m := rulePageRE.FindStringSubmatch(r.PathValue("page"))
		if m == nil {
			http.NotFound(w, r)
			return
		}
		page, err := docs.Rule(m[1])
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Write(page)
	})
	return mux, mh
}

// promhttpHandler serves what the exposition writer does not: the protobuf formats and
// name[] filters.
func promhttpHandler(reg prometheus.Gatherer, log Logger) http.Handler {
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{
		EnableOpenMetrics:   true,
		ErrorLog:            log,
		ErrorHandling:       promhttp.ContinueOnError,
		MaxRequestsInFlight: maxInFlight,
	})
}

var rulePageRE = lazyre.New(`^([a-z0-9]+(?:-[a-z0-9]+)*)\.md$`)

// statusCSP allows the page's own inline style and script and nothing from elsewhere.
const statusCSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

// RunbookPath is the path below the serve address of a rule's page.
func RunbookPath(id string) string { return fmt.Sprintf("/docs/rules/%s.md", id) }
