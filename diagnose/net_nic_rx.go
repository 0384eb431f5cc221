package diagnose

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// nic-rx-overruns: the NIC had a frame and no free RX descriptor to put it in (the ring was
// full because the host did not refill it fast enough: softirq starved by CPU load, or the
// refill's atomic page allocation failed), or its FIFO overflowed. The frame is lost before
// the kernel sees it; only the driver's counters show it. ifconfig prints it as "overruns"
// (rx_fifo_errors), iproute2 as "missed"/"over"; drivers add their own names in ethtool -S.
func init() {
	Register(Rule{
		ID:     "nic-rx-overruns",
		Title:  "frames lost at the NIC: RX ring or FIFO overruns",
		Family: FamilyNetwork,
		Check: withTraceDrops(checkNICRxOverruns, traceDrops{
			reasons: []string{"FULL_RING"}, what: "a ring was full",
			sev:   Warning,
			title: "packets dropped at full rings (the kernel's reason FULL_RING)",
			// Which code raises it (6.1.192): tun_net_xmit when the tun's ring towards its
			// reader is full (drivers/net/tun.c) and tap_handle_frame for macvtap/ipvtap
			// (drivers/net/tap.c), nothing else; no NIC driver does (measured in Debian's 6.1
			// guest, lab drop-reasons, 2501 of 2501; on a 6.18 host tun_net_xmit raised it too).
			explanation: "A ring had no room for the packet and the kernel dropped it with SKB_DROP_REASON_FULL_RING. " +
				"The drop locations say which ring: tun_net_xmit or tap_handle_frame is a tun or tap device whose reader " +
				"(a VPN daemon, a VM's backend) fell behind and let the queue towards it fill (the device's tx_dropped " +
				"counts it; txqueuelen sizes it); a NIC whose receive ring overran loses the frame before any skb " +
				"exists, so that loss is in the driver's counters (rx_missed, rx_fifo), not in this count.",
		}),
	})
}

// The counters are classified by kernel.ClassifyNetDevCounter and kernel.ClassifyNICCounter,
// the table serve's headroom_nic_loss_total and the JSON of a pasted ethtool -S use too: a
// counter is an overrun when it counts received frames lost for lack of ring or FIFO room
// (NICLoss.RxOverrun), a refill failure when the driver's RX buffer allocation failed.

// overrunRatioWarn is the share of received frames lost above which a since-boot total is
// worth a warning: 0.01% loss already caps a single long-RTT TCP stream well below line rate
// (Mathis et al.: rate ≈ MSS/RTT × 1.22/√p; at 125 ms, p = 1e-4 gives ~11 Mbit/s).
const overrunRatioWarn = 1e-4

