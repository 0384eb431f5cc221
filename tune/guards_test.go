package tune

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// The judge's windows: a change after which the rules find a critical finding they did not
// find before is rolled back, whatever its own guards say; the same findings before and
// after keep it; a judge that cannot run leaves its figure "not measured", never "same".
func TestVerifyJudgeNewCriticalFinding(t *testing.T) {
	// A host whose delivery the change raises (so the guards alone would keep it) and
	// whose rules find a critical allocation failure only once tcp_rmem is large.
	judgeOf := func(h *simHost, after []string, err error) Judge {
		return func(tl *model.Timeline) ([]string, error) {
			if tl == nil {
				t.Error("the judge was given no recording")
			}
			if err != nil {
				return nil, err
			}
			if h.fs.snapshot()["net.ipv4.tcp_rmem"] == "4096 131072 16777216" {
				return after, nil
			}
			return []string{"tcp-rmem-bdp"}, nil
		}
	}
	change := []model.Change{sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "BDP")}
	run := func(after []string, jerr error) (*simHost, *Verification) {
		h := newSim(map[string]string{"net.ipv4.tcp_rmem": "4096 131072 1048576"}, tcpHost)
		v := h.verifier()
		v.Judge = judgeOf(h, after, jerr)
		dir := t.TempDir()
		j := openTestJournal(t, dir)
		a := &Applier{FS: h.fs, Journal: j, Limits: testLimits, Now: fixedNow}
		rb := &Rollbacker{Journal: j, OpenFS: fsOpener(h.fs), Limits: testLimits, Now: fixedNow}
		_, _, ver, err := v.ApplyVerified(context.Background(), a, rb, change)
		if err != nil || ver == nil {
			t.Fatalf("%v %+v", err, ver)
		}
		return h, ver
	}

	h, ver := run([]string{"tcp-rmem-bdp", "alloc-fail-rx-refill"}, nil)
	if ver.Decision != "rolled-back" || h.fs.snapshot()["net.ipv4.tcp_rmem"] != "4096 131072 1048576" {
		t.Fatalf("a new critical finding did not roll back: %s %q", ver.Decision, h.fs.snapshot()["net.ipv4.tcp_rmem"])
	}
	if len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], "new critical finding: alloc-fail-rx-refill after the change") ||
		!strings.Contains(ver.Tripped[0], "net.ipv4.tcp_rmem") {
		t.Errorf("tripped: %q", ver.Tripped)
	}
	// The guards still say what improved.
	if len(ver.Improved) == 0 || !strings.Contains(strings.Join(ver.Improved, "\n"), "IP bytes delivered in") {
		t.Errorf("improved: %q", ver.Improved)
	}

	// The finding that was there before is no reason; one gone is an improvement.
	_, ver = run(nil, nil)
	if ver.Decision != "kept" {
		t.Fatalf("no new finding, yet %s: %q", ver.Decision, ver.Tripped)
	}
	f := figureOf(t, ver, guardCritical)
	if f.Verdict != "better" || f.Before != 1 || f.After != 0 {
		t.Errorf("critical finding gone: %+v", f)
	}
	_, ver = run([]string{"tcp-rmem-bdp"}, nil)
	if f := figureOf(t, ver, guardCritical); ver.Decision != "kept" || f.Verdict != "same" || len(f.New) != 0 {
		t.Errorf("same finding: %s %+v", ver.Decision, f)
	}

	// A judge that fails is not "no new findings".
	_, ver = run(nil, errors.New("kernel log: permission denied"))
	f = figureOf(t, ver, guardCritical)
	if ver.Decision != "kept" || f.Verdict != "unknown" || !strings.Contains(f.Describe(), "not measured") ||
		!strings.Contains(f.Describe(), "permission denied") {
		t.Errorf("failing judge: %s %+v %s", ver.Decision, f, f.Describe())
	}
}

func figureOf(t *testing.T, ver *Verification, id string) Figure {
	t.Helper()
	for _, f := range ver.Figures {
		if f.Guard == id {
			return f
		}
	}
	t.Fatalf("no %s figure in %+v", id, ver.Figures)
	return Figure{}
}

