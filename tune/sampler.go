package tune

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// HostSampler reads the guards' counters from a live root: /proc/net/netstat and snmp
// (TcpExt, IpExt, Tcp) and /proc/net/dev of the namespace the changes were applied in, and
// /proc/vmstat, /proc/pressure/memory and the kernel log, which are host-wide.
//
// With Netns set, the network files are read from a thread inside the namespace
// (kernel.InNetns): /proc/net follows the thread group leader, /proc/thread-self/net the
// thread (fs/proc/proc_net.c).
type HostSampler struct {
	Root  kernel.Root
	Netns string
	// kmsg counts allocation failures logged since the sampler opened /dev/kmsg; nil when it
	// cannot be read (not root, kernel.dmesg_restrict, a capture root), and then the guard
	// is unknown.
	kmsg        *kernel.KmsgFollower
	allocFailed float64

	// Now is the clock of the per-flow rates; nil is time.Now.
	Now func() time.Time

	// softnet: the previous reading and the wrap-aware totals since the first.
	softnet       []kernel.SoftnetCPU
	softnetTotals [2]float64 // dropped, time_squeeze
	// sock_diag: a netlink socket opened in the namespace (it stays there), and the
	// previous dump's cumulative bytes per flow.
	diag      *kernel.SockDiag
	flows     map[string]flowBytes
	flowsTime time.Time
}

// FlowTopN is how many of the busiest flows the sock_diag guards sum.
const FlowTopN = 8

// flowBytes is one flow's cumulative tcpi_bytes_acked and tcpi_bytes_received, and its
// tcp_info for the delivery rate.
type flowBytes struct {
	acked, received int64
	info            *kernel.TCPInfo
}

// NewHostSampler opens the kernel log from now on (when it can) for the allocation-failure
// count. Close it when done.
func NewHostSampler(root kernel.Root, netns string) *HostSampler {
	h := &HostSampler{Root: root, Netns: netns}
	if root.IsHost() {
		if f, err := kernel.NewKmsgFollower(root, false); err == nil {
			h.kmsg = f
		}
	}
	return h
}

// Close releases the kernel log.
func (h *HostSampler) Close() error {
	if h.diag != nil {
		h.diag.Close()
		h.diag = nil
	}
	if h.kmsg == nil {
		return nil
	}
	return h.kmsg.Close()
}

// Sample reads the counters now.
func (h *HostSampler) Sample(ctx context.Context) (Sample, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := Sample{}
	var socks []kernel.Socket
	net := func(r kernel.Root) error {
		if err := sampleNet(r, s); err != nil {
			return err
		}
		socks = h.dumpSockets(r)
		return nil
	}
	var err error
	if h.Netns != "" {
		err = kernel.InNetns(h.Netns, net)
	} else {
		err = net(h.Root)
	}
	if err != nil {
		return nil, err
	}
	now := time.Now()
	if h.Now != nil {
		now = h.Now()
	}
	h.sampleFlows(socks, now, s)
	h.sampleSoftnet(s)
	sampleMemory(h.Root, s)
	if h.kmsg != nil {
		recs, err := h.kmsg.ReadNew()
		if err == nil {
			for _, r := range recs {
				// warn_alloc (mm/page_alloc.c): "%s: page allocation failure: order:%u, mode:..."
				if strings.Contains(r.Message, "page allocation failure") {
					h.allocFailed++
				}
			}
			s["kmsg.alloc_failures"] = h.allocFailed
		}
	}
	return s, nil
}

func sampleNet(root kernel.Root, s Sample) error {
	groups, err := kernel.ReadNetStat(root)
	if err != nil {
		return err
	}
	for _, gc := range [][2]string{{"TcpExt", "PruneCalled"}, {"TcpExt", "RcvPruned"}, {"TcpExt", "TCPRcvQDrop"},
		{"Tcp", "RetransSegs"}, {"Tcp", "OutSegs"}, {"IpExt", "InOctets"}, {"IpExt", "OutOctets"}} {
		if v, ok := groups.Get(gc[0], gc[1]); ok {
			s[gc[0]+"."+gc[1]] = float64(v)
		}
	}
	// /proc/net/dev's "drop" column is rx_dropped + rx_missed_errors and "fifo" is
	// rx_fifo_errors (dev_seq_printf_stats, net/core/net-procfs.c): the ring overruns a
	// larger ring is meant to stop are in their sum.
	devs, err := kernel.ReadNetDev(root)
	if err != nil {
		return err
	}
	for _, d := range devs {
		drop, ok1 := d.Counters.Get("rx_dropped")
		fifo, ok2 := d.Counters.Get("rx_fifo_errors")
		if ok1 && ok2 {
			s["netdev."+d.Name+".rx_drops"] = float64(drop + fifo)
		}
	}
	return nil
}

// dumpSockets dumps the TCP sockets of root's namespace: over sock_diag on a live host, from
// the capture's sockets.json otherwise. nil when they cannot be read; the flow guards are
// then "not measured".
func (h *HostSampler) dumpSockets(root kernel.Root) []kernel.Socket {
	if !root.IsHost() {
		socks, _ := kernel.ReadSockets(root)
		return socks
	}
	if h.diag == nil {
		// Opened here, inside InNetns when --netns is given: a netlink socket belongs to
		// the namespace of the thread that creates it (net/netlink/af_netlink.c
		// __netlink_create uses the current net), so later dumps see that namespace.
		d, err := kernel.OpenSockDiag()
		if err != nil {
			return nil
		}
		h.diag = d
	}
	socks, err := h.diag.DumpTCP(nil)
	if err != nil {
		return nil
	}
	return socks
}

