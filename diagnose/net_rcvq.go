package diagnose

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// rcvq-pruning: a socket's receive queue outgrew its budget. tcp_data_queue() (net/ipv4/
// tcp_input.c) calls tcp_try_rmem_schedule(), which, when rmem_alloc passes sk_rcvbuf or the
// global tcp_mem charge fails, runs tcp_prune_queue() (TcpExt PruneCalled): it collapses
// queued skbs into tighter ones (tcp_collapse, TCPRcvCollapsed, costing CPU and a copy),
// then drops the out-of-order queue (tcp_prune_ofo_queue, OfoPruned), and if still over,
// gives up (RcvPruned); the arriving segment is then dropped (TCPRcvQDrop in order,
// TCPOFODrop out of order) and the sender must retransmit it. TCPBacklogDrop counts segments
// dropped because the socket's backlog (segments arriving while the application holds the
// socket lock) passed its limit (tcp_add_backlog, net/ipv4/tcp_ipv4.c). All of these mean a
// receiver that does not drain its queue fast enough, or buffers too small for what is in
// flight. Large Recv-Q values in a socket table show the same from the other side: bytes the
// kernel holds that the application has not read (seed 004: ~1.9 MB on each of many
// connections on a busy receiver).
func init() {
	Register(Rule{
		ID:     "rcvq-pruning",
		Title:  "receive queues pruned or dropped: receivers do not drain, or buffers are too small",
		Family: FamilyNetwork,
		Check: withTraceDrops(checkRcvqPruning, traceDrops{
			reasons: []string{"TCP_OFO_QUEUE_PRUNE"}, what: "pruned from a TCP out-of-order queue",
			sev:   Warning,
			title: "out-of-order queues pruned (the kernel's reason TCP_OFO_QUEUE_PRUNE)",
			explanation: "When a TCP socket's receive memory is over its budget, tcp_prune_queue first drops the " +
				"out-of-order queue (tcp_prune_ofo_queue, net/ipv4/tcp_input.c, TcpExt OfoPruned): each segment freed " +
				"there is dropped with SKB_DROP_REASON_TCP_OFO_QUEUE_PRUNE and must be sent again.",
		}),
	})
}

var rcvqCounters = []netCounter{
	{Group: "TcpExt", Name: "PruneCalled", Rising: Warning, Meaning: "receive queues over budget, collapse and prune started"},
	{Group: "TcpExt", Name: "TCPRcvCollapsed", Rising: Warning, Meaning: "skbs copied into tighter ones to save memory"},
	{Group: "TcpExt", Name: "OfoPruned", Rising: Warning, Meaning: "out-of-order queues discarded"},
	{Group: "TcpExt", Name: "RcvPruned", Rising: Critical, Meaning: "pruning failed: received data dropped"},
	{Group: "TcpExt", Name: "TCPRcvQDrop", Rising: Critical, Meaning: "in-order segments dropped for lack of receive memory"},
	{Group: "TcpExt", Name: "TCPOFODrop", Rising: Critical, Meaning: "out-of-order segments dropped for lack of receive memory"},
	{Group: "TcpExt", Name: "TCPBacklogDrop", Rising: Critical, Meaning: "segments dropped at a full socket backlog"},
}

// rcvqLargeBytes is the unread bytes above which a socket's Recv-Q counts as "not drained":
// 1 MiB is 8 ms of a 1 Gbit/s stream; a reader that keeps up leaves far less between reads,
// and a table snapshot that catches several sockets this full shows readers falling behind.
// rcvqLargeMin is how many such sockets make a finding (one can be a reader caught mid-read).
const (
	rcvqLargeBytes = 1 << 20
	rcvqLargeMin   = 2
)

// rcvqDropsCriticalPerSec: below this rate a rising drop counter is a warning.
const rcvqDropsCriticalPerSec = 1.0

