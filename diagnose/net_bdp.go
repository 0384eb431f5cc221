package diagnose

import (
	"fmt"
	"net/netip"
	"sort"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// tcp-buffers-below-bdp (live): a flow spent much of its sending time limited by the peer's
// receive window (tcpi_rwnd_limited) or by its own send buffer (tcpi_sndbuf_limited): the
// "chronographs" of tcp_chrono_start() (net/ipv4/tcp_output.c, exported in struct tcp_info
// since 4.10), while the bytes it kept in flight (delivery rate × RTT, 4.9+ tcpi_delivery_rate)
// fill that buffer. Such a flow would go faster with a buffer sized to the path's
// bandwidth-delay product: a 1 MB buffer caps a 125 ms flow near 43 Mbit/s on 6.x kernels
// (plan.MeasuredScalingRatio). Only a live socket dump has these numbers.
func init() {
	Register(Rule{
		ID:     "tcp-buffers-below-bdp",
		Title:  "flows limited by the receive window or the send buffer below the bandwidth-delay product",
		Family: FamilyNetwork,
		Check:  checkBuffersBelowBDP,
	})
}

// Thresholds: a flow is judged after bdpMinBusy of sending; it is buffer-limited when the
// window or buffer limit covered at least bdpLimitedShare of that time and the bytes in flight
// (delivery rate × RTT) reach bdpFillShare of its send buffer (for sndbuf limits; the peer's
// window is not visible locally). On a link of known speed, flows already at
// bdpNearLineRate of it are left alone.
const (
	bdpMinBusy      = time.Second
	bdpLimitedShare = 0.2
	bdpFillShare    = 0.5
	bdpNearLineRate = 0.9
	// tcpInfoChronoLen is the size of struct tcp_info up to tcpi_sndbuf_limited.
	tcpInfoChronoLen = 192
)

type bdpFlow struct {
	s          kernel.Socket
	rttUsec    int64
	rateBps    float64 // bits per second
	inflight   int64   // bytes: delivery rate × RTT
	rwndShare  float64
	sndbufShr  float64
	limit      string
	bufBytes   int64
	bufVisible bool
}

func checkBuffersBelowBDP(tl *model.Timeline) Result {
	s := tl.LastWith(func(s *model.Sample) bool {
		for _, r := range s.SocketList {
			if r.Info != nil && (r.Info.Len >= tcpInfoChronoLen || r.Info.BusyUsec > 0) {
				return true
			}
		}
		return false
	})
	if s == nil {
		if r, ok := statedBDP(tl); ok {
			return r
		}
		if tl.Source.Kind == model.SourceText {
			return NotChecked("needs live sock_diag tcp_info (sender-limit chronographs, 4.10+); a pasted socket table does not carry them")
		}
		if d := tl.LastWith(func(s *model.Sample) bool { return s.Sockets != nil }); d != nil && d.Sockets.ByState["ESTABLISHED"].Count == 0 {
			return Healthy("no established TCP flows in the socket dump (%s)", sampleSource(d, "sock_diag dump"))
		}
		return NotChecked("needs live sock_diag tcp_info with the sender-limit chronographs (4.10+) for established flows; a pasted socket table does not carry them")
	}
	src := sampleSource(s, "sock_diag dump")
	link, linkSrc := netLinkBitsPerSec(tl)
	judged, local := 0, 0
	var flows []bdpFlow
	for _, r := range s.SocketList {
		in := r.Info
		if in == nil || in.BusyUsec < bdpMinBusy.Microseconds() || in.RTTUsec <= 0 || in.DeliveryRateBps <= 0 {
			continue
		}
		if localFlow(r.Local, r.Remote) {
			// Loopback and host-local flows cross no link: their RTT is scheduling delay and
			// their "BDP" says nothing about a path (iperf3 on lo reaches 15 Gbit/s with a
			// window-limited chronograph). local counts them for the healthy message.
			local++
			continue
		}
		judged++
		f := bdpFlow{s: r, rttUsec: in.RTTUsec, rateBps: 8 * float64(in.DeliveryRateBps)}
		f.inflight = int64(float64(in.DeliveryRateBps) * float64(in.RTTUsec) / 1e6)
		f.rwndShare = float64(in.RwndLimitedUsec) / float64(in.BusyUsec)
		f.sndbufShr = float64(in.SndbufLimitedUsec) / float64(in.BusyUsec)
		if link > 0 && f.rateBps >= bdpNearLineRate*link {
			continue
		}
		switch {
		case f.sndbufShr >= bdpLimitedShare && f.sndbufShr >= f.rwndShare:
			f.limit = "send buffer"
			if r.Mem != nil && r.Mem.Sndbuf > 0 {
				f.bufBytes, f.bufVisible = r.Mem.Sndbuf, true
				if float64(f.inflight) < bdpFillShare*float64(r.Mem.Sndbuf) {
					continue // the buffer is not what keeps the flow slow
				}
			}
		case f.rwndShare >= bdpLimitedShare:
			f.limit = "peer's receive window"
		default:
			continue
		}
		flows = append(flows, f)
	}
	if judged == 0 {
		if local > 0 {
			return Healthy("%d flows that sent for %v or more are loopback or host-local: no link, so no bandwidth-delay product to judge them by", local, bdpMinBusy)
		}
		return Healthy("no flow in the dump has sent for %v or more (nothing to judge)", bdpMinBusy)
	}
	if len(flows) == 0 {
		return Healthy("%d flows that sent for %v or more: none limited by a window or buffer below what it carries", judged, bdpMinBusy)
	}
	sort.SliceStable(flows, func(i, j int) bool { return flows[i].rateBps > flows[j].rateBps })
	var ev []Evidence
	var rtts []float64
	for i, f := range flows {
		rtts = append(rtts, float64(f.rttUsec))
		if i >= 8 {
			continue
		}
		v := fmt.Sprintf("%s at RTT %.1f ms = %s in flight; limited by the %s %s of its busy time (rwnd %s, sndbuf %s)",
			netBits(f.rateBps), float64(f.rttUsec)/1000, units.FormatBytes(f.inflight), f.limit, netPct(max(f.rwndShare, f.sndbufShr)), netPct(f.rwndShare), netPct(f.sndbufShr))
		if f.bufVisible {
			v += fmt.Sprintf("; sk_sndbuf %s", units.FormatBytes(f.bufBytes))
		}
		if f.s.Mem != nil && f.s.Mem.Rcvbuf > 0 {
			v += fmt.Sprintf(", sk_rcvbuf %s", units.FormatBytes(f.s.Mem.Rcvbuf))
		}
		ev = append(ev, Evidence{What: fmt.Sprintf("flow %s → %s (%s)", f.s.Local, f.s.Remote, f.s.State), Value: v, Source: src})
	}
	if len(flows) > 8 {
		ev = append(ev, Evidence{What: "more limited flows", Value: fmt.Sprint(len(flows) - 8), Source: src})
	}
	for _, k := range []string{"net.ipv4.tcp_wmem", "net.ipv4.tcp_rmem"} {
		if v, s, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: s})
		}
	}
	rtt := time.Duration(netMedian(rtts)) * time.Microsecond
	f := Finding{
		Severity: Warning,
		Title:    fmt.Sprintf("%d flows are held back by a window or buffer smaller than their bandwidth-delay product", len(flows)),
		Evidence: ev,
		Explanation: "TCP can keep at most one window of data in flight: the peer's advertised receive window, and " +
			"what the local send buffer holds (unacknowledged plus unsent, at skb truesize). When that is less " +
			"than the path's bandwidth × RTT, the flow idles each round trip waiting for ACKs, and the kernel's " +
			"chronographs count the time as rwnd- or sndbuf-limited. A send-buffer limit is fixed here " +
			"(tcp_wmem[2], or SO_SNDBUF up to net.core.wmem_max); a receive-window limit is fixed on the peer " +
			"(its tcp_rmem[2] or SO_RCVBUF). Size both from the bandwidth-delay product of each stream's share " +
			"of the link, and check the budget: streams × buffers must fit tcp_mem and memory " +
			"(tcp-buffers-exceed-budget).",
	}
	if link > 0 {
		if in, ok := netPlanInput(tl, link, rtt, len(flows)); ok {
			if p, err := plan.Compute(in); err == nil {
				for _, c := range p.Settings {
					if c.Key == "net.ipv4.tcp_wmem" || c.Key == "net.ipv4.tcp_rmem" {
						c.Rule = ""
						c.Why = fmt.Sprintf("plan for %d streams sharing %s (%s) at the limited flows' median RTT %v (the receive side applies on the peer): %s", len(flows), netBits(link), linkSrc, rtt.Round(100*time.Microsecond), c.Why)
						f.Changes = append(f.Changes, c)
					}
				}
				f.Evidence = append(f.Evidence, Evidence{What: "planned per-stream maxima", Value: fmt.Sprintf("send %s, receive %s (BDP per stream %s)", units.FormatBytes(p.SndBufBytes), units.FormatBytes(p.RcvBufBytes), units.FormatBytes(p.BDPBytesPerStream)), Source: "plan"})
			}
		}
	} else {
		f.Changes = append(f.Changes, model.Change{Kind: model.ChangeOther, Key: "net.ipv4.tcp_wmem, net.ipv4.tcp_rmem",
			Recommended: fmt.Sprintf("run `headroom plan --bandwidth B --rtt %v --streams %d`", planRTT(rtt), len(flows)),
			Why:         "the link speed is not known (virtual NIC or no speed reported): plan needs the bandwidth to size per-stream buffers"})
	}
	return Fired(f)
}

