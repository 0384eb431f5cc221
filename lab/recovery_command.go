package lab

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"text/tabwriter"
)

// RecoverService is `headroom recovery`: the procedure of RunRecovery against cfg.Target,
// a TCP service the user owns, with this host's metrics (its own network namespace, where
// a local service's sockets are), the report written to w as text or JSON.
func RecoverService(ctx context.Context, cfg RecoveryConfig, format string, w io.Writer) (recovered bool, err error) {
	cfg.Dial = func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "tcp", cfg.Target)
	}
	smp := NewHostRecoverySampler()
	defer smp.Close()
	cfg.Sampler = smp
	rep, err := RunRecovery(ctx, cfg)
	if err != nil {
		return false, err
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		if err := enc.Encode(rep); err != nil {
			return false, err
		}
	} else {
		writeRecoveryText(w, rep)
	}
	return rep.Recovered, nil
}

func writeRecoveryText(w io.Writer, rep *RecoveryReport) {
	fmt.Fprintf(w, "recovery of %s\n", rep.Target)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  phase\trequests\tfailed\tconnections/s\tsystem CPU %\tslab kB\tTCP in use\tTIME_WAIT")
	g := func(m map[string]float64, k string) string {
		if v, ok := m[k]; ok {
			return fmt.Sprintf("%.0f", v)
		}
		return "-"
	}
	for _, p := range rep.Phases {
		fmt.Fprintf(tw, "  %s\t%d\t%d\t%.1f\t%s\t%s\t%s\t%s\n", p.Name, p.Requests, p.Failed, p.PerSec,
			g(p.Host, RecSystemCPUPct), g(p.Host, RecSlabKB), g(p.Host, RecTCPInUse), g(p.Host, RecTimeWait))
	}
	tw.Flush()
	fmt.Fprintf(w, "%s: worst re-measure / baseline = %.3f (threshold %.2f)\n", rep.Verdict, rep.RecoveryRatio, rep.RecoveredRatio)
	for _, d := range rep.NotReturned {
		fmt.Fprintf(w, "  did not return to baseline: %s %.1f → %.1f (tolerance %.1f)", d.Name, d.Baseline, d.Final, d.Tolerance)
		if d.Why != "" {
			fmt.Fprintf(w, ": %s", d.Why)
		}
		fmt.Fprintln(w)
	}
	if len(rep.Findings) > 0 {
		fmt.Fprintf(w, "doctor over the phases: %v (headroom explain ID)\n", rep.Findings)
	}
}