// The backlog and NAPI budgets are judged by softnet drops and squeezes, and only they.
func TestVerifySoftnetGuard(t *testing.T) {
	backlog := func(vals map[string]string) model.Rates {
		s := model.Rates{RateIPInOctets: 50e6, RateIPOutOctets: 1e6, model.RateSoftnetDropPerSec: 200, model.RateSoftnetSqueezePerSec: 40}
		if vals["net.core.netdev_budget"] == "100" {
			s[model.RateSoftnetSqueezePerSec] = 400 // a smaller budget cuts more rounds short
		}
		if vals["net.core.netdev_max_backlog"] == "8192" {
			s[model.RateSoftnetDropPerSec] = 2
		}
		return s
	}
	h := newSim(map[string]string{"net.core.netdev_max_backlog": "1000"}, backlog)
	_, ver, err := runVerified(t, h, []model.Change{sysctl("net.core.netdev_max_backlog", "8192", "backlog drops")})
	if err != nil || ver.Decision != "kept" {
		t.Fatalf("%v %+v", err, ver)
	}
	if f := figureOf(t, ver, "softnet-drops"); f.Verdict != "better" || !strings.Contains(f.Describe(), "199/s → 2/s") {
		t.Errorf("softnet drops: %s", f.Describe())
	}
	h = newSim(map[string]string{"net.core.netdev_budget": "300"}, backlog)
	_, ver, err = runVerified(t, h, []model.Change{sysctl("net.core.netdev_budget", "100", "smaller budget")})
	if err != nil || ver.Decision != "rolled-back" || len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], "time_squeeze") ||
		!strings.Contains(ver.Tripped[0], "39.8/s → 400/s") {
		t.Fatalf("%v %+v", err, ver)
	}
	// tcp_rmem is not judged by the backlog, nor the backlog by the flows.
	gs, _ := GuardsFor([]model.Change{sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "")})
	if ids := guardIDs(gs); slices.Contains(ids, "softnet-drops") || !slices.Contains(ids, "flow-delivery") || !slices.Contains(ids, "flow-receive") {
		t.Errorf("tcp_rmem guards: %v", ids)
	}
	gs, _ = GuardsFor([]model.Change{sysctl("net.core.netdev_budget_usecs", "8000", "")})
	if ids := guardIDs(gs); !slices.Contains(ids, "softnet-squeeze") || slices.Contains(ids, "flow-delivery") {
		t.Errorf("netdev_budget_usecs guards: %v", ids)
	}
}

func guardIDs(gs []Guard) []string {
	var ids []string
	for _, g := range gs {
		ids = append(ids, g.ID)
	}
	return ids
}

// vm keys are judged by reclaim scanning besides stalls and pressure: swappiness that sends
// kswapd scanning ten times as much is rolled back.
func TestVerifyReclaimGuard(t *testing.T) {
	vm := func(vals map[string]string) model.Rates {
		s := model.Rates{model.RatePgscanKswapdPerSec: 2000, model.RatePgscanDirectPerSec: 100, model.RateAllocstallPerSec: 0, RatePSIMemorySome: 1000}
		if vals["vm.swappiness"] == "200" {
			s[model.RatePgscanKswapdPerSec] = 20000
		}
		return s
	}
	h := newSim(map[string]string{"vm.swappiness": "60"}, vm)
	_, ver, err := runVerified(t, h, []model.Change{sysctl("vm.swappiness", "200", "swap")})
	if err != nil || ver.Decision != "rolled-back" || len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], "pgscan_kswapd+pgscan_direct") ||
		!strings.Contains(ver.Tripped[0], "2088 pages/s → 20100 pages/s") {
		t.Fatalf("%v %+v", err, ver)
	}
	// No stall before or after: nothing to judge the change by there (issue 27).
	if f := figureOf(t, ver, "allocstall"); f.Verdict != VerdictIdle || !strings.Contains(f.Describe(), "not measured, idle") {
		t.Errorf("allocstall: %+v", f)
	}
}

// flowSock is a socket with a tcp_info of n bytes (168 reaches delivery_rate, 4.9; 136
// reaches bytes_received, 4.1).
func flowSock(local, remote string, n int, acked, received, rate int64) kernel.Socket {
	return kernel.Socket{State: "ESTABLISHED", Local: local, Remote: remote,
		Info: &kernel.TCPInfo{Len: n, BytesAcked: acked, BytesReceived: received, DeliveryRateBps: rate}}
}

