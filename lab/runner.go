package lab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"headroom/lab/netlab"
	"headroom/model"

	"golang.org/x/sys/unix"
)

// RunOptions control how a case runs.
type RunOptions struct {
	// AllowGlobal lets settings change sysctls that exist only in the initial namespace
	// (journaled and restored at the end). Off by default: the lab then applies only
	// per-namespace keys and lists the others as skipped.
	AllowGlobal bool
	// Timeout bounds one case, topology included. 0 means DefaultTimeout(p).
	Timeout time.Duration
	// Progress receives one-line progress messages (the command prints them on stderr).
	Progress func(msg string)
}

// DefaultTimeout is twice the case's sending time plus 30 s for building, pinging and
// tearing down.
func DefaultTimeout(p Params) time.Duration {
	return 2*(p.Warmup+p.Measure) + 30*time.Second
}

// Report is the JSON document of `headroom lab run|compare --format json`.
type Report struct {
	Scenario string       `json:"scenario"`
	Runs     []*RunResult `json:"runs"`
}

// RunResult is one case under one settings set.
type RunResult struct {
	Settings       string    `json:"settings"`
	Params         RunParams `json:"params"`
	ThroughputMbps float64   `json:"throughput_mbps"`
	PerStreamMbps  []float64 `json:"per_stream_mbps"`
	Retransmits    uint64    `json:"retransmits"`
	// DataSegmentsOut is every data segment the senders sent (tcpi_data_segs_out summed,
	// retransmissions included), over the same span as Retransmits: the whole transfer.
	DataSegmentsOut     uint64 `json:"data_segments_out"`
	PeakTCPMemPages     int64  `json:"peak_tcp_mem_pages"`
	BaselineTCPMemPages int64  `json:"baseline_tcp_mem_pages"`
	// PeakSocketMemPages is the run's own sockets' charged memory (SO_MEMINFO), rounded
	// up to pages: the part of peak_tcp_mem_pages this run caused.
	PeakSocketMemPages int64                  `json:"peak_socket_mem_pages"`
	BudgetPages        int64                  `json:"budget_pages"`
	BudgetOK           bool                   `json:"budget_ok"`
	Applied            []Applied              `json:"applied,omitempty"`
	Skipped            []Skipped              `json:"skipped,omitempty"`
	DelayLine          *netlab.DelayLineStats `json:"delay_line,omitempty"`
}

// RunParams is the case as it actually ran: the asked-for link and workload plus what was
// read back from the sender's namespace and measured before the transfer.
type RunParams struct {
	RateMbps          float64       `json:"rate_mbps"`
	RTTMs             float64       `json:"rtt_ms"`
	OneWayDelayMs     float64       `json:"one_way_delay_ms"`
	MeasuredRTTMs     float64       `json:"measured_rtt_ms"` // median of 3 pings before the transfer
	Streams           int           `json:"streams"`
	WarmupS           float64       `json:"warmup_s"` // excluded from throughput
	MeasureS          float64       `json:"measure_s"`
	Link              string        `json:"link"`   // veth, veth+netem, tun+delayline
	Shaper            netlab.Shaper `json:"shaper"` // htb or tbf
	LossFraction      float64       `json:"loss_fraction"`
	CongestionControl string        `json:"congestion_control"` // as the sockets reported it
	TCPRmem           string        `json:"tcp_rmem"`           // in force in the namespaces
	TCPWmem           string        `json:"tcp_wmem"`
	SndBufBytes       int           `json:"snd_buf_bytes,omitempty"` // asked for; 0 = autotuning
	RcvBufBytes       int           `json:"rcv_buf_bytes,omitempty"`
	MemoryBytes       int64         `json:"memory_bytes"` // RAM the budget assumes
	BudgetBasis       string        `json:"budget_basis"`
}

// Applied is one sysctl the run set, per host, with the value read back.
type Applied struct {
	Host  string       `json:"host"`
	Key   string       `json:"key"`
	Value string       `json:"value"`
	Scope netlab.Scope `json:"scope"`
}

