package lab

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/lab/netlab"
	"headroom/model"
)

var update = flag.Bool("update", false, "rewrite golden files")

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
				if p, err := netlab.SysctlPath(c.Key); err != nil || strings.Contains(p, "..") {
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
	if got := get("fermilab"); got["net.ipv4.tcp_rmem"] != "4096 87380 1048576" || got["net.ipv4.tcp_wmem"] != "4096 32768 131072" {
		t.Errorf("fermilab = %v", got)
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
			Params: RunParams{RateMbps: 100, RTTMs: 125, MeasuredRTTMs: 126.7, Streams: 1, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: netlab.ShaperHTB,
				CongestionControl: "bbr", TCPRmem: "4096 131072 33554432", TCPWmem: "4096 16384 4194304", MemoryBytes: 25276502016, BudgetBasis: "plan budget: MemTotal ÷ 8"}},
		{Settings: "fermilab", ThroughputMbps: 3.3, Retransmits: 3, DataSegmentsOut: 4000, PeakTCPMemPages: 221, BudgetPages: 771377, BudgetOK: true,
			Params: RunParams{RateMbps: 100, RTTMs: 125, MeasuredRTTMs: 126.7, Streams: 1, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: netlab.ShaperHTB,
				CongestionControl: "bbr", TCPRmem: "4096 87380 1048576", TCPWmem: "4096 32768 131072", MemoryBytes: 25276502016, BudgetBasis: "plan budget: MemTotal ÷ 8"}},
		{Settings: "esnet", ThroughputMbps: 111.1, Retransmits: 12, PeakTCPMemPages: 999999, BudgetPages: 771377, BudgetOK: false,
			Params: RunParams{RateMbps: 1000, RTTMs: 125, MeasuredRTTMs: 126.2, Streams: 8, WarmupS: 3, MeasureS: 7, Link: "tun+delayline", Shaper: netlab.ShaperHTB,
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

func TestFormatRate(t *testing.T) {
	for in, want := range map[uint64]string{100e6: "100Mbit", 1e9: "1Gbit", 1500: "1500bit", 2500e3: "2500Kbit"} {
		if got := FormatRate(in); got != want {
			t.Errorf("FormatRate(%d) = %q, want %q", in, got, want)
		}
	}
}

func fmtSscan(s string, v ...any) (int, error) { return fmt.Sscan(s, v...) }

// TestCounterDelta: growth between two netstat readings, and no growth where a reading lacks
// the group or the counter (absent is not zero).
func TestCounterDelta(t *testing.T) {
	parse := func(s string) kernel.Groups {
		g, err := kernel.ParseNetStat(strings.NewReader(s))
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
	a := parse("TcpExt: PruneCalled TCPRcvQDrop\nTcpExt: 3 10\n")
	b := parse("TcpExt: PruneCalled TCPRcvQDrop\nTcpExt: 5 17\nUdp: InDatagrams\nUdp: 4\n")
	if d, ok := counterDelta(a, b, "TcpExt", "TCPRcvQDrop"); !ok || d != 7 {
		t.Errorf("TCPRcvQDrop grew %d, %v; want 7", d, ok)
	}
	if d, ok := counterDelta(a, b, "Udp", "InDatagrams"); ok {
		t.Errorf("Udp missing from the first reading, yet grew %d", d)
	}
	if d, ok := counterDelta(a, b, "TcpExt", "OfoPruned"); ok {
		t.Errorf("absent counter grew %d", d)
	}
	obs := counterObservations(a, b, "TcpExt", "before", "test", "PruneCalled", "OfoPruned")
	if len(obs) != 1 || obs[0].What != "TcpExt PruneCalled" || obs[0].Value != 2 {
		t.Errorf("observations %+v, want one of TcpExt PruneCalled +2", obs)
	}
}

// A counter that went backwards between two readings was reset: its growth is its count
// since the reset (model.Delta), never negative; absent in either reading is not zero.
func TestCounterGrowthThroughDelta(t *testing.T) {
	var a, b kernel.Counters
	a.Set("pgscan_direct", 1000)
	b.Set("pgscan_direct", 40)
	if d, ok := counterGrowth(a, b, "pgscan_direct"); !ok || d != 40 {
		t.Errorf("reset counter: %d %v, want 40", d, ok)
	}
	a.Set("allocstall", 5)
	b.Set("allocstall", 12)
	if d, ok := counterGrowth(a, b, "allocstall"); !ok || d != 7 {
		t.Errorf("growth: %d %v, want 7", d, ok)
	}
	if _, ok := counterGrowth(a, b, "pswpout"); ok {
		t.Error("absent counter reported")
	}
}
