package export

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"github.com/prometheus/common/expfmt"
	"github.com/rogpeppe/go-internal/txtar"

	"headroom/diagnose"
	"headroom/internal/buildinfo"
	"headroom/kernel"
	"headroom/model"
)

var update = flag.Bool("update", false, "rewrite the golden files (exposition, alert rules) from the current code")

const capturePath = "../testdata/captures/vm-6.18.txtar"

// captureTime is a moment just after the last kernel log record of the capture: /proc/stat
// btime 1795292118 plus the 995 s uptime of that record, rounded up.
var captureTime = time.Unix(1795292118+1000, 0)

func loadCapture(t testing.TB) *txtar.Archive {
	t.Helper()
	a, err := txtar.ParseFile(capturePath)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func fixedClock(at time.Time) func() time.Time { return func() time.Time { return at } }

// fakeClock advances only when told to.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *fakeClock) Add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// golden compares got with testdata/NAME, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./export -run %s -update to create it)", err, t.Name())
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the current output; diff it against testdata/%s or rerun with -update after checking", name, name)
	}
}

// The exposition of a captured 6.18 host is a product: compared as a whole, with
// testutil.CollectAndCompare (which also checks HELP and TYPE).
func TestExpositionGolden(t *testing.T) {
	root := kernel.TxtarRoot(loadCapture(t), "vm-6.18.txtar")
	c := NewCollector(root, Options{Now: fixedClock(captureTime), PageTypes: true, Ethtool: true, Sockets: true})
	defer c.Close()
	// headroom_rule_checked lists every registered rule: it is checked against the
	// registry below rather than frozen here, so that adding a rule does not churn this file.
	// headroom_build_info names the binary under test (Go version, revision): checked below.
	var names []string
	for _, n := range MetricNames() {
		if n != "headroom_rule_checked" && n != "headroom_build_info" {
			names = append(names, n)
		}
	}
	if *update {
		b, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain, names...)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "vm-6.18.prom", b)
	}
	f, err := os.Open("testdata/vm-6.18.prom")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := testutil.CollectAndCompare(c, f, names...); err != nil {
		t.Fatal(err)
	}
	b := buildinfo.Get()
	wantBuild := fmt.Sprintf(`# HELP headroom_build_info %s
# TYPE headroom_build_info gauge
headroom_build_info{goarch=%q,goos=%q,goversion=%q,revision=%q,version=%q} 1
`, mBuildInfo.help, b.Arch, b.OS, b.GoVersion, b.Revision, b.Version)
	if err := testutil.CollectAndCompare(c, strings.NewReader(wantBuild), "headroom_build_info"); err != nil {
		t.Error(err)
	}
	if n, want := testutil.CollectAndCount(c, "headroom_rule_checked"), len(diagnose.Rules()); n != want {
		t.Errorf("%d headroom_rule_checked series, want one per registered rule (%d)", n, want)
	}
	// A second gather is the same snapshot (fixed clock: within MinInterval).
	if n := testutil.ToFloat64(singleMetric(c, "headroom_samples_total")); n != 1 {
		t.Errorf("samples_total = %v after two gathers within the minimum interval, want 1", n)
	}
}

// singleMetric narrows c to one metric family for testutil.ToFloat64.
func singleMetric(c prometheus.Collector, name string) prometheus.Collector {
	return collectorFunc(func(ch chan<- prometheus.Metric) {
		all := make(chan prometheus.Metric)
		go func() { c.Collect(all); close(all) }()
		for m := range all {
			if strings.Contains(m.Desc().String(), `fqName: "`+name+`"`) {
				ch <- m
			}
		}
	})
}

type collectorFunc func(ch chan<- prometheus.Metric)

func (f collectorFunc) Describe(ch chan<- *prometheus.Desc) { prometheus.DescribeByCollect(f, ch) }
func (f collectorFunc) Collect(ch chan<- prometheus.Metric) { f(ch) }

// Metric names follow the Prometheus conventions (promlint: units, _total, no camel case).
func TestExpositionLint(t *testing.T) {
	root := kernel.TxtarRoot(loadCapture(t), "vm-6.18.txtar")
	c := NewCollector(root, Options{Now: fixedClock(captureTime), PageTypes: true, Ethtool: true, Sockets: true})
	defer c.Close()
	problems, err := testutil.CollectAndLint(c)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range problems {
		// promlint knows no "pages" unit; pages are the kernel's unit for these and the HELP
		// says so (headroom_page_size_bytes converts).
		if strings.HasSuffix(p.Metric, "_pages") || strings.HasSuffix(p.Metric, "_pages_total") {
			continue
		}
		t.Errorf("%s: %s", p.Metric, p.Text)
	}
}

