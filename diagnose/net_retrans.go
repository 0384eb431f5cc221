package diagnose

import (
	"fmt"
	"time"

	"headroom/model"
	"headroom/plan"
)

// retransmit-rate: TCP resent a large share of what it sent (Tcp RetransSegs against
// OutSegs, /proc/net/snmp). Every retransmission is a segment lost somewhere: on the path
// (congestion, a policer, a bad link), at the receiver (ring overruns, backlog or socket
// buffer drops: nic-rx-overruns, softnet-backlog-drops, rcvq-pruning on the peer), or
// spuriously (reordering, too short an RTO). Loss-based congestion control halves its window
// on each loss event, so throughput falls with the square root of the loss rate: a long path
// suffers first (Mathis et al. 1997: rate ≈ MSS/RTT × 1.22/√p).
func init() {
	Register(Rule{
		ID:     "retransmit-rate",
		Title:  "TCP retransmits a large share of the segments it sends",
		Family: FamilyNetwork,
		Check:  checkRetransmitRate,
	})
}

// Thresholds: retransWarnShare = 1% (at 125 ms RTT one Reno/CUBIC stream is then limited to
// about 1.1 Mbit/s by the Mathis formula); retransCritShare = 5%. A share needs enough
// segments to mean anything: retransMinSegs sent in the window (an idle host sends a few
// keepalives and ACKs, and one lost ACK would be 10%), or retransMinSegsBoot for a since-boot
// total. PCP's pmie rule network.tcp_retransmit likewise judges the ratio only above 100
// segments sent per second.
const (
	retransWarnShare   = 0.01
	retransCritShare   = 0.05
	retransMinSegs     = 1000
	retransMinSegsBoot = 10000
)

func checkRetransmitRate(tl *model.Timeline) Result {
	get := func(name string) growth {
		return netGrowth(tl, "/proc/net/snmp", "Tcp", name)
	}
	re, out := get("RetransSegs"), get("OutSegs")
	if !re.hasLast || !out.hasLast {
		iperf := retransIperf(tl)
		if len(iperf.Findings) > 0 {
			return iperf
		}
		if st := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedRetransPct] > 0 }); st != nil {
			return retransStated(st)
		}
		if iperf.Checked != "" {
			return iperf
		}
		if st := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedRetransSeen] > 0 }); st != nil {
			// Words without a share: a capture's retransmissions can be a path's, a
			// peer's or a NIC's, and "many" sizes nothing (statedretransmany.go).
			return NotChecked("retransmissions stated by the author without a share (%s); no Tcp RetransSegs/OutSegs to measure it: needs /proc/net/snmp, netstat -s or nstat", sampleSource(st, "the text"))
		}
		return NotChecked("no Tcp RetransSegs/OutSegs: needs /proc/net/snmp, netstat -s or nstat")
	}
	bootShare := 0.0
	if out.last > 0 {
		bootShare = float64(re.last) / float64(out.last)
	}
	var ev []Evidence
	sev := Severity(-1)
	title := ""
	if re.hasDelta && out.hasDelta {
		if out.delta < retransMinSegs {
			return Healthy("only %d segments sent %s (fewer than %d to judge a share); %s %d of %d retransmitted (%s)", out.delta, window(tl), retransMinSegs, out.since(), re.last, out.last, netPct(bootShare))
		}
		share := float64(re.delta) / float64(out.delta)
		ev = append(ev, Evidence{What: "Tcp RetransSegs / OutSegs while sampled", Value: fmt.Sprintf("%d / %d = %s %s", re.delta, out.delta, netPct(share), window(tl)), Source: out.source})
		switch {
		case share >= retransCritShare:
			sev = Critical
		case share >= retransWarnShare:
			sev = Warning
		}
		title = fmt.Sprintf("TCP retransmitted %s of the segments it sent while sampled", netPct(share))
		if sev < 0 {
			return Healthy("%s of segments retransmitted %s (%d of %d)", netPct(share), window(tl), re.delta, out.delta)
		}
	} else {
		if out.last < retransMinSegsBoot {
			return Healthy("only %d segments sent %s (fewer than %d to judge a share)", out.last, out.since(), retransMinSegsBoot)
		}
		ev = append(ev, Evidence{What: "Tcp RetransSegs / OutSegs " + out.since(), Value: fmt.Sprintf("%d / %d = %s (an average %s)", re.last, out.last, netPct(bootShare), out.over()), Source: out.source})
		if bootShare >= retransWarnShare {
			sev = Warning // a since-boot average says it happens, not that it happens now
		}
		title = fmt.Sprintf("TCP has retransmitted %s of the segments it sent %s", netPct(bootShare), out.since())
		if sev < 0 {
			return Healthy("%s of segments retransmitted %s (%d of %d)", netPct(bootShare), out.since(), re.last, out.last)
		}
	}
	for _, n := range []struct{ name, meaning string }{
		{"TCPTimeouts", "retransmission timeouts (the expensive kind: the window collapses to 1)"},
		{"TCPLostRetransmit", "retransmissions that were lost again"},
		{"TCPSpuriousRTOs", "timeouts that turned out unnecessary (F-RTO)"},
	} {
		g := netGrowth(tl, "/proc/net/netstat", "TcpExt", n.name)
		if g.rising() || (!g.hasDelta && g.last > 0) {
			ev = append(ev, Evidence{What: "TcpExt " + n.name + " (" + n.meaning + ")", Value: g.describe(), Source: g.source})
		}
	}
	f := Finding{
		Severity: sev,
		Title:    title,
		Evidence: ev,
		Explanation: "Each retransmitted segment was lost (or presumed lost) once. Loss-based congestion control " +
			"(Reno, CUBIC) cuts its window on every loss event, so a 1% loss rate limits one stream on a " +
			"125 ms path to about 1 Mbit/s however large the buffers are. Find where the loss is: this host's " +
			"receive side (nic-rx-overruns, softnet-backlog-drops, rcvq-pruning), the peer's (the same " +
			"counters there), or the path (ethtool -S on switch ports, a policer, duplex or CRC errors). " +
			"Retransmissions that are mostly timeouts (TCPTimeouts) cost most: each collapses the window. " +
			"BBR (4.9+) does not treat random loss as congestion and keeps long paths full where CUBIC stalls.",
	}
	if re.hasDelta && out.hasDelta {
		f.Facts.Counted = re.delta
	} else {
		f.Facts.Counted, f.Facts.CountedSinceBoot = re.last, true
	}
	f.Changes = retransChanges(tl)
	return Fired(f)
}