// localFlow reports whether a flow between two "addr:port" endpoints never leaves the host:
// a loopback address on either side, or the same address on both.
func localFlow(local, remote string) bool {
	l, errL := netip.ParseAddrPort(local)
	r, errR := netip.ParseAddrPort(remote)
	if errL != nil || errR != nil {
		return false
	}
	la, ra := l.Addr().Unmap(), r.Addr().Unmap()
	return la.IsLoopback() || ra.IsLoopback() || la == ra
}

// planRTT writes an RTT for a suggested `headroom plan --rtt`: rounded for reading, but never
// to 0s, which plan rejects (a 0.4 ms LAN RTT becomes 400µs, not 0s).
func planRTT(rtt time.Duration) time.Duration {
	for _, unit := range []time.Duration{time.Millisecond, 100 * time.Microsecond, time.Microsecond} {
		if r := rtt.Round(unit); r > 0 {
			return r
		}
	}
	return time.Microsecond
}

// statedBDP judges an application's socket buffer against the bandwidth-delay product of a
// path the text states (corpus 532: a 16 KiB send buffer, setSendBufferSize(16*1024), on a
// 100 Mbit/s leased line with 20 ms of latency: the product is 250 KB, and a flow can have
// at most one buffer in flight per round trip, 16 KiB / 20 ms = 819 KB/s). The value an
// application sets with SO_SNDBUF or SO_RCVBUF is fixed: the kernel doubles it for its
// bookkeeping (sock_setsockopt, net/core/sock.c) and autotuning no longer grows it
// (SOCK_SNDBUF_LOCK, SOCK_RCVBUF_LOCK), so tcp_wmem and tcp_rmem do not help that socket.
func statedBDP(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool {
		return s.Rates[model.RateStatedPathBps] > 0 && s.Rates[model.RateStatedRTTSec] > 0 &&
			(s.Rates[model.RateStatedAppSndBufBytes] > 0 || s.Rates[model.RateStatedAppRcvBufBytes] > 0)
	})
	if s == nil {
		return Result{}, false
	}
	bps, rtt := s.Rates[model.RateStatedPathBps], s.Rates[model.RateStatedRTTSec]
	bdp := bps / 8 * rtt
	src := sampleSource(s, "the text")
	ev := []Evidence{{What: "path and round trip (stated)", Value: fmt.Sprintf("%s, %.0f ms: bandwidth-delay product %s", units.FormatBitsPerSec(bps), rtt*1000, units.FormatBytes(int64(bdp))), Source: src}}
	worst, what := 0.0, ""
	for _, b := range []struct{ key, name string }{{model.RateStatedAppSndBufBytes, "send buffer (SO_SNDBUF)"}, {model.RateStatedAppRcvBufBytes, "receive buffer (SO_RCVBUF)"}} {
		buf := s.Rates[b.key]
		if buf <= 0 {
			continue
		}
		capBps := buf / rtt * 8
		ev = append(ev, Evidence{What: "the application's " + b.name + " (stated)", Value: fmt.Sprintf("%s: at most one buffer per round trip, %s/s = %s, %.1f%% of the path", units.FormatBytes(int64(buf)), units.FormatBytes(int64(buf/rtt)), units.FormatBitsPerSec(capBps), 100*capBps/bps), Source: src})
		if share := buf / bdp; what == "" || share < worst {
			worst, what = share, b.name
		}
	}
	if worst >= 1 {
		return Healthy("the application's buffers cover the stated path's bandwidth-delay product (%s)", units.FormatBytes(int64(bdp))), true
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    fmt.Sprintf("the application's %s is %.0f%% of the path's bandwidth-delay product: each flow is capped far below the line rate", what, 100*worst),
		Evidence: ev,
		Explanation: "TCP keeps at most one window of data in flight per round trip, and a socket cannot send more than its " +
			"send buffer holds nor receive more than its receive buffer lets it advertise. A buffer below the path's " +
			"bandwidth-delay product (rate × RTT) caps the flow at buffer / RTT whatever the link's speed. A buffer set " +
			"by the application (SO_SNDBUF, SO_RCVBUF, Java's setSendBufferSize) is fixed: the kernel doubles it for " +
			"bookkeeping and stops autotuning it, so raising tcp_wmem/tcp_rmem does not help that socket.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "the application's socket buffer",
			Recommended: fmt.Sprintf("remove the explicit buffer size (let autotuning grow it up to tcp_wmem/tcp_rmem[2]) or set it to at least the bandwidth-delay product, %s", units.FormatBytes(int64(bdp))),
			Why:         "the buffer, not the path, limits each flow"}},
	}), true
}
