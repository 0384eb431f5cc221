package export

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"headroom/internal/testkit"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// Concurrent scrapers within the minimum interval share one sample; the next interval
// takes a new one.
func TestConcurrentScrapesShareOneSample(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, MinInterval: time.Second})
	defer c.Close()
	var wg sync.WaitGroup
	snaps := make([]*Snapshot, 16)
	for i := range snaps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			snaps[i] = c.Snapshot()
		}()
	}
	wg.Wait()
	for i, s := range snaps {
		if s != snaps[0] {
			t.Fatalf("scraper %d got another snapshot", i)
		}
	}
	if snaps[0].SamplesTaken != 1 {
		t.Fatalf("samples taken = %d, want 1", snaps[0].SamplesTaken)
	}
	clk.Add(999 * time.Millisecond)
	if c.Snapshot().SamplesTaken != 1 {
		t.Error("resampled within the minimum interval")
	}
	clk.Add(time.Millisecond)
	if n := c.Snapshot().SamplesTaken; n != 2 {
		t.Errorf("samples taken = %d after the interval, want 2", n)
	}
	// Metrics of one snapshot are built once and shared.
	s := c.Snapshot()
	if a, b := s.Metrics(), s.Metrics(); len(a) == 0 || &a[0] != &b[0] {
		t.Error("metrics rebuilt for the same snapshot")
	}
}

// The window is bounded by count and by age, and the second sample has rates.
func TestWindowBounds(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, WindowSamples: 5, Window: time.Hour, WindowInterval: -1})
	defer c.Close()
	for i := 0; i < 12; i++ {
		c.Snapshot()
		clk.Add(time.Second)
	}
	s := c.Snapshot()
	if n := len(s.Timeline.Samples); n != 5 {
		t.Errorf("%d samples in the window, want the bound 5", n)
	}
	if len(s.Sample.Rates) == 0 {
		t.Error("the newest sample has no rates")
	}

	c2 := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, WindowSamples: 100, Window: 3 * time.Second, WindowInterval: -1})
	defer c2.Close()
	for i := 0; i < 10; i++ {
		c2.Snapshot()
		clk.Add(time.Second)
	}
	s = c2.Snapshot()
	if n := len(s.Timeline.Samples); n != 4 { // t-3s .. t inclusive
		t.Errorf("%d samples in a 3 s window at 1 s spacing, want 4", n)
	}
	// Older snapshots keep their own window: the ring is copied, not shared for writing.
	first := c2.Snapshot()
	before := first.Timeline.Samples[0].Time
	clk.Add(time.Second)
	c2.Snapshot()
	if !first.Timeline.Samples[0].Time.Equal(before) {
		t.Error("a later sample changed an earlier snapshot's window")
	}
}

