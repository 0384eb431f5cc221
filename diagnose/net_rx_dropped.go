package diagnose

import (
	"fmt"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// rx-dropped-software: an interface's rx_dropped grew without the NIC's own overrun
// counters explaining it. rx_dropped is "received but not processed" (include/uapi/linux/
// if_link.h): since 2.6.37 (commit caf586e5f23c) the core adds its own drops to the driver's,
// namely packets refused by a full per-CPU backlog (enqueue_to_backlog, also counted in
// softnet_stat), frames with a bad VLAN tag, and frames no protocol handler wanted
// (__netif_receive_skb_core); since 4.6 (commit 6e7333d315a7) frames dropped on inactive
// devices such as bonding backup slaves go to rx_nohandler instead. Drivers add their own
// reasons, and if_link.h allows L2 address filtering there. /proc/net/dev (and ifconfig,
// which reads it) prints rx_dropped + rx_missed_errors as one "drop" column (net/core/
// net-procfs.c dev_seq_printf_stats), so ring overruns can show up in it too.
func init() {
	Register(Rule{
		ID:     "rx-dropped-software",
		Title:  "receive drops without hardware errors (backlog, unknown protocol, filtering)",
		Family: FamilyNetwork,
		Check:  checkRxDroppedSoftware,
	})
}

// A rising software drop count is a warning when it is at least rxDropWarnShare of the
// packets received in the same window and at least rxDropWarnPerSec: below that it is the
// steady trickle of LLDP, STP or unknown-EtherType frames many networks carry.
const (
	rxDropWarnShare  = 0.01
	rxDropWarnPerSec = 10.0
)

func checkRxDroppedSoftware(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool { return len(s.NetDev) > 0 })
	if last == nil {
		if st := tl.LastWith(func(s *model.Sample) bool { _, ok := s.Rates.Get(model.RateStatedRxDroppedPerSec); return ok }); st != nil {
			return rxDroppedStated(st)
		}
		return NotChecked("no interface counters: needs /proc/net/dev, ip -s link or ifconfig")
	}
	// Judge the latest samples whose counters hold rx_dropped: a later table without the
	// column (another tool's output in the same paste) must not hide the one that has it.
	hasDropped := func(s *model.Sample) bool {
		for _, d := range s.NetDev {
			if d.Name != "lo" && d.Counters.Has("rx_dropped") {
				return true
			}
		}
		return false
	}
	first := tl.FirstWith(hasDropped)
	if l := tl.LastWith(hasDropped); l != nil {
		last = l
	} else {
		first = last
	}
	src := sampleSource(last, "/proc/net/dev")
	seconds := 0.0
	if first != last && !first.Time.IsZero() && !last.Time.IsZero() {
		seconds = last.Time.Sub(first.Time).Seconds()
	}
	var softDrop int64
	if per, _, ok := tl.SoftnetWindow(); ok && first != last {
		softDrop = model.SoftnetTotals(per).Dropped
	}
	var findings []Finding
	var notes []string
	// Only an interface whose rx_dropped was read, zero or not, is checked: counters without
	// it (a paste of other columns) say nothing about software drops.
	checked := 0
	var unread, wrapped []string
	lastSrc := src
	for _, ds := range latestNetDevs(tl, last, hasDropped) {
		dev := ds.dev
		src := lastSrc
		if ds.from != last {
			src = sampleSource(ds.from, "/proc/net/dev")
		}
		if dev.Name == "lo" {
			continue
		}
		d, ok := dev.Counters.Get("rx_dropped")
		if !ok {
			unread = append(unread, dev.Name)
			continue
		}
		if w := netWrappedCounter(dev, "rx_dropped", "rx_packets"); w != "" {
			// A negative printed unsigned (kernel.WrappedNegative): the driver's statistics
			// were garbage (e1000 after a resume), no count of drops.
			wrapped = append(wrapped, fmt.Sprintf("%s not checked: the counters are wrapped (%s, a negative printed unsigned)", dev.Name, w))
			continue
		}
		checked++
		if d == 0 {
			continue
		}
		if intelVSIDevice(tl, dev.Name) {
			// i40e and ice fill rx_dropped with the VSI's descriptor discards
			// (kernel.ClassifyNICCounterIn): ring losses, which nic-rx-overruns reports.
			notes = append(notes, fmt.Sprintf("%s: dropped %d is the i40e/ice VSI's no-descriptor discards (its ethtool -S prints port.* counters): ring losses, judged by nic-rx-overruns", dev.Name, d))
			continue
		}
		if x, names := xdpDropped(tl, dev.Name); x > 0 && d-netHWLost(dev) <= x {
			// virtio_net, veth and tun count an XDP program's XDP_DROP verdicts in
			// rx_dropped (err_xdp; veth_xdp_rcv_one; tun_xdp_act): the mitigation's own drops.
			notes = append(notes, fmt.Sprintf("%s: dropped %d is within the XDP program's own drops (%s %d): deliberate XDP_DROP verdicts, not the host failing", dev.Name, d, names, x))
			continue
		}
		hw := netHWLost(dev)
		if hw > 0 && d <= 2*hw {
			notes = append(notes, fmt.Sprintf("%s: dropped %d with %d overruns/missed: the same ring losses counted again (nic-rx-overruns)", dev.Name, d, hw))
			continue
		}
		excess := d - hw
		var prev *kernel.NetDev
		if first != last && ds.from == last {
			for i := range first.NetDev {
				if first.NetDev[i].Name == dev.Name {
					prev = &first.NetDev[i]
				}
			}
		}
		ev := []Evidence{{What: dev.Name + " rx_dropped", Value: fmt.Sprintf("%d since boot", d), Source: src}}
		if hw > 0 {
			ev = append(ev, Evidence{What: dev.Name + " overrun/missed/FIFO errors", Value: fmt.Sprintf("%d (the drop column may include them; %d remain unexplained)", hw, excess), Source: src})
		}
		if nh, ok := dev.Counters.Get("rx_nohandler"); ok && nh > 0 {
			ev = append(ev, Evidence{What: dev.Name + " rx_nohandler (no protocol handler on an inactive device, 4.6+)", Value: fmt.Sprint(nh), Source: src})
		}
		sev := Info
		if r, ok := dev.Counters.Get("rx_packets"); ok && prev == nil && r+excess > 0 {
			// One reading: the share says how much, the severity stays info (no rate).
			share := float64(excess) / float64(r+excess)
			ev = append(ev, Evidence{What: dev.Name + " share of the packets received since boot", Value: fmt.Sprintf("%s (%d dropped, %d received)", netPct(share), excess, r), Source: src})
		}
		if prev != nil {
			pd, okD := prev.Counters.Get("rx_dropped")
			pr, okR := prev.Counters.Get("rx_packets")
			r, okR2 := dev.Counters.Get("rx_packets")
			if okD {
				dd := (d - netHWLost(dev)) - (pd - netHWLost(*prev))
				v := fmt.Sprintf("+%d %s", dd, window(tl))
				share := 0.0
				if okR && okR2 && r-pr+dd > 0 {
					share = float64(dd) / float64(r-pr+dd)
					v += fmt.Sprintf(" (%s of the packets received)", netPct(share))
				}
				ev = append(ev, Evidence{What: dev.Name + " software drops while sampled", Value: v, Source: src})
				if dd > 0 && seconds > 0 && share >= rxDropWarnShare && float64(dd)/seconds >= rxDropWarnPerSec {
					sev = Warning
				}
				if dd > 0 && softDrop > 0 {
					ev = append(ev, Evidence{What: "softnet_stat dropped in the same window", Value: fmt.Sprintf("+%d: at least part is the full per-CPU backlog (softnet-backlog-drops)", softDrop), Source: "/proc/net/softnet_stat"})
				}
			}
		}
		if dev.XDP != "" && dev.XDP != "xdpgeneric" && !strings.HasPrefix(dev.XDP, "prog/xdpgeneric") {
			// A driver-mode program: on virtio_net, veth and tun rx_dropped holds its
			// verdicts, which the paste does not tell apart: at most a note.
			sev = Info
			ev = append(ev, Evidence{What: dev.Name + " XDP program attached", Value: dev.XDP + ": virtio_net, veth and tun count its XDP_DROP verdicts in rx_dropped (deliberate drops); `ethtool -S " + dev.Name + "` (xdp_drops) tells them apart", Source: src})
		}
		findings = append(findings, Finding{
			ID:       "rx-dropped-software",
			Severity: sev,
			Title:    fmt.Sprintf("%s drops received packets in software (%d since boot)", dev.Name, excess),
			Evidence: ev,
			Explanation: "rx_dropped counts packets the host received and then did not process. It can be: the " +
				"per-CPU backlog being full (also in softnet_stat: see softnet-backlog-drops), frames no protocol " +
				"wanted (unknown EtherType such as LLDP without a listener, IPv6 with IPv6 disabled), a VLAN the " +
				"host has not configured, frames for other MAC addresses, frames on inactive bonding slaves " +
				"(before 4.6; since then in rx_nohandler), drops in virtual devices (veth or tun when the peer's " +
				"queue is full, XDP), or a driver's own reasons (some count ring exhaustion here instead of " +
				"rx_missed_errors: check `ethtool -S`). It cannot be: firewall drops (counted in the " +
				"iptables/nftables rule counters), socket-buffer drops (TcpExt and Udp counters), or losses in " +
				"the network before the NIC. `perf record -e skb:kfree_skb` or dropwatch names the dropping " +
				"function; on 5.17+ the kfree_skb tracepoint carries the drop reason.",
		})
	}
	if len(findings) == 0 {
		if checked == 0 && len(wrapped) > 0 {
			return NotChecked("%s", strings.Join(wrapped, "; "))
		}
		notes = append(notes, wrapped...)
		if checked == 0 {
			what := "no interface but loopback"
			if len(unread) > 0 {
				what = "no rx_dropped counter for " + strings.Join(unread, ", ")
			}
			return NotChecked("%s in %s: needs /proc/net/dev, ip -s link or ifconfig with the dropped column", what, src)
		}
		if len(unread) > 0 {
			notes = append(notes, "rx_dropped not in the input for "+strings.Join(unread, ", "))
		}
		if len(notes) > 0 {
			return Healthy("no unexplained receive drops on %s; %s", interfaces(checked), strings.Join(notes, "; "))
		}
		return Healthy("rx_dropped is 0 on %s (loopback excluded)", interfaces(checked))
	}
	return Fired(findings...)
}