func checkNICRxOverruns(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool { return len(s.NetDev) > 0 || len(s.NICStats) > 0 })
	if last == nil {
		// No counter, but the author states that the NIC overran ("resulting in packet
		// overruns"): a finding from the sentence, kept below critical by the registry.
		if r, ok := statedNICOverrun(tl); ok {
			return r
		}
		if st := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateLoggedRxFIFOOverflows] > 0 }); st != nil {
			return Fired(Finding{Severity: Warning, Title: "the network controller lost received frames: its receive FIFO or ring overflowed",
				Evidence: []Evidence{{What: "kernel log records of the driver's receive FIFO overflow (each also counted in the interface's rx_over_errors)",
					Value: fmt.Sprintf("%.0f", st.Rates[model.RateLoggedRxFIFOOverflows]), Source: sampleSource(st, "the kernel log")}},
				Explanation: "The driver read the controller's overflow flag: a frame arrived while its receive FIFO was full or no receive " +
					"descriptor was free (a CAN controller's FIFO overflow; an Ethernet MAC's NO_RXBUF or RPKT_LOST), because " +
					"the host did not drain it in time (interrupt latency, a slow SPI or USB link, a busy CPU, an interrupt the kernel " +
					"disabled). Not memory. ip -s -s link show on the interface (overrun) counts the total."})
		}
		if st := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateCaptureIfDrops] > 0 }); st != nil {
			return Fired(Finding{Severity: Warning, Title: "the captured interface lost received frames at the NIC (ring or FIFO overrun)",
				Evidence: []Evidence{{What: "packets dropped by interface (tcpdump; libpcap's ps_ifdrop: rx_missed_errors + rx_fifo_errors since the capture began)",
					Value: fmt.Sprintf("%.0f", st.Rates[model.RateCaptureIfDrops]), Source: sampleSource(st, "the text")}},
				Explanation: "libpcap counts as dropped by the interface the NIC's own missed and FIFO errors on the captured interface while the " +
					"capture ran: frames the NIC could not place because no receive descriptor was free. The capture's \"dropped by kernel\" is " +
					"another loss (its socket's ring). ip -s -s link or ethtool -S on the interface names the counter and its total."})
		}
		if r, ok := nicRxFIFORates(tl); ok {
			return r
		}
		if r, ok := nicRxRingLossRates(tl); ok {
			return r
		}
		return NotChecked("no interface counters: needs /proc/net/dev, ethtool -S, ifconfig, ip -s link or sar -n EDEV")
	}
	// Each interface is judged on its own latest and earliest samples: a live sample holds
	// every interface, but a pasted text may show one in ifconfig, another in ethtool -S.
	var names []string
	seen := map[string]bool{}
	for i := range tl.Samples {
		for _, d := range tl.Samples[i].NetDev {
			if !seen[d.Name] {
				seen[d.Name] = true
				names = append(names, d.Name)
			}
		}
	}
	var findings []Finding
	// An interface is checked only when an overrun counter of it was read, zero or not: a
	// grep of ethtool -S for rx_dropped holds none, and "no overruns" would then be a guess.
	var checked int
	var unread []string
	countRead := func(dev kernel.NetDev, st *kernel.NICStats) {
		if hasOverrunCounter(tl, dev, st) {
			checked++
		} else {
			unread = append(unread, dev.Name)
		}
	}
	for _, name := range names {
		if name == "lo" {
			continue
		}
		has := func(s *model.Sample) bool { return hasNetDev(s, name) }
		lastS, firstS := tl.LastWith(has), tl.FirstWith(has)
		var dev kernel.NetDev
		var prev *kernel.NetDev
		for k := range lastS.NetDev {
			if lastS.NetDev[k].Name == name {
				dev = lastS.NetDev[k]
			}
		}
		if firstS != lastS {
			for k := range firstS.NetDev {
				if firstS.NetDev[k].Name == name {
					prev = &firstS.NetDev[k]
				}
			}
		}
		stats := nicStats(lastS, name)
		if stats == nil {
			if s := tl.LastWith(func(s *model.Sample) bool { return nicStats(s, name) != nil }); s != nil {
				stats = nicStats(s, name)
			}
		}
		countRead(dev, stats)
		if f, ok := overrunFinding(tl, lastS, firstS, dev, prev, stats); ok {
			findings = append(findings, f)
		}
	}
	// Interfaces seen only through ethtool (no netdev line anywhere).
	done := map[string]bool{}
	for i := len(tl.Samples) - 1; i >= 0; i-- {
		s := &tl.Samples[i]
		for k := range s.NICStats {
			st := s.NICStats[k]
			if seen[st.Name] || done[st.Name] || st.Stats == nil {
				continue
			}
			done[st.Name] = true
			var firstS *model.Sample = s
			if fs := tl.FirstWith(func(x *model.Sample) bool { return nicStats(x, st.Name) != nil }); fs != nil {
				firstS = fs
			}
			countRead(kernel.NetDev{Name: st.Name}, &st)
			if f, ok := overrunFinding(tl, s, firstS, kernel.NetDev{Name: st.Name}, nil, &st); ok {
				findings = append(findings, f)
			}
		}
	}
	if len(findings) == 0 {
		switch {
		case checked == 0 && len(unread) == 0:
			return NotChecked("no RX overrun, missed or FIFO counter of a network interface in the input (loopback is not judged, ring sizes are not losses): needs /proc/net/dev, ip -s -s link, ifconfig or ethtool -S")
		case checked == 0:
			// fix55a: the counters read hold no overrun counter (an ifconfig cut before its
			// RX lines), and the text states the overrun: the statement, as with no counters.
			if r, ok := statedNICOverrun(tl); ok {
				return r
			}
			return NotChecked("the counters read for %s hold no RX overrun, missed or FIFO counter (a grep of ethtool -S that kept none of them?): needs /proc/net/dev, ip -s -s link, ifconfig or the whole ethtool -S", strings.Join(unread, ", "))
		case len(unread) > 0:
			return Healthy("no RX overrun, missed or FIFO errors on %s; not read for %s (no such counter in the input)", interfaces(checked), strings.Join(unread, ", "))
		}
		return Healthy("no RX overrun, missed or FIFO errors on %s", interfaces(checked))
	}
	return Fired(findings...)
}