// withAllocFailure returns the capture with a 6.6 warn_alloc report (order 3, GFP_ATOMIC,
// from the NIC's RX path) appended to its kernel log, 5 s before captureTime.
func withAllocFailure(t testing.TB) *txtar.Archive {
	t.Helper()
	a := loadCapture(t)
	extra := kmsgFromDmesg(t, "testdata/alloc_6x_warn_alloc.txt", 995_000_000, 384)
	for i := range a.Files {
		if a.Files[i].Name == kernel.KmsgCapturePath {
			a.Files[i].Data = append(a.Files[i].Data, kernel.FormatKmsg(extra)...)
		}
	}
	return a
}

var dmesgLine = regexp.MustCompile(`^\[\s*(\d+)\.(\d+)\] (.*)$`)

// kmsgFromDmesg turns "[ sec.usec] text" lines into /dev/kmsg records (priority 4, as
// warn_alloc prints), the first at uptime startUsec; indented lines continue the record
// before them, as the kernel's multi-line messages do.
func kmsgFromDmesg(t testing.TB, path string, startUsec int64, seq uint64) []kernel.KmsgRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var recs []kernel.KmsgRecord
	var base int64 = -1
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		m := dmesgLine.FindStringSubmatch(line)
		if m == nil {
			if len(recs) == 0 {
				t.Fatalf("%s: continuation before any record: %q", path, line)
			}
			recs[len(recs)-1].Message += "\n" + strings.TrimSpace(line)
			continue
		}
		sec, _ := strconv.ParseInt(m[1], 10, 64)
		usec, _ := strconv.ParseInt(m[2], 10, 64)
		ts := sec*1e6 + usec
		if base < 0 {
			base = ts
		}
		recs = append(recs, kernel.KmsgRecord{Priority: 4, Seq: seq, TimestampUsec: startUsec + ts - base, Flag: "-", Message: m[3]})
		seq++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs
}

// An allocation failure in the kernel log is counted by order and GFP class, becomes a
// finding of the alloc-fail family, and the exposition of those families is a golden file.
func TestAllocFailureExposition(t *testing.T) {
	root := kernel.TxtarRoot(withAllocFailure(t), "vm-6.18-allocfail.txtar")
	c := NewCollector(root, Options{Now: fixedClock(captureTime), Ethtool: true})
	defer c.Close()
	names := []string{"headroom_page_allocation_failures_total", "headroom_finding"}
	if *update {
		b, err := testutil.CollectAndFormat(c, expfmt.TypeTextPlain, names...)
		if err != nil {
			t.Fatal(err)
		}
		golden(t, "allocfail.prom", b)
	}
	f, err := os.Open("testdata/allocfail.prom")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := testutil.CollectAndCompare(c, f, names...); err != nil {
		t.Fatal(err)
	}
	s := c.Snapshot()
	var atomic3 int64
	for _, a := range s.allocs {
		if a.Order == 3 && a.Class == kernel.GFPClassAtomic {
			atomic3 = a.N
		}
	}
	if atomic3 != 1 {
		t.Errorf("order-3 atomic failures = %d, want 1 (counts %+v)", atomic3, s.allocs)
	}
	fired := false
	for _, f := range s.Diagnosis.Findings {
		if strings.HasPrefix(f.ID, "alloc-fail-") && f.Severity.String() == "critical" {
			fired = true
		}
	}
	if !fired {
		t.Errorf("no critical alloc-fail finding from the report in the log: %+v", s.Diagnosis.Findings)
	}
}

// An event older than the window is counted (the counter is since boot) but is no longer
// an active finding.
func TestAllocFailureLeavesWindow(t *testing.T) {
	root := kernel.TxtarRoot(withAllocFailure(t), "vm-6.18-allocfail.txtar")
	c := NewCollector(root, Options{Now: fixedClock(captureTime.Add(time.Hour)), Ethtool: true})
	defer c.Close()
	s := c.Snapshot()
	if len(s.allocs) != 1 {
		t.Errorf("counts %+v, want the one failure", s.allocs)
	}
	for _, f := range s.Diagnosis.Findings {
		if strings.HasPrefix(f.ID, "alloc-fail-") {
			t.Errorf("finding %s from an event an hour old, outside the 10 min window", f.ID)
		}
	}
}