// sampledDev is an interface's counters and the sample they were read from.
type sampledDev struct {
	dev  kernel.NetDev
	from *model.Sample
}

// latestNetDevs is the interfaces of sample last, then those only an earlier untimed sample
// holds (has), each from the latest such sample: a paste of two machines' ifconfig ("the
// host's ports", then "the radio's") is two untimed snapshots whose interfaces differ, and
// the later one must not hide the earlier one's counters. A timed series (a recording)
// judges its last sample only: its interfaces are the same host's at each time.
func latestNetDevs(tl *model.Timeline, last *model.Sample, has func(*model.Sample) bool) []sampledDev {
	out := make([]sampledDev, 0, len(last.NetDev))
	seen := map[string]bool{}
	for _, d := range last.NetDev {
		out = append(out, sampledDev{d, last})
		seen[d.Name] = true
	}
	if !last.Time.IsZero() {
		return out
	}
	for i := len(tl.Samples) - 1; i >= 0; i-- {
		s := &tl.Samples[i]
		if s == last || !s.Time.IsZero() || !has(s) {
			continue
		}
		for _, d := range s.NetDev {
			if !seen[d.Name] {
				seen[d.Name] = true
				out = append(out, sampledDev{d, s})
			}
		}
	}
	return out
}

// netWrappedCounter names the first of the counters named, and of the overrun counters,
// whose value is a wrapped negative (kernel.WrappedNegative), "" when none is.
func netWrappedCounter(d kernel.NetDev, names ...string) string {
	for _, c := range append(names, kernel.RxOverrunNetDevCounters...) {
		if v, ok := d.Counters.Get(c); ok && kernel.WrappedNegative(v) {
			return fmt.Sprintf("%s %d", c, v)
		}
	}
	return ""
}

