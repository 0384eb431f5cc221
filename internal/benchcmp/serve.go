package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// nodeExporterCollectors are node_exporter's collectors that read what headroom serve
// exposes; everything else is disabled with --collector.disable-defaults.
var nodeExporterCollectors = []string{"meminfo", "vmstat", "buddyinfo", "netdev", "netstat", "sockstat", "softnet", "pressure"}

// A Prometheus server's scrape request (scrape/scrape.go, 2.x): it asks for OpenMetrics
// first and for gzip, and both exporters honour both, so both pay for what a real scrape
// costs them.
const (
	scrapeAccept   = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1"
	scrapeEncoding = "gzip"
)

// exporter is one HTTP exporter process started for the comparison.
type exporter struct {
	name string
	cmd  *exec.Cmd
	url  string
	log  bytes.Buffer
}

func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := l.Addr().String()
	l.Close()
	return addr, nil
}

func startExporter(name, bin string, args func(addr string) []string) (*exporter, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	e := &exporter{name: name, url: "http://" + addr + "/metrics"}
	e.cmd = exec.Command(bin, args(addr)...)
	e.cmd.Stdout, e.cmd.Stderr = &e.log, &e.log
	e.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL} // never outlive the bench
	if err := e.cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		if _, err := e.scrape(); err == nil {
			return e, nil
		} else if time.Now().After(deadline) || e.exited() {
			e.stop()
			msg := strings.TrimSpace(e.log.String())
			if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
				msg = msg[i+1:]
			}
			return nil, fmt.Errorf("%s did not answer on %s: %v %s", name, addr, err, msg)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (e *exporter) exited() bool {
	return e.cmd.ProcessState != nil || syscall.Kill(e.cmd.Process.Pid, 0) != nil
}

var scrapeClient = &http.Client{
	Timeout:   30 * time.Second,
	Transport: &http.Transport{DisableCompression: true, MaxIdleConnsPerHost: 1},
}

// scrape fetches /metrics once as Prometheus does and returns the bytes on the wire.
func (e *exporter) scrape() (int64, error) {
	req, err := http.NewRequest("GET", e.url, nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Accept", scrapeAccept)
	req.Header.Set("Accept-Encoding", scrapeEncoding)
	req.Header.Set("X-Prometheus-Scrape-Timeout-Seconds", "10")
	resp, err := scrapeClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil {
		return n, err
	}
	if resp.StatusCode != http.StatusOK {
		return n, fmt.Errorf("%s: HTTP %s", e.url, resp.Status)
	}
	return n, nil
}

func (e *exporter) stop() {
	if e.cmd.Process != nil {
		e.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { e.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			e.cmd.Process.Kill()
			<-done
		}
	}
}

// cpuNS is the CPU time the process has used so far, in ns: the sum of sum_exec_runtime
// over its threads (/proc/PID/task/TID/schedstat, first field), which the kernel keeps in
// ns. /proc/PID/stat's utime+stime come from the same accounting but in 10 ms ticks,
// too coarse for a few hundred scrapes of a sub-millisecond handler; both exporters are Go
// programs whose threads do not exit, so no thread's time is lost from the sum. ticks is
// /proc/PID/stat utime+stime, kept as a cross-check.
func cpuNS(pid int) (ns int64, ticks int64, err error) {
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil {
		return 0, 0, err
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(fmt.Sprintf("/proc/%d/task", pid), e.Name(), "schedstat"))
		if err != nil {
			continue // a thread that just exited
		}
		f := strings.Fields(string(b))
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return 0, 0, fmt.Errorf("/proc/%d/task/%s/schedstat: %q", pid, e.Name(), b)
		}
		ns += v
	}
	ticks, err = procCPUTicks(pid)
	return ns, ticks, err
}

// scrapeRun scrapes e n times, gap apart, and returns its CPU per scrape (ns, from
// schedstat), the same from /proc/PID/stat ticks, and the bytes of the last response.
func scrapeRun(e *exporter, n int, gap time.Duration) (perScrape, perScrapeTicks float64, body int64, err error) {
	pid := e.cmd.Process.Pid
	ns0, t0, err := cpuNS(pid)
	if err != nil {
		return 0, 0, 0, err
	}
	next := time.Now()
	for range n {
		if body, err = e.scrape(); err != nil {
			return 0, 0, 0, err
		}
		next = next.Add(gap)
		time.Sleep(time.Until(next))
	}
	ns1, t1, err := cpuNS(pid)
	if err != nil {
		return 0, 0, 0, err
	}
	tick := float64(time.Second) / float64(clockTicks())
	return float64(ns1-ns0) / float64(n), float64(t1-t0) * tick / float64(n), body, nil
}