func TestGFPClass(t *testing.T) {
	yes, no := true, false
	for _, tc := range []struct {
		name string
		af   model.AllocFailure
		want string
	}{
		{"GFP_ATOMIC as printed", model.AllocFailure{Atomic: &yes, GFPFlags: []string{"GFP_ATOMIC", "__GFP_COMP"}}, kernel.GFPClassAtomic},
		{"2.6 mode 0x20 __GFP_HIGH", model.AllocFailure{Atomic: &yes, GFPFlags: []string{"__GFP_HIGH"}}, kernel.GFPClassAtomic},
		{"GFP_NOWAIT", model.AllocFailure{Atomic: &yes, GFPFlags: []string{"GFP_NOWAIT", "__GFP_NOWARN"}}, kernel.GFPClassNowait},
		{"mode 0", model.AllocFailure{Atomic: &yes, GFPFlags: []string{"GFP_NOWAIT"}}, kernel.GFPClassNowait},
		{"GFP_KERNEL", model.AllocFailure{Atomic: &no, GFPFlags: []string{"GFP_KERNEL", "__GFP_COMP"}}, kernel.GFPClassKernel},
		{"GFP_NOFS", model.AllocFailure{Atomic: &no, GFPFlags: []string{"GFP_NOFS"}}, kernel.GFPClassKernel},
		{"GFP_HIGHUSER_MOVABLE", model.AllocFailure{Atomic: &no, GFPFlags: []string{"GFP_HIGHUSER_MOVABLE"}}, kernel.GFPClassUser},
		{"2.4 GFP_KERNEL has __GFP_HIGH but may wait", model.AllocFailure{Atomic: &no, GFPFlags: []string{"GFP_KERNEL"}}, kernel.GFPClassKernel},
		{"undecidable era", model.AllocFailure{Atomic: nil, GFPFlags: []string{"GFP_ATOMIC"}}, kernel.GFPClassUnknown},
		{"eras agree", model.AllocFailure{Atomic: &yes, GFPCandidates: []kernel.GFPCandidate{
			{Kernels: "4.4-4.9", Flags: []string{"GFP_ATOMIC"}}, {Kernels: "5.0-6.2", Flags: []string{"__GFP_HIGH", "__GFP_ZERO"}}}}, kernel.GFPClassAtomic},
		{"eras disagree", model.AllocFailure{Atomic: &yes, GFPCandidates: []kernel.GFPCandidate{
			{Kernels: "4.4-4.9", Flags: []string{"GFP_ATOMIC"}}, {Kernels: "5.0-6.2", Flags: []string{"GFP_NOWAIT"}}}}, kernel.GFPClassUnknown},
		{"no names, reclaim known", model.AllocFailure{Atomic: &no}, kernel.GFPClassKernel},
		{"no names, no reclaim", model.AllocFailure{Atomic: &yes}, kernel.GFPClassUnknown},
	} {
		if got := gfpClass(&tc.af); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
	if gfpClass(nil) != kernel.GFPClassUnknown {
		t.Error("nil report is not unknown")
	}
}

// A report whose records arrive in two reads is counted once, whole, after it settles.
func TestLogReportSplitAcrossReads(t *testing.T) {
	recs := kmsgFromDmesg(t, "testdata/alloc_6x_warn_alloc.txt", 1_000_000, 1)
	mk := func(rs []kernel.KmsgRecord) []model.LogRecord {
		var out []model.LogRecord
		for _, r := range rs {
			out = append(out, model.LogRecord{UptimeUsec: r.TimestampUsec, Priority: r.Priority, Message: r.Message})
		}
		return out
	}
	w := &logWatch{kernel: "6.6.15-amd64", settle: logSettle, counts: map[allocKey]int64{}}
	t0 := time.Unix(1000, 0)
	half := len(recs) / 2
	for _, r := range mk(recs[:half]) {
		w.pending = append(w.pending, pendingRec{rec: r, at: t0})
	}
	w.process(t0.Add(time.Second)) // not settled yet
	if len(w.counts) != 0 {
		t.Fatalf("counted before settling: %+v", w.counts)
	}
	for _, r := range mk(recs[half:]) {
		w.pending = append(w.pending, pendingRec{rec: r, at: t0.Add(2 * time.Second)})
	}
	w.process(t0.Add(3 * time.Second)) // first half settled, second not: the report waits
	if len(w.counts) != 0 {
		t.Fatalf("counted a report whose end has not settled: %+v", w.counts)
	}
	w.process(t0.Add(5 * time.Second))
	if got := w.counts[allocKey{Order: 3, Class: kernel.GFPClassAtomic}]; got != 1 || len(w.counts) != 1 {
		t.Fatalf("counts %+v, want one order-3 atomic failure", w.counts)
	}
	if len(w.pending) != 0 {
		t.Errorf("%d records left pending", len(w.pending))
	}
	w.process(t0.Add(10 * time.Second))
	if got := w.counts[allocKey{Order: 3, Class: kernel.GFPClassAtomic}]; got != 1 {
		t.Errorf("counted again: %d", got)
	}
	log, evs := w.window(t0.Add(-time.Minute))
	if len(log) != len(recs) || len(evs) != 1 {
		t.Errorf("window holds %d records and %d events, want %d and 1", len(log), len(evs), len(recs))
	}
}
