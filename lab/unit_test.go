package lab

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"headroom/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

// chanEndpoint is a packet endpoint for DelayLine tests: reads come from in, writes go to
// out with their arrival time.
type chanEndpoint struct {
	in     chan []byte
	out    chan stamped
	closed chan struct{}
	once   sync.Once
}

type stamped struct {
	p  []byte
	at time.Time
}

func newChanEndpoint() *chanEndpoint {
	return &chanEndpoint{in: make(chan []byte, 64), out: make(chan stamped, 64), closed: make(chan struct{})}
}

func (e *chanEndpoint) Read(b []byte) (int, error) {
	select {
	case p := <-e.in:
		return copy(b, p), nil
	case <-e.closed:
		return 0, io.EOF
	}
}

func (e *chanEndpoint) Write(b []byte) (int, error) {
	e.out <- stamped{p: append([]byte(nil), b...), at: time.Now()}
	return len(b), nil
}

func (e *chanEndpoint) Close() error { e.once.Do(func() { close(e.closed) }); return nil }

func TestDelayLineMovesPacketsAfterDelay(t *testing.T) {
	a, b := newChanEndpoint(), newChanEndpoint()
	const d = 30 * time.Millisecond
	dl := NewDelayLine(a, b, NewDelayQueue(DelayQueueConfig{Delay: d}, WallClock), NewDelayQueue(DelayQueueConfig{Delay: d}, WallClock))
	defer dl.Close()
	sent := time.Now()
	a.in <- []byte("a→b 1")
	a.in <- []byte("a→b 2")
	b.in <- bytes.Repeat([]byte{7}, 3000) // a large packet takes the other buffer class
	for i, want := range []string{"a→b 1", "a→b 2"} {
		got := <-b.out
		if string(got.p) != want {
			t.Fatalf("packet %d at b = %q, want %q", i, got.p, want)
		}
		if el := got.at.Sub(sent); el < d || el > d+50*time.Millisecond {
			t.Errorf("packet %d delivered after %v, want %v..%v", i, el, d, d+50*time.Millisecond)
		}
	}
	got := <-a.out
	if len(got.p) != 3000 || got.at.Sub(sent) < d {
		t.Errorf("b→a packet: %d bytes after %v", len(got.p), got.at.Sub(sent))
	}
	st := dl.Stats()
	if st.AB.Dequeued != 2 || st.BA.Dequeued != 1 {
		t.Errorf("stats %+v", st)
	}
	if err := dl.Close(); err != nil {
		t.Fatal(err)
	}
	if err := dl.Err(); err != nil {
		t.Errorf("Err after a clean close: %v", err)
	}
}

func TestParseSettingsFile(t *testing.T) {
	conf := `# seed 004
net.ipv4.tcp_rmem = 4096	87380   1048576
-net.ipv4.tcp_wmem="4096 32768 131072"
; comment
net/ipv4/tcp_congestion_control = cubic
`
	got, err := ParseSettingsFile(strings.NewReader(conf), "s.conf")
	if err != nil {
		t.Fatal(err)
	}
	want := []model.Change{
		sysctlChange("net.ipv4.tcp_rmem", "4096 87380 1048576", "s.conf:2"),
		sysctlChange("net.ipv4.tcp_wmem", "4096 32768 131072", "s.conf:3"),
		sysctlChange("net.ipv4.tcp_congestion_control", "cubic", "s.conf:5"),
	}
	if len(got) != len(want) {
		t.Fatalf("got %d changes, want %d: %+v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("change %d = %+v, want %+v", i, got[i], want[i])
		}
	}

	js := `{"settings": [{"kind": "sysctl", "key": "net.ipv4.tcp_rmem", "recommended": "4096 131072 2297856", "why": "bdp"},
	                  {"kind": "tc", "key": "eth0 root htb", "recommended": "rate 400mbit"}]}`
	got, err = ParseSettingsFile(strings.NewReader(js), "plan.json")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Key != "net.ipv4.tcp_rmem" || got[1].Kind != "tc" {
		t.Errorf("plan JSON: %+v", got)
	}
	got, err = ParseSettingsFile(strings.NewReader(`[{"key": "net.ipv4.tcp_wmem", "recommended": "1 2 3"}]`), "list.json")
	if err != nil || len(got) != 1 || got[0].Kind != model.ChangeSysctl {
		t.Errorf("JSON list: %+v, %v", got, err)
	}

	for _, bad := range []string{
		"",                        // nothing
		"# only a comment\n",      // nothing
		"net.ipv4.tcp_rmem\n",     // no =
		"net.ipv4.tcp_rmem =\n",   // no value
		"../../etc/passwd = x\n",  // path escape
		"net.ipv4.tcp rmem = 1\n", // space in key
		`{"settings": []}`,        // empty
		`[{"key": "a/../../b", "recommended": "1"}]`, // path escape in JSON
		`{"settings": `, // truncated
	} {
		if _, err := ParseSettingsFile(strings.NewReader(bad), "bad"); err == nil {
			t.Errorf("ParseSettingsFile(%q) accepted", bad)
		}
	}
}