// The flow figures: the delivery rate summed over the top flows by bytes acked since the
// previous dump, the bytes per second of the top flows by bytes received (a connection new
// since the previous dump with all its bytes); neither when there is no flow or the
// kernel's tcp_info lacks the field.
func TestFlowTracker(t *testing.T) {
	t0 := fixedNow()
	h := &flowTracker{}
	flows := func(at time.Duration, socks ...kernel.Socket) model.Rates {
		h.observe(t0.Add(at), socks)
		return h.figures[t0.Add(at)]
	}
	if s := flows(0, flowSock("10.0.0.1:5001", "10.0.0.2:40000", 232, 0, 0, 0)); len(s) != 0 {
		t.Fatalf("first dump measured: %v", s)
	}
	// Ten sending flows with 1..10 MB acked in the second, each estimating 1..10 MB/s;
	// one receiving flow; one listener; one new flow (not in the previous dump) that received
	// 1 MB since it connected.
	var first, second []kernel.Socket
	for i := int64(1); i <= 10; i++ {
		local := "10.0.0.1:" + string(rune('0'+i%10)) + "00"
		first = append(first, flowSock(local, "10.0.0.9:1", 232, 5e6, 0, 0))
		second = append(second, flowSock(local, "10.0.0.9:1", 232, 5e6+i*1e6, 0, i*1e6))
	}
	first = append(first, flowSock("10.0.0.1:22", "10.0.0.7:2", 232, 100, 1e6, 0))
	second = append(second, flowSock("10.0.0.1:22", "10.0.0.7:2", 232, 200, 1e6+4e6, 9e9),
		flowSock("10.0.0.1:23", "10.0.0.7:3", 232, 1e6, 1e6, 7e9),
		kernel.Socket{State: "LISTEN", Local: "0.0.0.0:5001", Remote: "0.0.0.0:0", Info: &kernel.TCPInfo{Len: 232, BytesReceived: 1e12}})
	flows(time.Second, first...)
	s := flows(3*time.Second, second...)
	// The top 8 by bytes acked are 3..10 MB: rates 3..10 MB/s, 52 MB/s in all. The receiving
	// flow's acked 100 bytes rank it last.
	if s[RateFlowDelivery] != 52e6 {
		t.Errorf("delivery rate %v, want 52e6 (%v)", s[RateFlowDelivery], s)
	}
	// 4 MB + the new flow's 1 MB received in 2 s; the listener's bytes are no flow's.
	if s[RateFlowReceived] != 2.5e6 {
		t.Errorf("received %v, want 2.5e6", s[RateFlowReceived])
	}

	// A 4.6 kernel: bytes counted, no delivery rate. A receive-only host: a received
	// figure, no delivery rate (nothing acked).
	h = &flowTracker{}
	flows(0, flowSock("a:1", "b:1", 160, 0, 0, 0), flowSock("a:2", "b:2", 232, 0, 0, 0))
	// b:2 acked one byte: its FIN.
	s = flows(time.Second, flowSock("a:1", "b:1", 160, 5e6, 0, 0), flowSock("a:2", "b:2", 232, 1, 3e6, 5e6))
	if _, ok := s[RateFlowDelivery]; ok || s[RateFlowReceived] != 3e6 {
		t.Errorf("4.6 sender and a receiver: %v", s)
	}
	// A 3.14 kernel (no bytes_acked/bytes_received) and no sock_diag at all: neither figure.
	h = &flowTracker{}
	flows(0, flowSock("a:1", "b:1", 104, 0, 0, 0))
	if s = flows(time.Second, flowSock("a:1", "b:1", 104, 0, 0, 0)); len(s) != 0 {
		t.Errorf("3.14: %v", s)
	}
	if s = flows(2 * time.Second); len(s) != 0 {
		t.Errorf("no sockets: %v", s)
	}
	// Addresses reused by a new connection (the counts went back): its own counts, not a
	// negative growth; 10 bytes acked is no sender.
	h = &flowTracker{}
	flows(0, flowSock("a:1", "b:1", 232, 9e9, 9e9, 0))
	if s = flows(time.Second, flowSock("a:1", "b:1", 232, 10, 10, 1e6)); len(s) != 1 || s[RateFlowReceived] != 10 {
		t.Errorf("reused addresses: %v", s)
	}
}

// The flow delivery figure is the mean of the intervals that have it (the first sample of a
// window has none: its tracker starts with the window), lower is worse; a window without it
// is "not measured" with what it needs, never "same".
func TestCompareFlowDelivery(t *testing.T) {
	win := func(vals ...float64) Window {
		w := Window{}
		for _, v := range vals {
			r := model.Rates{}
			if v >= 0 {
				r[RateFlowDelivery] = v
			}
			w.Intervals = append(w.Intervals, r)
		}
		return w
	}
	j := map[string][]string{"flow-delivery": {"net.ipv4.tcp_rmem"}}
	g := []Guard{guardFlowDelivery}
	f := Compare(g, j, win(12e6, 12.5e6, 11.5e6), win(0.5e6, 0.6e6, 0.4e6))[0]
	if f.Verdict != "worse" || f.Before != 12e6 || !strings.Contains(f.Describe(), "12 MB/s → 0.5 MB/s (-96 %)") {
		t.Errorf("%+v %s", f, f.Describe())
	}
	if f := Compare(g, j, win(12e6, 12e6, 12e6, 12e6), win(40e6, 41e6, 40e6, 41e6))[0]; f.Verdict != "better" {
		t.Errorf("%+v", f)
	}
	// Two intervals a window: Student's t for one degree of freedom (63.7 standard errors)
	// holds even a tripling, which is then undecided, not better.
	if f := Compare(g, j, win(12e6, 12e6), win(40e6, 41e6))[0]; f.Verdict != VerdictUndecided || f.Loss {
		t.Errorf("%+v", f)
	}
	f = Compare(g, j, win(12e6, 12e6), win(-1, -1))[0]
	if f.Verdict != "unknown" || !strings.Contains(f.Describe(), "not measured in both windows (sock_diag with tcp_info's delivery_rate (kernel 4.9 or later)") {
		t.Errorf("%+v %s", f, f.Describe())
	}
}