func interfaces(n int) string {
	if n == 1 {
		return "1 interface"
	}
	return fmt.Sprintf("%d interfaces", n)
}

// hasOverrunCounter: an RX overrun counter of the interface was read, whatever its value.
func hasOverrunCounter(tl *model.Timeline, dev kernel.NetDev, st *kernel.NICStats) bool {
	for _, name := range kernel.RxOverrunNetDevCounters {
		if dev.Counters.Has(name) {
			return true
		}
	}
	if st == nil || st.Stats == nil {
		return false
	}
	for _, l := range kernel.ClassifyNICStats(st.Stats, isVirtualNIC(tl, dev.Name)) {
		if l.RxOverrun() {
			return true
		}
	}
	return false
}

func hasNetDev(s *model.Sample, name string) bool {
	for _, d := range s.NetDev {
		if d.Name == name {
			return true
		}
	}
	return false
}

func nicStats(s *model.Sample, name string) *kernel.NICStats {
	for i := range s.NICStats {
		if s.NICStats[i].Name == name {
			return &s.NICStats[i]
		}
	}
	return nil
}

func overrunFinding(tl *model.Timeline, last, first *model.Sample, dev kernel.NetDev, prev *kernel.NetDev, st *kernel.NICStats) (Finding, bool) {
	src := sampleSource(last, "/proc/net/dev")
	since := "since boot"
	if dev.UserSpace {
		since = "since the port started"
	}
	var ev []Evidence
	var lost, lostDelta int64
	hasDelta := false
	for _, name := range kernel.RxOverrunNetDevCounters {
		v, ok := dev.Counters.Get(name)
		if !ok || v == 0 {
			continue
		}
		lost += v
		val := fmt.Sprintf("%d %s", v, since)
		if prev != nil {
			if p, ok := prev.Counters.Get(name); ok {
				d, kind := model.Delta(p, v, tl.Host.NetDevCounterWidth())
				hasDelta = true
				lostDelta += d
				val = fmt.Sprintf("%d %s, +%d %s%s", v, since, d, window(tl), deltaNote(kind))
			}
		}
		ev = append(ev, Evidence{What: dev.Name + " " + name, Value: val, Source: src})
	}
	var allocFail int64
	if st != nil && st.Stats != nil {
		var prevStats *kernel.NICStats
		if first != last {
			prevStats = nicStats(first, dev.Name)
		}
		losses := kernel.ClassifyNICStats(st.Stats, isVirtualNIC(tl, dev.Name))
		sort.Slice(losses, func(i, j int) bool { return losses[i].Name < losses[j].Name })
		for _, loss := range losses {
			name, v := loss.Name, loss.Value
			isOverrun := loss.RxOverrun()
			isAlloc := loss.Cause == kernel.NICCauseRefill
			if v == 0 || !(isOverrun || isAlloc) {
				continue
			}
			// The standard counters already seen above would double count; a name that is
			// an overrun only on this driver (i40e's VSI rx_dropped) was not among them.
			if isOverrun && dev.Counters.Has(name) && slices.Contains(kernel.RxOverrunNetDevCounters, name) {
				continue
			}
			val := fmt.Sprintf("%d %s", v, since)
			if prevStats != nil && prevStats.Stats != nil {
				if p, ok := prevStats.Stats.Get(name); ok {
					// ethtool statistics are u64 (struct ethtool_stats).
					d, kind := model.Delta(p, v, model.Width64)
					val = fmt.Sprintf("%d %s, +%d %s%s", v, since, d, window(tl), deltaNote(kind))
					if isOverrun {
						hasDelta = true
						lostDelta += d
					}
				}
			}
			if isAlloc {
				allocFail += v
			} else if !dev.Counters.Has("rx_missed_errors") && !dev.Counters.Has("rx_fifo_errors") {
				lost += v
			}
			evSrc := "ethtool -S " + dev.Name
			if dev.Name == "" {
				evSrc = sampleSource(last, "ethtool -S") // an unnamed interface's: where the text gives it
			}
			ev = append(ev, Evidence{What: strings.TrimSpace(dev.Name + " ethtool " + name), Value: val, Source: evSrc})
		}
	}
	if lost == 0 && allocFail == 0 {
		return Finding{}, false
	}
	sev := Warning
	if rx, rxSrc, ok := rxPacketsOf(tl, dev, st, src); ok && rx > 0 && lost > 0 {
		ratio := float64(lost) / float64(rx+lost)
		ev = append(ev, Evidence{What: dev.Name + " share of frames lost", Value: fmt.Sprintf("%.4f%% (%d of %d)", 100*ratio, lost, rx+lost), Source: rxSrc})
		if ratio < overrunRatioWarn && !hasDelta {
			sev = Info
		}
	} else if !hasDelta && lost > 0 {
		// A since-boot total with nothing to divide it by cannot be called large.
		sev = Info
		ev = append(ev, Evidence{What: dev.Name + " share of frames lost", Value: "not known: the input has no received-packet count for this interface (since-boot totals alone are judged only against one)", Source: src})
	}
	if hasDelta {
		switch {
		case lostDelta == 0:
			sev = Info
		case tl.Span().Seconds() > 0 && float64(lostDelta)/tl.Span().Seconds() >= 1:
			sev = Critical
		default:
			sev = Warning
		}
	}
	if allocFail > 0 && sev < Warning {
		sev = Warning
	}
	note, where := busyNote(tl, last)
	if note != "" {
		ev = append(ev, Evidence{What: "CPU around these counters", Value: note, Source: where})
	}
	f := Finding{
		Facts:    Facts{CPUBusy: note != "", UserSpacePort: dev.UserSpace},
		Severity: sev,
		Title:    nicRxTitle(dev.Name, lost, allocFail),
		Evidence: ev,
		Explanation: "The NIC found no free descriptor in its RX ring (or its FIFO filled) and dropped the frame " +
			"before the kernel saw it. The ring empties only as fast as the NAPI poll refills it: the " +
			"poll is late when the CPU is busy (softirq starved, high iowait on the same cores), and a " +
			"refill stalls when its atomic page allocation fails (see the alloc-fail-* rules). A bigger " +
			"ring absorbs longer stalls (nic-ring-below-max); the causes are CPU time for RX and free " +
			"memory for refills. Note that /proc/net/dev and ifconfig print rx_dropped + rx_missed_errors " +
			"as \"dropped\" (net/core/net-procfs.c), so a dropped count that tracks the overruns is the " +
			"same loss counted again, not a second problem (Fermilab: dropped = 2 × overruns).",
	}
	if allocFail > 0 {
		f.Explanation += " The driver also counts failed RX buffer allocations: memory, not only CPU, is short."
	}
	if st != nil && st.Ring != nil && st.Ring.RxMax > 0 && st.Ring.Rx < st.Ring.RxMax {
		// The change itself comes from nic-ring-below-max, so that tune sees it once.
		f.Evidence = append(f.Evidence, Evidence{What: dev.Name + " RX ring", Value: fmt.Sprintf("%d of pre-set maximum %d (see nic-ring-below-max)", st.Ring.Rx, st.Ring.RxMax), Source: "ethtool -g " + dev.Name})
	}
	return f, true
}