// benchServe compares `headroom serve` with node_exporter: both started here on free
// loopback ports, warmed up, then scraped the same number of times at the same spacing,
// runs alternating between them. headroom serve samples at most once per --min-interval; the
// bench sets it below the scrape spacing so that every scrape reads and parses the host
// afresh, as every node_exporter scrape does.
func benchServe(c *config) result {
	const what = "serve: CPU per scrape"
	const whatRSS = "  serve: resident memory after the runs"
	peerName := "node_exporter"
	nePath := ""
	for _, name := range []string{"prometheus-node-exporter", "node_exporter"} {
		if p, err := exec.LookPath(name); err == nil {
			nePath = p
			break
		}
	}
	bin, err := c.buildHeadroom()
	if err != nil {
		return naResult(what, peerName, err.Error(), serveTargets...)
	}
	help, _ := exec.Command(bin, "serve", "-h").CombinedOutput()
	if bytes.Contains(help, []byte(`unknown command "serve"`)) {
		return naResult(what, peerName, "headroom serve does not exist in this tree yet", serveTargets...)
	}
	gap := 25 * time.Millisecond
	serveArgs := func(addr string) []string { return []string{"serve", "--listen", addr} }
	note := ""
	switch {
	case bytes.Contains(help, []byte("-min-interval")):
		serveArgs = func(addr string) []string {
			return []string{"serve", "--listen", addr, "--min-interval", (gap / 2).String()}
		}
	default:
		// No way to sample more often than the default 1 s: space the scrapes past it.
		gap = 1100 * time.Millisecond
		note = "headroom serve has no --min-interval: scrapes 1.1 s apart; "
	}
	scrapes := c.scrapes
	if gap > 100*time.Millisecond {
		scrapes = max(c.scrapes/10, 10)
	}
	runs := serveRuns(c.runs)
	if nePath == "" {
		return naResult(what, peerName, "node_exporter is not installed (Debian: apt-get install prometheus-node-exporter)", serveTargets...)
	}
	// Several processes of each side, each run on one of them in turn: the CPU per scrape of
	// one serve process stays 15-25% above or below another's of the same binary for the
	// process's life (five serves scraped alike, 12:52-12:56 UTC on 2026-11-29: one read
	// 1.25x and then 1.15x of another in every pair, while the binaries differed by four
	// lines), and so does node_exporter's; with one process of each a run's ratio was
	// that one draw. With serveProcs of each the median pairs runs over all of them.
	var hrs, nes []*exporter
	for k := range serveProcs {
		hr, err := startExporter(fmt.Sprintf("headroom serve #%d", k+1), bin, serveArgs)
		if err != nil {
			return naResult(what, peerName, err.Error(), serveTargets...)
		}
		defer hr.stop()
		hrs = append(hrs, hr)
	}
	// serve's window takes a sample at most every --window-interval (10 s by default); the
	// scrapes in between read only the files the metrics carry. A second serve with
	// --window-interval=-1s takes a full sample into the window on every scrape, as every
	// scrape did before the option and as a Prometheus scraping every 15 s still makes
	// each one do: its row is information, not a target.
	var hrFull *exporter
	if bytes.Contains(help, []byte("-window-interval")) {
		hrFull, err = startExporter("headroom serve --window-interval=-1s", bin, func(addr string) []string {
			return append(serveArgs(addr), "--window-interval=-1s")
		})
		if err != nil {
			return naResult(what, peerName, err.Error(), serveTargets...)
		}
		defer hrFull.stop()
	}
	for k := range serveProcs {
		ne, err := startExporter(fmt.Sprintf("node_exporter #%d", k+1), nePath, func(addr string) []string {
			a := []string{"--web.listen-address=" + addr, "--collector.disable-defaults"}
			for _, col := range nodeExporterCollectors {
				a = append(a, "--collector."+col)
			}
			return a
		})
		if err != nil {
			return naResult(what, peerName, err.Error(), serveTargets...)
		}
		defer ne.stop()
		nes = append(nes, ne)
	}
	everyone := append(slices.Clone(hrs), nes...)
	if hrFull != nil {
		everyone = append(everyone, hrFull)
	}
	for range 5 { // warm up: first samples, connection, buffers
		for _, e := range everyone {
			e.scrape()
		}
		time.Sleep(gap)
	}
	var hrNS, neNS, fullNS, hrTicks, neTicks dist
	var hrBody, neBody int64
	for i := range runs {
		c.logf("serve run %d/%d (%d scrapes each, %s apart)", i+1, runs, scrapes, gap)
		// Run i scrapes process i mod serveProcs of each side (with three runs, each its own
		// pair of processes). Each run visits every
		// exporter once, in an order that rotates (with two: A B, B A, ...), so that no
		// side is always first.
		hr, ne := hrs[i%serveProcs], nes[i%serveProcs]
		all := []*exporter{hr, ne}
		if hrFull != nil {
			all = append(all, hrFull)
		}
		rot := i % len(all)
		order := append(slices.Clone(all[rot:]), all[:rot]...)
		for _, e := range order {
			ns, tk, body, err := scrapeRun(e, scrapes, gap)
			if err != nil {
				return naResult(what, peerName, err.Error(), serveTargets...)
			}
			switch e {
			case hr:
				hrNS, hrTicks, hrBody = append(hrNS, ns), append(hrTicks, tk), body
			case ne:
				neNS, neTicks, neBody = append(neNS, ns), append(neTicks, tk), body
			default:
				fullNS = append(fullNS, ns)
			}
		}
	}
	// Memory: the median over the processes of each side.
	statusKB := func(es []*exporter, field string) int64 {
		var d dist
		for _, e := range es {
			v, _ := procStatusKB(e.cmd.Process.Pid, field)
			d = append(d, float64(v))
		}
		return int64(d.median())
	}
	hrRSS, neRSS := statusKB(hrs, "VmRSS"), statusKB(nes, "VmRSS")
	hrHWM, neHWM := statusKB(hrs, "VmHWM"), statusKB(nes, "VmHWM")
	ratio := pairedRatios(hrNS, neNS)
	neVersion, _ := exec.Command(nePath, "--version").CombinedOutput()
	nev := strings.TrimSpace(strings.SplitN(string(neVersion), "\n", 2)[0])
	rows := []row{
		{
			what:     what,
			headroom: fmtDist(hrNS),
			peer:     peerName + ": " + fmtDist(neNS),
			ratio:    fmtRatio(ratio.median()),
			note: fmt.Sprintf("%s%d runs × %d scrapes %s apart, each run on one of %d processes of each side in turn, gzip OpenMetrics as Prometheus asks; the ratio is the median of the %d runs' paired ratios %s; CPU from schedstat (ns); the same from /proc/PID/stat ticks: %s vs %s; gzip body %d vs %d bytes; %s with collectors %s",
				note, runs, scrapes, gap, serveProcs, len(ratio), fmtRatioDist(ratio), fmtDur(hrTicks.median()), fmtDur(neTicks.median()), hrBody, neBody, nev, strings.Join(nodeExporterCollectors, ",")),
		},
	}
	if hrFull != nil {
		rows = append(rows, row{
			what:     "  serve, every scrape a full sample into the window",
			headroom: fmtDist(fullNS),
			peer:     peerName + ": " + fmtDist(neNS),
			ratio:    fmtRatio(pairedRatios(fullNS, neNS).median()),
			note:     "--window-interval=-1s: every scrape reads every file (/proc/stat, interrupts, loadavg, meminfo, snmp, snmp6, kernel threads too) and packs the sample into the window, as a Prometheus scraping every 15 s makes each scrape do with the default 10 s; such a scraper also pays the rules on each scrape and the host facts' refresh on every 4th, which run here only every 15 s and 1 min of the clock (go test ./export -bench ScrapeLiveEvery15s has them); same runs, information only",
		})
	}
	rows = append(rows,
		row{
			what:     whatRSS,
			headroom: fmt.Sprintf("%.1f MB (peak %.1f)", float64(hrRSS)/1024, float64(hrHWM)/1024),
			peer:     fmt.Sprintf("%s: %.1f MB (peak %.1f)", peerName, float64(neRSS)/1024, float64(neHWM)/1024),
			ratio:    fmtRatio(float64(hrRSS) / float64(neRSS)),
			note:     "VmRSS and VmHWM from /proc/PID/status, MiB, the median over each side's processes; headroom built as the release is (CGO_ENABLED=0 -trimpath -ldflags '-s -w', static), node_exporter as Debian ships it",
		})
	return result{rows: rows, summary: map[string]string{"serve/node_exporter": fmtRatio(ratio.median())},
		targets: []string{
			target(ratio.median() <= 0.15, "headroom serve ≤ 0.15 × node_exporter's CPU per scrape (issue 33; goal 0.1×): %s", fmtRatio(ratio.median())),
			target(hrRSS < neRSS, "headroom serve uses less RSS than node_exporter: %.1f MB vs %.1f MB", float64(hrRSS)/1024, float64(neRSS)/1024),
		}}
}

// serveRuns is how many runs the serve section makes of each exporter: each run is
// -scrapes scrapes (300) of one exporter, and a ratio is the median of the runs' paired
// ratios. Runs of 300, as before 2026-11-29: serve's periodic work (a window sample every
// 10 s, the rules every 15 s, the host facts every minute) lands at the first scrape of a
// run after the exporter's idle time, so shorter runs would charge each scrape more of it
// than a scraper that never pauses pays; nine runs of 100 read 0.21x at 13:11 on
// 2026-11-29 where the same tree read 0.14x at 12:56. Within one run, nine pairs of 100 and
// three of 300 agreed (the median of 19 sliding windows over 27 runs of 100: sd 0.0037
// against 0.0039), so the pairing was not the noise; the processes are (serveProcs).
func serveRuns(runs int) int { return max(runs/2, 3) }

// serveProcs is how many processes of each side the serve section starts (see benchServe).
const serveProcs = 3

// serveTargets are the targets this section checks, for when it cannot measure.
var serveTargets = []string{"headroom serve ≤ 0.15 × node_exporter's CPU per scrape (issue 33; goal 0.1×)", "headroom serve uses less RSS than node_exporter"}
