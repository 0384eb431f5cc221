package tune

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"headroom/judge"
	"headroom/kernel"
	"headroom/model"
	"headroom/source"
)

// --verify reads the host the way every other command does: source.Collect samples it into
// a model.Timeline (judge.Finish derives its rates and kernel-log events, with model.Delta),
// once per window, and both the guards (Intervals) and the judge read that one recording.

// The guards' figures that model.Rates has no key for, per second of an interval. The others
// are model's own (model.RateTCPRetransPerSec, model.RateAllocstallPerSec, ...).
const (
	// RateTCPPrune: TcpExt PruneCalled + RcvPruned + TCPRcvQDrop.
	RateTCPPrune = "tcp_prune_per_sec"
	// RateIPInOctets and RateIPOutOctets: IpExt InOctets and OutOctets, every IP byte
	// delivered and sent in the namespace.
	RateIPInOctets  = "ip_in_octets_per_sec"
	RateIPOutOctets = "ip_out_octets_per_sec"
	// RatePSIMemorySome: microseconds per second some task stalled on memory
	// (/proc/pressure/memory "some" total).
	RatePSIMemorySome = "psi_memory_some_usec_per_sec"
	// RateAllocFailures: page allocation failures logged (model.EventAllocFailure, warn_alloc
	// in mm/page_alloc.c) in the interval.
	RateAllocFailures = "alloc_failures_per_sec"
	// RateFlowDelivery: the sum of tcpi_delivery_rate over the FlowTopN flows that had the
	// most bytes acknowledged in the interval. RateFlowReceived: bytes per second received by
	// the FlowTopN flows that received most.
	RateFlowDelivery = "flow_delivery_bytes_per_sec"
	RateFlowReceived = "flow_busiest_received_bytes_per_sec"
)

// RateNICRxDrops is the key of one interface's received frames dropped for lack of room: the
// /proc/net/dev counters kernel.RxDropNetDevCounters names ("drop", which holds
// rx_missed_errors, and "fifo"), each taken with model.NetDevDelta.
func RateNICRxDrops(dev string) string { return model.RateNICRxDropPerSec + "{" + dev + "}" }

// FlowTopN is how many of the busiest flows the sock_diag guards sum.
const FlowTopN = 8

// HostRecorder records windows of this host (Dir "/"), or of a host's / mounted at Dir
// (kernel.MountedHostRoot, as doctor --host-root reads it: a --proc-sys tree's parent's
// parent), with the network counters of the namespace Netns when it is set: the window is sampled from a thread inside it (kernel.InNetns), whose
// /proc/thread-self/net files stay that namespace's once opened (fs/proc/proc_net.c), while
// memory, pressure, softnet_stat and the kernel log are the host's.
type HostRecorder struct {
	Dir   string
	Netns string
}

// Record samples the window through source.Collect (the reader doctor uses), finishes the
// Timeline (judge.Finish) and derives the guards' figures of each interval.
func (h HostRecorder) Record(ctx context.Context, window, interval time.Duration) (Window, error) {
	flows := &flowTracker{}
	opt := source.CollectOptions{Options: source.DefaultOptions(), Duration: window, Interval: interval,
		// Kernel log records from before the window are history: a failure logged before
		// it is not evidence of it.
		LogSince: time.Nanosecond}
	opt.OnSockets = flows.observe
	var tl *model.Timeline
	collect := func(root kernel.Root) (err error) {
		tl, err = source.Collect(ctx, root, opt)
		return err
	}
	var err error
	switch {
	case h.Netns != "":
		if err = kernel.InNetns(h.Netns, collect); err == nil {
			// The namespace's own settings beside the host's, as doctor --netns reads them.
			if ns, nerr := source.ReadNetns(source.NetnsTarget{Name: h.Netns, ProcDir: "/proc"}); nerr == nil {
				tl.Netns = ns
			} else {
				tl.NotAvailable = append(tl.NotAvailable, model.Unavailable{What: "network namespace " + h.Netns, Why: nerr.Error()})
			}
		}
	case h.Dir == "" || h.Dir == "/":
		err = collect(kernel.HostRoot())
	default:
		err = collect(kernel.MountedHostRoot(h.Dir))
	}
	if err != nil {
		return Window{}, err
	}
	// Without the namespace's network counters nothing a change of it does can be told:
	// fail the window, so that nothing is applied that no window could judge.
	if !slices.ContainsFunc(tl.Samples, func(s model.Sample) bool { return len(s.NetStat) > 0 || len(s.NetDev) > 0 }) {
		why := "no sample"
		for _, u := range tl.NotAvailable {
			if strings.Contains(u.What, "net/netstat") {
				why = u.What + ": " + u.Why
			}
		}
		return Window{}, fmt.Errorf("the network counters could not be read (%s)", why)
	}
	judge.Finish(tl)
	return Window{Timeline: tl, Intervals: Intervals(tl, flows.figures)}, nil
}

