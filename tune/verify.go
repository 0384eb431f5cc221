package tune

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
)

// --verify: judge each change by the figures it is meant to improve, measured on this host
// under its own traffic for a window before and the same window after, and roll the entry
// back when a guard got worse beyond noise.

// Guard is a figure that judges a change: the sum of Rates in each interval of a window (the
// per-interval figures of a Window, Intervals), or, with Per, that sum divided by the sum of
// Per (a ratio: dt cancels).
type Guard struct {
	ID    string   `json:"id"`
	What  string   `json:"what"`
	Rates []string `json:"rates"`
	Per   []string `json:"per,omitempty"`
	// LowerIsWorse for delivery rates; the others (drops, pruning, stalls) are worse higher.
	LowerIsWorse bool `json:"lower_is_worse,omitempty"`
	// Floor is the smallest difference, per second, that is ever more than noise: one
	// retransmit more per second on a busy host is not a verdict.
	Floor float64 `json:"floor"`
	// Unit and Scale say how to print the rate: Scale 60 with "/min" for allocation stalls.
	Unit  string  `json:"unit"`
	Scale float64 `json:"scale"`
	// Needs says what the figure needs to be measured, printed when it was not.
	Needs string `json:"needs,omitempty"`
}

// The guards. Each names the counters it sums; the reasons are in docs/tune.md.
var (
	guardTCPPrune = Guard{ID: "tcp-prune", What: "TCP receive-queue pruning and drops (TcpExt PruneCalled+RcvPruned+TCPRcvQDrop)",
		Rates: []string{RateTCPPrune}, Floor: 1, Unit: "/s", Scale: 1}
	// Retransmits as a share of the segments sent, not a rate: a change that lets a flow
	// fill its path retransmits more segments per second while losing no larger share.
	guardTCPRetrans = Guard{ID: "tcp-retrans", What: "TCP retransmitted share of segments sent (Tcp RetransSegs/OutSegs)",
		Rates: []string{model.RateTCPRetransPerSec}, Per: []string{model.RateTCPOutSegsPerSec}, Floor: 0.005, Unit: " %", Scale: 100}
	guardDeliveredIn = Guard{ID: "delivered-in", What: "IP bytes delivered in (IpExt InOctets)",
		Rates: []string{RateIPInOctets}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6}
	guardDeliveredOut = Guard{ID: "delivered-out", What: "IP bytes sent (IpExt OutOctets)",
		Rates: []string{RateIPOutOctets}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6}
	guardAllocStall = Guard{ID: "allocstall", What: "direct-reclaim allocation stalls (vmstat allocstall_*)",
		Rates: []string{model.RateAllocstallPerSec}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	guardPSIMemory = Guard{ID: "psi-memory", What: "memory pressure, some (PSI total, % of time)",
		Rates: []string{RatePSIMemorySome}, Floor: 2000, Unit: " %", Scale: 1e-4}
	guardAllocFail = Guard{ID: "alloc-fail", What: "page allocation failures logged (kernel log, warn_alloc)",
		Rates: []string{RateAllocFailures}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	guardCompactFail = Guard{ID: "compact-fail", What: "failed compactions (vmstat compact_fail)",
		Rates: []string{model.RateCompactFailPerSec}, Floor: 1.0 / 60, Unit: "/min", Scale: 60}
	// Pages scanned by kswapd and by direct reclaim: the work reclaim does, which a larger
	// reserve or a different swappiness moves between the two and should not raise. 256
	// pages/s (1 MiB/s of 4 KiB pages) is background on any host that caches files.
	guardReclaimScan = Guard{ID: "reclaim-scan", What: "pages scanned by reclaim (vmstat pgscan_kswapd+pgscan_direct)",
		Rates: []string{model.RatePgscanKswapdPerSec, model.RatePgscanDirectPerSec}, Floor: 256, Unit: " pages/s", Scale: 1}
	// softnet_stat, summed over CPUs: packets dropped because a CPU's backlog
	// (netdev_max_backlog) was full, and NAPI rounds cut short by netdev_budget or
	// netdev_budget_usecs with work left (net/core/dev.c enqueue_to_backlog, net_rx_action).
	guardSoftnetDrops = Guard{ID: "softnet-drops", What: "packets dropped at a full CPU backlog (softnet_stat dropped)",
		Rates: []string{model.RateSoftnetDropPerSec}, Floor: 1, Unit: "/s", Scale: 1}
	guardSoftnetSqueeze = Guard{ID: "softnet-squeeze", What: "NAPI rounds out of budget or time (softnet_stat time_squeeze)",
		Rates: []string{model.RateSoftnetSqueezePerSec}, Floor: 1, Unit: "/s", Scale: 1}
	// sock_diag figures of the busiest flows (flowTracker): what the flows that
	// carry the traffic get, which the host-wide byte counters dilute with everything else.
	guardFlowDelivery = Guard{ID: "flow-delivery", What: "delivery rate of the busiest sending flows (sock_diag tcpi_delivery_rate, sum over the top " + fmt.Sprint(FlowTopN) + " by bytes acked)",
		Rates: []string{RateFlowDelivery}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6,
		Needs: "sock_diag with tcp_info's delivery_rate (kernel 4.9 or later) and a flow sending data in both windows"}
	guardFlowReceive = Guard{ID: "flow-receive", What: "bytes received by the busiest receiving flows (sock_diag tcpi_bytes_received, top " + fmt.Sprint(FlowTopN) + ")",
		Rates: []string{RateFlowReceived}, LowerIsWorse: true, Floor: 128 << 10, Unit: " MB/s", Scale: 1e-6,
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
	return Guard{ID: "nic-drops-" + dev, What: dev + " receive drops for lack of room (" + strings.Join(kernel.RxDropNetDevCounters, "+") + ")",
		Rates: []string{RateNICRxDrops(dev)}, Floor: 1, Unit: "/s", Scale: 1}
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

// Noise margin: a guard is worse (or better) only when the difference of the two windows'
// mean rates exceeds the largest of its Floor, NoiseRelative of the baseline, and the
// critical value of the difference's standard error (from the per-interval rates of both
// windows; see noiseSigmas).
const (
	NoiseRelative = 0.15
	NoiseSigmas   = 3.0
	// LargeChange is the share of the baseline from which a difference inside the margin is
	// too large to call "same": the figure is undecided. A loss of more than this share is
	// never kept, whatever the margin says (issue 27).
	LargeChange = 0.25
)

// Figure verdicts.
const (
	VerdictWorse  = "worse"
	VerdictBetter = "better"
	VerdictSame   = "same"
	// VerdictUndecided: a difference of at least LargeChange of the baseline (and at least
	// the guard's floor) that the noise margin still holds.
	VerdictUndecided = "undecided"
	// VerdictUnknown: a window lacked the counter (or the judge could not run).
	VerdictUnknown = "unknown"
	// VerdictIdle: read in both windows, but below the guard's floor in both: nothing
	// happened on the guarded path that a difference could be judged from.
	VerdictIdle = "idle"
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
	// Floor is the guard's floor, for an idle figure's description.
	Floor float64 `json:"floor,omitempty"`
	// Intervals are the per-interval rates behind Before and After.
	IntervalsBefore int `json:"intervals_before,omitempty"`
	IntervalsAfter  int `json:"intervals_after,omitempty"`
	// Verdict is one of the Verdict constants: "worse", "better" or "same" (within the
	// margin), "undecided" (large but within the margin), "unknown" when a window lacked the
	// counter, "idle" when both windows were below the floor.
	Verdict string `json:"verdict"`
	// Loss says the difference is in the worse direction (for an undecided figure).
	Loss  bool    `json:"loss,omitempty"`
	Unit  string  `json:"unit"`
	Scale float64 `json:"scale"`
	// Needs is what an "unknown" figure lacked (Guard.Needs, or the judge's error).
	Needs string `json:"needs,omitempty"`
	// New lists, for the judge's figure, the critical findings present after the change
	// and absent before; Before and After then count the critical findings.
	New []string `json:"new,omitempty"`
}

// Measured says the figure measured something on the guarded path: it is neither unknown
// nor idle. The judge's figure is not a measurement of a change's own effect.
func (f Figure) Measured() bool {
	return f.Guard != guardCritical && f.Verdict != VerdictUnknown && f.Verdict != VerdictIdle && f.Verdict != ""
}

// Change is the relative difference After vs Before in the worse direction's sign
// convention as printed: (After−Before)/|Before|; ±Inf from a zero baseline.
func (f Figure) change() float64 {
	if f.Before == 0 {
		if f.After == 0 {
			return 0
		}
		return math.Copysign(math.Inf(1), f.After)
	}
	return (f.After - f.Before) / math.Abs(f.Before)
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
	switch f.Verdict {
	case VerdictUnknown:
		needs := f.Needs
		if needs == "" {
			needs = "a counter missing or reset, or nothing to divide by"
		}
		return fmt.Sprintf("%s: not measured in both windows (%s); judges %s", f.What, needs, strings.Join(f.For, ", "))
	case VerdictIdle:
		return fmt.Sprintf("%s: not measured, idle: %s → %s, below the %s this guard can tell from noise; judges %s",
			f.What, f.Show(f.Before), f.Show(f.After), f.Show(f.Floor), strings.Join(f.For, ", "))
	}
	if f.Guard == guardCritical {
		if len(f.New) > 0 {
			return fmt.Sprintf("new critical finding: %s after the change (%g critical before, %g after); judges %s", strings.Join(f.New, ", "), f.Before, f.After, strings.Join(f.For, ", "))
		}
		return fmt.Sprintf("%s: %g before, %g after, none new; judges %s", f.What, f.Before, f.After, strings.Join(f.For, ", "))
	}
	pct := ""
	if f.Before != 0 {
		pct = fmt.Sprintf(" (%+.0f %%)", f.change()*100)
	}
	margin := "noise margin"
	if f.Verdict == VerdictUndecided {
		margin = "inside the noise margin"
	}
	n := ""
	if f.IntervalsBefore > 0 {
		n = fmt.Sprintf(" (%d and %d intervals)", f.IntervalsBefore, f.IntervalsAfter)
	}
	return fmt.Sprintf("%s: %s → %s%s, %s %s%s; judges %s", f.What, f.Show(f.Before), f.Show(f.After), pct, margin, f.Show(f.Margin), n, strings.Join(f.For, ", "))
}

// Outcomes of a verification: what the figures showed about the entry.
const (
	// OutcomeKept: every change measured, nothing worse or undecided.
	OutcomeKept = "kept"
	// OutcomeWorse: a figure worse beyond noise, or a new critical finding.
	OutcomeWorse = "worse"
	// OutcomeUndecided: a figure changed by LargeChange or more inside the noise margin,
	// still after the window was extended.
	OutcomeUndecided = "undecided"
	// OutcomeNotMeasured: a change none of whose guards measured anything (no traffic on
	// its path, zero or below the floor in both windows, its source unreadable), or the
	// after window could not be measured.
	OutcomeNotMeasured = "not-measured"
)

// Verification is the comparison, stored in the journal entry.
type Verification struct {
	Window   string `json:"window"`
	Interval string `json:"interval"`
	// After is the after window as measured: Window, or longer when an undecided figure
	// extended it (up to the Verifier's MaxAfter).
	After   string   `json:"after,omitempty"`
	Figures []Figure `json:"figures"`
	// Outcome is one of the Outcome constants ("" in entries of a headroom before it).
	Outcome string `json:"outcome,omitempty"`
	// Decision is "kept" or "rolled-back" ("rollback-failed" when the rollback did not
	// complete; Error says why).
	Decision string   `json:"decision"`
	Tripped  []string `json:"tripped,omitempty"`
	Improved []string `json:"improved,omitempty"`
	// Undecided describes the undecided figures; Unmeasured names each change no guard
	// measured, with why.
	Undecided  []string `json:"undecided,omitempty"`
	Unmeasured []string `json:"unmeasured,omitempty"`
	// Kept says which flag kept an undecided or unmeasured entry.
	KeptBy string `json:"kept_by,omitempty"`
	Error  string `json:"error,omitempty"`
}

// Worse lists the figures that tripped.
func (v *Verification) Worse() []Figure {
	var out []Figure
	for _, f := range v.Figures {
		if f.Verdict == VerdictWorse {
			out = append(out, f)
		}
	}
	return out
}

// Summary is the verification's verdict in words: "kept", "rolled back: worse beyond
// noise", "undecided, rolled back", "not measured, kept (--keep-unmeasured)".
func (v *Verification) Summary() string {
	did := strings.ReplaceAll(v.Decision, "-", " ")
	if v.Decision == "rollback-failed" {
		did = "ROLLBACK FAILED"
	}
	switch v.Outcome {
	case "":
		return did // an entry of a headroom before outcomes
	case OutcomeKept:
		if v.Decision == "kept" {
			return "kept"
		}
		return "kept by the figures, " + did
	case OutcomeWorse:
		return did + ": worse beyond noise"
	}
	what := strings.ReplaceAll(v.Outcome, "-", " ")
	if v.Decision == "kept" && v.KeptBy != "" {
		return what + ", kept (" + v.KeptBy + ")"
	}
	return what + ", " + did
}

func writeVerification(b *strings.Builder, v *Verification, indent string) {
	if v == nil {
		return
	}
	after := ""
	if v.After != "" && v.After != v.Window {
		after = fmt.Sprintf(", the after window extended to %s", v.After)
	}
	fmt.Fprintf(b, "%swindows of %s (every %s) before and after%s: %s\n", indent, v.Window, v.Interval, after, v.Summary())
	for _, f := range v.Figures {
		fmt.Fprintf(b, "%s  %-9s %s\n", indent, f.Verdict, f.Describe())
	}
	for _, u := range v.Unmeasured {
		fmt.Fprintf(b, "%s  not measured: %s\n", indent, u)
	}
	if v.Error != "" {
		fmt.Fprintf(b, "%s  error: %s\n", indent, v.Error)
	}
}

// WriteVerification prints the comparison for people.
func WriteVerification(b *strings.Builder, v *Verification) { writeVerification(b, v, "") }

// rates is a guard's figure in each interval of the windows (with Per, its ratio; an
// interval in which Per did not move has none). An interval that lacks one of the guard's
// rates (unread, or a counter reset in it) has no figure.
func rates(g Guard, ws ...Window) []float64 {
	var out []float64
	for _, w := range ws {
		for _, r := range w.Intervals {
			num, ok := sum(g.Rates, r)
			if !ok {
				continue
			}
			if len(g.Per) > 0 {
				if den, ok := sum(g.Per, r); ok && den > 0 {
					out = append(out, num/den)
				}
				continue
			}
			out = append(out, num)
		}
	}
	return out
}

// sum is the sum of the keys in one interval; false when one is missing.
func sum(keys []string, r model.Rates) (float64, bool) {
	var v float64
	for _, k := range keys {
		x, ok := r[k]
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

// Window is one measured window: the Timeline the host was read into (for the judge; nil
// from a test's recorder), the guards' figures of each of its intervals (Intervals), and the
// judge's verdict on it.
type Window struct {
	Timeline  *model.Timeline
	Intervals []model.Rates
	// Critical lists the ids of the critical findings the judge found in the window; Judged
	// says the judge ran, JudgeErr why it could not.
	Critical []string
	Judged   bool
	JudgeErr error
}

// Recorder reads the host for one window of the given length, sampled every interval.
// HostRecorder.Record reads it through source, as doctor does; tests inject one.
type Recorder func(ctx context.Context, window, interval time.Duration) (Window, error)

// Judge returns the ids of the critical findings the rules make of a recorded window:
// Critical, or a test's.
type Judge func(tl *model.Timeline) (criticalIDs []string, err error)

// Critical is --verify's judge: the rules run on the window by judge.Runner, the runner
// watch and serve judge their windows with, and the ids of the critical findings, sorted.
func Critical(tl *model.Timeline) ([]string, error) {
	var r judge.Runner
	return r.JudgeWindow(tl).Critical(), nil
}

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

// Compare judges each guard on the baseline and the after window (one, or the after window
// and its extensions).
func Compare(guards []Guard, judges map[string][]string, before Window, after ...Window) []Figure {
	var out []Figure
	for _, g := range guards {
		out = append(out, compareRates(g, judges[g.ID], rates(g, before), rates(g, after...)))
	}
	return out
}

// compareRates judges one guard from the per-interval rates of the two windows.
//
// The margin is the largest of the guard's floor, NoiseRelative of the baseline, and the
// standard error of the difference of the means (Welch: each window's variance over its
// count) times noiseSigmas of the Welch–Satterthwaite degrees of freedom, so a window of few
// intervals, whose spread is itself a guess, gets the wider margin Student's t gives it.
// Beyond the margin the figure is worse or better. Inside it, a difference of at least the
// floor and LargeChange of the baseline is undecided: too large to call the same, too
// noisy to call either way; so is a loss of LargeChange of a delivery baseline above the
// floor (lostDelivery). Both windows below the floor are idle.
func compareRates(g Guard, judged []string, rb, ra []float64) Figure {
	f := Figure{Guard: g.ID, What: g.What, For: judged, Unit: g.Unit, Scale: g.Scale, Floor: g.Floor}
	if len(rb) == 0 || len(ra) == 0 {
		f.Verdict, f.Needs = VerdictUnknown, g.Needs
		return f
	}
	mb, vb := meanVar(rb)
	ma, va := meanVar(ra)
	f.Before, f.After = mb, ma
	f.IntervalsBefore, f.IntervalsAfter = len(rb), len(ra)
	eb, ea := vb/float64(len(rb)), va/float64(len(ra))
	se := math.Sqrt(eb + ea)
	f.Margin = math.Max(g.Floor, math.Max(NoiseRelative*math.Abs(mb), noiseSigmas(welchDF(eb, ea, len(rb), len(ra)))*se))
	if math.Max(math.Abs(mb), math.Abs(ma)) < g.Floor {
		f.Verdict = VerdictIdle
		return f
	}
	d := ma - mb
	if g.LowerIsWorse {
		d = -d
	}
	f.Loss = d > 0
	switch {
	case d > f.Margin:
		f.Verdict = VerdictWorse
	case d < -f.Margin:
		f.Verdict = VerdictBetter
	case math.Abs(d) >= LargeChange*math.Abs(mb) && (math.Abs(d) >= g.Floor || lostDelivery(g, f.Loss, mb)):
		f.Verdict = VerdictUndecided
	default:
		f.Verdict = VerdictSame
	}
	return f
}

// lostDelivery: a guard of delivered bytes (lower is worse) whose baseline is above its
// floor lost at least LargeChange of it, though the difference is smaller than the floor.
// The floor says what difference this guard can tell from nothing; a baseline just above
// it that falls by a quarter or more is a loss all the same (a loaded lab: 0.247 → 0.128
// MB/s, -48 %, with a floor of 0.131 was called "same" and the harmful tcp_rmem kept), and
// a loss of LargeChange is never kept (issue 27). Counts of trouble (drops, retransmits)
// keep the floor: a rise under it is noise.
func lostDelivery(g Guard, loss bool, before float64) bool {
	return loss && g.LowerIsWorse && math.Abs(before) >= g.Floor
}

// welchDF is the Welch–Satterthwaite degrees of freedom of a difference of two means whose
// squared standard errors are eb and ea, from nb and na values; +Inf when neither varies.
func welchDF(eb, ea float64, nb, na int) float64 {
	den := 0.0
	if nb > 1 {
		den += eb * eb / float64(nb-1)
	}
	if na > 1 {
		den += ea * ea / float64(na-1)
	}
	if den == 0 {
		return math.Inf(1)
	}
	return (eb + ea) * (eb + ea) / den
}

// tCritical995 is Student's t at 0.995 (two-sided 99 %) for 1 to 13 degrees of freedom;
// from 14 on it is under NoiseSigmas (2.977 at 14, 2.576 in the limit).
var tCritical995 = [...]float64{63.657, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.250, 3.169, 3.106, 3.055, 3.012}

// noiseSigmas is how many standard errors of the difference the margin holds: NoiseSigmas,
// or Student's t for the degrees of freedom when that is larger (few intervals). A
// fractional df is rounded down, which widens the margin.
func noiseSigmas(df float64) float64 {
	if i := int(math.Floor(df)); i >= 1 && i <= len(tCritical995) {
		return math.Max(NoiseSigmas, tCritical995[i-1])
	}
	if df < 1 {
		return tCritical995[0]
	}
	return NoiseSigmas
}

// Policy is what the user lets --verify keep besides a measured improvement or no change.
type Policy struct {
	// KeepUndecided keeps an entry whose figures are undecided (a large gain inside the
	// noise margin); a loss of LargeChange or more is rolled back even so.
	KeepUndecided bool
	// KeepUnmeasured keeps an entry with a change none of whose guards measured anything.
	KeepUnmeasured bool
}

// decide sets the outcome of a comparison and whether the entry is rolled back: worse
// beyond noise or a new critical finding, a loss of LargeChange or more (undecided or
// not), an undecided figure without KeepUndecided, or an unmeasured change without
// KeepUnmeasured. applied are the changes the entry applied.
//
// An undecided gain is settled when every change it judges has another figure that
// improved beyond noise and none that got worse or lost undecidedly: a noisy per-flow
// figure (a handful of intervals) beside the host's delivery measured clearly up does not
// hold the change back.
func (p Policy) decide(ver *Verification, applied []model.Change) (rollback bool) {
	ver.Tripped, ver.Improved, ver.Undecided, ver.Unmeasured, ver.KeptBy = nil, nil, nil, nil, ""
	measured, better, bad := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, f := range ver.Figures {
		for _, k := range f.For {
			measured[k] = measured[k] || f.Measured()
			better[k] = better[k] || f.Verdict == VerdictBetter
			bad[k] = bad[k] || f.Verdict == VerdictWorse || (f.Verdict == VerdictUndecided && f.Loss)
		}
	}
	settled := func(f Figure) bool {
		for _, k := range f.For {
			if !better[k] || bad[k] {
				return false
			}
		}
		return len(f.For) > 0
	}
	lossUndecided := false
	for _, f := range ver.Figures {
		switch f.Verdict {
		case VerdictWorse:
			ver.Tripped = append(ver.Tripped, f.Describe())
		case VerdictBetter:
			ver.Improved = append(ver.Improved, f.Describe())
		case VerdictUndecided:
			d := f.Describe()
			switch {
			case f.Loss && f.Before == 0:
				lossUndecided = true
				d += ": worse than none before, which is never kept"
			case f.Loss:
				lossUndecided = true
				d += fmt.Sprintf(": a loss of %.0f %% is never kept", math.Abs(f.change())*100)
			case settled(f):
				continue
			}
			ver.Undecided = append(ver.Undecided, d)
		}
	}
	for _, c := range applied {
		if measured[c.Key] {
			continue
		}
		var why []string
		for _, f := range ver.Figures {
			if f.Guard != guardCritical && slices.Contains(f.For, c.Key) {
				why = append(why, f.Guard+" "+f.Verdict)
			}
		}
		if len(why) == 0 {
			why = append(why, "it has no guard")
		}
		ver.Unmeasured = append(ver.Unmeasured, fmt.Sprintf("%s: no guard measured it (%s)", ChangeName(c.Kind, c.Key), strings.Join(why, ", ")))
	}
	switch {
	case len(ver.Tripped) > 0:
		ver.Outcome = OutcomeWorse
		return true
	case len(ver.Undecided) > 0:
		ver.Outcome = OutcomeUndecided
		if lossUndecided || !p.KeepUndecided || (len(ver.Unmeasured) > 0 && !p.KeepUnmeasured) {
			return true
		}
		ver.KeptBy = "--keep-undecided"
		if len(ver.Unmeasured) > 0 {
			ver.KeptBy += " --keep-unmeasured"
		}
		return false
	case len(ver.Unmeasured) > 0:
		ver.Outcome = OutcomeNotMeasured
		if !p.KeepUnmeasured {
			return true
		}
		ver.KeptBy = "--keep-unmeasured"
		return false
	}
	ver.Outcome = OutcomeKept
	return false
}

// ChangeName is a change as the output names it: the sysctl key, or "ethtool eth0 rx".
func ChangeName(kind, key string) string {
	if kind == model.ChangeSysctl {
		return key
	}
	return kind + " " + key
}

// Verifier measures the windows.
type Verifier struct {
	Window   time.Duration
	Interval time.Duration
	// MaxAfter bounds the after window when a figure is undecided: it is extended by
	// Window at a time while one is, up to MaxAfter in all (0: DefaultExtend × Window).
	MaxAfter time.Duration
	// Policy says what to keep besides a measured improvement or no change.
	Policy Policy
	// Record reads each window: the one reader of the host for the guards and the judge.
	Record Recorder
	// Judge, when set, judges each window by the rules' critical findings (see Judge), read
	// from the same recording as the guards.
	Judge Judge
}

// DefaultExtend is the default bound of the after window, in baseline windows: an
// undecided figure gets up to twice as many after intervals again, which shrinks the
// after window's share of the standard error by √3.
const DefaultExtend = 3

func (v *Verifier) maxAfter() time.Duration {
	if v.MaxAfter > 0 {
		return v.MaxAfter
	}
	return DefaultExtend * v.Window
}

// Measure records Window, sampled every Interval: Window/Interval intervals.
func (v *Verifier) Measure(ctx context.Context) (Window, error) {
	return v.measure(ctx, v.Window)
}

func (v *Verifier) measure(ctx context.Context, window time.Duration) (Window, error) {
	if v.Interval <= 0 || window < 2*v.Interval {
		return Window{}, fmt.Errorf("--verify %s: the window must hold at least two intervals of %s (the noise margin needs more than one rate)", window, v.Interval)
	}
	w, err := v.Record(ctx, window, v.Interval)
	if err != nil {
		return Window{}, fmt.Errorf("reading the host: %w", err)
	}
	if v.Judge != nil {
		w.Judged = true
		if w.Timeline == nil {
			w.JudgeErr = errors.New("the window was not recorded for the rules")
		} else {
			w.Critical, w.JudgeErr = v.Judge(w.Timeline)
		}
	}
	return w, nil
}

// ApplyVerified applies with a baseline and an after window around the apply, extends the
// after window while a figure is undecided (up to MaxAfter), and rolls the entry back
// through rb as Policy.decide says: worse beyond noise, a large loss, undecided or not
// measured (unless the policy keeps those). The comparison is saved in the entry. rb must
// use a.Journal.
func (v *Verifier) ApplyVerified(ctx context.Context, a *Applier, rb *Rollbacker, changes []model.Change) (*Entry, []Item, *Verification, error) {
	var applied []model.Change
	for _, it := range a.Preview(ctx, changes) {
		if it.Action == ActionApply {
			applied = append(applied, it.Change)
		}
	}
	guards, judges := GuardsFor(applied)
	if len(applied) == 0 {
		e, items, err := a.Apply(ctx, changes)
		return e, items, nil, err
	}
	if len(guards) == 0 && v.Judge == nil {
		// Nothing could measure these changes: no window would tell anything.
		return v.finish(ctx, a, rb, applied, changes, nil, nil)
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
	return v.finish(ctx, a, rb, applied, changes, guards, judges, before)
}

// finish applies, measures the after window (and its extensions), decides and saves the
// verification in the entry; without a baseline (no guard, no judge) it decides at once.
func (v *Verifier) finish(ctx context.Context, a *Applier, rb *Rollbacker, applied, changes []model.Change, guards []Guard, judges map[string][]string, baseline ...Window) (*Entry, []Item, *Verification, error) {
	a.VerifyWindow = v.Window.String()
	e, items, err := a.Apply(ctx, changes)
	a.VerifyWindow = ""
	if err != nil || e == nil || e.State != StateApplied {
		return e, items, nil, err
	}
	ver := &Verification{Window: v.Window.String(), Interval: v.Interval.String()}
	if len(baseline) == 0 {
		rollback := v.Policy.decide(ver, applied)
		return v.conclude(ctx, a, rb, e, items, ver, rollback)
	}
	before := baseline[0]
	rollback := true
	var afters []Window
	after, merr := v.Measure(ctx)
	total := v.Window
	for merr == nil {
		afters = append(afters, after)
		ver.Figures = Compare(guards, judges, before, afters...)
		if merged := mergeJudged(afters); before.Judged && merged.Judged {
			ver.Figures = append(ver.Figures, judgeFigure(applied, before, merged))
		}
		rollback = v.Policy.decide(ver, applied)
		next := min(v.Window, v.maxAfter()-total)
		if len(ver.Undecided) == 0 || len(ver.Tripped) > 0 || next < 2*v.Interval {
			break
		}
		a.log().Info(fmt.Sprintf("undecided: extending the after window by %s", next), "undecided", len(ver.Undecided))
		if after, merr = v.measure(ctx, next); merr == nil {
			total += next
		}
	}
	ver.After = total.String()
	if merr != nil && len(afters) == 0 {
		// Without the after window there is no evidence the change helps: undo it.
		ver.Error = "after window: " + merr.Error()
		ver.Outcome = OutcomeNotMeasured
		ver.Unmeasured = []string{"the after window could not be measured: " + merr.Error()}
		rollback = true
	} else if merr != nil {
		// An extension failed: decide on what was measured, and say so.
		ver.Error = "extending the after window: " + merr.Error()
	}
	return v.conclude(ctx, a, rb, e, items, ver, rollback)
}

// conclude rolls the entry back when asked and saves the verification in it.
func (v *Verifier) conclude(ctx context.Context, a *Applier, rb *Rollbacker, e *Entry, items []Item, ver *Verification, rollback bool) (*Entry, []Item, *Verification, error) {
	ver.Decision = "kept"
	var rerr error
	if rollback {
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

// mergeJudged is the judge's view of the after window and its extensions: every critical
// finding any of them found; an error in any leaves the figure unknown.
func mergeJudged(ws []Window) Window {
	var m Window
	m.Judged = true
	for _, w := range ws {
		if w.JudgeErr != nil && m.JudgeErr == nil {
			m.JudgeErr = w.JudgeErr
		}
		for _, id := range w.Critical {
			if !slices.Contains(m.Critical, id) {
				m.Critical = append(m.Critical, id)
			}
		}
		m.Judged = m.Judged && w.Judged
	}
	return m
}
