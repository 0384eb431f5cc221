package export

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/prometheus/common/expfmt"

	"headroom/kernel"
)

// prometheusAccept is what a Prometheus 2.x server sends (scrape/scrape.go).
const prometheusAccept = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"

// expfmtExposition is what promhttp's path writes for the collector's current metrics:
// Gather, then expfmt's encoder.
func expfmtExposition(t *testing.T, c *Collector, f expfmt.Format) []byte {
	t.Helper()
	mfs, err := NewRegistry(c).Gather()
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	enc := expfmt.NewEncoder(&b, f)
	for _, mf := range mfs {
		if err := enc.Encode(mf); err != nil {
			t.Fatal(err)
		}
	}
	if cl, ok := enc.(expfmt.Closer); ok {
		cl.Close()
	}
	return b.Bytes()
}

func firstDiff(a, b []byte) string {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	lo := max(0, i-120)
	return fmt.Sprintf("at byte %d: got …%s… want …%s…", i, a[lo:min(len(a), i+80)], b[lo:min(len(b), i+80)])
}

// The exposition written from points is byte for byte expfmt's, in both formats, on the
// captured host with every option (sockets, pagetypeinfo, ethtool) and on this host.
func TestExpositionMatchesExpfmt(t *testing.T) {
	cases := map[string]*Collector{
		"capture": NewCollector(kernel.TxtarRoot(withAllocFailure(t), "vm.txtar"), Options{Now: fixedClock(captureTime), PageTypes: true, Ethtool: true, Sockets: true}),
	}
	if _, err := os.Stat("/proc/zoneinfo"); err == nil {
		cases["live"] = NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: time.Hour})
	}
	for name, c := range cases {
		defer c.Close()
		s := c.current()
		for _, f := range []struct {
			om  bool
			fmt expfmt.Format
		}{{false, expfmt.NewFormat(expfmt.TypeTextPlain)}, {true, expfmt.NewFormat(expfmt.TypeOpenMetrics)}} {
			want := expfmtExposition(t, c, f.fmt)
			if c.current() != s {
				t.Fatalf("%s: the snapshot changed between the two expositions", name)
			}
			got := appendExposition(nil, s.points, f.om)
			if !bytes.Equal(got, want) {
				t.Errorf("%s, OpenMetrics %v: differs from expfmt %s", name, f.om, firstDiff(got, want))
			}
		}
	}
}

// /metrics answers a Prometheus scrape (OpenMetrics, gzip) with the same body and headers as
// promhttp, a plain scrape with the text format, and a protobuf scrape through promhttp.
func TestMetricsHandlerMatchesPromhttp(t *testing.T) {
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: fixedClock(captureTime), Ethtool: true})
	defer c.Close()
	ours := NewHandler(c, nil)
	theirs := promhttp.HandlerFor(NewRegistry(c), promhttp.HandlerOpts{EnableOpenMetrics: true})
	get := func(h http.Handler, hdr ...string) (*http.Response, []byte) {
		t.Helper()
		req := httptest.NewRequest("GET", "/metrics", nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		resp := rec.Result()
		body, _ := io.ReadAll(resp.Body)
		if resp.Header.Get("Content-Encoding") == "gzip" {
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatal(err)
			}
		}
		return resp, body
	}
	for _, hdr := range [][]string{
		{"Accept", prometheusAccept, "Accept-Encoding", "gzip"},
		{"Accept", prometheusAccept},
		{"Accept-Encoding", "gzip"},
		{},
		{"Accept", "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"},
		{"Accept", "text/plain;version=0.0.4", "Accept-Encoding", "gzip;q=0, identity"},
	} {
		r1, b1 := get(ours, hdr...)
		r2, b2 := get(theirs, hdr...)
		if r1.StatusCode != 200 || !bytes.Equal(b1, b2) {
			t.Errorf("%q: status %d, body differs from promhttp's %s", hdr, r1.StatusCode, firstDiff(b1, b2))
		}
		for _, h := range []string{"Content-Type", "Content-Encoding"} {
			if a, b := r1.Header.Get(h), r2.Header.Get(h); a != b {
				t.Errorf("%q: %s %q, promhttp %q", hdr, h, a, b)
			}
		}
		if a, b := strings.Join(r1.Header.Values("Vary"), ","), strings.Join(r2.Header.Values("Vary"), ","); a != b {
			t.Errorf("%q: Vary %q, promhttp %q", hdr, a, b)
		}
	}
}

