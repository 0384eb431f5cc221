package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"headroom/model"
)

// --verify: judge each change by the figures it is meant to improve, measured on this host
// under its own traffic for a window before and the same window after, and roll the entry
// back when a guard got worse beyond noise.

// Sample is one reading of cumulative counters, by name ("TcpExt.PruneCalled",
// "netdev.eth0.rx_drops"). A counter missing from a sample is unknown there.
type Sample map[string]float64

// Sampler reads the counters now. Tests inject one; HostSampler reads /proc.
type Sampler func(ctx context.Context) (Sample, error)

// Guard is a figure that judges a change: the rate per second of the sum of Counters, or,
// with Per, their increase per increase of the sum of Per (a ratio).
type Guard struct {
	ID       string   `json:"id"`
	What     string   `json:"what"`
	Counters []string `json:"counters"`
	Per      []string `json:"per,omitempty"`
	// LowerIsWorse for delivery rates; the others (drops, pruning, stalls) are worse higher.
	LowerIsWorse bool `json:"lower_is_worse,omitempty"`
	// Floor is the smallest difference, per second, that is ever more than noise: one
	// retransmit more per second on a busy host is not a verdict.
	Floor float64 `json:"floor"`
	// Unit and Scale say how to print the rate: Scale 60 with "/min" for allocation stalls.
	Unit  string  `json:"unit"`
	Scale float64 `json:"scale"`
	// Gauge: the sum of Counters is a level in each sample (bytes per second the busiest
	// flows deliver), not a cumulative count; the figure is its mean over the window's
	// samples after the first (the first closes the interval that spans the apply).
	Gauge bool `json:"gauge,omitempty"`
	// Needs says what the figure needs to be measured, printed when it was not.
	Needs string `json:"needs,omitempty"`
}

