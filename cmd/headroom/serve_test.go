package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"headroom/export"
)

// serve runs inside the test process here: it must not set GOMAXPROCS and the GC target for
// the other tests.
func init() {
	tuneRuntime = false
	// Nor re-execute itself with fewer capabilities, except in TestServeDropsCapabilities's
	// child.
	dropPrivileges = os.Getenv(dropCapsTestEnv) != ""
}

// syncBuffer is a bytes.Buffer safe for the serve goroutine and the test to share.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

var listeningRE = regexp.MustCompile(`listening on (http://[^/\s]+)/`)

// startServe runs `headroom serve --listen 127.0.0.1:0 ARGS...` in-process and returns its
// base URL. The server stops when the test ends; the test fails if it did not exit 0.
func startServe(t *testing.T, args ...string) string {
	t.Helper()
	if _, err := os.Stat("/proc/zoneinfo"); err != nil {
		t.Skip("no /proc/zoneinfo: not a Linux host")
	}
	ctx, cancel := context.WithCancel(context.Background())
	stderr := &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, append([]string{"--listen", "127.0.0.1:0"}, args...), IO{Stdin: strings.NewReader(""), Stdout: io.Discard, Stderr: stderr})
	}()
	t.Cleanup(func() {
		cancel()
		select {
		case code := <-done:
			if code != exitOK {
				t.Errorf("serve exited %d: %s", code, stderr.String())
			}
		case <-time.After(10 * time.Second):
			t.Error("serve did not stop within 10 s of its context ending")
		}
	})
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := listeningRE.FindStringSubmatch(stderr.String()); m != nil {
			return m[1]
		}
		select {
		case code := <-done:
			t.Fatalf("serve exited %d before listening: %s", code, stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("serve did not say where it listens: %s", stderr.String())
	return ""
}

func httpGet(t *testing.T, u string) (int, string) {
	t.Helper()
	resp, err := http.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// sampleCount reads headroom_samples_total from an exposition.
func sampleCount(t *testing.T, expo string) int {
	t.Helper()
	m := regexp.MustCompile(`(?m)^headroom_samples_total (\d+)`).FindStringSubmatch(expo)
	if m == nil {
		t.Fatalf("no headroom_samples_total in:\n%.500s", expo)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// Many scrapers at once cost one sample per --min-interval.
func TestServeConcurrentScrapes(t *testing.T) {
	base := startServe(t, "--min-interval", "1m")
	var wg sync.WaitGroup
	bodies := make([]string, 12)
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			resp, err := http.Get(base + "/metrics")
			if err != nil {
				t.Error(err)
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			bodies[i] = string(b)
		}()
	}
	wg.Wait()
	for i, b := range bodies {
		if n := sampleCount(t, b); n != 1 {
			t.Errorf("scraper %d saw %d samples, want 1 shared sample", i, n)
		}
	}
	if code, body := httpGet(t, base+"/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
}

// A real Prometheus (Debian package prometheus) on loopback scrapes headroom serve on
// loopback, loads the alert rules, and answers a query for a headroom metric.
func TestServePrometheus(t *testing.T) {
	promBin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus not installed (Debian package prometheus): cannot run the scrape test")
	}
	base := startServe(t, "--min-interval", "500ms")
	target := strings.TrimPrefix(base, "http://")
	alerts, err := filepath.Abs("../../deploy/prometheus/alerts.yml")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := fmt.Sprintf(`global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - %q
scrape_configs:
  - job_name: headroom
    static_configs:
      - targets: [%q]
`, alerts, target)
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	port := freePort(t)
	promURL := fmt.Sprintf("http://127.0.0.1:%d", port)
	var promOut syncBuffer
	cmd := exec.Command(promBin, "--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		fmt.Sprintf("--web.listen-address=127.0.0.1:%d", port), "--log.level=warn")
	cmd.Stdout, cmd.Stderr = &promOut, &promOut
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}()

	query := func(q string) ([]promSample, error) {
		resp, err := http.Get(promURL + "/api/v1/query?query=" + url.QueryEscape(q))
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		var r struct {
			Status string `json:"status"`
			Data   struct {
				Result []promSample `json:"result"`
			} `json:"data"`
			Error string `json:"error"`
		}
		if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
			return nil, err
		}
		if r.Status != "success" {
			return nil, fmt.Errorf("query %s: %s", q, r.Error)
		}
		return r.Data.Result, nil
	}
	var res []promSample
	deadline := time.Now().Add(60 * time.Second)
	for {
		select {
		case err := <-exited:
			t.Fatalf("prometheus exited: %v\n%s", err, promOut.String())
		default:
		}
		res, err = query(`headroom_zone_free_pages{job="headroom"}`)
		if err == nil && len(res) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no headroom_zone_free_pages in Prometheus after 60 s (last error %v)\n%s", err, promOut.String())
		}
		time.Sleep(250 * time.Millisecond)
	}
	for _, s := range res {
		v, err := strconv.ParseFloat(s.value(), 64)
		if err != nil || v < 0 {
			t.Errorf("headroom_zone_free_pages%v = %q", s.Metric, s.value())
		}
		if s.Metric["instance"] != target || s.Metric["zone"] == "" {
			t.Errorf("labels %v", s.Metric)
		}
	}
	t.Logf("Prometheus has %d zone series, e.g. %v = %s pages", len(res), res[0].Metric, res[0].value())
	if up, err := query(`up{job="headroom"}`); err != nil || len(up) != 1 || up[0].value() != "1" {
		t.Errorf("up{job=headroom}: %v %v", up, err)
	}

	// The rule file loads and its rules evaluate without errors against real series.
	time.Sleep(2 * time.Second)
	resp, err := http.Get(promURL + "/api/v1/rules")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var rules struct {
		Data struct {
			Groups []struct {
				Name  string `json:"name"`
				Rules []struct {
					Name      string `json:"name"`
					Health    string `json:"health"`
					LastError string `json:"lastError"`
				} `json:"rules"`
			} `json:"groups"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&rules); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, g := range rules.Data.Groups {
		for _, r := range g.Rules {
			n++
			if r.Health == "err" {
				t.Errorf("rule %s/%s: %s", g.Name, r.Name, r.LastError)
			}
		}
	}
	if len(rules.Data.Groups) != 3 || n < 20 {
		t.Errorf("Prometheus loaded %d groups with %d rules from alerts.yml", len(rules.Data.Groups), n)
	}
}

type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  []any             `json:"value"`
}

func (s promSample) value() string {
	if len(s.Value) != 2 {
		return ""
	}
	v, _ := s.Value[1].(string)
	return v
}

// The status page renders in headless Chromium with its charts and without a script error
// or console message.
func TestServeStatusPageChromium(t *testing.T) {
	chrome, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("chromium not installed: cannot check the status page in a browser")
	}
	base := startServe(t, "--min-interval", "100ms", "--window-interval", "100ms")
	// Two window samples, so that the charts have lines.
	httpGet(t, base+"/metrics")
	time.Sleep(250 * time.Millisecond)
	httpGet(t, base+"/metrics")
	time.Sleep(150 * time.Millisecond)

	profile := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--user-data-dir="+profile,
		"--enable-logging=stderr", "--v=0", "--dump-dom", base+"/")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, stderr.String())
	}
	dom := stdout.String()
	if !strings.Contains(dom, `data-js="ok"`) {
		t.Errorf("the page's script did not run to its end (no data-js=ok):\n%.1000s", dom)
	}
	if i := strings.Index(dom, "data-js-error="); i >= 0 {
		t.Errorf("script error recorded in the page: %.200s", dom[i:])
	}
	for _, want := range []string{"<h1>headroom: live status</h1>", "Findings", "<svg", `class="line"`, "Zones"} {
		if !strings.Contains(dom, want) {
			t.Errorf("rendered page lacks %q", want)
		}
	}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		// Chromium logs each console message and uncaught exception as
		// "[...:INFO:CONSOLE:LINE] "message", source: URL (LINE)".
		if l := sc.Text(); strings.Contains(l, ":CONSOLE") && strings.Contains(l, base) {
			t.Errorf("console message from the status page: %s", l)
		}
	}
}

// The flags in the systemd unit, the DaemonSet and the image are ones serve accepts.
func TestServeDeployFlags(t *testing.T) {
	unit, err := os.ReadFile("../../deploy/systemd/headroom.service")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^ExecStart=(\S+) serve (.*)$`).FindSubmatch(unit)
	if m == nil {
		t.Fatal("headroom.service has no ExecStart=... serve line")
	}
	checkServeArgs(t, "systemd ExecStart", strings.Fields(string(m[2])))
	for _, want := range []string{"NoNewPrivileges=yes", "ProtectSystem=strict", "DynamicUser=yes", "ProtectHome=yes", "CapabilityBoundingSet=CAP_SYSLOG"} {
		if !bytes.Contains(unit, []byte("\n"+want+"\n")) {
			t.Errorf("headroom.service lacks %s", want)
		}
	}
	// The unit grants what serve keeps when it drops capabilities as root, and no more.
	if len(export.KeepCaps) != 1 || export.KeepCaps[0] != unix.CAP_SYSLOG {
		t.Errorf("serve keeps capabilities %v, the unit's bounding set is CAP_SYSLOG", export.KeepCaps)
	}

	ds, err := os.ReadFile("../../deploy/kubernetes/daemonset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	am := regexp.MustCompile(`(?m)^\s+args: (\[.*\])$`).FindSubmatch(ds)
	if am == nil {
		t.Fatal("daemonset.yaml has no one-line args: [...]")
	}
	var args []string
	if err := json.Unmarshal(am[1], &args); err != nil || len(args) == 0 || args[0] != "serve" {
		t.Fatalf("daemonset args %s: %v", am[1], err)
	}
	for i := range args {
		args[i] = strings.ReplaceAll(args[i], "$(HOST_IP)", "10.0.0.1") // the kubelet expands it
	}
	checkServeArgs(t, "DaemonSet args", args[1:])
	if bytes.Contains(ds, []byte("hostPID: true")) {
		t.Error("daemonset.yaml shares the host's PID namespace: the host's /proc at /host/proc gives serve the kernel threads without it")
	}
	if !slices.Contains(args, "--host-root=/host") {
		t.Errorf("DaemonSet args %q: the host's /proc and /sys are mounted at /host, serve needs --host-root=/host", args)
	}
	for _, want := range []string{"hostNetwork: true", "mountPath: /host/proc\n              readOnly: true", "mountPath: /host/sys\n              readOnly: true", "path: /proc\n", "path: /sys\n", "runAsNonRoot: true", "readOnlyRootFilesystem: true", "allowPrivilegeEscalation: false", `drop: ["ALL"]`} {
		if !bytes.Contains(ds, []byte(want)) {
			t.Errorf("daemonset.yaml lacks %s", want)
		}
	}
	if m := regexp.MustCompile(`(?m)^\s+add:.*$`).Find(ds); m != nil {
		t.Errorf("daemonset.yaml adds capabilities (%s): serve needs none but CAP_SYSLOG, and the pod runs without", m)
	}

	df, err := os.ReadFile("../../deploy/kubernetes/Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	cm := regexp.MustCompile(`(?m)^CMD (\[.*\])$`).FindSubmatch(df)
	if cm == nil || json.Unmarshal(cm[1], &args) != nil || args[0] != "serve" {
		t.Fatalf("Dockerfile CMD: %q", cm)
	}
	checkServeArgs(t, "Dockerfile CMD", args[1:])
}

func checkServeArgs(t *testing.T, where string, args []string) {
	t.Helper()
	var stderr bytes.Buffer
	fs, f := newServeFlags(IO{Stderr: &stderr})
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		t.Errorf("%s %q: serve refuses them: %v %s", where, args, err, stderr.String())
		return
	}
	if _, _, err := net.SplitHostPort(f.listen); err != nil {
		t.Errorf("%s: --listen %q: %v", where, f.listen, err)
	}
}

// systemd accepts the unit, and its hardening scores "OK" or better in
// systemd-analyze security (exposure at most 3.0 of 10).
func TestServeSystemdUnit(t *testing.T) {
	sa, err := exec.LookPath("systemd-analyze")
	if err != nil {
		t.Skip("systemd-analyze not installed")
	}
	unit, err := os.ReadFile("../../deploy/systemd/headroom.service")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// verify checks that ExecStart's binary exists: point it at this test binary.
	dir := t.TempDir()
	path := filepath.Join(dir, "headroom.service")
	if err := os.WriteFile(path, bytes.ReplaceAll(unit, []byte("/usr/local/bin/headroom"), []byte(exe)), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(sa, "verify", path).CombinedOutput(); err != nil || len(bytes.TrimSpace(out)) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	out, err := exec.Command(sa, "security", "--offline=yes", "--threshold=30", path).CombinedOutput()
	if err != nil {
		t.Errorf("systemd-analyze security: exposure above 3.0 or failure: %v\n%s", err, out)
	}
	if m := regexp.MustCompile(`Overall exposure level for \S+: ([0-9.]+)`).FindSubmatch(out); m != nil {
		t.Logf("systemd-analyze security: exposure %s", m[1])
	}
}