// rcvqDropsCriticalShare: at or above the rate, drops are critical only when they are also
// this share of the TCP segments received in the window (Tcp InSegs): a busy host dropping
// two of a million segments a second loses nothing a stream notices, while at 0.1% a 50 ms
// stream is held to about 9 Mbit/s (Mathis et al., rate ≈ MSS/RTT · 1.22/√p). The same floor
// as softnet-backlog-drops. With InSegs unread the rate alone decides, as before.
const rcvqDropsCriticalShare = 0.001

func checkRcvqPruning(tl *model.Timeline) Result {
	readings, havePresent := netReadCounters(tl, "/proc/net/netstat", rcvqCounters)
	tables := netSocketTables(tl)
	if !havePresent && len(tables) == 0 {
		return NotChecked("no TcpExt pruning counters (/proc/net/netstat, netstat -s, nstat) and no socket table (ss, netstat -tn, sock_diag)")
	}
	var ev []Evidence
	sev := Severity(-1)
	for _, r := range readings {
		switch {
		case r.rising():
			s := r.Rising
			if s == Critical && r.seconds > 0 && netPerSec(r.growth) < rcvqDropsCriticalPerSec {
				s = Warning
			}
			ev = append(ev, Evidence{What: fmt.Sprintf("TcpExt %s (%s)", r.Name, r.Meaning), Value: r.describe(), Source: r.source})
			if s == Critical {
				if share, den, ok := netWindowShare(tl, r.growth, "/proc/net/snmp", "Tcp", "InSegs", false); ok && share < rcvqDropsCriticalShare {
					s = Warning
					ev = append(ev, netBelowShare(share, r.delta, den, "the TCP segments received (Tcp InSegs)", rcvqDropsCriticalShare))
				}
			}
			sev = max(sev, s)
		case r.last > 0:
			sev = max(sev, Info)
			ev = append(ev, Evidence{What: fmt.Sprintf("TcpExt %s (%s)", r.Name, r.Meaning), Value: r.describe(), Source: r.source})
		}
	}

	// The socket table with the most undrained receive queues.
	var best struct {
		n, total, largest, rows int
		src                     string
		atLimit                 int
	}
	for _, t := range tables {
		n, total, largest, rows, atLimit := 0, 0, 0, 0, 0
		for _, r := range t.Rows {
			st := netState(r.State)
			if st != "ESTABLISHED" && st != "CLOSE_WAIT" && st != "FIN_WAIT1" && st != "FIN_WAIT2" {
				continue
			}
			rows++
			if r.RecvQ >= rcvqLargeBytes {
				n++
				total += int(r.RecvQ)
				largest = max(largest, int(r.RecvQ))
			}
			if r.Mem != nil && r.Mem.Rcvbuf > 0 && r.Mem.RmemAlloc >= r.Mem.Rcvbuf {
				atLimit++
			}
		}
		if n > best.n || (n == best.n && atLimit > best.atLimit) {
			best.n, best.total, best.largest, best.rows, best.src, best.atLimit = n, total, largest, rows, t.Source, atLimit
		}
	}
	if best.n > 0 {
		ev = append(ev, Evidence{
			What:   fmt.Sprintf("sockets with ≥ %s unread (Recv-Q)", units.FormatBytes(rcvqLargeBytes)),
			Value:  fmt.Sprintf("%d of %d connections; largest %d bytes; %s in total", best.n, best.rows, best.largest, units.FormatBytes(int64(best.total))),
			Source: best.src,
		})
		if best.n >= rcvqLargeMin {
			sev = max(sev, Warning)
		} else {
			sev = max(sev, Info)
		}
	}
	if best.atLimit > 0 {
		ev = append(ev, Evidence{What: "sockets whose receive memory is at sk_rcvbuf (next segment prunes)", Value: fmt.Sprint(best.atLimit), Source: best.src})
		sev = max(sev, Warning)
	}
	if sev < 0 {
		what := []string{}
		if havePresent {
			what = append(what, netZeroText(readings, rcvqCounters))
		}
		if len(tables) > 0 {
			what = append(what, fmt.Sprintf("no socket with ≥ %s unread in %d socket table(s)", units.FormatBytes(rcvqLargeBytes), len(tables)))
		}
		return Healthy("%s", strings.Join(what, "; "))
	}
	ev = append(ev, netTripletEvidence("tcp_rmem (min default max)", netTriplets(tl, "net.ipv4.tcp_rmem"))...)
	f := Finding{
		Severity: sev,
		Title:    "receive queues outgrow their buffers: data is collapsed, pruned or dropped after arrival",
		Evidence: ev,
		Facts:    rcvqDropCount(readings),
		Explanation: "When a socket's queued data passes its receive buffer (or TCP's global tcp_mem), the kernel " +
			"first copies the queue into tighter buffers (collapse), then throws away out-of-order data, and " +
			"finally drops arriving segments, which the sender has to retransmit after a timeout or SACK round " +
			"(net/ipv4/tcp_input.c tcp_prune_queue). The usual cause is a receiver that does not read fast " +
			"enough: a busy CPU, a low-priority or blocked application (Fermilab: \"receive buffers fill up " +
			"when processor is busy\"; raising the receiving process's priority helped). A bigger buffer only " +
			"delays pruning for such a reader and holds more kernel memory; it helps when the buffer is below " +
			"the bandwidth-delay product. Check the readers first, then size tcp_rmem from the BDP.",
	}
	if sev >= Warning {
		f.Changes = rcvqChanges(tl)
	}
	return Fired(f)
}