// Intervals derives the guards' figures of each interval between successive samples of a
// finished Timeline (never across a break): model's rates as judge.Finish derived them, and
// the figures model has no key for, from the counters with model.Delta. A counter missing
// from either sample, or reset in the interval, leaves its figure out; a counter that wrapped
// at its width (the /proc/net/dev counters of a 32-bit kernel before 2.6.36:
// Host.NetDevCounterWidth) grew by the modular difference. flows holds the sock_diag
// figures by sample time.
func Intervals(tl *model.Timeline, flows map[time.Time]model.Rates) []model.Rates {
	netdevWidth := tl.Host.NetDevCounterWidth()
	// The kernel log was read unless the recording says it was not (no root, dmesg_restrict,
	// a tree without dev/kmsg): then allocation failures are unknown, not zero.
	logRead := !slices.ContainsFunc(tl.NotAvailable, func(u model.Unavailable) bool { return strings.HasPrefix(u.What, "kernel log") })
	var out []model.Rates
	for i := 1; i < len(tl.Samples); i++ {
		prev, cur := &tl.Samples[i-1], &tl.Samples[i]
		dt := cur.Time.Sub(prev.Time).Seconds()
		if slices.Contains(tl.Breaks, i) || prev.Time.IsZero() || dt <= 0 {
			continue
		}
		r := model.Rates{}
		maps.Copy(r, cur.Rates)
		netstat := func(group string, names ...string) func(*model.Sample) []counter {
			return func(s *model.Sample) []counter {
				var cs []counter
				for _, n := range names {
					v, ok := s.NetStat.Get(group, n)
					cs = append(cs, counter{v, ok})
				}
				return cs
			}
		}
		grow := func(key string, width int, read func(*model.Sample) []counter) {
			if d, ok := growth(read(prev), read(cur), width); ok {
				r[key] = float64(d) / dt
			}
		}
		grow(RateTCPPrune, model.Width64, netstat("TcpExt", "PruneCalled", "RcvPruned", "TCPRcvQDrop"))
		grow(RateIPInOctets, model.Width64, netstat("IpExt", "InOctets"))
		grow(RateIPOutOctets, model.Width64, netstat("IpExt", "OutOctets"))
		grow(RatePSIMemorySome, model.Width64, func(s *model.Sample) []counter {
			if p := s.Pressure("memory"); p != nil && p.Some != nil {
				return []counter{{p.Some.TotalUsec, true}}
			}
			return []counter{{}}
		})
		for _, d := range cur.NetDev {
			var sum int64
			ok := true
			for _, name := range kernel.RxDropNetDevCounters {
				if !d.Counters.Has(name) {
					continue // /proc/net/dev has no missed or over column: "drop" holds missed
				}
				g, kind, found := model.NetDevDelta(prev.NetDev, cur.NetDev, d.Name, name, netdevWidth)
				ok = ok && found && kind != model.DeltaReset
				sum += g
			}
			if ok {
				r[RateNICRxDrops(d.Name)] = float64(sum) / dt
			}
		}
		if logRead {
			n := 0
			for _, e := range tl.Events {
				if e.Kind == model.EventAllocFailure && e.Time.After(prev.Time) && !e.Time.After(cur.Time) {
					n++
				}
			}
			r[RateAllocFailures] = float64(n) / dt
		}
		maps.Copy(r, flows[cur.Time])
		out = append(out, r)
	}
	return out
}

// counter is one reading of a counter and whether the sample had it.
type counter struct {
	v  int64
	ok bool
}