// deltaNote says how a counter moved when it did not simply grow.
func deltaNote(kind model.DeltaKind) string {
	switch kind {
	case model.DeltaWrapped:
		return " (the counter wrapped)"
	case model.DeltaReset:
		return " (the counter was reset: the count since the reset)"
	}
	return ""
}

// isVirtualNIC reports whether an interface is a virtual device, whose per-queue drop
// counters count software drops (veth XDP, virtio) rather than ring overruns.
func isVirtualNIC(tl *model.Timeline, name string) bool {
	for _, n := range tl.Host.NICs {
		if n.Name == name {
			return n.Virtual
		}
	}
	return false
}

// busyNote says when the CPU was saturated or waiting on I/O around the interface counters:
// seed 004's overruns appeared when the box was busy (75.9% wa in top, idle 0 in its vmstat
// rows). It counts samples, so a paste of several tables is described row by row rather than
// by an average one idle table would hide. In a paste only the tables near the counters'
// (two segments either side) are used: the rest of a document may be another machine (seed
// 004's last vmstat is a 64-bit box).
func busyNote(tl *model.Timeline, near *model.Sample) (string, string) {
	use, where := busySamples(tl, near)
	idleIdx, idle := filterSeries(tl, model.RateCPUIdlePct, use)
	if len(idle) == 0 {
		return "", ""
	}
	wa := map[int]float64{}
	waIdx, waVals := filterSeries(tl, model.RateCPUIOWaitPct, use)
	for i, ix := range waIdx {
		wa[ix] = waVals[i]
	}
	var saturated, waiting int
	minIdle, maxWa := 100.0, 0.0
	for i, ix := range idleIdx {
		minIdle = min(minIdle, idle[i])
		w, hasWa := wa[ix]
		if hasWa {
			maxWa = max(maxWa, w)
		}
		switch {
		case idle[i] < busyIdlePct:
			saturated++
		case hasWa && w >= busyIOWaitPct:
			waiting++
		}
	}
	if saturated+waiting == 0 {
		return "", ""
	}
	note := fmt.Sprintf("%d of %d CPU samples busy: %d with idle below %.0f%% (lowest %.0f%%)", saturated+waiting, len(idle), saturated, busyIdlePct, minIdle)
	if len(waVals) > 0 {
		note += fmt.Sprintf(", %d more with iowait ≥ %.0f%% (highest %.0f%%)", waiting, busyIOWaitPct, maxWa)
	}
	return note + ": RX processing competes with a busy box", where
}