func FuzzParseSettingsFile(f *testing.F) {
	f.Add([]byte("net.ipv4.tcp_rmem = 4096 87380 1048576\n"))
	f.Add([]byte(`{"settings":[{"key":"net.ipv4.tcp_rmem","recommended":"1"}]}`))
	f.Add([]byte(`[{"kind":"sysctl","key":"x","recommended":""}]`))
	f.Fuzz(func(t *testing.T, b []byte) {
		ch, err := ParseSettingsFile(bytes.NewReader(b), "fuzz")
		if err != nil {
			return
		}
		for _, c := range ch {
			if c.Kind == model.ChangeSysctl {
				if p, err := sysctlPath(c.Key); err != nil || strings.Contains(p, "..") {
					t.Fatalf("accepted bad key %q", c.Key)
				}
			}
		}
	})
}

func TestScenarioCases(t *testing.T) {
	sc, err := LookupScenario("long-fat-pipe")
	if err != nil {
		t.Fatal(err)
	}
	all, err := sc.Cases(Overrides{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 4 {
		t.Fatalf("default matrix has %d cases, want 4 (2 rates × 2 stream counts)", len(all))
	}
	if all[0].RateBitsPerSec != 100e6 || all[0].Streams != 1 || all[3].RateBitsPerSec != 1e9 || all[3].Streams != 8 || all[0].RTT != 125*time.Millisecond {
		t.Errorf("matrix order: %+v", all)
	}
	if all[0].OneWayDelay() != 62500*time.Microsecond {
		t.Errorf("one-way delay %v, want 62.5ms", all[0].OneWayDelay())
	}
	one, err := sc.Cases(Overrides{RateBitsPerSec: 250e6, RTT: 80 * time.Millisecond, Streams: 4, Measure: 2 * time.Second})
	if err != nil || len(one) != 1 {
		t.Fatalf("override: %+v, %v", one, err)
	}
	if p := one[0]; p.RateBitsPerSec != 250e6 || p.RTT != 80*time.Millisecond || p.Streams != 4 || p.Measure != 2*time.Second || p.Warmup != 3*time.Second {
		t.Errorf("override case %+v", p)
	}
	if _, err := sc.Cases(Overrides{LossFraction: 1}); err == nil {
		t.Error("loss fraction 1 accepted")
	}
	if _, err := LookupScenario("no-such"); err == nil {
		t.Error("unknown scenario found")
	}
}

func TestSettingsSetsFromPlan(t *testing.T) {
	p := Params{RateBitsPerSec: 1e9, RTT: 125 * time.Millisecond, Streams: 1, MemoryBytes: 8 << 30}
	get := func(set string) map[string]string {
		s, ok := LookupSettings(set)
		if !ok {
			t.Fatalf("no set %q", set)
		}
		ch, err := s.Changes(p)
		if err != nil {
			t.Fatalf("%s: %v", set, err)
		}
		m := map[string]string{}
		for _, c := range ch {
			m[c.Key] = c.Recommended
		}
		return m
	}
	if got := get("seed-004"); got["net.ipv4.tcp_rmem"] != "4096 87380 1048576" || got["net.ipv4.tcp_wmem"] != "4096 32768 131072" {
		t.Errorf("seed-004 = %v", got)
	}
	if got := get("kernel-default"); len(got) != 0 {
		t.Errorf("kernel-default changes %v", got)
	}
	if got := get("tuned-network-throughput"); got["net.ipv4.tcp_rmem"] != "4096 131072 16777216" || got["net.ipv4.tcp_wmem"] != "4096 16384 16777216" {
		t.Errorf("tuned = %v", got)
	}
	// 125 ms is past ESnet's 100 ms tier: the 200 ms tier, 64 MiB autotuning maximum.
	if got := get("esnet"); got["net.ipv4.tcp_rmem"] != "4096 87380 67108864" {
		t.Errorf("esnet = %v", got)
	}
	// headroom must at least let one stream fill 1 Gbit/s × 125 ms (15.6 MB in flight).
	hr := get("headroom")
	var mn, def, mx int64
	if _, err := fmtSscan(hr["net.ipv4.tcp_wmem"], &mn, &def, &mx); err != nil || mx < 15_625_000 {
		t.Errorf("headroom tcp_wmem %q does not cover the BDP (%v)", hr["net.ipv4.tcp_wmem"], err)
	}
}

// The numbers below are synthetic: the test is about layout, not measurements.
func TestWriteTableGolden(t *testing.T) {
	rep := &Report{Scenario: "long-fat-pipe", Runs: []*RunResult{
		{Settings: "kernel-default", ThroughputMbps: 96.5, Retransmits: 0, PeakTCPMemPages: 2002, BudgetPages: 771377, BudgetOK: true,
			Params: RunParams{RateMbps: 100, RTTMs: 125, MeasuredRTTMs: 126.7, Streams: 1, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: ShaperHTB,
				CongestionControl: "bbr", TCPRmem: "4096 131072 33554432", TCPWmem: "4096 16384 4194304", MemoryBytes: 25276502016, BudgetBasis: "plan budget: MemTotal ÷ 8"}},
		{Settings: "seed-004", ThroughputMbps: 3.3, Retransmits: 3, PeakTCPMemPages: 221, BudgetPages: 771377, BudgetOK: true,
			Params: RunParams{RateMbps: 100, RTTMs: 125, MeasuredRTTMs: 126.7, Streams: 1, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: ShaperHTB,
				CongestionControl: "bbr", TCPRmem: "4096 87380 1048576", TCPWmem: "4096 32768 131072", MemoryBytes: 25276502016, BudgetBasis: "plan budget: MemTotal ÷ 8"}},
		{Settings: "esnet", ThroughputMbps: 111.1, Retransmits: 12, PeakTCPMemPages: 999999, BudgetPages: 771377, BudgetOK: false,
			Params: RunParams{RateMbps: 1000, RTTMs: 125, MeasuredRTTMs: 126.2, Streams: 8, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: ShaperHTB,
				CongestionControl: "bbr", TCPRmem: "4096 87380 67108864", TCPWmem: "4096 65536 67108864", MemoryBytes: 25276502016, BudgetBasis: "plan budget: MemTotal ÷ 8"},
			Skipped: []Skipped{{Key: "net.ipv4.tcp_congestion_control", Value: "htcp", Why: "not available on this kernel"}}},
	}}
	var buf bytes.Buffer
	if err := WriteTable(&buf, rep); err != nil {
		t.Fatal(err)
	}
	golden(t, "table.golden", buf.Bytes())

	// The JSON shape is a product too: the issue fixes its top-level and per-run keys.
	b, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "report.json.golden", append(b, '\n'))
	var generic map[string]any
	json.Unmarshal(b, &generic)
	run := generic["runs"].([]any)[0].(map[string]any)
	for _, k := range []string{"settings", "params", "throughput_mbps", "retransmits", "peak_tcp_mem_pages", "budget_ok"} {
		if _, ok := run[k]; !ok {
			t.Errorf("run JSON lacks %q", k)
		}
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestSmallHelpers(t *testing.T) {
	st, err := parseStatStartTicks([]byte("1234 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 987654 20"))
	if err != nil || st != 987654 {
		t.Errorf("parseStatStartTicks = %d, %v; want 987654", st, err)
	}
	if _, err := parseStatStartTicks([]byte("1 (x) S 1 2")); err == nil {
		t.Error("short stat accepted")
	}
	if id, ok := runIDOf("hr-1a2b3c4d-a"); !ok || id != "1a2b3c4d" {
		t.Errorf("runIDOf = %q, %v", id, ok)
	}
	for _, bad := range []string{"hr--a", "hx-1a2b3c4d-a", "hr-abc", "hr-kt-0a1b2c3d", "hr-1A2B3C4D-a", "hr-1a2b3c4d-"} {
		if _, ok := runIDOf(bad); ok {
			t.Errorf("runIDOf(%q) accepted", bad)
		}
	}
	a, b, err := linkAddrs(300)
	if err != nil || a.String() != "198.19.44.1" || b.String() != "198.19.44.2" {
		t.Errorf("linkAddrs(300) = %v %v %v", a, b, err)
	}
	if _, _, err := linkAddrs(512); err == nil {
		t.Error("link 512 is outside 198.18.0.0/15 but was accepted")
	}
	if got := burstBytes(100e6); got != 2*65536+1514 {
		t.Errorf("burst at 100 Mbit/s = %d", got)
	}
	if got := burstBytes(1e9); got != 500000 {
		t.Errorf("burst at 1 Gbit/s = %d, want 500000 (4 ms at HZ=250)", got)
	}
	for in, want := range map[uint64]string{100e6: "100Mbit", 1e9: "1Gbit", 1500: "1500bit", 2500e3: "2500Kbit"} {
		if got := FormatRate(in); got != want {
			t.Errorf("FormatRate(%d) = %q, want %q", in, got, want)
		}
	}
	if p, err := sysctlPath("net.ipv4.tcp_rmem"); err != nil || p != "/proc/sys/net/ipv4/tcp_rmem" {
		t.Errorf("sysctlPath = %q, %v", p, err)
	}
	r, err := parseIperf3JSON([]byte(`{"end": {"sum_sent": {"retransmits": 4}, "sum_received": {"bits_per_second": 9.5e7}}}`))
	if err != nil || r.ReceivedBitsPerSec != 9.5e7 || r.Retransmits != 4 {
		t.Errorf("parseIperf3JSON = %+v, %v", r, err)
	}
	if _, err := parseIperf3JSON([]byte(`{"error": "unable to connect to server"}`)); err == nil {
		t.Error("iperf3 error document accepted")
	}
	if _, err := parseIperf3JSON([]byte(`{"end": {}}`)); err == nil {
		t.Error("iperf3 document without sums accepted")
	}
}

// TestCleanupSweepsOnlyDeadRuns checks the sweeper's bookkeeping on a scratch directory:
// pinned "namespaces" here are plain files (unmount reports EINVAL and is skipped).
func TestCleanupSweepsOnlyDeadRuns(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: umount(2) on the scratch files needs root")
	}
	oldNetns, oldOwner := netnsDir, ownerDir
	netnsDir, ownerDir = t.TempDir(), t.TempDir()
	defer func() { netnsDir, ownerDir = oldNetns, oldOwner }()
	touch := func(dir, name string) {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	st, err := processStartTicks(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	writeOwner(&owner{RunID: "11110001", PID: os.Getpid(), StartTicks: st})
	writeOwner(&owner{RunID: "dead0001", PID: os.Getpid(), StartTicks: st + 1}) // pid reused
	for _, n := range []string{"hr-11110001-a", "hr-dead0001-a", "hr-dead0001-b", "hr-00000bad-a", "hr-kt-12345678", "other-ns"} {
		touch(netnsDir, n)
	}
	removed, err := Cleanup(NamePrefix)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(removed, " ") != "hr-00000bad-a hr-dead0001-a hr-dead0001-b" {
		t.Errorf("removed %v", removed)
	}
	left := readDirNames(netnsDir)
	if strings.Join(left, " ") != "hr-11110001-a hr-kt-12345678 other-ns" {
		t.Errorf("left %v", left)
	}
	if owners := readDirNames(ownerDir); strings.Join(owners, " ") != "11110001.json" {
		t.Errorf("owner files left %v", owners)
	}
	if _, err := Cleanup("other-"); err == nil {
		t.Error("Cleanup accepted a prefix outside hr-")
	}
}

func fmtSscan(s string, v ...any) (int, error) { return fmt.Sscan(s, v...) }

// niceOf reads field 19 (nice) of /proc/self/task/TID/stat.
func niceOf(t *testing.T, tid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/self/task/%d/stat", tid))
	if err != nil {
		return 999 // thread gone
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	n, err := strconv.Atoi(f[19-3])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func TestRaisePriorityRestores(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("lab: lowering nice needs CAP_SYS_NICE")
	}
	before := map[int]int{}
	for _, tid := range threadIDs() {
		before[tid] = niceOf(t, tid)
	}
	restore := raisePriority()
	for _, tid := range threadIDs() {
		if n := niceOf(t, tid); n != runNice && n != 999 {
			t.Errorf("thread %d nice %d while raised, want %d", tid, n, runNice)
		}
	}
	restore()
	for tid, n := range before {
		if got := niceOf(t, tid); got != n && got != 999 {
			t.Errorf("thread %d nice %d after restore, want %d", tid, got, n)
		}
	}
}
