package tune

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// simHost is a host whose counters grow at rates that depend on the sysctls in effect:
// the injected sampler of the --verify tests. rate gives each counter's rate per second
// from the current values; jitter alternates ± around it so the windows have a spread.
type simHost struct {
	fs     *fakeFS
	now    time.Time
	counts Sample
	rate   func(vals map[string]string) Sample
	jitter float64 // fraction of the rate
	n      int
}

func (h *simHost) sleep(_ context.Context, d time.Duration) error {
	vals := h.fs.snapshot()
	h.n++
	sign := 1.0
	if h.n%2 == 0 {
		sign = -1
	}
	for k, r := range h.rate(vals) {
		h.counts[k] += r * d.Seconds() * (1 + sign*h.jitter)
	}
	h.now = h.now.Add(d)
	return nil
}

func (h *simHost) sample(context.Context) (Sample, error) {
	s := Sample{}
	for k, v := range h.counts {
		s[k] = v
	}
	return s, nil
}

func newSim(vals map[string]string, rate func(map[string]string) Sample) *simHost {
	return &simHost{fs: newFakeFS(vals), now: fixedNow(), counts: Sample{}, rate: rate, jitter: 0.05}
}

func (h *simHost) verifier() *Verifier {
	return &Verifier{Window: 10 * time.Second, Interval: time.Second, Sample: h.sample, Sleep: h.sleep, Now: func() time.Time { return h.now }}
}

// tcpHost delivers in proportion to tcp_rmem's maximum, up to a 100 MB/s link: a long fat
// pipe whose window limits the rate.
func tcpHost(vals map[string]string) Sample {
	f := strings.Fields(vals["net.ipv4.tcp_rmem"])
	max := 0.0
	if len(f) == 3 {
		for _, c := range f[2] {
			max = max*10 + float64(c-'0')
		}
	}
	rate := max / 0.1 / 2 // window/RTT at 100 ms, half the buffer for payload
	if rate > 100e6 {
		rate = 100e6
	}
	return Sample{"IpExt.InOctets": rate, "IpExt.OutOctets": rate / 50, "Tcp.RetransSegs": 20, "Tcp.OutSegs": 2000, "TcpExt.PruneCalled": 0,
		"TcpExt.RcvPruned": 0, "TcpExt.TCPRcvQDrop": 0, "vmstat.allocstall": 0.5, "psi.memory.some_usec": 1000}
}

func runVerified(t *testing.T, h *simHost, changes []model.Change) (*Entry, *Verification, error) {
	t.Helper()
	dir := t.TempDir()
	j := openTestJournal(t, dir)
	// AllowLower: the harmful change lowers tcp_rmem, which tune refuses without it.
	a := &Applier{FS: h.fs, Journal: j, Limits: testLimits, Now: fixedNow, AllowLower: true}
	rb := &Rollbacker{Journal: j, OpenFS: fsOpener(h.fs), Limits: testLimits, Now: fixedNow}
	e, _, ver, err := h.verifier().ApplyVerified(context.Background(), a, rb, changes)
	if e != nil {
		// The comparison is in the journal, as --status shows it.
		saved := mustReadJournal(t, dir).Find(e.ID)
		if saved.Verify == nil || saved.Verify.Decision != ver.Decision {
			t.Errorf("journal entry %d: verification not saved: %+v", e.ID, saved.Verify)
		}
		rep := Status(context.Background(), mustReadJournal(t, dir), StatusOptions{OpenFS: fsOpener(h.fs), BootRoot: t.TempDir()})
		var b strings.Builder
		WriteStatus(&b, rep)
		if !strings.Contains(b.String(), "entry 1 verification") || !strings.Contains(b.String(), ver.Decision) {
			t.Errorf("--status lacks the verification:\n%s", b.String())
		}
	}
	return e, ver, err
}

func TestVerifyKeepsAnImprovement(t *testing.T) {
	h := newSim(map[string]string{"net.ipv4.tcp_rmem": "4096 131072 1048576"}, tcpHost)
	e, ver, err := runVerified(t, h, []model.Change{sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "BDP")})
	if err != nil {
		t.Fatal(err)
	}
	if ver.Decision != "kept" || e.State != StateApplied || h.fs.snapshot()["net.ipv4.tcp_rmem"] != "4096 131072 16777216" {
		t.Fatalf("decision %s, state %s, value %q", ver.Decision, e.State, h.fs.snapshot()["net.ipv4.tcp_rmem"])
	}
	if len(ver.Improved) != 2 || !strings.Contains(ver.Improved[0], "InOctets") || !strings.Contains(ver.Improved[0], "5.21 MB/s → 83.9 MB/s") {
		t.Errorf("improved: %q", ver.Improved)
	}
	for _, f := range ver.Figures {
		if f.Guard == "allocstall" || f.Guard == "psi-memory" {
			t.Errorf("a TCP buffer change is judged by %s", f.Guard)
		}
		if f.Guard == "tcp-retrans" && f.Verdict != "same" {
			t.Errorf("retransmits at a constant rate judged %s: %+v", f.Verdict, f)
		}
	}
}