func TestAcceptsGzip(t *testing.T) {
	for h, want := range map[string]bool{
		"gzip": true, "": false, "identity": false, "br, gzip;q=0.5": true, "gzip;q=0": false,
		"*": true, "*;q=0": false, "*;q=0, gzip": true, "gzip;q=0, *": false, "GZIP": true, "deflate, x-gzip": true,
	} {
		if got := acceptsGzip(h); got != want {
			t.Errorf("Accept-Encoding %q: gzip %v, want %v", h, got, want)
		}
	}
}

// A scrape costs few allocations once the label sets exist: no prometheus.Metric per series.
func TestScrapeAllocations(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, Ethtool: true})
	defer c.Close()
	h := NewHandler(c, nil)
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	scrape := func() {
		clk.Add(time.Second)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	for range 3 {
		scrape()
	}
	n := testing.AllocsPerRun(20, scrape)
	t.Logf("%.0f allocations per scrape of a capture (sample, window, points, exposition)", n)
	// The capture's files are parsed afresh from the archive each sample (no pread reuse),
	// which dominates; the budget catches a return of per-series metrics (some 1,700).
	if n > 1500 {
		t.Errorf("%.0f allocations per scrape", n)
	}
}

// appendValueSlow is appendValue without its integer path: 'g' as client_golang's expfmt
// writes a value, with ".0" in OpenMetrics where 'g' printed neither a point nor an exponent.
func appendValueSlow(f float64, om bool) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, +1):
		return "+Inf"
	case math.IsInf(f, -1):
		return "-Inf"
	}
	if om && !strings.ContainsAny(s, "e.") {
		s += ".0"
	}
	return s
}

func checkAppendValue(t *testing.T, f float64) {
	t.Helper()
	for _, om := range []bool{false, true} {
		if got, want := string(appendValue([]byte("x "), f, om)), "x "+appendValueSlow(f, om); got != want {
			t.Errorf("appendValue(%v, om=%v) = %q, want %q", f, om, got, want)
		}
	}
}

// The integer path writes the bytes 'g' writes.
func TestAppendValueSameAsFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), 1, -1, 7, 42, 999999, -999999, 1e6, -1e6, 1234567,
		999999.5, 0.5, -0.25, 1e-7, 123456789012, 1 << 53, math.MaxInt64, math.NaN(), math.Inf(1), math.Inf(-1),
		math.Nextafter(1e6, 0), math.Nextafter(-1e6, 0), 1e21, 3.0000000000000004} {
		checkAppendValue(t, f)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		checkAppendValue(t, float64(r.Int64N(4e6)-2e6))
		checkAppendValue(t, r.NormFloat64()*1e6)
	}
}

func FuzzAppendValue(f *testing.F) {
	f.Add(0.0)
	f.Add(999999.0)
	f.Add(-0.5)
	f.Fuzz(func(t *testing.T, v float64) { checkAppendValue(t, v) })
}

// TestCompressStored: compress frames any text, empty, one block, a block's exact size
// and several blocks, as a gzip member that compress/gzip reads back whole, in a slice
// of exactly its length.
func TestCompressStored(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 65534, 65535, 65536, 2*65535 + 7} {
		text := make([]byte, n)
		for i := range text {
			text[i] = byte(r.IntN(256))
		}
		out := compress(text)
		if len(out) != cap(out) {
			t.Errorf("%d bytes: a slice of %d with room for %d", n, len(out), cap(out))
		}
		zr, err := gzip.NewReader(bytes.NewReader(out))
		if err != nil {
			t.Fatalf("%d bytes: %v", n, err)
		}
		got, err := io.ReadAll(zr)
		if err != nil || !bytes.Equal(got, text) {
			t.Errorf("%d bytes: read back %d bytes, %v", n, len(got), err)
		}
	}
}