// busySamples picks the samples whose CPU split belongs with the counters of near: all of a
// live or recorded timeline, or the segments within two of near's segment in a paste.
func busySamples(tl *model.Timeline, near *model.Sample) (map[int]bool, string) {
	k := -1
	for i := range tl.Samples {
		if &tl.Samples[i] == near {
			k = i
		}
	}
	seg := -1
	for j, sg := range tl.Segments {
		if k >= sg.First && k <= sg.Last {
			seg = j
		}
	}
	use := map[int]bool{}
	if seg < 0 || len(tl.Segments) < 2 {
		for i := range tl.Samples {
			use[i] = true
		}
		return use, "CPU split while sampled"
	}
	var names []string
	for j := max(0, seg-2); j <= min(len(tl.Segments)-1, seg+2); j++ {
		sg := tl.Segments[j]
		hasCPU := false
		for i := sg.First; i <= sg.Last && i < len(tl.Samples); i++ {
			use[i] = true
			if _, ok := tl.Samples[i].Rates.Get(model.RateCPUIdlePct); ok {
				hasCPU = true
			}
		}
		if j != seg && hasCPU {
			names = append(names, sg.Name)
		}
	}
	return use, "CPU tables next to the counters: " + strings.Join(names, ", ")
}

func filterSeries(tl *model.Timeline, key string, use map[int]bool) ([]int, []float64) {
	idx, vals := tl.Series(key)
	var oi []int
	var ov []float64
	for i, ix := range idx {
		if use[ix] {
			oi = append(oi, ix)
			ov = append(ov, vals[i])
		}
	}
	return oi, ov
}