func TestHandler(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(withAllocFailure(t), "vm.txtar"), Options{Now: clk.Now})
	defer c.Close()
	srv := httptest.NewServer(NewHandler(c, nil))
	defer srv.Close()
	get := func(path string, hdr ...string) (int, string, http.Header) {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+path, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), resp.Header
	}
	if code, body, _ := get("/healthz"); code != 200 || !strings.HasPrefix(body, "ok") {
		t.Errorf("/healthz before a sample: %d %q", code, body)
	}
	code, body, hdr := get("/metrics")
	if code != 200 || !strings.Contains(body, `headroom_zone_free_pages{node="0",zone="Normal"} 182047`) {
		t.Errorf("/metrics: %d %.300s", code, body)
	}
	if ct := hdr.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("/metrics content type %q", ct)
	}
	code, body, hdr = get("/metrics", "Accept", "application/openmetrics-text;version=1.0.0")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "application/openmetrics-text") || !strings.HasSuffix(body, "# EOF\n") {
		t.Errorf("OpenMetrics: %d %q ...%q", code, hdr.Get("Content-Type"), body[max(0, len(body)-40):])
	}
	if !strings.Contains(body, `headroom_page_allocation_failures_total{gfp_class="atomic",order="3"} 1`) {
		t.Error("OpenMetrics exposition lacks the allocation failure counter")
	}
	if code, body, _ := get("/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	clk.Add(10 * time.Second) // a second window sample (WindowInterval: 10 s by default): the charts need two
	code, body, hdr = get("/")
	if code != 200 || !strings.Contains(body, `href="/docs/rules/alloc-fail-fragmented.md"`) || !strings.Contains(body, "<svg") {
		t.Errorf("status page: %d %.500s", code, body)
	}
	if hdr.Get("Content-Security-Policy") == "" {
		t.Error("status page without a CSP")
	}
	if code, body, _ := get("/docs/rules/alloc-fail-fragmented.md"); code != 200 || !strings.HasPrefix(body, "# alloc-fail-fragmented") {
		t.Errorf("rule page: %d %.80q", code, body)
	}
	for _, p := range []string{"/docs/rules/nope.md", "/docs/rules/..%2fdocs.go", "/docs/rules/alloc-fail-fragmented", "/nothing"} {
		if code, _, _ := get(p); code != 404 {
			t.Errorf("%s: %d, want 404", p, code)
		}
	}
	resp, err := http.Post(srv.URL+"/metrics", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Errorf("POST /metrics: %d", resp.StatusCode)
	}
}

// The status page before any sample and with one sample (no rates) still renders.
func TestStatusPageEmpty(t *testing.T) {
	var b strings.Builder
	if err := WriteStatus(&b, nil); err != nil || !strings.Contains(b.String(), "No sample yet") {
		t.Errorf("empty page: %v %q", err, b.String())
	}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: fixedClock(captureTime)})
	defer c.Close()
	b.Reset()
	if err := WriteStatus(&b, c.Snapshot()); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Charts need two samples") {
		t.Error("one-sample page does not say the charts need two samples")
	}
}

// The live host: every metric family that this machine supports is there, and scraping
// twice a second apart gives rates to the rules.
func TestLiveHost(t *testing.T) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	c := NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: 10 * time.Millisecond, WindowInterval: -1})
	defer c.Close()
	for _, name := range []string{"headroom_zone_free_pages", "headroom_zone_free_blocks", "headroom_softnet_processed_total", "headroom_tcp_memory_pages", "headroom_tcp_mem_limit_pages"} {
		if n := testutil.CollectAndCount(c, name); n == 0 {
			t.Errorf("live host: no %s", name)
		}
	}
	time.Sleep(20 * time.Millisecond)
	s := c.Snapshot()
	if s.SamplesTaken < 2 || len(s.Timeline.Samples) < 2 {
		t.Fatalf("after two scrapes: %d samples taken, %d in the window", s.SamplesTaken, len(s.Timeline.Samples))
	}
	for _, src := range s.Sources {
		if !src.Available {
			t.Logf("not available here: %s (%s)", src.Source, src.Why)
		}
	}
	t.Logf("sample %v, diagnosis %v", s.SampleDuration, s.DiagnosisDuration)
}

// extractCapture writes the capture's files under a new directory, for a DirRoot whose
// files a test can change between samples.
func extractCapture(t *testing.T) string {
	return testkit.CaptureDir(t, capturePath)
}

// findingSeverity is the severity label of headroom_finding{id} in s, "" when absent.
func findingSeverity(s *Snapshot, id string) string {
	for _, p := range s.points {
		if p.d == mFinding && p.ls.values[0] == id {
			return p.ls.values[1]
		}
	}
	return ""
}

func pointValue(s *Snapshot, d *metricDef) (float64, bool) {
	for _, p := range s.points {
		if p.d == d {
			return p.v, true
		}
	}
	return 0, false
}