// TestGzipExpositionInPlace: a body framed in place is compress's framing of the same
// exposition, after whatever the buffer held, for one block and for several (the points
// repeated past 65,535 bytes).
func TestGzipExpositionInPlace(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now})
	defer c.Close()
	ps := c.current().points
	for _, reps := range []int{1, 2, 200} {
		var many []point
		for range reps {
			many = append(many, ps...)
		}
		for _, om := range []bool{false, true} {
			text := appendExposition(nil, many, om)
			prefix := []byte("left over")
			got := appendGzipExposition(bytes.Clone(prefix), many, nil, om)
			want := append(bytes.Clone(prefix), compress(text)...)
			if !bytes.Equal(got, want) {
				t.Errorf("%d× the points (%d bytes of text), om=%v: framed in place differs from compress", reps, len(text), om)
			}
		}
		if reps == 200 && len(appendExposition(nil, many, false)) <= maxStored {
			t.Fatalf("200× the points is not more than one stored block: the test misses the copy")
		}
	}
}

// TestBodyBuffersReused: a snapshot's body is made in a buffer an earlier snapshot's body
// used, but never in one an answer is still writing, and a replaced snapshot still answers
// its own exposition.
func TestBodyBuffersReused(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, MinInterval: time.Second})
	defer c.Close()
	// Each snapshot's exposition differs (headroom_samples_taken_total), so a body made
	// from another snapshot's points shows.
	want := func(s *Snapshot, om, gz bool) []byte {
		if gz {
			return compress(appendExposition(nil, s.points, om))
		}
		return appendExposition(nil, s.points, om)
	}
	s1 := c.current()
	b1 := s1.body(true, true) // held: an answer being written
	saved := bytes.Clone(b1.b)
	clk.Add(time.Second)
	s2 := c.current() // replaces s1
	b2 := s2.body(true, true)
	if &b2.b[0] == &b1.b[0] {
		t.Fatal("the new snapshot's body was made in the buffer an answer is still writing")
	}
	if !bytes.Equal(b1.b, saved) || !bytes.Equal(b1.b, want(s1, true, true)) {
		t.Fatal("a body being written changed under its writer")
	}
	if !bytes.Equal(b2.b, want(s2, true, true)) {
		t.Fatal("the second snapshot's body is not its exposition")
	}
	p1 := &b1.b[0]
	b1.release() // the answer is written: s1 was replaced, so its buffer is free
	if b1.b != nil {
		t.Error("a released body of a replaced snapshot still holds its buffer")
	}
	b2.release()
	clk.Add(time.Second)
	s3 := c.current()
	b3 := s3.body(true, true)
	if &b3.b[0] != p1 {
		t.Error("the freed buffer was not reused for the next snapshot's body")
	}
	if !bytes.Equal(b3.b, want(s3, true, true)) {
		t.Fatal("a body made in a reused buffer is not its snapshot's exposition")
	}
	// A late scrape of s1, whose buffer is now s3's, and of a variant s1 never made.
	for _, v := range [][2]bool{{true, true}, {false, false}, {true, false}} {
		late := s1.body(v[0], v[1])
		if !bytes.Equal(late.b, want(s1, v[0], v[1])) {
			t.Errorf("a late scrape of a replaced snapshot (om=%v gz=%v) did not get that snapshot's exposition", v[0], v[1])
		}
		if len(late.b) > 0 && &late.b[0] == &b3.b[0] {
			t.Errorf("a late scrape of a replaced snapshot was given a buffer in use")
		}
		late.release()
	}
	if !bytes.Equal(b3.b, want(s3, true, true)) {
		t.Fatal("late scrapes of a replaced snapshot wrote a body in use")
	}
	b3.release()
}

