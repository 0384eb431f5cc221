package export

import (
	"net/http/httptest"
	"os"
	"syscall"
	"testing"
	"time"

	"headroom/kernel"
)

// cpuTime is the process's user+system CPU time so far.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// benchScrape measures one full scrape as Prometheus makes it (OpenMetrics, gzip) through
// the /metrics handler: a new sample (MinInterval is tiny), the rules when due, the
// exposition and its compression. It reports CPU time per scrape, the figure the benchmarks
// compare with node_exporter.
func benchScrape(b *testing.B, root kernel.Root, opt Options, between ...func()) {
	opt.MinInterval = time.Nanosecond
	c := NewCollector(root, opt)
	defer c.Close()
	h := NewHandler(c, nil)
	req := httptest.NewRequest("GET", "/metrics", nil)
	req.Header.Set("Accept", prometheusAccept)
	req.Header.Set("Accept-Encoding", "gzip")
	scrape := func() {
		for _, f := range between {
			f()
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != 200 {
			b.Fatalf("/metrics: %d", w.Code)
		}
	}
	// Fill the window as a long-running serve has it (40 samples: 10 min at 15 s).
	for i := 0; i < 60; i++ {
		scrape()
	}
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for i := 0; i < b.N; i++ {
		scrape()
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/float64(b.N), "cpu-µs/scrape")
}

// BenchmarkScrapeLiveEvery15s is a Prometheus scraping every 15 s (the clock says so): every
// scrape runs the rules, which find the window but the newest sample already unpacked.
func BenchmarkScrapeLiveEvery15s(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	clk := &fakeClock{t: time.Now()}
	benchScrape(b, kernel.HostRoot(), Options{Ethtool: true, Now: clk.Now}, func() { clk.Add(15 * time.Second) })
}

func BenchmarkScrapeLive(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	benchScrape(b, kernel.HostRoot(), Options{Ethtool: true})
}

// BenchmarkScrapeLiveFull is every scrape a window sample (--window-interval=-1s), as a
// Prometheus scraping every 15 s makes each scrape with the default 10 s window interval:
// every file read and the sample packed into the window; the rules run when due (every
// 15 s of the real clock, so rarely here: BenchmarkScrapeLiveEvery15s adds them).
func BenchmarkScrapeLiveFull(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	benchScrape(b, kernel.HostRoot(), Options{Ethtool: true, WindowInterval: -1})
}

func BenchmarkScrapeLiveSockets(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	benchScrape(b, kernel.HostRoot(), Options{Ethtool: true, Sockets: true})
}

// BenchmarkRulesLive measures one run of the rules over a full window of this host: the
// window unpacked, rates derived, the registry run. serve pays it once per rules interval.
func BenchmarkRulesLive(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	c := NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: time.Nanosecond})
	defer c.Close()
	for range 60 {
		c.current()
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	from := c.cur.Time.Add(-c.opt.Window)
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuTime(b)
	for b.Loop() {
		c.runRules(from)
	}
	b.StopTimer()
	b.ReportMetric(float64((cpuTime(b)-start).Microseconds())/float64(b.N), "cpu-µs/run")
}

// BenchmarkPointsLive measures turning this host's newest sample into sorted points
// (buildPoints and finish), which every scrape does.
func BenchmarkPointsLive(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	c := NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: time.Nanosecond})
	defer c.Close()
	s := c.current()
	c.mu.Lock()
	defer c.mu.Unlock()
	b.ReportAllocs()
	for b.Loop() {
		c.points.reset()
		buildPoints(&c.points, s, &c.cur, &c.host, c.phys)
		c.points.finish()
	}
	b.ReportMetric(float64(len(c.points.out)), "points")
}

// BenchmarkBodyLive measures making a scrape's gzip OpenMetrics body from this host's
// newest points, through the exposition template (what serve does) and without it, hot
// and with the caches flushed before each body (32 MB written between them, outside the
// timer), as a scrape every 15 s finds them.
func BenchmarkBodyLive(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	c := NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: time.Hour})
	defer c.Close()
	s := c.current()
	junk := make([]byte, 32<<20)
	for _, cold := range []bool{false, true} {
		for _, tc := range []struct {
			name string
			tmpl *expoTemplate
		}{{"template", s.tmpl}, {"appendExposition", nil}} {
			name := tc.name
			if cold {
				name += "/cold"
			}
			b.Run(name, func(b *testing.B) {
				buf := make([]byte, 0, 64<<10)
				b.ReportAllocs()
				for b.Loop() {
					if cold {
						flushCaches(b, junk)
					}
					buf = appendGzipExposition(buf[:0], s.points, tc.tmpl, true)
				}
				b.ReportMetric(float64(len(buf)), "bytes")
			})
		}
	}
}

// BenchmarkRefreshLive measures what a scrape between window samples does before its
// answer (Collector.refresh: the exposed files, ethtool, the TCP sysctls, the kernel log,
// the points), hot and with the caches flushed before each refresh (32 MB written between
// them, outside the timer), as a scrape of a host whose CPUs idle between scrapes finds
// them (docs/performance.md, "serve7").
func BenchmarkRefreshLive(b *testing.B) {
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		b.Skip("not a Linux host")
	}
	c := NewCollector(kernel.HostRoot(), Options{Ethtool: true, MinInterval: time.Nanosecond})
	defer c.Close()
	c.current() // the first sample: a window sample
	junk := make([]byte, 32<<20)
	for _, cold := range []bool{false, true} {
		name := "hot"
		if cold {
			name = "cold"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if cold {
					flushCaches(b, junk)
				}
				c.current()
			}
		})
	}
}

// flushCaches writes a cache line of every 64 bytes of junk (32 MB: more than this VM's
// caches) outside the benchmark's timer, so that the next iteration finds its code and data
// as a scrape after an idle gap does.
func flushCaches(b *testing.B, junk []byte) {
	b.StopTimer()
	for i := 0; i < len(junk); i += 64 {
		junk[i]++
	}
	b.StartTimer()
}