// The rules run at most once per rules interval: a sample within it is exported at once
// with the last findings, and a finding appears at the first sample one interval after the
// last run. TCP memory above tcp_mem's max is the change here (tcp-memory-pressure).
func TestFindingWithinRulesInterval(t *testing.T) {
	dir := extractCapture(t)
	clk := &fakeClock{t: captureTime}
	const interval = 15 * time.Second
	c := NewCollector(kernel.DirRoot(dir), Options{Now: clk.Now, RulesInterval: interval, WindowInterval: -1})
	defer c.Close()
	s := c.current()
	if sev := findingSeverity(s, "tcp-memory-pressure"); sev != "" {
		t.Fatalf("tcp-memory-pressure %s before the change", sev)
	}
	if !s.DiagnosedAt.Equal(captureTime) || s.DiagnosisWindow != 1 {
		t.Fatalf("first sample: diagnosed at %v over %d samples, want the sample itself", s.DiagnosedAt, s.DiagnosisWindow)
	}

	// tcp_mem max is 575796 pages in the capture.
	sockstat := filepath.Join(dir, "proc/net/sockstat")
	b, err := os.ReadFile(sockstat)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sockstat, bytes.Replace(b, []byte("mem 126\n"), []byte("mem 600000\n"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, at := range []time.Duration{4 * time.Second, 8 * time.Second, interval - time.Second} {
		clk.t = captureTime.Add(at)
		s = c.current()
		if v, _ := pointValue(s, mTCPMem); v != 600000 {
			t.Fatalf("headroom_tcp_memory_pages %v, want the new sample's 600000 at once", v)
		}
		if sev := findingSeverity(s, "tcp-memory-pressure"); sev != "" || !s.DiagnosedAt.Equal(captureTime) {
			t.Fatalf("+%v: rules ran within the interval (diagnosed at %v, finding %q)", clk.Now().Sub(captureTime), s.DiagnosedAt, sev)
		}
	}
	clk.t = captureTime.Add(interval)
	s = c.current()
	if sev := findingSeverity(s, "tcp-memory-pressure"); sev != "critical" {
		t.Errorf("one interval after the last run: tcp-memory-pressure %q, want critical", sev)
	}
	if !s.DiagnosedAt.Equal(clk.Now()) || s.DiagnosisWindow != 5 {
		t.Errorf("diagnosed at %v over %d samples, want now over the 5 samples", s.DiagnosedAt, s.DiagnosisWindow)
	}
	if v, _ := pointValue(s, mWindowSamples); v != 5 {
		t.Errorf("headroom_diagnosis_window_samples %v, want 5", v)
	}

	// RulesInterval < 0: every sample.
	c2 := NewCollector(kernel.DirRoot(dir), Options{Now: clk.Now, RulesInterval: -1, WindowInterval: -1})
	defer c2.Close()
	c2.current()
	clk.Add(time.Second)
	if s := c2.current(); !s.DiagnosedAt.Equal(clk.Now()) {
		t.Errorf("RulesInterval -1: diagnosed at %v, want every sample", s.DiagnosedAt)
	}
}

// A kernel-log event (an allocation failure report, once settled) runs the rules at the
// next sample without waiting for the interval.
func TestLogEventRunsRules(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, RulesInterval: time.Hour})
	defer c.Close()
	c.current()
	c.mu.Lock()
	for _, r := range kmsgFromDmesg(t, "testdata/alloc_6x_warn_alloc.txt", 999_000_000, 900) {
		c.log.pending = append(c.log.pending, pendingRec{rec: model.LogRecord{UptimeUsec: r.TimestampUsec, Priority: r.Priority, Message: r.Message}.WithTime(time.Unix(1795292118, 0).Add(time.Duration(r.TimestampUsec) * time.Microsecond)), at: clk.Now()})
	}
	c.mu.Unlock()
	clk.Add(time.Second) // not settled yet (2 s)
	if s := c.current(); !s.DiagnosedAt.Equal(captureTime) {
		t.Fatalf("rules ran before the report settled (diagnosed at %v)", s.DiagnosedAt)
	}
	clk.Add(2 * time.Second)
	s := c.current()
	if !s.DiagnosedAt.Equal(clk.Now()) {
		t.Fatalf("diagnosed at %v: the new report did not run the rules", s.DiagnosedAt)
	}
	if sev := findingSeverity(s, "alloc-fail-fragmented"); sev == "" {
		var ids []string
		for _, f := range s.Diagnosis.Findings {
			ids = append(ids, f.ID)
		}
		t.Errorf("no alloc-fail finding after the report: %v", ids)
	}
}