// retransStated judges a share the author states ("a lot of (30%) TCP retransmission in
// tcpdump") when no counter is read: by the same thresholds, and the registry keeps it below
// critical (weighStated): the figure is the author's, over a window the text does not give.
func retransStated(st *model.Sample) Result {
	pct := st.Rates[model.RateStatedRetransPct]
	share := pct / 100
	if share < retransWarnShare {
		return Healthy("%s of segments retransmitted, as the author states it", netPct(share))
	}
	sev := Warning
	if share >= retransCritShare {
		sev = Critical
	}
	return Fired(Finding{Severity: sev, Title: fmt.Sprintf("TCP retransmits %s of the segments it sends", netPct(share)),
		Evidence: []Evidence{{What: "retransmitted share", Value: fmt.Sprintf("%s, stated by the author; no Tcp RetransSegs/OutSegs in the input (netstat -s twice, or nstat, would measure it)", netPct(share)), Source: sampleSource(st, "the text")}},
		Explanation: "Each retransmitted segment was lost (or presumed lost) once, and loss-based congestion control cuts its " +
			"window on every loss event. Find where the loss is: this host's receive side (nic-rx-overruns, " +
			"softnet-backlog-drops, rcvq-pruning, drops a tool such as dropwatch places in the stack), the peer's, or the path."})
}

// retransIperf judges the test flows of iperf3 runs when no counter is read: the run with the
// largest share among those that sent at least retransMinSegs segments, by the counters'
// thresholds. A test flow's retransmissions are measured (TCP_INFO on its sender), so it can
// be critical; several runs are usually a before and an after, and the worst is the problem
// the text is about. Not checked when no run has a Retr column or enough segments.
func retransIperf(tl *model.Timeline) Result {
	var worst *model.Sample
	share, runs := 0.0, 0
	for i := range tl.Samples {
		s := &tl.Samples[i]
		segs, ok := s.Rates[model.RateIperfSegsSent]
		if !ok || segs < retransMinSegs {
			continue
		}
		runs++
		if sh := s.Rates[model.RateIperfRetransSegs] / segs; worst == nil || sh > share {
			worst, share = s, sh
		}
	}
	if worst == nil {
		return NotChecked("no iperf3 run with a Retr column and %d segments sent", retransMinSegs)
	}
	of := ""
	if runs > 1 {
		of = fmt.Sprintf(", the worst of %d iperf3 runs", runs)
	}
	retr, segs := worst.Rates[model.RateIperfRetransSegs], worst.Rates[model.RateIperfSegsSent]
	if share < retransWarnShare {
		return Healthy("%s of an iperf3 test flow's segments retransmitted (%.0f of about %.0f%s)", netPct(share), retr, segs, of)
	}
	sev := Warning
	if share >= retransCritShare {
		sev = Critical
	}
	f := Finding{Severity: sev, Title: fmt.Sprintf("an iperf3 test flow retransmitted %s of the segments it sent", netPct(share)),
		Evidence: []Evidence{{What: fmt.Sprintf("iperf3 Retr / segments sent (bytes / %.0f-byte MSS)", worst.Rates[model.RateIperfMSS]), Value: fmt.Sprintf("%.0f / %.0f = %s%s", retr, segs, netPct(share), of), Source: worst.Source}},
		Explanation: "iperf3's Retr column is the sender's count of retransmitted segments (TCP_INFO), for the test's own flow. " +
			"Each was lost (or presumed lost) once, and loss-based congestion control cuts its window on every loss event, " +
			"so the throughput the test shows is bounded by the loss. Find where the loss is: the receiver (nic-rx-overruns, " +
			"softnet-backlog-drops, rcvq-pruning there), the sender's queue and NIC, or the path (a policer, a tunnel, a bad link); " +
			"the host's own Tcp RetransSegs/OutSegs (netstat -s twice, or nstat) would show whether its other traffic loses as much."}
	f.Facts.Counted = int64(retr)
	return Fired(f)
}

// retransChanges proposes plan's congestion control when the link and RTT are known and it
// differs from the host's.
func retransChanges(tl *model.Timeline) []model.Change {
	bw, _ := netLinkBitsPerSec(tl)
	rtt, ok := netMedianRTT(tl)
	if bw <= 0 || !ok || rtt < time.Millisecond {
		return nil
	}
	in, ok := netPlanInput(tl, bw, rtt, 1)
	if !ok {
		return nil
	}
	p, err := plan.Compute(in)
	if err != nil {
		return nil
	}
	cur, _, _ := tl.Sysctl("net.ipv4.tcp_congestion_control")
	for _, c := range p.Settings {
		if c.Key == "net.ipv4.tcp_congestion_control" && c.Recommended != cur {
			c.Rule = ""
			return []model.Change{c}
		}
	}
	return nil
}
