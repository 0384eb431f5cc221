package export

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/common/expfmt"
)

// The /metrics handler writes the exposition itself: a scrape is the newest sample's points
// appended to a buffer, framed as gzip (compress), instead of a Gather that builds and sorts a
// protobuf message per series and an encoder that writes them piece by piece. The output
// is byte for byte what promhttp with expfmt writes for the same metrics
// (TestExpositionMatchesExpfmt), in the two formats Prometheus asks for: OpenMetrics 1.0.0
// (and 0.0.1, the same text for these types) and the text format 0.0.4. Anything else (the
// protobuf formats, a name[] filter) goes to promhttp over the registry.

// familyHeads renders the # HELP and # TYPE lines of a family in the text format and in
// OpenMetrics, as expfmt does: OpenMetrics names a counter family without its _total and
// escapes double quotes in HELP; the text format escapes only backslash and newline.
func familyHeads(name string, typ prometheus.ValueType, help string) (text, om string) {
	typName := "gauge"
	omName, omType := name, "gauge"
	if typ == prometheus.CounterValue {
		typName = "counter"
		omType = "unknown" // expfmt: a counter whose name lacks _total
		if strings.HasSuffix(name, "_total") {
			omName, omType = strings.TrimSuffix(name, "_total"), "counter"
		}
	}
	text = "# HELP " + name + " " + helpEscaper.Replace(help) + "\n# TYPE " + name + " " + typName + "\n"
	om = "# HELP " + omName + " " + labelEscaper.Replace(help) + "\n# TYPE " + omName + " " + omType + "\n"
	return text, om
}

var helpEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`)

// appendExposition writes the points in the text format, or in OpenMetrics with its # EOF.
func appendExposition(b []byte, ps []point, om bool) []byte {
	var fam *metricDef
	for _, p := range ps {
		if p.d != fam {
			fam = p.d
			if om {
				b = append(b, fam.omHead...)
			} else {
				b = append(b, fam.textHead...)
			}
		}
		b = append(b, p.d.name...)
		if p.ls != nil {
			b = append(b, p.ls.text...)
		}
		b = append(b, ' ')
		b = appendValue(b, p.v, om)
		b = append(b, '\n')
	}
	if om {
		b = append(b, "# EOF\n"...)
	}
	return b
}

// appendValue formats a sample value as expfmt's writeFloat (text) and
// writeOpenMetricsFloat do: shortest 'g' form, and in OpenMetrics a ".0" on integers.
func appendValue(b []byte, f float64, om bool) []byte {
	switch {
	case math.IsNaN(f):
		return append(b, "NaN"...)
	case math.IsInf(f, +1):
		return append(b, "+Inf"...)
	case math.IsInf(f, -1):
		return append(b, "-Inf"...)
	}
	if f > -1e6 && f < 1e6 && f == math.Trunc(f) && (f != 0 || !math.Signbit(f)) {
		// Most values are counts below a million, which 'g' prints as the integer it is
		// (exponents start at 1e6, and -0 stays "-0" below): the same bytes, a third of the
		// time (TestAppendValueSameAsFloat).
		b = strconv.AppendInt(b, int64(f), 10)
		if om {
			b = append(b, '.', '0')
		}
		return b
	}
	n := len(b)
	b = strconv.AppendFloat(b, f, 'g', -1, 64)
	if om && !bytes.ContainsAny(b[n:], "e.") {
		b = append(b, '.', '0')
	}
	return b
}

// body variants a snapshot caches: [OpenMetrics][gzip], with their Content-Length values.
type bodyCache struct {
	once   [2][2]sync.Once
	b      [2][2][]byte
	length [2][2][]string
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var textBufs = sync.Pool{New: func() any { b := make([]byte, 0, 32<<10); return &b }}

// compress returns text as the gzip body a scrape asked for: one gzip member (RFC 1952)
// of stored deflate blocks (RFC 1951 3.2.4, BTYPE 00, up to 65,535 bytes each), in a
// slice of exactly its size. The text is framed, not compressed: what it costs is a copy
// and a CRC-32 of the text, where compressing it took about a tenth of serve's CPU per
// scrape.
//
// Why not compressed (issue 33; docs/performance.md, "serve on 2026-11-29, branch serve4"):
// the exposition is about 23 KB and compresses 4 to 1 at any level, but compressing it was
// the largest single item of a scrape after the sample itself: github.com/klauspost/
// compress's stateless level, the cheapest that compresses with matches, took 61-71 µs
// hot in process (80 µs in BenchmarkScrapeLive against 4 µs stored) and more in a scrape
// that comes every 15 s to cold caches; Huffman-only 37-40 µs for a 14.7 KB body.
// Serve's 17 KB more per scrape is about 1.1 KB/s on the wire at Prometheus' 15 s. The
// answer stays gzip, as Prometheus asks, so a scraper decodes it as before and the
// encoding can go back to a compressing level in this one function.
func compress(text []byte) []byte {
	const maxStored = 0xffff
	blocks := max(1, (len(text)+maxStored-1)/maxStored)
	out := make([]byte, 0, 10+5*blocks+len(text)+8)
	// ID1 ID2, CM deflate, no flags, no mtime, no XFL, OS unknown (as compress/gzip writes).
	out = append(out, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255)
	crc, size := crc32.ChecksumIEEE(text), uint32(len(text))
	for first := true; first || len(text) > 0; first = false {
		n := min(len(text), maxStored)
		final := byte(0)
		if n == len(text) {
			final = 1 // BFINAL, BTYPE 00
		}
		out = append(out, final, byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
		out = append(out, text[:n]...)
		text = text[n:]
	}
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, size)
}

// body returns the snapshot's exposition in one format and encoding, and its length as
// the Content-Length header's value, made once and shared by every scrape of the snapshot.
func (s *Snapshot) body(om, gz bool) ([]byte, []string) {
	i, j := b2i(om), b2i(gz)
	s.bodies.once[i][j].Do(func() {
		tp := textBufs.Get().(*[]byte)
		text := appendExposition((*tp)[:0], s.points, om)
		if gz {
			s.bodies.b[i][j] = compress(text)
		} else {
			s.bodies.b[i][j] = bytes.Clone(text)
		}
		*tp = text
		textBufs.Put(tp)
		s.bodies.length[i][j] = []string{strconv.Itoa(len(s.bodies.b[i][j]))}
	})
	return s.bodies.b[i][j], s.bodies.length[i][j]
}

// metricsHandler serves /metrics.
type metricsHandler struct {
	c        *Collector
	fallback http.Handler // promhttp over the registry
	log      Logger
	inFlight inFlight
	accept   atomic.Pointer[negotiated]
}

// negotiated is the format chosen for one Accept header: a scraper sends the same header
// every time, so the last answer is kept.
type negotiated struct {
	accept      string
	format      expfmt.Format
	typ         expfmt.FormatType
	contentType []string // the Content-Type header's value
	ours        bool     // the exposition writer writes it (OpenMetrics or the text format)
	om          bool     // OpenMetrics
}

// Header values every /metrics answer shares: net/http only reads them. Each slice has no
// spare capacity, so that an append elsewhere copies it.
var (
	varyValues = []string{"Accept", "Accept-Encoding"}
	gzipValues = []string{"gzip"}
)

// maxInFlight refuses scrapers beyond it: they would wait in line for the shared sample
// anyway, and a misconfigured fleet must not pile up goroutines.
const maxInFlight = 16

// inFlight admits at most maxInFlight requests to a handler at once.
type inFlight chan struct{}

func newInFlight() inFlight { return make(inFlight, maxInFlight) }

// enter admits the request, or answers it with 503 and reports false.
func (l inFlight) enter(w http.ResponseWriter) bool {
	select {
	case l <- struct{}{}:
		return true
	default:
		http.Error(w, fmt.Sprintf("Limit of concurrent requests reached (%d), try again later.", maxInFlight), http.StatusServiceUnavailable)
		return false
	}
}

// leave ends an admitted request.
func (l inFlight) leave() { <-l }

func newMetricsHandler(c *Collector, reg prometheus.Gatherer, log Logger) *metricsHandler {
	return &metricsHandler{
		c:        c,
		fallback: promhttpHandler(reg, log),
		log:      log,
		inFlight: newInFlight(),
	}
}

func (h *metricsHandler) negotiate(r *http.Request) *negotiated {
	return negotiate(h, r.Header.Get("Accept"))
}

// negotiate chooses the format for an Accept header's value (the fast path has it as
// bytes: comparing it with the last one's string allocates nothing).
func negotiate[T string | []byte](h *metricsHandler, a T) *negotiated {
	if n := h.accept.Load(); n != nil && n.accept == string(a) {
		return n
	}
	hdr := http.Header{}
	if len(a) > 0 {
		hdr["Accept"] = []string{string(a)}
	}
	f := expfmt.NegotiateAccept(hdr, expfmt.DefaultOpenMetricsAcceptedFormats()...)
	typ := f.FormatType()
	n := &negotiated{accept: string(a), format: f, typ: typ, contentType: []string{string(f)},
		ours: typ == expfmt.TypeOpenMetrics || typ == expfmt.TypeTextPlain, om: typ == expfmt.TypeOpenMetrics}
	h.accept.Store(n)
	return n
}

func (h *metricsHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !h.inFlight.enter(w) {
		return
	}
	defer h.inFlight.leave()
	n := h.negotiate(r)
	if !n.ours || strings.Contains(r.URL.RawQuery, "name") {
		h.fallback.ServeHTTP(w, r)
		return
	}
	s := h.c.current()
	gz := acceptsGzip(r.Header.Get("Accept-Encoding"))
	body, length := s.body(n.om, gz)
	// The header map is written directly, with canonical keys and shared values, instead of
	// Add and Set, which canonicalise each key and allocate each value.
	hdr := w.Header()
	hdr["Vary"] = varyValues
	hdr["Content-Type"] = n.contentType
	if gz {
		hdr["Content-Encoding"] = gzipValues
	}
	hdr["Content-Length"] = length
	if len(body) > 0 {
		holdHeader(w, r, http.StatusOK) // the header leaves with the body, in one write
	}
	if _, err := w.Write(body); err != nil && h.log != nil {
		h.log.Println("headroom serve: writing /metrics:", err)
	}
}

// acceptsGzip reports whether an Accept-Encoding header allows gzip (RFC 9110 12.5.3): by
// name, or else by "*", with a q-value above 0.
func acceptsGzip(h string) bool {
	gzipQ, starQ := -1.0, -1.0
	for part := range strings.SplitSeq(h, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.TrimSpace(coding)
		isGzip := strings.EqualFold(coding, "gzip") || strings.EqualFold(coding, "x-gzip")
		if !isGzip && coding != "*" {
			continue
		}
		q := 1.0
		for p := range strings.SplitSeq(params, ";") {
			k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
			if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
				if f, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil {
					q = f
				}
			}
		}
		if isGzip {
			gzipQ = q
		} else {
			starQ = q
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}