// TestBodyAllocations: a steady stream of scrapes, each of a new snapshot, allocates no
// body: the buffers go round (a new 23 KB body each scrape was 80% of the bytes a
// scrape allocated).
func TestBodyAllocations(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, MinInterval: time.Second})
	defer c.Close()
	s := c.current()
	next := func(body bool) {
		c.mu.Lock()
		old := s
		s = c.refresh()
		old.retire()
		c.mu.Unlock()
		if body {
			s.body(true, true).release()
		}
	}
	perRun := func(body bool) float64 {
		for range 3 { // the buffers grown to the body's size
			next(body)
		}
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		for range 50 {
			next(body)
		}
		runtime.ReadMemStats(&m1)
		return float64(m1.TotalAlloc-m0.TotalAlloc) / 50
	}
	without, with := perRun(false), perRun(true)
	size := len(s.body(true, true).b)
	t.Logf("bytes allocated per new snapshot: %.0f, and its %d-byte body: %.0f", without, size, with)
	if with-without > float64(size)/4 {
		t.Errorf("a new snapshot's body allocates %.0f bytes (its body is %d): the buffers do not go round", with-without, size)
	}
}

// TestExpoTemplateSameAsExposition: a body made through the snapshot's template is
// appendExposition's bytes, in both formats, gzip-framed or not, for successive snapshots
// (their values differ: headroom_samples_taken_total at least) and for values that print
// in every form (NaN, ±Inf, -0, exponents, fractions); snapshots whose points have the
// same families and label sets share one template, and a change of them makes another.
func TestExpoTemplateSameAsExposition(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(withAllocFailure(t), "vm.txtar"), Options{Now: clk.Now, MinInterval: time.Second, Ethtool: true})
	defer c.Close()
	check := func(what string, s *Snapshot, ps []point) {
		t.Helper()
		for _, om := range []bool{false, true} {
			want := appendExposition(nil, ps, om)
			if got := s.tmpl.appendExposition([]byte("left over"), ps, om); !bytes.Equal(got[len("left over"):], want) {
				t.Errorf("%s, om=%v: through the template %s", what, om, firstDiff(got[len("left over"):], want))
			}
			if got := appendGzipExposition(nil, ps, s.tmpl, om); !bytes.Equal(got, compress(want)) {
				t.Errorf("%s, om=%v: gzip through the template differs from compress", what, om)
			}
		}
	}
	var first *Snapshot
	for i := range 3 {
		s := c.current()
		if s.tmpl == nil || len(s.points) < 100 {
			t.Fatalf("snapshot %d: template %v, %d points", i, s.tmpl, len(s.points))
		}
		if first == nil {
			first = s
		} else if s.tmpl != first.tmpl {
			t.Errorf("snapshot %d: a new template for the same families and label sets", i)
		}
		check(fmt.Sprintf("snapshot %d", i), s, s.points)
		for _, om := range []bool{false, true} {
			bb := s.body(om, false)
			if want := appendExposition(nil, s.points, om); !bytes.Equal(bb.b, want) {
				t.Errorf("snapshot %d, om=%v: body %s", i, om, firstDiff(bb.b, want))
			}
			bb.release()
		}
		clk.Add(time.Second)
	}
	odd := slices.Clone(first.points)
	vals := []float64{math.NaN(), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), 1e300, 0.5, -3, 123456789, 1e-7}
	for i := range odd {
		odd[i].v = vals[i%len(vals)]
	}
	check("odd values", first, odd)

	// Another set of points (one series fewer) gets a template of its own.
	var b pointBuf
	b.labels = new(labelCache)
	for _, p := range first.points {
		b.out = append(b.out, p)
	}
	b.finish()
	t1 := b.tmpl
	b.finish()
	if b.tmpl != t1 {
		t.Error("the same points again: a new template")
	}
	b.out = b.out[:len(b.out)-1]
	ps := b.finish()
	if b.tmpl == t1 {
		t.Fatal("one series fewer: the same template")
	}
	for _, om := range []bool{false, true} {
		if got, want := b.tmpl.appendExposition(nil, ps, om), appendExposition(nil, ps, om); !bytes.Equal(got, want) {
			t.Errorf("one series fewer, om=%v: %s", om, firstDiff(got, want))
		}
	}
}