// Without --sockets a scrape does not dump sockets: no sock_diag source, no per-state series.
func TestDefaultScrapeDumpsNoSockets(t *testing.T) {
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: fixedClock(captureTime)})
	defer c.Close()
	s := c.Snapshot()
	if s.Sample.Sockets != nil || s.Sample.SocketList != nil {
		t.Error("the default sample holds a socket dump")
	}
	for _, src := range s.Sources {
		if src.Source == "sock_diag" {
			t.Error("sock_diag listed as a source without Sockets")
		}
	}
	for _, p := range s.points {
		if p.d == mTCPSockets {
			t.Fatal("headroom_tcp_sockets without Sockets")
		}
	}
}

// When samples come slower than the window turns over (Prometheus every 15 s), the window
// stays unpacked between runs of the rules and a run unpacks only the new sample; the
// timeline it reads is the one a full unpacking gives. When they come fast, nothing is kept.
func TestRulesKeepWindowWhenScrapesAreSlow(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, RulesInterval: 15 * time.Second, WindowInterval: -1})
	defer c.Close()
	for i := range 8 {
		c.current()
		c.mu.Lock()
		unpacked, window := c.diag.unpacked, c.diag.window
		c.mu.Unlock()
		if i >= 2 && unpacked != 1 {
			t.Errorf("run %d over %d samples unpacked %d, want only the new one", i, window, unpacked)
		}
		clk.Add(15 * time.Second)
	}
	c.mu.Lock()
	from := clk.Now().Add(-c.opt.Window)
	kept := c.timeline(from)
	saved := make([]*model.Sample, len(c.window))
	for i := range c.window {
		saved[i], c.window[i].full = c.window[i].full, nil
	}
	fresh := c.timeline(from)
	for i := range c.window {
		c.window[i].full = saved[i]
	}
	c.mu.Unlock()
	if a, b := jsonOf(t, kept.Samples), jsonOf(t, fresh.Samples); !bytes.Equal(a, b) {
		t.Errorf("the kept window differs from the window unpacked afresh")
	}

	// Fast: 100 samples between runs, more than the window holds.
	for range 100 {
		clk.Add(200 * time.Millisecond)
		c.current()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i := range c.window {
		if c.window[i].full != nil {
			t.Fatalf("window sample %d kept unpacked although the window turns over between runs", i)
		}
	}
}

// Samples enter the window one WindowInterval apart (Window/WindowSamples, 10 s, by
// default); the scrapes in between export the counters they read without entering it.
func TestWindowInterval(t *testing.T) {
	dir := extractCapture(t)
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.DirRoot(dir), Options{Now: clk.Now})
	defer c.Close()
	if c.opt.WindowInterval != 10*time.Second {
		t.Fatalf("default window interval %v, want 10 min / 60 samples = 10s", c.opt.WindowInterval)
	}
	sockstat := filepath.Join(dir, "proc/net/sockstat")
	orig, err := os.ReadFile(sockstat)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 26 {
		mem := fmt.Sprintf("mem %d\n", 1000+i)
		if err := os.WriteFile(sockstat, bytes.Replace(orig, []byte("mem 126\n"), []byte(mem), 1), 0o644); err != nil {
			t.Fatal(err)
		}
		s := c.current()
		if v, _ := pointValue(s, mTCPMem); v != float64(1000+i) {
			t.Fatalf("scrape %d: headroom_tcp_memory_pages %v, want this scrape's %d", i, v, 1000+i)
		}
		clk.Add(time.Second)
	}
	s := c.Snapshot()
	if s.SamplesTaken != 27 {
		t.Errorf("%d samples taken, want 27", s.SamplesTaken)
	}
	var times []time.Duration
	for _, sm := range s.Timeline.Samples {
		times = append(times, sm.Time.Sub(captureTime))
	}
	if want := []time.Duration{0, 10 * time.Second, 20 * time.Second}; !slices.Equal(times, want) {
		t.Fatalf("window samples at %v, want %v", times, want)
	}
	if len(s.Sample.Rates) == 0 || s.Sample.Stat == nil || len(s.Sample.Threads) == 0 {
		t.Errorf("the newest window sample is not a full one: %d rates, stat %v, %d threads", len(s.Sample.Rates), s.Sample.Stat != nil, len(s.Sample.Threads))
	}
	// /proc/meminfo and /proc/net/snmp are read by window samples only: their availability
	// is that of the last one.
	for _, src := range []string{"/proc/meminfo", "/proc/net/snmp", "/proc/zoneinfo"} {
		if !sourceOK(s.Sources, src) {
			t.Errorf("%s not available after a scrape between window samples", src)
		}
	}
	if v, _ := s.Sample.SockStat.Get("TCP", "mem"); v != 1020 {
		t.Errorf("newest window sample has TCP mem %d, want the 1020 of the sample at +20s", v)
	}
}

