package lab

import (
	"bufio"
	"fmt"
	"io"
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
			fmt.Fprintf(bw, "  memory budget %d pages (%s of %s)\n", r.BudgetPages, p.BudgetBasis, formatBytes(p.MemoryBytes))
			tw = tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
			fmt.Fprintln(tw, "  settings\tMbit/s\tretransmits\tpeak TCP mem pages\t(run's sockets)\tbudget\ttcp_rmem\ttcp_wmem\tcc")
		}
		held := "held"
		if !r.BudgetOK {
			held = "EXCEEDED"
		}
		fmt.Fprintf(tw, "  %s\t%.1f\t%d\t%d\t%d\t%s\t%s\t%s\t%s\n", r.Settings, r.ThroughputMbps, r.Retransmits, r.PeakTCPMemPages, r.PeakSocketMemPages, held, p.TCPRmem, p.TCPWmem, p.CongestionControl)
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

func formatBytes(b int64) string {
	switch {
	case b >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(b)/(1<<30))
	case b >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%d B", b)
}