// sampleFlows sets the sock_diag figures of the busiest flows since the previous sample
// (flows matched by local and remote address):
//
//   - sockdiag.delivery_rate: the sum of tcpi_delivery_rate over the FlowTopN flows that had
//     the most bytes acknowledged, the sending side's own estimate of what its path
//     delivers (net/ipv4/tcp_rate.c). Receive-only flows have no delivery rate of their own.
//   - sockdiag.busiest_received: bytes per second received by the FlowTopN flows that
//     received most, the receiving side's figure (a receiver's tcp_rmem limits exactly
//     this).
//
// Either is left out when no flow qualifies (no sock_diag, a kernel whose tcp_info lacks
// the field, no flow sending, no flow at all) or on the first dump: "not measured", not zero.
func (h *HostSampler) sampleFlows(socks []kernel.Socket, now time.Time, s Sample) {
	prev, prevTime := h.flows, h.flowsTime
	h.flows, h.flowsTime = map[string]flowBytes{}, now
	for i := range socks {
		so := &socks[i]
		if so.State == "LISTEN" {
			continue // not a flow: its counts are of no connection
		}
		if a, r, ok := so.Info.Delivered(); ok {
			h.flows[so.Local+" "+so.Remote] = flowBytes{acked: a, received: r, info: so.Info}
		}
	}
	dt := now.Sub(prevTime).Seconds()
	if prev == nil || dt <= 0 {
		return
	}
	type grown struct {
		acked, received int64
		info            *kernel.TCPInfo
	}
	var gs []grown
	for k, c := range h.flows {
		// A flow not in the previous dump was connected since: its counts start at zero
		// (tcp_info's bytes are per connection), so all of them are this interval's. A
		// count that went back is a new connection on the same addresses, likewise. Only
		// what a connection received after the last dump before it closed is missed.
		if p, ok := prev[k]; ok && c.acked >= p.acked && c.received >= p.received {
			c.acked -= p.acked
			c.received -= p.received
		}
		gs = append(gs, grown{c.acked, c.received, c.info})
	}
	if len(gs) == 0 {
		return
	}
	slices.SortFunc(gs, func(a, b grown) int { return cmp.Compare(b.received, a.received) })
	var recv int64
	for _, g := range gs[:min(FlowTopN, len(gs))] {
		recv += g.received
	}
	s["sockdiag.busiest_received"] = float64(recv) / dt
	slices.SortFunc(gs, func(a, b grown) int { return cmp.Compare(b.acked, a.acked) })
	var rate float64
	n := 0
	for _, g := range gs {
		// A flow that had less than a segment acknowledged sent nothing to speak of (a FIN
		// advances snd_una, and so bytes_acked, by one: tcp_snd_una_update,
		// net/ipv4/tcp_input.c); its delivery rate is not a sender's.
		if n == FlowTopN || g.acked < max(g.info.SndMSS, 536) {
			break
		}
		if r, ok := g.info.DeliveryRate(); ok {
			rate += float64(r)
			n++
		}
	}
	if n > 0 {
		s["sockdiag.delivery_rate"] = rate
	}
}

// sampleSoftnet keeps running totals of softnet_stat's dropped and time_squeeze columns over
// all CPUs. The columns are u32 per CPU that wrap (model.SoftnetDeltas, model.Delta), so
// the totals grow by each interval's wrap-aware growth; an interval in which a CPU's row
// was reset (it went offline and back) is left out, and the totals carry on from there.
// The file is per CPU and the same in every namespace, so it is read from the host.
func (h *HostSampler) sampleSoftnet(s Sample) {
	cur, err := kernel.ReadSoftnet(h.Root)
	if err != nil || len(cur) == 0 {
		return
	}
	prev := h.softnet
	h.softnet = cur
	if prev != nil {
		t := model.SoftnetTotals(model.SoftnetDeltas(prev, cur))
		if t.Reset {
			return
		}
		h.softnetTotals[0] += float64(t.Dropped)
		h.softnetTotals[1] += float64(t.TimeSqueeze)
	}
	s["softnet.dropped"], s["softnet.time_squeeze"] = h.softnetTotals[0], h.softnetTotals[1]
}

// sampleMemory leaves a counter out when its file is missing (PSI needs CONFIG_PSI and is
// off with psi=0): the guard is then "unknown", not zero.
func sampleMemory(root kernel.Root, s Sample) {
	if vm, err := kernel.ReadVMStat(root); err == nil {
		// Before 4.8 these were per zone (allocstall, pgscan_kswapd_normal, ...), since then
		// per node (pgscan_kswapd) and allocstall per zone (allocstall_normal, ...): a sum
		// over the prefix covers every layout (mm/vmstat.c vmstat_text).
		for _, name := range []string{"allocstall", "pgscan_kswapd", "pgscan_direct"} {
			if v, ok := vmSum(vm, name); ok {
				s["vmstat."+name] = float64(v)
			}
		}
		if v, ok := vm.Get("compact_fail"); ok {
			s["vmstat.compact_fail"] = float64(v)
		}
	}
	if p, err := kernel.ReadPSI(root, "memory"); err == nil && p.Some != nil {
		s["psi.memory.some_usec"] = float64(p.Some.TotalUsec)
	}
}

// vmSum sums the vmstat counters named prefix or prefix_*, leaving out
// pgscan_direct_throttle, which counts throttling events, not pages (mm/vmscan.c).
func vmSum(vm kernel.Counters, prefix string) (int64, bool) {
	var sum int64
	have := false
	for i := 0; i < vm.Len(); i++ {
		name, v := vm.At(i)
		if (name == prefix || strings.HasPrefix(name, prefix+"_")) && !strings.HasSuffix(name, "_throttle") {
			sum += v
			have = true
		}
	}
	return sum, have
}