// /proc/net/protocols is read by window samples only (exposedParts): between them TCP's
// pressure flag is that of the last window sample, and the next window sample reads it anew.
func TestProtocolsReadByWindowSamples(t *testing.T) {
	// The files that feed only the rules or a flag are left to window samples.
	for _, p := range []source.Parts{source.PartProtocols, source.PartConntrack, source.PartInterrupts, source.PartSNMP6} {
		if exposedParts&p != 0 {
			t.Errorf("part %#x is read between window samples", p)
		}
	}
	dir := extractCapture(t)
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.DirRoot(dir), Options{Now: clk.Now})
	defer c.Close()
	protocols := filepath.Join(dir, "proc/net/protocols")
	orig, err := os.ReadFile(protocols)
	if err != nil {
		t.Fatal(err)
	}
	tcpRow := regexp.MustCompile(`(?m)^(TCP +\d+ +\d+ +\d+ +)no `)
	if !tcpRow.Match(orig) {
		t.Fatal("the capture's /proc/net/protocols has no TCP row with press \"no\"")
	}
	pressure := func(when string, want float64) {
		t.Helper()
		s := c.current()
		if v, ok := pointValue(s, mTCPPressure); !ok || v != want {
			t.Errorf("%s: headroom_tcp_memory_pressure %v (present %v), want %v", when, v, ok, want)
		}
		if !sourceOK(s.Sources, "/proc/net/protocols") {
			t.Errorf("%s: /proc/net/protocols not available", when)
		}
	}
	pressure("first window sample", 0)
	if err := os.WriteFile(protocols, tcpRow.ReplaceAll(orig, []byte("${1}yes")), 0o644); err != nil {
		t.Fatal(err)
	}
	clk.Add(time.Second)
	pressure("scrape 1 s later, between window samples", 0)
	clk.Add(9 * time.Second)
	pressure("next window sample", 1)
}

// At the default window interval the window does not turn over between runs of the rules
// however fast the scrapes come, so a run unpacks only the window samples taken since the
// one before (the scrapes between them are not window samples and do not count).
func TestRulesKeepWindowBetweenWindowSamples(t *testing.T) {
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now})
	defer c.Close()
	runs := 0
	var last *diagState
	for range 120 { // two minutes of scrapes 1 s apart
		c.current()
		c.mu.Lock()
		d := c.diag
		c.mu.Unlock()
		if d != last {
			runs++
			if runs > 3 && d.unpacked > 2 { // the first runs find a short window, which they do not keep
				t.Errorf("run %d over %d window samples unpacked %d, want only the new ones", runs, d.window, d.unpacked)
			}
			last = d
		}
		clk.Add(time.Second)
	}
	if runs < 5 {
		t.Errorf("%d runs of the rules in two minutes, want one every 20 s or so", runs)
	}
}