// Skipped is a change the run did not apply, and why.
type Skipped struct {
	Key   string `json:"key"`
	Value string `json:"value"`
	Why   string `json:"why"`
}

// RunCase builds the scenario's topology for one case in fresh namespaces, applies the
// settings on every host, runs the bulk transfer, and tears everything down whatever
// happens (error, panic, ctx cancelled by SIGINT/SIGTERM, timeout).
func RunCase(ctx context.Context, sc *Scenario, p Params, set Settings, opts RunOptions) (res *RunResult, err error) {
	progress := opts.Progress
	if progress == nil {
		progress = func(string) {}
	}
	timeout := opts.Timeout
	if timeout == 0 {
		timeout = DefaultTimeout(p)
	}
	ctx, cancel := context.WithTimeoutCause(ctx, timeout, fmt.Errorf("lab: case exceeded its time bound of %v", timeout))
	defer cancel()

	changes, err := set.Changes(p)
	if err != nil {
		return nil, err
	}
	netlab.SweepEarlierRuns(progress)

	l, err := netlab.New()
	if err != nil {
		return nil, err
	}
	l.Progress = progress
	defer func() {
		if cerr := l.Close(); cerr != nil {
			err = errors.Join(err, fmt.Errorf("lab: teardown of run %s: %w", l.RunID, cerr))
		}
	}()
	// The namespaces are the host's to see: swept by a guardian if this process is killed.
	if err := l.Guard(); err != nil {
		return nil, err
	}
	// The run measures on the host's kernel: not while another run changes its global
	// sysctls (netlab/globallock.go).
	if err := l.ShareHost(); err != nil {
		return nil, err
	}
	progress(fmt.Sprintf("run %s: %s, settings %s: building %s", l.RunID, describe(p), set.Name(), sc.Name))
	topo, err := sc.Build(l, p)
	if err != nil {
		return nil, err
	}
	res = &RunResult{Settings: set.Name()}
	var socketCC string
	for _, h := range topo.Hosts {
		socketCC = applySettings(l, h, changes, opts.AllowGlobal, res)
	}
	cc := p.CongestionControl
	if cc == "" {
		cc = socketCC
	}
	res.Skipped = dedupeSkipped(res.Skipped)

	rp := RunParams{
		RateMbps:      float64(p.RateBitsPerSec) / 1e6,
		RTTMs:         ms(p.RTT),
		OneWayDelayMs: ms(topo.Link.Spec.OneWayDelay),
		Streams:       p.Streams,
		WarmupS:       p.Warmup.Seconds(),
		MeasureS:      p.Measure.Seconds(),
		Link:          topo.Link.Kind,
		Shaper:        orDefault(p.Shaper, netlab.ShaperHTB),
		LossFraction:  p.LossFraction,
		SndBufBytes:   p.SndBufBytes,
		RcvBufBytes:   p.RcvBufBytes,
	}
	if rp.TCPRmem, err = topo.Sender.ReadSysctl("net.ipv4.tcp_rmem"); err != nil {
		return nil, err
	}
	if rp.TCPWmem, err = topo.Sender.ReadSysctl("net.ipv4.tcp_wmem"); err != nil {
		return nil, err
	}

	pingTimeout := 2*p.RTT + time.Second
	rtts, err := netlab.Ping(topo.Sender, topo.Link.AddrB, 3, 100*time.Millisecond, pingTimeout)
	if err != nil {
		return nil, err
	}
	sort.Slice(rtts, func(i, j int) bool { return rtts[i] < rtts[j] })
	rp.MeasuredRTTMs = ms(rtts[len(rtts)/2])
	progress(fmt.Sprintf("run %s: path up, ping RTT %.1f ms; sending for %v (first %v excluded)", l.RunID, rp.MeasuredRTTMs, p.Warmup+p.Measure, p.Warmup))

	bulk, err := netlab.RunBulk(ctx, topo.Sender, topo.Receiver, topo.Link.AddrB, netlab.BulkConfig{
		Streams:           p.Streams,
		Warmup:            p.Warmup,
		Measure:           p.Measure,
		SndBufBytes:       p.SndBufBytes,
		RcvBufBytes:       p.RcvBufBytes,
		CongestionControl: cc,
		Progress: func(e time.Duration, bps float64) {
			progress(fmt.Sprintf("run %s: %4.0fs %8.1f Mbit/s", l.RunID, e.Seconds(), bps/1e6))
		},
	})
	if err != nil {
		if c := context.Cause(ctx); c != nil && ctx.Err() != nil {
			return nil, c
		}
		return nil, err
	}
	rp.CongestionControl = bulk.Streams[0].CongestionControl

	budgetPages, basis, memBytes, err := budget(p)
	if err != nil {
		return nil, err
	}
	rp.MemoryBytes, rp.BudgetBasis = memBytes, basis
	res.Params = rp
	res.ThroughputMbps = round1(bulk.TotalBitsPerSec / 1e6)
	for _, s := range bulk.Streams {
		res.PerStreamMbps = append(res.PerStreamMbps, round1(s.GoodputBitsPerSec/1e6))
	}
	res.Retransmits = bulk.Retransmits
	res.DataSegmentsOut = bulk.DataSegmentsOut
	res.PeakTCPMemPages = bulk.PeakTCPMemPages
	res.BaselineTCPMemPages = bulk.BaselineTCPMemPages
	page := int64(os.Getpagesize())
	res.PeakSocketMemPages = (bulk.PeakSocketMemBytes + page - 1) / page
	res.BudgetPages = budgetPages
	res.BudgetOK = bulk.PeakTCPMemPages <= budgetPages
	if topo.Link.DelayLine != nil {
		st := topo.Link.DelayLine.Stats()
		res.DelayLine = &st
	}
	progress(fmt.Sprintf("run %s: %.1f Mbit/s, %d retransmits, peak TCP memory %d pages", l.RunID, res.ThroughputMbps, res.Retransmits, res.PeakTCPMemPages))
	return res, nil
}