// The guards. Each names the counters it sums; the reasons are in docs/tune.md.
var (
	guardTCPPrune = Guard{ID: "tcp-prune", What: "TCP receive-queue pruning and drops (TcpExt PruneCalled+RcvPruned+TCPRcvQDrop)",
		Counters: []string{"TcpExt.PruneCalled", "TcpExt.RcvPruned", "TcpExt.TCPRcvQDrop"}, Floor: 1, Unit: "/s", Scale: 1}
	// Retransmits as a share of the segments sent, not a rate: a change that lets a flow
	// fill its path retransmits more segments per second while losing no larger share.
	guardTCPRetrans = Guard{ID: "tcp-retrans", What: "TCP retransmitted share of segments sent (Tcp RetransSegs/OutSegs)",
		Counters: []string{"Tcp.RetransSegs"}, Per: []string{"Tcp.OutSegs"}, Floor: 0.005, Unit: " %", Scale: 100}
	guardDeliveredIn = Guard{ID: "delivered-in", What: "IP bytes delivered in (IpExt InOctets)",
		Counters: []string{"IpExt.InOctets"}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6}
	guardDeliveredOut = Guard{ID: "delivered-out", What: "IP bytes sent (IpExt OutOctets)",
		Counters: []string{"IpExt.OutOctets"}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6}
	guardAllocStall = Guard{ID: "allocstall", What: "direct-reclaim allocation stalls (vmstat allocstall_*)",
		Counters: []string{"vmstat.allocstall"}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	guardPSIMemory = Guard{ID: "psi-memory", What: "memory pressure, some (PSI total, % of time)",
		Counters: []string{"psi.memory.some_usec"}, Floor: 2000, Unit: " %", Scale: 1e-4}
	guardAllocFail = Guard{ID: "alloc-fail", What: "page allocation failures logged (kernel log, warn_alloc)",
		Counters: []string{"kmsg.alloc_failures"}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	guardCompactFail = Guard{ID: "compact-fail", What: "failed compactions (vmstat compact_fail)",
		Counters: []string{"vmstat.compact_fail"}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	// Pages scanned by kswapd and by direct reclaim: the work reclaim does, which a larger
	// reserve or a different swappiness moves between the two and should not raise. 256
	// pages/s (1 MiB/s of 4 KiB pages) is background on any host that caches files.
	guardReclaimScan = Guard{ID: "reclaim-scan", What: "pages scanned by reclaim (vmstat pgscan_kswapd+pgscan_direct)",
		Counters: []string{"vmstat.pgscan_kswapd", "vmstat.pgscan_direct"}, Floor: 256, Unit: " pages/s", Scale: 1}
	// softnet_stat, summed over CPUs: packets dropped because a CPU's backlog
	// (netdev_max_backlog) was full, and NAPI rounds cut short by netdev_budget or
	// netdev_budget_usecs with work left (net/core/dev.c enqueue_to_backlog, net_rx_action).
	guardSoftnetDrops = Guard{ID: "softnet-drops", What: "packets dropped at a full CPU backlog (softnet_stat dropped)",
		Counters: []string{"softnet.dropped"}, Floor: 1, Unit: "/s", Scale: 1}
	guardSoftnetSqueeze = Guard{ID: "softnet-squeeze", What: "NAPI rounds out of budget or time (softnet_stat time_squeeze)",
		Counters: []string{"softnet.time_squeeze"}, Floor: 1, Unit: "/s", Scale: 1}
	// sock_diag figures of the busiest flows (HostSampler.sampleFlows): what the flows that
	// carry the traffic get, which the host-wide byte counters dilute with everything else.
	guardFlowDelivery = Guard{ID: "flow-delivery", What: "delivery rate of the busiest sending flows (sock_diag tcpi_delivery_rate, sum over the top " + fmt.Sprint(FlowTopN) + " by bytes acked)",
		Counters: []string{"sockdiag.delivery_rate"}, Gauge: true, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6,
		Needs: "sock_diag with tcp_info's delivery_rate (kernel 4.9 or later) and a flow sending data in both windows"}
	guardFlowReceive = Guard{ID: "flow-receive", What: "bytes received by the busiest receiving flows (sock_diag tcpi_bytes_received, top " + fmt.Sprint(FlowTopN) + ")",
		Counters: []string{"sockdiag.busiest_received"}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6,
		Needs: "sock_diag with tcp_info's bytes_received (kernel 4.1 or later) and an established flow in successive samples"}
)

// guardCritical is the judge's figure: critical findings of the rules in each window.
const guardCritical = "critical-findings"

// Keys judged by the softnet and the per-flow guards besides the net.* ones.
var (
	softnetKeys = []string{"net.core.netdev_max_backlog", "net.core.netdev_budget", "net.core.netdev_budget_usecs",
		"net.core.dev_weight", "net.core.dev_weight_rx_bias", "net.core.dev_weight_tx_bias"}
	bufferKeys = []string{"net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem", "net.core.rmem_max",
		"net.core.wmem_max", "net.core.rmem_default", "net.core.wmem_default"}
)

func nicGuard(dev string) Guard {
	return Guard{ID: "nic-drops-" + dev, What: dev + " receive drops (/proc/net/dev drop+fifo)",
		Counters: []string{"netdev." + dev + ".rx_drops"}, Floor: 1, Unit: "/s", Scale: 1}
}

// GuardsFor chooses the guards of the changes: a NIC ring is judged by that NIC's drops;
// every net key by pruning, retransmits and delivery, the TCP buffers and memory limits
// also by the busiest flows' delivery and receive rates, the backlog and NAPI budgets also
// by softnet drops and squeezes; min_free_kbytes and the other vm keys by allocation
// failures, allocation stalls, failed compactions, memory pressure and reclaim scanning.
// The judge's critical findings (Verifier.Judge) apply to every change besides these.
func GuardsFor(changes []model.Change) (guards []Guard, judges map[string][]string) {
	judges = map[string][]string{}
	seen := map[string]bool{}
	add := func(key string, gs ...Guard) {
		for _, g := range gs {
			if !seen[g.ID] {
				seen[g.ID] = true
				guards = append(guards, g)
			}
			judges[g.ID] = append(judges[g.ID], key)
		}
	}
	for _, c := range changes {
		switch {
		case c.Kind == model.ChangeEthtool || c.Kind == model.ChangeTC:
			dev, _, _ := strings.Cut(c.Key, " ")
			add(c.Key, nicGuard(dev))
		case c.Kind != model.ChangeSysctl:
		case strings.HasPrefix(c.Key, "vm."):
			add(c.Key, guardAllocFail, guardAllocStall, guardCompactFail, guardPSIMemory, guardReclaimScan)
		case strings.HasPrefix(c.Key, "net."):
			add(c.Key, guardTCPPrune, guardTCPRetrans, guardDeliveredIn, guardDeliveredOut)
			if slices.Contains(bufferKeys, c.Key) {
				add(c.Key, guardFlowDelivery, guardFlowReceive)
			}
			if slices.Contains(softnetKeys, c.Key) {
				add(c.Key, guardSoftnetDrops, guardSoftnetSqueeze)
			}
		}
	}
	return guards, judges
}

// Noise margin: a guard is worse only when the difference of the two windows' mean rates
// exceeds the largest of its Floor, NoiseRelative of the baseline, and NoiseSigmas standard
// errors of the difference (from the per-interval rates of both windows).
const (
	NoiseRelative = 0.15
	NoiseSigmas   = 3.0
)

// Figure is one guard's comparison: Before, After and Margin are rates per second, or
// ratios for a guard with Per.
type Figure struct {
	Guard  string   `json:"guard"`
	What   string   `json:"what"`
	For    []string `json:"for"`
	Before float64  `json:"before"` // mean rate per second, or ratio
	After  float64  `json:"after"`
	Margin float64  `json:"margin"`
	// Verdict is "worse", "better" or "same" (within the margin); "unknown" when a window
	// lacked the counter.
	Verdict string  `json:"verdict"`
	Unit    string  `json:"unit"`
	Scale   float64 `json:"scale"`
	// Needs is what an "unknown" figure lacked (Guard.Needs, or the judge's error).
	Needs string `json:"needs,omitempty"`
	// New lists, for the judge's figure, the critical findings present after the change
	// and absent before; Before and After then count the critical findings.
	New []string `json:"new,omitempty"`
}

// Show prints a rate (or ratio) of the figure in its unit.
func (f Figure) Show(v float64) string {
	if x := v * f.Scale; math.Abs(x) >= 1000 {
		return fmt.Sprintf("%.0f%s", x, f.Unit) // 20100 pages/s, not 2.01e+04
	}
	return fmt.Sprintf("%.3g%s", v*f.Scale, f.Unit)
}

// Describe is "tcp-retrans: 12/s → 40/s (+233 %, noise margin 6/s)".
func (f Figure) Describe() string {
	if f.Verdict == "unknown" {
		needs := f.Needs
		if needs == "" {
			needs = "a counter missing or reset, or nothing to divide by"
		}
		return fmt.Sprintf("%s: not measured in both windows (%s); judges %s", f.What, needs, strings.Join(f.For, ", "))
	}
	if f.Guard == guardCritical {
		if len(f.New) > 0 {
			return fmt.Sprintf("new critical finding: %s after the change (%g critical before, %g after); judges %s", strings.Join(f.New, ", "), f.Before, f.After, strings.Join(f.For, ", "))
		}
		return fmt.Sprintf("%s: %g before, %g after, none new; judges %s", f.What, f.Before, f.After, strings.Join(f.For, ", "))
	}
	pct := ""
	if f.Before != 0 {
		pct = fmt.Sprintf(" (%+.0f %%)", (f.After-f.Before)/math.Abs(f.Before)*100)
	}
	return fmt.Sprintf("%s: %s → %s%s, noise margin %s; judges %s", f.What, f.Show(f.Before), f.Show(f.After), pct, f.Show(f.Margin), strings.Join(f.For, ", "))
}

// Verification is the comparison, stored in the journal entry.
type Verification struct {
	Window   string   `json:"window"`
	Interval string   `json:"interval"`
	Figures  []Figure `json:"figures"`
	// Decision is "kept" or "rolled-back" ("rollback-failed" when the rollback did not
	// complete; Error says why).
	Decision string   `json:"decision"`
	Tripped  []string `json:"tripped,omitempty"`
	Improved []string `json:"improved,omitempty"`
	Error    string   `json:"error,omitempty"`
}

// Worse lists the figures that tripped.
func (v *Verification) Worse() []Figure {
	var out []Figure
	for _, f := range v.Figures {
		if f.Verdict == "worse" {
			out = append(out, f)
		}
	}
	return out
}

func writeVerification(b *strings.Builder, v *Verification, indent string) {
	if v == nil {
		return
	}
	fmt.Fprintf(b, "%swindows of %s (every %s) before and after: %s\n", indent, v.Window, v.Interval, v.Decision)
	for _, f := range v.Figures {
		fmt.Fprintf(b, "%s  %-7s %s\n", indent, f.Verdict, f.Describe())
	}
	if v.Error != "" {
		fmt.Fprintf(b, "%s  error: %s\n", indent, v.Error)
	}
}

// WriteVerification prints the comparison for people.
func WriteVerification(b *strings.Builder, v *Verification) { writeVerification(b, v, "") }

// rates turns successive samples into per-second rates of each guard's counter sum (or,
// with Per, into ratios; an interval in which Per did not move has no ratio).
func rates(g Guard, samples []Sample, times []time.Time) []float64 {
	var out []float64
	for i := 1; i < len(samples); i++ {
		if g.Gauge {
			if v, ok := sum(g.Counters, samples[i]); ok {
				out = append(out, v)
			}
			continue
		}
		num, ok := delta(g.Counters, samples[i-1], samples[i])
		if !ok {
			continue
		}
		if len(g.Per) > 0 {
			den, ok := delta(g.Per, samples[i-1], samples[i])
			if ok && den > 0 {
				out = append(out, num/den)
			}
			continue
		}
		if dt := times[i].Sub(times[i-1]).Seconds(); dt > 0 {
			out = append(out, num/dt)
		}
	}
	return out
}

// delta is the increase of the sum of counters between two samples; false when one is
// missing or went backwards (a counter reset: an interface went down and up).
func delta(counters []string, a, b Sample) (float64, bool) {
	var d float64
	for _, c := range counters {
		x, okA := a[c]
		y, okB := b[c]
		if !okA || !okB || y < x {
			return 0, false
		}
		d += y - x
	}
	return d, true
}

// sum is the sum of the counters in one sample; false when one is missing.
func sum(counters []string, s Sample) (float64, bool) {
	var v float64
	for _, c := range counters {
		x, ok := s[c]
		if !ok {
			return 0, false
		}
		v += x
	}
	return v, true
}

func meanVar(x []float64) (mean, variance float64) {
	for _, v := range x {
		mean += v
	}
	mean /= float64(len(x))
	if len(x) < 2 {
		return mean, 0
	}
	for _, v := range x {
		variance += (v - mean) * (v - mean)
	}
	return mean, variance / float64(len(x)-1)
}

// Window is one measured window: samples and their times, and the judge's verdict on the
// same stretch of time.
type Window struct {
	Samples []Sample
	Times   []time.Time
	// Critical lists the ids of the critical findings the judge found in the window; Judged
	// says the judge ran, JudgeErr why it could not.
	Critical []string
	Judged   bool
	JudgeErr error
}

// Judge records the evidence of a window of the given length (sampled every interval) the
// way doctor does and returns the ids of the critical findings the rules make of it. It is
// passed in from cmd/headroom so that tune does not depend on the rules.
type Judge func(ctx context.Context, window, interval time.Duration) (criticalIDs []string, err error)

// judgeFigure compares the judge's findings of the two windows: a critical finding present
// after and absent before is worse, whatever the guards of the change say.
func judgeFigure(changes []model.Change, before, after Window) Figure {
	f := Figure{Guard: guardCritical, What: "critical findings of the rules (headroom doctor)", Unit: "", Scale: 1}
	for _, c := range changes {
		f.For = append(f.For, c.Key)
	}
	switch {
	case before.JudgeErr != nil:
		f.Verdict, f.Needs = "unknown", "baseline: "+before.JudgeErr.Error()
		return f
	case after.JudgeErr != nil:
		f.Verdict, f.Needs = "unknown", "after the change: "+after.JudgeErr.Error()
		return f
	}
	f.Before, f.After = float64(len(before.Critical)), float64(len(after.Critical))
	for _, id := range after.Critical {
		if !slices.Contains(before.Critical, id) && !slices.Contains(f.New, id) {
			f.New = append(f.New, id)
		}
	}
	gone := 0
	for _, id := range before.Critical {
		if !slices.Contains(after.Critical, id) {
			gone++
		}
	}
	switch {
	case len(f.New) > 0:
		f.Verdict = "worse"
	case gone > 0:
		f.Verdict = "better"
	default:
		f.Verdict = "same"
	}
	return f
}

// Compare judges each guard on the two windows.
func Compare(guards []Guard, judges map[string][]string, before, after Window) []Figure {
	var out []Figure
	for _, g := range guards {
		f := Figure{Guard: g.ID, What: g.What, For: judges[g.ID], Unit: g.Unit, Scale: g.Scale}
		rb, ra := rates(g, before.Samples, before.Times), rates(g, after.Samples, after.Times)
		if len(rb) == 0 || len(ra) == 0 {
			f.Verdict, f.Needs = "unknown", g.Needs
			out = append(out, f)
			continue
		}
		mb, vb := meanVar(rb)
		ma, va := meanVar(ra)
		f.Before, f.After = mb, ma
		se := math.Sqrt(vb/float64(len(rb)) + va/float64(len(ra)))
		f.Margin = math.Max(g.Floor, math.Max(NoiseRelative*math.Abs(mb), NoiseSigmas*se))
		d := ma - mb
		if g.LowerIsWorse {
			d = -d
		}
		switch {
		case d > f.Margin:
			f.Verdict = "worse"
		case d < -f.Margin:
			f.Verdict = "better"
		default:
			f.Verdict = "same"
		}
		out = append(out, f)
	}
	return out
}

// Verifier measures the windows.
type Verifier struct {
	Window   time.Duration
	Interval time.Duration
	Sample   Sampler
	// Judge, when set, judges each window by the rules' critical findings (see Judge); it
	// runs alongside the sampling, over the same stretch of time.
	Judge Judge
	// Now and Sleep are the clock; tests inject both so that no test waits.
	Now   func() time.Time
	Sleep func(ctx context.Context, d time.Duration) error
}

func (v *Verifier) now() time.Time {
	if v.Now != nil {
		return v.Now()
	}
	return time.Now()
}

func (v *Verifier) sleep(ctx context.Context, d time.Duration) error {
	if v.Sleep != nil {
		return v.Sleep(ctx, d)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// Measure samples every Interval for Window: Window/Interval rates.
func (v *Verifier) Measure(ctx context.Context) (Window, error) {
	if v.Interval <= 0 || v.Window < 2*v.Interval {
		return Window{}, fmt.Errorf("--verify %s: the window must hold at least two intervals of %s (the noise margin needs more than one rate)", v.Window, v.Interval)
	}
	n := int(v.Window / v.Interval)
	var w Window
	type verdict struct {
		ids []string
		err error
	}
	var judged chan verdict
	jctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if v.Judge != nil {
		judged = make(chan verdict, 1)
		go func() {
			ids, err := v.Judge(jctx, v.Window, v.Interval)
			judged <- verdict{ids, err}
		}()
	}
	var err error
	for i := 0; i <= n && err == nil; i++ {
		if i > 0 {
			if err = v.sleep(ctx, v.Interval); err != nil {
				break
			}
		}
		var s Sample
		if s, err = v.Sample(ctx); err != nil {
			err = fmt.Errorf("sampling the guards: %w", err)
			break
		}
		w.Samples = append(w.Samples, s)
		w.Times = append(w.Times, v.now())
	}
	if judged != nil {
		if err != nil {
			cancel() // the window failed: the judge's recording is of no use
		}
		r := <-judged
		w.Critical, w.JudgeErr, w.Judged = r.ids, r.err, true
	}
	return w, err
}

// ApplyVerified applies with a baseline and an after window around the apply, and rolls
// the entry back through rb when a guard is worse beyond noise. The comparison is saved
// in the entry. rb must use a.Journal.
func (v *Verifier) ApplyVerified(ctx context.Context, a *Applier, rb *Rollbacker, changes []model.Change) (*Entry, []Item, *Verification, error) {
	var applied []model.Change
	for _, it := range a.Preview(ctx, changes) {
		if it.Action == ActionApply {
			applied = append(applied, it.Change)
		}
	}
	guards, judges := GuardsFor(applied)
	if len(guards) == 0 && (v.Judge == nil || len(applied) == 0) {
		e, items, err := a.Apply(ctx, changes)
		return e, items, nil, err
	}
	ids := make([]string, len(guards))
	for i, g := range guards {
		ids[i] = g.ID
	}
	if v.Judge != nil {
		ids = append(ids, guardCritical)
	}
	a.log().Info(fmt.Sprintf("measuring the guards for %s before applying and %s after", v.Window, v.Window), "guards", strings.Join(ids, ","))
	before, err := v.Measure(ctx)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("baseline window, nothing was changed: %w", err)
	}
	a.VerifyWindow = v.Window.String()
	e, items, err := a.Apply(ctx, changes)
	a.VerifyWindow = ""
	if err != nil || e == nil || e.State != StateApplied {
		return e, items, nil, err
	}
	ver := &Verification{Window: v.Window.String(), Interval: v.Interval.String()}
	after, merr := v.Measure(ctx)
	if merr != nil {
		// Without the after window there is no evidence the change helps: undo it.
		ver.Error = "after window: " + merr.Error()
		ver.Tripped = []string{"the after window could not be measured: " + merr.Error()}
	} else {
		ver.Figures = Compare(guards, judges, before, after)
		if before.Judged && after.Judged {
			ver.Figures = append(ver.Figures, judgeFigure(applied, before, after))
		}
		for _, f := range ver.Figures {
			switch f.Verdict {
			case "worse":
				ver.Tripped = append(ver.Tripped, f.Describe())
			case "better":
				ver.Improved = append(ver.Improved, f.Describe())
			}
		}
	}
	ver.Decision = "kept"
	var rerr error
	if len(ver.Tripped) > 0 {
		ver.Decision = "rolled-back"
		// The rollback must run even when ctx was cancelled during the after window.
		if _, rerr = rb.Rollback(context.WithoutCancel(ctx), e.ID); rerr != nil {
			ver.Decision = "rollback-failed"
			ver.Error = strings.TrimPrefix(ver.Error+"; ", "; ") + "rollback: " + rerr.Error()
		}
	}
	jf, err := a.Journal.Load()
	if err == nil {
		if je := jf.Find(e.ID); je != nil {
			je.Verify = ver
			e = je
			err = a.Journal.Save(jf)
		} else {
			err = fmt.Errorf("journal entry %d is gone", e.ID)
		}
	}
	if err != nil {
		err = fmt.Errorf("saving the verification in journal entry %d: %w", e.ID, err)
	}
	return e, items, ver, errors.Join(rerr, err)
}