// rcvqChanges proposes plan's tcp_rmem when the link and the RTT are known (live sockets).
func rcvqChanges(tl *model.Timeline) []model.Change {
	bw, bwSrc := netLinkBitsPerSec(tl)
	rtt, ok := netMedianRTT(tl)
	if bw <= 0 || !ok {
		return nil
	}
	n, _ := netConnections(tl)
	in, ok := netPlanInput(tl, bw, rtt, int(max(n, 1)))
	if !ok {
		return nil
	}
	in.Role = plan.RoleReceiver
	p, err := plan.Compute(in)
	if err != nil {
		return nil
	}
	for _, c := range p.Settings {
		if c.Key == "net.ipv4.tcp_rmem" {
			c.Rule = ""
			c.Why = fmt.Sprintf("plan for %d receiving streams over %s (%s) at the median RTT %v: %s", max(n, 1), netBits(bw), bwSrc, rtt.Round(time.Millisecond), c.Why)
			return []model.Change{c}
		}
	}
	return nil
}

// netSortSockets orders rows by a key, largest first (for evidence listing the worst flows).
func netSortSockets(rows []kernel.Socket, key func(kernel.Socket) int64) []kernel.Socket {
	out := append([]kernel.Socket(nil), rows...)
	sort.SliceStable(out, func(i, j int) bool { return key(out[i]) > key(out[j]) })
	return out
}

// rcvqDropCount bounds the segments the pruning dropped: every counter but two counts events
// that each drop at most the one arriving segment (tcp_prune_queue's failure, RcvPruned;
// tcp_data_queue's TCPRcvQDrop and TCPOFODrop; a full backlog). TCPRcvCollapsed drops
// nothing, and an OfoPruned event may free a whole out-of-order queue: with OfoPruned above
// zero no bound is given (Counted 0). Counted is over the sampled window when any counter
// was read twice, else since boot.
func rcvqDropCount(rs []netCounterReading) Facts {
	sinceBoot := true
	for _, r := range rs {
		if r.hasDelta {
			sinceBoot = false
		}
	}
	var n int64
	for _, r := range rs {
		v := r.last
		if !sinceBoot {
			v = r.delta
		}
		switch r.Name {
		case "OfoPruned":
			if v > 0 {
				return Facts{}
			}
		case "TCPRcvCollapsed":
		default:
			n += v
		}
	}
	return Facts{Counted: n, CountedSinceBoot: sinceBoot}
}