// applySettings applies the sysctl changes inside h and records what happened. It returns
// a congestion control the namespace refused as its default but that the workload can set
// per socket: outside the initial namespace only algorithms listed in
// tcp_allowed_congestion_control may become the default (net/ipv4/tcp_cong.c:
// tcp_set_default_congestion_control returns EPERM for the others), while TCP_CONGESTION on
// a socket accepts any available one with CAP_NET_ADMIN (tcp_set_congestion_control).
func applySettings(l *netlab.Lab, h *netlab.Host, changes []model.Change, allowGlobal bool, res *RunResult) (socketCC string) {
	for _, c := range changes {
		if c.Kind != model.ChangeSysctl {
			res.Skipped = append(res.Skipped, Skipped{Key: c.Key, Value: c.Recommended, Why: fmt.Sprintf("kind %q: the lab applies sysctls only", c.Kind)})
			continue
		}
		scope, got, err := l.SetSysctl(h, c.Key, c.Recommended, allowGlobal)
		if err != nil {
			if c.Key == "net.ipv4.tcp_congestion_control" && errors.Is(err, unix.EPERM) {
				socketCC = c.Recommended
				res.Applied = append(res.Applied, Applied{Host: h.Name, Key: c.Key, Value: c.Recommended, Scope: netlab.ScopeSocket})
				continue
			}
			// A per-namespace key the kernel refuses (an unavailable congestion control,
			// a value out of range) is reported, not fatal: the run shows what the kernel
			// actually allowed.
			why := "kernel refused: " + unwrapMsg(err)
			if c.Key == "net.ipv4.tcp_congestion_control" && errors.Is(err, unix.ENOENT) {
				avail, _ := netlab.ReadSysctl("net.ipv4.tcp_available_congestion_control")
				why = fmt.Sprintf("not available on this kernel (tcp_available_congestion_control: %s)", avail)
			}
			res.Skipped = append(res.Skipped, Skipped{Key: c.Key, Value: c.Recommended, Why: why})
			continue
		}
		switch {
		case scope == netlab.ScopeMissing:
			res.Skipped = append(res.Skipped, Skipped{Key: c.Key, Value: c.Recommended, Why: "this kernel has no such sysctl"})
		case scope != netlab.ScopeNetns && !allowGlobal:
			why := "global: exists only in the initial namespace"
			if scope == netlab.ScopeReadOnly {
				why = "global: read-only inside a namespace, mirrors the initial namespace"
			}
			res.Skipped = append(res.Skipped, Skipped{Key: c.Key, Value: c.Recommended, Why: why + "; --allow-global applies and restores it"})
		default:
			res.Applied = append(res.Applied, Applied{Host: h.Name, Key: c.Key, Value: got, Scope: scope})
		}
	}
	return socketCC
}

