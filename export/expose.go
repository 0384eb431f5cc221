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
	return writeExposition(b, ps, om, nil)
}

// writeExposition is appendExposition; with ends (one per point) it leaves the values out
// and notes in ends where each would go (expoTemplate).
func writeExposition(b []byte, ps []point, om bool, ends []int32) []byte {
	var fam *metricDef
	for i, p := range ps {
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
		if ends != nil {
			ends[i] = int32(len(b))
		} else {
			b = appendValue(b, p.v, om)
		}
		b = append(b, '\n')
	}
	if om {
		b = append(b, "# EOF\n"...)
	}
	return b
}

// expoTemplate is the exposition of a sequence of points without their values: what the
// text between two values is (the end of a line, a family's # HELP and # TYPE, a name, a
// label set, a blank) depends only on the points' families and label sets, which are the
// same from one sample to the next nearly always (pointBuf.finish makes a new template
// when they are not). A body is then the template's pieces and the values, one copy of
// contiguous bytes and one number per point, where appendExposition copies three to five
// strings from as many objects per point: less work, and far fewer cache lines to fetch
// in a scrape that comes to cold caches every 15 s (docs/performance.md, "serve on
// 2026-11-29, branch serve7"). TestExpoTemplateSameAsExposition holds it to
// appendExposition's bytes.
//
// A template is made for each format the first time a body of it is asked for, from the
// points of the snapshot that asks (every snapshot sharing the template has the same
// families and label sets in the same order, so any of them gives the same pieces), and
// is read-only after.
type expoTemplate struct {
	once [2]sync.Once // [OpenMetrics]
	text [2][]byte
	// ends[f][i] is where in text[f] the value of point i goes: the piece before it starts
	// where the one before ends (at 0 for the first), with the end of the line before.
	// After the last value comes the rest of text[f]: the last line's end and
	// OpenMetrics' # EOF.
	ends [2][]int32
}

// appendExposition is appendExposition(b, ps, om) through the template.
func (t *expoTemplate) appendExposition(b []byte, ps []point, om bool) []byte {
	f := b2i(om)
	t.once[f].Do(func() { t.text[f], t.ends[f] = makeExpoTemplate(ps, om) })
	text, ends := t.text[f], t.ends[f]
	if len(ends) != len(ps) { // not the points it was made for: a programming error
		return appendExposition(b, ps, om)
	}
	prev := int32(0)
	for i := range ps {
		b = append(b, text[prev:ends[i]]...)
		b = appendValue(b, ps[i].v, om)
		prev = ends[i]
	}
	return append(b, text[prev:]...)
}

// makeExpoTemplate writes what appendExposition writes for ps but the values, and where
// each value goes.
func makeExpoTemplate(ps []point, om bool) (text []byte, ends []int32) {
	ends = make([]int32, len(ps))
	return writeExposition(nil, ps, om, ends), ends
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

// bodyCache is the body variants a snapshot makes, [OpenMetrics][gzip], each at most once.
type bodyCache struct {
	once [2][2]sync.Once
	b    [2][2]*bodyBuf
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// bodyBuf is one body of a snapshot and its length as the Content-Length header's value.
//
// Its bytes are reused (bodyPool): a scrape's body used to be a new 23 KB slice, zeroed by
// the allocator, the exposition copied into it, and the most of serve's garbage (80% of the
// bytes a scrape allocated, each one a share of a collection); it is now written in place
// into a buffer that the snapshot before this one's used. A buffer goes back to its pool
// only when nothing can still write it: refs counts the snapshot's own reference, dropped
// when the collector replaces the snapshot (retire), and one per answer being written
// (Snapshot.body, release). A pooled buffer whose count fell to 0 is never handed out
// again by its snapshot: a late scrape of a replaced snapshot gets a body of its own.
//
// The bodyBuf itself is the snapshot's, never reused: only its bytes go round, so a
// replaced snapshot cannot take a reference to a body that is now another snapshot's.
type bodyBuf struct {
	b      []byte
	length []string // made for each body, never written after: net/http may read it late
	refs   atomic.Int32
	pool   *bodyPool // nil: not pooled, refs unused
}

// bodyPool keeps a few body buffers between snapshots: one scraper needs two (the body
// being answered while the next snapshot's is made), one in each format four.
type bodyPool struct{ free chan []byte }

const bodyPoolSize = 4

func newBodyPool() *bodyPool { return &bodyPool{free: make(chan []byte, bodyPoolSize)} }

// get returns a free buffer, or nil (append makes one); a nil pool has none.
func (p *bodyPool) get() []byte {
	if p != nil {
		select {
		case b := <-p.free:
			return b[:0]
		default:
		}
	}
	return nil
}

func (p *bodyPool) put(b []byte) {
	select {
	case p.free <- b:
	default: // the pool is full: the collector frees it
	}
}

// acquire takes a reference to b for one answer, or reports false when b went back to its
// pool (its snapshot was replaced and no answer held it).
func (b *bodyBuf) acquire() bool {
	if b.pool == nil {
		return true
	}
	for {
		r := b.refs.Load()
		if r <= 0 {
			return false
		}
		if b.refs.CompareAndSwap(r, r+1) {
			return true
		}
	}
}

// release drops a reference (an answer written, or the snapshot replaced); the last one
// returns b to its pool.
func (b *bodyBuf) release() {
	if b.pool != nil && b.refs.Add(-1) == 0 {
		b.pool.put(b.b)
		b.b = nil
	}
}

// gzipHeader is a gzip member's header (RFC 1952): ID1 ID2, CM deflate, no flags, no
// mtime, no XFL, OS unknown (as compress/gzip writes).
var gzipHeader = [10]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255}

// maxStored is the most bytes of a stored deflate block (RFC 1951 3.2.4: LEN is 16 bits).
const maxStored = 0xffff

// compress returns text as the gzip body a scrape asked for: one gzip member (RFC 1952)
// of stored deflate blocks (RFC 1951 3.2.4, BTYPE 00, up to 65,535 bytes each), in a
// slice of exactly its size. The text is framed, not compressed: what it costs is a copy
// and a CRC-32 of the text, where compressing it took about a tenth of serve's CPU per
// scrape. A scrape's body is framed in place instead (appendGzipExposition); this is the
// same framing of a text already made.
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
	blocks := max(1, (len(text)+maxStored-1)/maxStored)
	return appendStored(make([]byte, 0, len(gzipHeader)+5*blocks+len(text)+8), text)
}