// A sample is busy when idle is below busyIdlePct (the CPU is saturated: softirq and the
// NAPI poll wait behind other work) or iowait reaches busyIOWaitPct (tasks blocked on disk,
// seed 004's 39-75% wa, usually with page-cache reclaim competing for the same memory the RX
// refill needs).
const (
	busyIdlePct   = 10.0
	busyIOWaitPct = 20.0
)

// rxPacketsOf finds the received-packet count for an interface: its own counters, else the
// same name's in another table of the input (a pasted ifconfig beside ethtool -S), else the
// driver's rx_packets in ethtool -S, else per-queue rx_pkts summed.
func rxPacketsOf(tl *model.Timeline, dev kernel.NetDev, st *kernel.NICStats, src string) (int64, string, bool) {
	if v, ok := dev.Counters.Get("rx_packets"); ok && v > 0 {
		return v, src, true
	}
	if dev.Name != "" {
		for i := len(tl.Samples) - 1; i >= 0; i-- {
			for _, d := range tl.Samples[i].NetDev {
				if d.Name == dev.Name {
					if v, ok := d.Counters.Get("rx_packets"); ok && v > 0 {
						return v, sampleSource(&tl.Samples[i], "/proc/net/dev"), true
					}
				}
			}
		}
	}
	if st != nil && st.Stats != nil {
		if v, ok := st.Stats.Get("rx_packets"); ok && v > 0 {
			return v, "ethtool -S " + dev.Name, true
		}
		var sum int64
		for _, n := range st.Stats.Names() {
			if strings.HasPrefix(n, "rxq") && strings.HasSuffix(n, "_rx_pkts") || strings.HasPrefix(n, "rx_queue_") && strings.HasSuffix(n, "_packets") {
				v, _ := st.Stats.Get(n)
				sum += v
			}
		}
		if sum > 0 {
			return sum, "ethtool -S " + dev.Name + " (per-queue packets summed)", true
		}
		// The Intel VSI list (ice, i40e: ICE_VSI_STAT rx_unicast/rx_multicast/rx_broadcast,
		// drivers/net/ethernet/intel/ice/ice_ethtool.c) prints no rx_packets: the frames its
		// rings took are the three casts, its rx_dropped (rx_discards) the ones they could not.
		if kernel.IntelVSIStats(*st.Stats) {
			for _, n := range []string{"rx_unicast", "rx_multicast", "rx_broadcast"} {
				v, _ := st.Stats.Get(n)
				sum += v
			}
			if sum > 0 {
				return sum, "ethtool -S " + dev.Name + " (rx_unicast + rx_multicast + rx_broadcast)", true
			}
		}
	}
	return 0, "", false
}

// nicRxFIFORates judges sar -n EDEV's rxfifo/s (rx_fifo_errors per second, summed over the
// non-loopback interfaces) when no interface counters were read: any FIFO overrun in an
// interval is frames the NIC dropped for want of room in its buffer or ring.
func nicRxFIFORates(tl *model.Timeline) (Result, bool) {
	r := memSeriesStats(tl, model.RateNICRxFIFOPerSec, 0.01)
	if r.n == 0 {
		return Result{}, false
	}
	if r.peak <= 0 {
		return Healthy("rxfifo/s 0 in %d sar -n EDEV intervals", r.n), true
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    "the NIC overran its receive FIFO: frames were dropped before the kernel saw them (sar -n EDEV rxfifo/s)",
		Evidence: []Evidence{{What: "receive FIFO overruns (sar -n EDEV rxfifo/s, all interfaces but lo)",
			Value:  fmt.Sprintf("peak %.2f/s, mean %.2f/s over %d intervals (%d with overruns)", r.peak, r.mean, r.n, r.over),
			Source: memSampleWhere(tl, r.peakIdx, "sar -n EDEV")}},
		Explanation: "rx_fifo_errors count frames the NIC could not place: its FIFO filled because the RX ring had no free " +
			"descriptors (the driver refilled too slowly: receive softirq starved, or refill allocations failing) or the " +
			"bus was too slow. Per-interface counters (ip -s -s link, ethtool -S) say which NIC and whether the ring or " +
			"the refill is short.",
	}), true
}