func unwrapMsg(err error) string {
	for {
		u := errors.Unwrap(err)
		if u == nil {
			return err.Error()
		}
		if _, isJoin := u.(interface{ Unwrap() []error }); isJoin {
			return err.Error()
		}
		err = u
	}
}

func dedupeSkipped(s []Skipped) []Skipped {
	seen := map[Skipped]bool{}
	out := s[:0]
	for _, x := range s {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// budget is the TCP memory budget a run is held to: the budget plan.Compute allots to socket
// buffers on the host the case models (plan.Budget: 1/8 of MemTotal on a 64-bit kernel,
// 1/4 of lowmem on a 32-bit HighMem one), in pages. It is the same for every settings set of
// a case, so a comparison shows which sets stay inside it. The peak it is compared with is
// the kernel-wide TCP memory (sockstat "mem"), which also counts the host's other sockets.
func budget(p Params) (pages int64, basis string, memBytes int64, err error) {
	pl, err := computePlan(p.RateBitsPerSec, p.RTT, p.Streams, p.MemoryBytes)
	if err != nil {
		return 0, "", 0, err
	}
	page := int64(os.Getpagesize())
	return pl.Budget.BudgetBytes / page, fmt.Sprintf("plan budget: %s ÷ %d", pl.Budget.Basis, pl.Budget.ShareDenominator), pl.Input.MemoryBytes, nil
}

// RunScenario runs every case of the scenario under each settings source in turn and
// collects the results. It stops at the first error (ctx cancelled included) and returns
// the results so far with it.
func RunScenario(ctx context.Context, sc *Scenario, cases []Params, sets []Settings, opts RunOptions) (*Report, error) {
	rep := &Report{Scenario: sc.Name, Runs: []*RunResult{}}
	for _, p := range cases {
		for _, s := range sets {
			if err := ctx.Err(); err != nil {
				return rep, err
			}
			r, err := RunCase(ctx, sc, p, s, opts)
			if err != nil {
				return rep, fmt.Errorf("%s, %s, settings %s: %w", sc.Name, describe(p), s.Name(), err)
			}
			rep.Runs = append(rep.Runs, r)
		}
	}
	return rep, nil
}

func describe(p Params) string {
	return fmt.Sprintf("%s, RTT %v, %d stream%s", FormatRate(p.RateBitsPerSec), p.RTT, p.Streams, map[bool]string{true: "", false: "s"}[p.Streams == 1])
}

// FormatRate prints a rate the way tc does ("100Mbit", "1Gbit").
func FormatRate(bps uint64) string {
	switch {
	case bps >= 1e9 && bps%1e9 == 0:
		return fmt.Sprintf("%dGbit", bps/1e9)
	case bps >= 1e6 && bps%1e6 == 0:
		return fmt.Sprintf("%dMbit", bps/1e6)
	case bps >= 1e3 && bps%1e3 == 0:
		return fmt.Sprintf("%dKbit", bps/1e3)
	}
	return fmt.Sprintf("%dbit", bps)
}

func ms(d time.Duration) float64 { return round1(float64(d) / 1e6) }

func round1(v float64) float64 { return math.Round(v*10) / 10 }

func orDefault[T ~string](v, d T) T {
	if v == "" {
		return d
	}
	return v
}