// appendStored appends the gzip member of text in stored blocks to out.
func appendStored(out, text []byte) []byte {
	out = append(out, gzipHeader[:]...)
	crc, size := crc32.ChecksumIEEE(text), uint32(len(text))
	for first := true; first || len(text) > 0; first = false {
		n := min(len(text), maxStored)
		out = appendStoredHeader(out, n, n == len(text))
		out = append(out, text[:n]...)
		text = text[n:]
	}
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, size)
}

// appendStoredHeader appends a stored block's header: BFINAL and BTYPE 00 in the first
// byte (the block starts on a byte boundary), LEN and NLEN.
func appendStoredHeader(out []byte, n int, final bool) []byte {
	return append(out, byte(b2i(final)), byte(n), byte(n>>8), ^byte(n), ^byte(n>>8))
}

// appendGzipExposition appends the points' exposition framed as compress frames it,
// writing the text in place after the first block's header: no copy of the text, unless it
// is longer than one block (a host with hundreds of NICs or zones), when it is copied once
// into its blocks.
func appendGzipExposition(out []byte, ps []point, tmpl *expoTemplate, om bool) []byte {
	start := len(out)
	out = append(out, gzipHeader[:]...)
	out = appendStoredHeader(out, 0, true) // LEN filled in below
	t0 := len(out)
	if tmpl != nil {
		out = tmpl.appendExposition(out, ps, om)
	} else {
		out = appendExposition(out, ps, om)
	}
	text := out[t0:]
	if len(text) > maxStored {
		return appendStored(out[:start], bytes.Clone(text))
	}
	appendStoredHeader(out[t0-5:t0-5], len(text), true)
	crc := crc32.ChecksumIEEE(text)
	out = binary.LittleEndian.AppendUint32(out, crc)
	return binary.LittleEndian.AppendUint32(out, uint32(len(text)))
}

// body returns the snapshot's exposition in one format and encoding, made once and shared
// by every scrape of the snapshot. The caller writes it and then releases it.
func (s *Snapshot) body(om, gz bool) *bodyBuf {
	i, j := b2i(om), b2i(gz)
	s.bodies.once[i][j].Do(func() {
		bb := s.makeBody(s.pool, om, gz)
		bb.refs.Store(1) // the snapshot's, until retire
		s.bodies.b[i][j] = bb
	})
	if bb := s.bodies.b[i][j]; bb != nil && bb.acquire() {
		return bb
	}
	// The snapshot was replaced (retire) before this scrape asked for this body: one of
	// its own, from the same points.
	return s.makeBody(nil, om, gz)
}

func (s *Snapshot) makeBody(pool *bodyPool, om, gz bool) *bodyBuf {
	bb := &bodyBuf{b: pool.get(), pool: pool}
	switch {
	case gz:
		bb.b = appendGzipExposition(bb.b, s.points, s.tmpl, om)
	case s.tmpl != nil:
		bb.b = s.tmpl.appendExposition(bb.b, s.points, om)
	default:
		bb.b = appendExposition(bb.b, s.points, om)
	}
	bb.length = []string{strconv.Itoa(len(bb.b))}
	return bb
}

// retire drops the snapshot's references to its bodies once the collector has replaced
// it: a body no answer is writing goes back to the pool, and a variant not made yet never
// will be (a late scrape makes its own).
func (s *Snapshot) retire() {
	for i := range s.bodies.once {
		for j := range s.bodies.once[i] {
			s.bodies.once[i][j].Do(func() {})
			if bb := s.bodies.b[i][j]; bb != nil {
				bb.release()
			}
		}
	}
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
	bb := s.body(n.om, gz)
	defer bb.release()
	body, length := bb.b, bb.length
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