// growth sums the growth of counters from prev to cur with model.Delta: false when one is
// missing from either reading or was reset (a wrap is growth).
func growth(prev, cur []counter, width int) (int64, bool) {
	var sum int64
	for i := range cur {
		if !prev[i].ok || !cur[i].ok {
			return 0, false
		}
		d, kind := model.Delta(prev[i].v, cur[i].v, width)
		if kind == model.DeltaReset {
			return 0, false
		}
		sum += d
	}
	return sum, true
}

// flowTracker follows the busiest flows from one sock_diag dump to the next
// (source.Options.OnSockets): flows are matched by local and remote address, and each dump
// after the first gets the figures of the interval it closes:
//
//   - RateFlowDelivery: the sum of tcpi_delivery_rate over the FlowTopN flows that had the
//     most bytes acknowledged, the sending side's own estimate of what its path delivers
//     (net/ipv4/tcp_rate.c). Receive-only flows have no delivery rate of their own.
//   - RateFlowReceived: bytes per second received by the FlowTopN flows that received most,
//     the receiving side's figure (a receiver's tcp_rmem limits exactly this).
//
// Either is left out when no flow qualifies (no sock_diag, a kernel whose tcp_info lacks
// the field, no flow sending, no flow at all) or on the first dump: "not measured", not zero.
type flowTracker struct {
	prev     map[string]flowBytes
	prevTime time.Time
	figures  map[time.Time]model.Rates
}

// flowBytes is one flow's cumulative tcpi_bytes_acked and tcpi_bytes_received.
type flowBytes struct{ acked, received int64 }

func (f *flowTracker) observe(now time.Time, socks []kernel.Socket) {
	prev, prevTime := f.prev, f.prevTime
	f.prev, f.prevTime = map[string]flowBytes{}, now
	type grown struct {
		acked, received int64
		mss             int64
		rate            int64
		hasRate         bool
	}
	var gs []grown
	for i := range socks {
		so := &socks[i]
		if so.State == "LISTEN" {
			continue // not a flow: its counts are of no connection
		}
		a, r, ok := so.Info.Delivered()
		if !ok {
			continue
		}
		k := so.Local + " " + so.Remote
		f.prev[k] = flowBytes{a, r}
		// A flow not in the previous dump was connected since: its counts start at zero
		// (tcp_info's bytes are per connection, u64), so all of them are this interval's. A
		// count that went back (model.Delta: a reset) is a new connection on the same
		// addresses, likewise. Only what a connection received after the last dump before
		// it closed is missed.
		if p, ok := prev[k]; ok {
			da, ka := model.Delta(p.acked, a, model.Width64)
			dr, kr := model.Delta(p.received, r, model.Width64)
			if ka != model.DeltaReset && kr != model.DeltaReset {
				a, r = da, dr
			}
		}
		rate, hasRate := so.Info.DeliveryRate()
		gs = append(gs, grown{a, r, so.Info.SndMSS, rate, hasRate})
	}
	dt := now.Sub(prevTime).Seconds()
	if prev == nil || dt <= 0 || len(gs) == 0 {
		return
	}
	fig := model.Rates{}
	slices.SortFunc(gs, func(a, b grown) int { return cmp.Compare(b.received, a.received) })
	var recv int64
	for _, g := range gs[:min(FlowTopN, len(gs))] {
		recv += g.received
	}
	fig[RateFlowReceived] = float64(recv) / dt
	slices.SortFunc(gs, func(a, b grown) int { return cmp.Compare(b.acked, a.acked) })
	var rate float64
	n := 0
	for _, g := range gs {
		// A flow that had less than a segment acknowledged sent nothing to speak of (a FIN
		// advances snd_una, and so bytes_acked, by one: tcp_snd_una_update,
		// net/ipv4/tcp_input.c); its delivery rate is not a sender's.
		if n == FlowTopN || g.acked < max(g.mss, 536) {
			break
		}
		if g.hasRate {
			rate += float64(g.rate)
			n++
		}
	}
	if n > 0 {
		fig[RateFlowDelivery] = rate
	}
	if f.figures == nil {
		f.figures = map[time.Time]model.Rates{}
	}
	f.figures[now] = fig
}