// nicRxTitle names what the counters say: frames lost at the NIC, or only the driver's
// failures to allocate receive buffers (alloc_rx_buff_failed and its kin: the refill left
// descriptors empty, so the ring was shorter than configured; the frames it lost then show
// as rx_missed or rx_no_buffer_count, which were not counted here).
func nicRxTitle(dev string, lost, allocFail int64) string {
	if dev == "" {
		dev = "a NIC (its name not in the input)"
	}
	if lost == 0 && allocFail > 0 {
		return fmt.Sprintf("%s's driver failed %d times to allocate receive buffers: the RX ring was refilled short", dev, allocFail)
	}
	return fmt.Sprintf("%s lost received frames at the NIC (ring or FIFO overrun)", dev)
}

// nicRxRingLossRates judges ethtool -S ring-loss counters a watch tool printed as rates
// (RateNICRxRingLossPerSec): frames dropped per second for want of a receive descriptor. A
// rate says the loss is going on while it was watched; it is no since-boot count, so the
// finding says so and gives no total.
func nicRxRingLossRates(tl *model.Timeline) (Result, bool) {
	r := memSeriesStats(tl, model.RateNICRxRingLossPerSec, 0.01)
	if r.n == 0 {
		return Result{}, false
	}
	if r.peak <= 0 {
		return Healthy("ring-loss counters at 0/s in %d ethtool -S rate readings", r.n), true
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    "the NIC dropped received frames for want of receive descriptors (ethtool -S, as a rate)",
		Evidence: []Evidence{{What: "ring-loss counters (ethtool -S, printed per second by a watch tool)",
			Value:  fmt.Sprintf("%.1f/s at the peak of %d readings: a rate while it was watched, not a since-boot counter", r.peak, r.n),
			Source: memSampleWhere(tl, r.peakIdx, "ethtool -S rates")}},
		Explanation: "A frame dropped with no receive descriptor posted is one the NIC could not place: the driver did not " +
			"refill its ring in time (receive softirq starved, refill allocations failing) or the ring is too short for " +
			"the bursts. ethtool -g shows the ring's size against its maximum; since-boot counters (ethtool -S without " +
			"the watch tool) give the total.",
	}), true
}

// statedNICOverrun: the finding from the author's statement that the NIC overran ("resulting
// in packet overruns", the drops named as rx_missed_errors), when no counter gives their
// number; kept below critical by the registry.
func statedNICOverrun(tl *model.Timeline) (Result, bool) {
	st := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedRxOverrun] > 0 })
	if st == nil {
		return Result{}, false
	}
	return Fired(Finding{Severity: Warning, Title: "the NIC lost received frames (ring or FIFO overrun)",
		Evidence: []Evidence{{What: "RX overruns", Value: statedBy(st) + "; no interface counter in the input gives their number", Source: sampleSource(st, "the text")}},
		Explanation: "An overrun is a frame the NIC could not place because no receive descriptor was free: the driver did not " +
			"refill its ring in time (a slow allocator, a busy CPU) or the ring is too short for the bursts. The text says so " +
			"in words; ip -s -s link (overrun), ethtool -S (rx_fifo_errors, rx_missed_errors) or /proc/net/dev (fifo) count them."}), true
}