// The harmful change of the lab scenario: tcp_rmem max 64 KiB on a long fat pipe.
func TestVerifyRollsBackAHarmfulChange(t *testing.T) {
	h := newSim(map[string]string{"net.ipv4.tcp_rmem": "4096 131072 6291456"}, tcpHost)
	e, ver, err := runVerified(t, h, []model.Change{sysctl("net.ipv4.tcp_rmem", "4096 65536 65536", "harmful")})
	if err != nil || e == nil {
		t.Fatal(err, e)
	}
	if ver.Decision != "rolled-back" || e.State != StateRolledBack {
		t.Fatalf("decision %s, state %s", ver.Decision, e.State)
	}
	if got := h.fs.snapshot()["net.ipv4.tcp_rmem"]; !SameValue(got, "4096 131072 6291456") {
		t.Errorf("tcp_rmem = %q after the automatic rollback", got)
	}
	if len(ver.Tripped) == 0 || !strings.Contains(ver.Tripped[0], "IP bytes delivered in") || !strings.Contains(ver.Tripped[0], "31.3 MB/s → 0.328 MB/s (-99 %") {
		t.Errorf("tripped: %q", ver.Tripped)
	}
}

// Guards are per change: min_free_kbytes is judged by stalls and pressure, so delivery
// falling during its window (the traffic's own doing) does not roll it back, and stalls
// rising do.
func TestVerifyGuardsArePerChange(t *testing.T) {
	mem := func(stallsAfter float64, failuresAfter ...float64) func(map[string]string) Sample {
		return func(vals map[string]string) Sample {
			s := Sample{"IpExt.InOctets": 50e6, "vmstat.allocstall": 2.0 / 60, "vmstat.compact_fail": 0, "psi.memory.some_usec": 1000, "kmsg.alloc_failures": 0}
			if vals["vm.min_free_kbytes"] == "22528" {
				s["IpExt.InOctets"] = 1e6
				s["vmstat.allocstall"] = stallsAfter
				if len(failuresAfter) > 0 {
					s["kmsg.alloc_failures"] = failuresAfter[0]
				}
			}
			return s
		}
	}
	h := newSim(map[string]string{"vm.min_free_kbytes": "16384"}, mem(1.0/60))
	_, ver, err := runVerified(t, h, []model.Change{sysctl("vm.min_free_kbytes", "22528", "reserve")})
	if err != nil || ver.Decision != "kept" {
		t.Fatalf("%v %+v", err, ver)
	}
	for _, f := range ver.Figures {
		if strings.HasPrefix(f.Guard, "delivered") {
			t.Errorf("min_free_kbytes judged by %s", f.Guard)
		}
	}
	h = newSim(map[string]string{"vm.min_free_kbytes": "16384"}, mem(30.0/60))
	_, ver, err = runVerified(t, h, []model.Change{sysctl("vm.min_free_kbytes", "22528", "reserve")})
	if err != nil || ver.Decision != "rolled-back" || len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], "allocation stalls") || !strings.Contains(ver.Tripped[0], "1.99/min → 30/min") {
		t.Fatalf("%v %+v", err, ver)
	}
	if got := h.fs.snapshot()["vm.min_free_kbytes"]; got != "16384" {
		t.Errorf("min_free_kbytes = %q after rollback", got)
	}
	// Allocation failures in the kernel log trip it too.
	h = newSim(map[string]string{"vm.min_free_kbytes": "16384"}, mem(2.0/60, 12.0/60))
	_, ver, err = runVerified(t, h, []model.Change{sysctl("vm.min_free_kbytes", "22528", "reserve")})
	if err != nil || ver.Decision != "rolled-back" || len(ver.Tripped) != 1 || !strings.Contains(ver.Tripped[0], "page allocation failures logged") {
		t.Fatalf("%v %+v", err, ver)
	}
}

