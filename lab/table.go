package lab

import (
	"bufio"
	"fmt"
	"headroom/units"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
)

// WriteTable renders a report as text: one block per case, one row per settings set, then
// the changes that were not applied and why.
func WriteTable(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	var lastCase string
	var tw *tabwriter.Writer
	flush := func() {
		if tw != nil {
			tw.Flush()
		}
	}
	for _, r := range rep.Runs {
		p := r.Params
		streams := "streams"
		if p.Streams == 1 {
			streams = "stream"
		}
		key := fmt.Sprintf("%s: %s, RTT %gms, %d %s", rep.Scenario, FormatRate(uint64(p.RateMbps*1e6)), p.RTTMs, p.Streams, streams)
		if key != lastCase {
			flush()
			if lastCase != "" {
				fmt.Fprintln(bw)
			}
			lastCase = key
			fmt.Fprintf(bw, "%s\n", key)
			fmt.Fprintf(bw, "  link %s/%s, measured RTT %.1f ms, warm-up %gs excluded, measured %gs\n", p.Link, p.Shaper, p.MeasuredRTTMs, p.WarmupS, p.MeasureS)
			fmt.Fprintf(bw, "  memory budget %d pages (%s of %s)\n", r.BudgetPages, p.BudgetBasis, units.FormatBytes(p.MemoryBytes))
			tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  settings\tMbit/s\tretransmits\t(of segments)\tpeak TCP mem pages\t(run's sockets)\tbudget\ttcp_rmem\ttcp_wmem\tcc")
		}
		held := "held"
		if !r.BudgetOK {
			held = "EXCEEDED"
		}
		share := "-" // no segments counted: a report from before data_segments_out
		if r.DataSegmentsOut > 0 {
			share = fmt.Sprintf("%.2f%%", 100*float64(r.Retransmits)/float64(r.DataSegmentsOut))
		}
		fmt.Fprintf(tw, "  %s\t%.1f\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", r.Settings, r.ThroughputMbps, r.Retransmits, share, r.PeakTCPMemPages, r.PeakSocketMemPages, held, p.TCPRmem, p.TCPWmem, p.CongestionControl)
	}
	flush()
	var skipped []string
	seen := map[string]bool{}
	for _, r := range rep.Runs {
		for _, s := range r.Skipped {
			k := fmt.Sprintf("%s: %s = %s: %s", r.Settings, s.Key, s.Value, s.Why)
			if !seen[k] {
				seen[k] = true
				skipped = append(skipped, k)
			}
		}
	}
	if len(skipped) > 0 {
		fmt.Fprintln(bw, "\nnot applied:")
		for _, s := range skipped {
			fmt.Fprintf(bw, "  %s\n", s)
		}
	}
	return bw.Flush()
}

// WriteFailureTable renders a failure scenario's report as text: per run the metric before
// and after with its margin, what doctor reported live, the kernel's own counters, the fix,
// and for flood-recovery the phases.
func WriteFailureTable(w io.Writer, sc *Scenario, rep *FailureReport) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%s: %s\n", rep.Scenario, sc.Summary)
	if sc.Failure != nil && sc.Failure.Fix != "" {
		fmt.Fprintf(bw, "fix: %s\n", sc.Failure.Fix)
	}
	for _, r := range rep.Runs {
		m := r.Metric
		fmt.Fprintf(bw, "\n%s\n", r.Settings)
		verdict := "met"
		if !m.OK {
			verdict = "NOT met"
		}
		bound := ""
		if m.BeforeIsBound {
			bound = "≥ "
		}
		fmt.Fprintf(bw, "  %s (%s, %s is better): before %s%s, after %s; margin %s: %s\n", m.Name, m.Unit, m.Better, bound, num(m.Before), num(m.After), m.Margin, verdict)
		diag := "no expectation"
		if len(r.Expected) > 0 {
			diag = "expected one of " + strings.Join(r.Expected, ", ") + ": "
			if r.Diagnosed {
				diag += "found"
			} else {
				diag += "NOT found"
			}
		}
		fmt.Fprintf(bw, "  doctor, live during the failure: %s (%s)\n", orNone(r.Findings), diag)
		for _, d := range r.Doctor {
			for _, f := range d.Expected {
				fmt.Fprintf(bw, "    %s [%s] %s (%s)\n", f.ID, f.Severity, f.Title, d.Scope)
				for _, e := range f.Evidence {
					fmt.Fprintf(bw, "      %s: %s (%s)\n", e.What, e.Value, e.Source)
				}
			}
		}
		if rec := r.Recovery; rec != nil {
			tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  phase\trequests\tfailed\tconnections/s\tsystem CPU %\tTCP in use\tTIME_WAIT\tslab kB\tproxy fds")
			for _, p := range rec.Phases {
				fmt.Fprintf(tw, "  %s\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\t%s\n", p.Name, p.Requests, p.Failed, p.PerSec,
					gauge(p.Host, RecSystemCPUPct), gauge(p.Host, RecTCPInUse), gauge(p.Host, RecTimeWait), gauge(p.Host, RecSlabKB), gauge(p.Host, RecOpenFDs))
			}
			tw.Flush()
			fmt.Fprintf(bw, "  %s: recovery ratio %.3f (threshold %.2f)\n", rec.Verdict, rec.RecoveryRatio, rec.RecoveredRatio)
			for _, d := range rec.NotReturned {
				fmt.Fprintf(bw, "  did not return to baseline: %s %s → %s (tolerance %s) %s\n", d.Name, num(d.Baseline), num(d.Final), num(d.Tolerance), d.Why)
			}
		}
		if len(r.Observed) > 0 {
			fmt.Fprintln(bw, "  observed:")
			tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			for _, o := range r.Observed {
				fmt.Fprintf(tw, "    %s\t%s\t%s %s\t%s\n", o.Phase, o.What, num(o.Value), o.Unit, o.Source)
			}
			tw.Flush()
		}
		for _, a := range r.Applied {
			fmt.Fprintf(bw, "  applied: %s = %s (%s, %s)\n", a.Key, a.Value, a.Host, a.Scope)
		}
		for _, n := range r.Notes {
			fmt.Fprintf(bw, "  note: %s\n", n)
		}
	}
	return bw.Flush()
}

func orNone(ids []string) string {
	if len(ids) == 0 {
		return "no findings"
	}
	return strings.Join(ids, ", ")
}

func gauge(m map[string]float64, k string) string {
	if v, ok := m[k]; ok {
		return num(v)
	}
	return "-"
}

// num prints a number without an exponent.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