// netHWLost sums the counters that mean the NIC dropped a frame for lack of room.
func netHWLost(d kernel.NetDev) int64 {
	var t int64
	for _, c := range kernel.RxOverrunNetDevCounters {
		if v, ok := d.Counters.Get(c); ok {
			t += v
		}
	}
	return t
}

// intelVSIDevice: the interface's ethtool -S, in any sample, has i40e's or ice's port.* names.
func intelVSIDevice(tl *model.Timeline, name string) bool {
	s := tl.LastWith(func(s *model.Sample) bool { st := nicStats(s, name); return st != nil && st.Stats != nil })
	return s != nil && kernel.IntelVSIStats(*nicStats(s, name).Stats)
}

// rxDroppedStated judges a receive drop rate the author states ("190 micropackets per
// second", a Munin graph's figure) when no counter is read: by the rule's rate line, and the
// registry keeps it below critical (weighStated). The share of packets is not known, so a
// rate at or above the line warns.
func rxDroppedStated(st *model.Sample) Result {
	v := st.Rates[model.RateStatedRxDroppedPerSec]
	if v < rxDropWarnPerSec {
		return Healthy("receive drops at %.3g/s, as the author states it: below %.0f/s, the trickle of frames no protocol wants", v, rxDropWarnPerSec)
	}
	return Fired(Finding{Severity: Warning, Title: fmt.Sprintf("an interface drops %.3g received packets/s", v),
		Evidence: []Evidence{{What: "rx_dropped growth", Value: fmt.Sprintf("%.3g/s, stated by the author; no interface counters in the input (ip -s link twice would measure it and its share)", v), Source: sampleSource(st, "the text")}},
		Explanation: "rx_dropped counts packets the stack received but did not process: a full backlog, frames no protocol " +
			"handler wanted, bad VLAN tags, or the driver's own reasons. The counters of two readings (ip -s link, " +
			"/proc/net/dev) and softnet_stat tell which."})
}

// xdpDropped sums the interface's ethtool -S counts of XDP_DROP verdicts (mlx5 "rx_xdp_drop"
// and "rx0_xdp_drop", virtio_net's and veth's "rx_queue_0_xdp_drops", ENA's
// "queue_0_rx_xdp_drop", sfc's "rx_xdp_drops"), with the first name; 0 when none was read.
func xdpDropped(tl *model.Timeline, name string) (int64, string) {
	s := tl.LastWith(func(s *model.Sample) bool { st := nicStats(s, name); return st != nil && st.Stats != nil })
	if s == nil {
		return 0, ""
	}
	st := nicStats(s, name).Stats
	var total int64
	first := ""
	for i := 0; i < st.Len(); i++ {
		n, v := st.At(i)
		if !strings.Contains(n, "xdp_drop") || strings.HasPrefix(strings.TrimSpace(n), "tx") || v <= 0 {
			continue
		}
		if first == "" {
			first = strings.TrimSpace(n)
		}
		total += v
	}
	return total, first
}