// Differences inside the noise margin keep the change and call the figure "same".
func TestCompareNoiseMargin(t *testing.T) {
	g := Guard{ID: "drops", What: "drops", Counters: []string{"drops"}, Floor: 5, Unit: "/s", Scale: 1}
	win := func(rates ...float64) Window {
		w := Window{Samples: []Sample{{"drops": 0}}, Times: []time.Time{fixedNow()}}
		c := 0.0
		for i, r := range rates {
			c += r
			w.Samples = append(w.Samples, Sample{"drops": c})
			w.Times = append(w.Times, fixedNow().Add(time.Duration(i+1)*time.Second))
		}
		return w
	}
	judges := map[string][]string{g.ID: {"net.ipv4.tcp_rmem"}}
	cases := []struct {
		before, after []float64
		want          string
	}{
		{[]float64{100, 100, 100, 100}, []float64{110, 110, 110, 110}, "same"},  // +10 % < 15 %
		{[]float64{100, 100, 100, 100}, []float64{130, 130, 130, 130}, "worse"}, // +30 %
		{[]float64{0, 400, 0, 400}, []float64{300, 300, 300, 300}, "same"},      // spread: 3 SE ≈ 200
		{[]float64{100, 100, 100, 100}, []float64{50, 50, 50, 50}, "better"},
		{[]float64{1, 2, 1, 2}, []float64{4, 4, 4, 4}, "same"}, // below the floor of 5/s
	}
	for i, c := range cases {
		f := Compare([]Guard{g}, judges, win(c.before...), win(c.after...))[0]
		if f.Verdict != c.want {
			t.Errorf("case %d: %s, want %s (%+v)", i, f.Verdict, c.want, f)
		}
	}
	// A counter missing in a window is unknown, never "same".
	if f := Compare([]Guard{g}, judges, win(1, 2), Window{Samples: []Sample{{}, {}}, Times: []time.Time{fixedNow(), fixedNow().Add(time.Second)}})[0]; f.Verdict != "unknown" {
		t.Errorf("missing counter: %s", f.Verdict)
	}

	// Retransmits are judged as a share of the segments sent: ten times the traffic with the
	// same share is "same", a five times larger share is "worse".
	ratio := func(retrans, out float64) Window {
		w := Window{}
		for i := 0; i < 5; i++ {
			w.Samples = append(w.Samples, Sample{"Tcp.RetransSegs": retrans * float64(i), "Tcp.OutSegs": out * float64(i)})
			w.Times = append(w.Times, fixedNow().Add(time.Duration(i)*time.Second))
		}
		return w
	}
	rj := map[string][]string{guardTCPRetrans.ID: {"net.ipv4.tcp_rmem"}}
	if f := Compare([]Guard{guardTCPRetrans}, rj, ratio(10, 1000), ratio(100, 10000))[0]; f.Verdict != "same" || f.Before != 0.01 {
		t.Errorf("same share at 10× the traffic: %+v", f)
	}
	if f := Compare([]Guard{guardTCPRetrans}, rj, ratio(10, 1000), ratio(50, 1000))[0]; f.Verdict != "worse" || !strings.Contains(f.Describe(), "1 % → 5 %") {
		t.Errorf("5× the share: %+v %s", f, f.Describe())
	}
}

func TestVerifyWindowTooShortChangesNothing(t *testing.T) {
	h := newSim(map[string]string{"net.ipv4.tcp_rmem": "4096 131072 1048576"}, tcpHost)
	v := h.verifier()
	v.Window = time.Second
	j := openTestJournal(t, t.TempDir())
	a := &Applier{FS: h.fs, Journal: j, Limits: testLimits, Now: fixedNow}
	e, _, _, err := v.ApplyVerified(context.Background(), a, &Rollbacker{Journal: j}, []model.Change{sysctl("net.ipv4.tcp_rmem", "4096 131072 16777216", "BDP")})
	if err == nil || e != nil || !strings.Contains(err.Error(), "nothing was changed") || h.fs.snapshot()["net.ipv4.tcp_rmem"] != "4096 131072 1048576" {
		t.Fatalf("%v %+v", err, e)
	}
}

// On the live host the sampler reads every guard's counters; as root the kernel log too.
func TestHostSamplerLive(t *testing.T) {
	if _, err := os.Stat("/proc/net/netstat"); err != nil {
		t.Skip("no /proc/net/netstat")
	}
	h := NewHostSampler(kernel.HostRoot(), "")
	defer h.Close()
	s, err := h.Sample(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"TcpExt.PruneCalled", "Tcp.RetransSegs", "Tcp.OutSegs", "IpExt.InOctets", "netdev.lo.rx_drops"}
	if os.Geteuid() == 0 {
		want = append(want, "kmsg.alloc_failures")
	}
	for _, k := range want {
		if _, ok := s[k]; !ok {
			t.Errorf("no %s in %v", k, s)
		}
	}
}
