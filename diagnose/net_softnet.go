package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// softnet-backlog-drops: the per-CPU input backlog (softnet_data.input_pkt_queue, used by
// non-NAPI drivers, RPS and veth/tun) holds at most net.core.netdev_max_backlog packets;
// enqueue_to_backlog drops beyond that and counts it in the second column of
// /proc/net/softnet_stat (net/core/dev.c). Each drop is a packet lost after the NIC
// delivered it, invisible in the NIC's own counters.
func init() {
	Register(Rule{
		ID:     "softnet-backlog-drops",
		Title:  "packets dropped at the per-CPU input backlog (softnet_stat dropped)",
		Family: FamilyNetwork,
		Check: withTraceDrops(checkSoftnetDrops, traceDrops{
			reasons: []string{"CPU_BACKLOG"}, what: "the per-CPU input backlog was full",
			sev:   Warning,
			title: "packets dropped at the per-CPU input backlog (the kernel's reason CPU_BACKLOG)",
			explanation: "Packets handed to the stack by RPS, veth or loopback wait in a per-CPU backlog of at most " +
				"net.core.netdev_max_backlog packets; when it is full enqueue_to_backlog (net/core/dev.c) drops them " +
				"with SKB_DROP_REASON_CPU_BACKLOG.",
		}),
	})
}

// softnetDropsCriticalPerSec: any sustained drop rate is loss; 1/s separates a live problem
// from a stray burst across a few seconds of sampling. node-mixin has no softnet alert;
// netdata's 1hour_netdev_backlog_exceeded warns on any drop in the last hour.
const softnetDropsCriticalPerSec = 1.0

// softnetDropsCriticalShare: a rate alone does not make the loss critical. On a host that
// processes a million packets a second, 2 drops a second is 0.0002% of its traffic, which no
// flow notices; calling it critical puts a healthy busy host beside a collapsed one. The drops
// of a window are critical only when they are also at least 0.1% of the packets the backlog
// saw in it (at 0.1% loss a 50 ms-RTT TCP stream is limited to about 9 Mbit/s, Mathis et
// al.); a smaller continuing share is a warning. When the window's share cannot be computed
// (the processed column wrapped, or was not read), the rate decides as before.
const softnetDropsCriticalShare = 0.001

// softnetBootNoteShare: a since-boot share of at least 1% of the packets is said as a
// chronic loss rate, not one burst (at 1% loss a long-RTT TCP stream is limited to about
// 1 Mbit/s, Mathis et al.). It stays info: without a window nobody saw it move.
const softnetBootNoteShare = 0.01

func checkSoftnetDrops(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool { return len(s.Softnet) > 0 })
	if last == nil {
		if r, ok := softnetDropsStated(tl); ok {
			return r
		}
		return NotChecked("no /proc/net/softnet_stat in the input")
	}
	src := sampleSource(last, "/proc/net/softnet_stat")
	var total int64
	var perCPU []string
	for _, c := range last.Softnet {
		total += c.Dropped
		if c.Dropped > 0 {
			perCPU = append(perCPU, fmt.Sprintf("cpu%d %d", c.CPU, c.Dropped))
		}
	}
	per, seconds, hasWindow := tl.SoftnetWindow()
	win := model.SoftnetTotals(per)
	windowDrops := win.Dropped
	if total == 0 {
		return Healthy("softnet dropped is 0 on all %d CPUs", len(last.Softnet))
	}
	ev := []Evidence{{What: "softnet_stat dropped since boot", Value: fmt.Sprintf("%d (%s)", total, strings.Join(perCPU, ", ")), Source: src}}
	// One sample (a capture, a paste, serve's first scrape): a since-boot count says drops
	// happened, not that they still do; a burst in a lab test or a flood long ago looks the
	// same. It is history, judged as a live window in which the counter did not move (info,
	// no change): one evidence, one verdict (issue 27), whichever path read it. A chronic
	// share is said, with how to see whether it still grows.
	//
	// The processed column is a u32 per CPU: on a busy host it wraps (2^32 packets is 72
	// minutes at 1 Mpps), and a share of the since-boot drops over it would be inflated.
	// When the window shows it wrapped, the share comes from the window only.
	sev := Info
	processed := sumSoftnet(last.Softnet, func(c kernel.SoftnetCPU) int64 { return c.Processed })
	switch {
	case hasWindow && model.SoftnetProcessedWrapped(last, per, seconds):
		ev = append(ev, Evidence{What: "share of the packets the backlog saw since boot", Value: "not computed: the processed column (a u32 per CPU) has wrapped since boot, so it undercounts the packets", Source: src})
	case processed > 0:
		share := float64(total) / float64(processed+total)
		v := fmt.Sprintf("%s (%d of %d since boot)", netPct(share), total, processed+total)
		if share >= softnetBootNoteShare && !hasWindow {
			v += ": a chronic share, not one burst; whether it still drops needs two readings (doctor live, or check softnet-dropping)"
		}
		ev = append(ev, Evidence{What: "share of the packets the backlog saw", Value: v, Source: src})
	}
	if !hasWindow {
		ev = append(ev, Evidence{What: "softnet_stat dropped while sampled", Value: "not measured: one reading (since boot, not seen moving)", Source: src})
	}
	windowShare := -1.0 // not computed
	if hasWindow && win.Processed+win.Dropped > 0 && win.Dropped > 0 && win.Processed >= 0 {
		windowShare = float64(win.Dropped) / float64(win.Processed+win.Dropped)
		v := fmt.Sprintf("%s (%d of %d)", netPct(windowShare), win.Dropped, win.Processed+win.Dropped)
		if seconds > 0 && float64(windowDrops)/seconds >= softnetDropsCriticalPerSec && windowShare < softnetDropsCriticalShare {
			v += fmt.Sprintf(": below the %s that makes continuing drops critical", netPct(softnetDropsCriticalShare))
		}
		ev = append(ev, Evidence{What: "share of the packets the backlog saw while sampled", Value: v, Source: src})
	}
	if hasWindow {
		v := fmt.Sprintf("+%d", windowDrops)
		if seconds > 0 {
			v += fmt.Sprintf(" over %.1f s (%.1f/s)", seconds, float64(windowDrops)/seconds)
		}
		ev = append(ev, Evidence{What: "softnet_stat dropped while sampled", Value: v, Source: src})
		switch {
		case seconds > 0 && float64(windowDrops)/seconds >= softnetDropsCriticalPerSec &&
			(windowShare < 0 || windowShare >= softnetDropsCriticalShare):
			sev = Critical
		case windowDrops > 0:
			sev = Warning
		default:
			sev = Info // none while we watched: the total is history
		}
	}
	backlog, bsrc, ok := tl.Sysctl("net.core.netdev_max_backlog")
	f := Finding{
		Severity: sev,
		Title:    "packets dropped at the per-CPU input backlog",
		Evidence: ev,
		Explanation: "The per-CPU backlog queue (used by RPS, veth/tun and non-NAPI drivers) holds at most " +
			"netdev_max_backlog packets; beyond that the kernel drops them before any socket sees them " +
			"(net/core/dev.c enqueue_to_backlog). Raise netdev_max_backlog to absorb bursts, and spread " +
			"the load with RPS if one CPU takes all of it. Drops that continue with a bigger backlog mean " +
			"the CPU cannot keep up: see softnet-squeeze and the CPU split.",
	}
	if flow := sumSoftnet(last.Softnet, func(c kernel.SoftnetCPU) int64 { return c.FlowLimitCount }); flow > 0 {
		f.Evidence = append(f.Evidence, Evidence{What: "flow_limit_count (drops by the per-flow limit, 3.11+)", Value: fmt.Sprintf("%d: part of the drops come from net.core.flow_limit_cpu_bitmap's flow limit, not the queue length", flow), Source: src})
	}
	if ok {
		f.Evidence = append(f.Evidence, Evidence{What: "net.core.netdev_max_backlog", Value: backlog, Source: bsrc})
		if cur, err := strconv.ParseInt(strings.TrimSpace(backlog), 10, 64); err == nil {
			rec, why := nextBacklog(cur), "double the per-CPU backlog so bursts are queued instead of dropped"
			if pps, ppsWhy := netPacketRate(tl); pps > 0 {
				if want := plan.NetdevMaxBacklogPackets(pps); want > cur {
					rec = want
					why = fmt.Sprintf("%s × %v drain interval = %d packets (plan.NetdevMaxBacklogPackets)", ppsWhy, plan.BacklogDrainInterval, want)
				} else {
					why = fmt.Sprintf("%s needs only %d packets for a %v drain interval, yet the queue overflowed: the CPU drains it late; doubling absorbs longer stalls", ppsWhy, want, plan.BacklogDrainInterval)
				}
			}
			why += fmt.Sprintf(" (memory cost at most packets × ~2 KiB per CPU: %s per CPU)", units.FormatBytes(rec*2048))
			if rec > cur {
				f.Changes = append(f.Changes, model.Change{
					Kind: model.ChangeSysctl, Key: "net.core.netdev_max_backlog",
					Current: backlog, Recommended: strconv.FormatInt(rec, 10), Why: why,
				})
			}
		}
	}
	if sev < Warning {
		// Drops that happened before, not while we watched: evidence, not a reason to change.
		f.Changes = nil
	}
	if spread := singleCPUShare(last.Softnet); spread != "" {
		f.Evidence = append(f.Evidence, Evidence{What: "drop distribution", Value: spread, Source: src})
	}
	return Fired(f)
}

// nextBacklog doubles the backlog, at least to 2000 and at most 65536 (beyond that latency,
// not loss, is the problem: 65536 packets at 1 Mpps is 65 ms of queue).
func nextBacklog(cur int64) int64 {
	n := cur * 2
	if n < 2000 {
		n = 2000
	}
	if n > 65536 {
		n = 65536
	}
	return n
}

func sumSoftnet(cpus []kernel.SoftnetCPU, get func(kernel.SoftnetCPU) int64) int64 {
	var t int64
	for _, c := range cpus {
		t += get(c)
	}
	return t
}

// singleCPUShare says when one CPU holds most drops (a case for RPS, not a bigger queue).
func singleCPUShare(cpus []kernel.SoftnetCPU) string {
	var total, top int64
	topCPU := -1
	for _, c := range cpus {
		total += c.Dropped
		if c.Dropped > top {
			top, topCPU = c.Dropped, c.CPU
		}
	}
	if total == 0 || len(cpus) < 2 {
		return ""
	}
	if share := float64(top) / float64(total); share >= 0.9 {
		return fmt.Sprintf("cpu%d holds %.0f%% of the drops: consider RPS to spread the backlog", topCPU, 100*share)
	}
	return ""
}

// softnetDropsStated judges a monitoring agent's alarm on softnet_stat's dropped column that
// the text says fired (artifact/statedalarm.go: Netdata's 1hour_netdev_backlog_exceeded sums
// the column's growth over the last hour and warns above 0) when no softnet_stat is read:
// packets were dropped at a full per-CPU backlog in the alarm's window. How many of the
// packets is not known: a warning, kept below critical by the registry.
func softnetDropsStated(tl *model.Timeline) (Result, bool) {
	s := tl.LastWith(func(s *model.Sample) bool { _, ok := s.Rates.Get(model.RateStatedSoftnetDropAlarmSec); return ok })
	if s == nil {
		return Result{}, false
	}
	v := "the alarm fired: the counter grew in its window (the count is not in the text)"
	w := s.Rates[model.RateStatedSoftnetDropAlarmSec]
	if r := s.Rates[model.RateStatedSoftnetDroppedPerSec]; r > 0 {
		v = fmt.Sprintf("%.3g/s", r)
		if w > 0 {
			v += fmt.Sprintf(" (%.0f over the alarm's window)", r*w)
		}
	}
	if w > 0 {
		v += fmt.Sprintf("; window %s", alarmWindow(w))
	}
	ev := []Evidence{{What: "softnet_stat dropped growth (a Netdata netdev backlog alarm)", Value: v, Source: sampleSource(s, "the text")}}
	if b, src, ok := tl.Sysctl("net.core.netdev_max_backlog"); ok {
		ev = append(ev, Evidence{What: "net.core.netdev_max_backlog", Value: b, Source: src})
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    "packets dropped at the per-CPU input backlog (a monitoring alarm on softnet_stat dropped fired)",
		Evidence: ev,
		Explanation: "The alarm sums or averages the growth of softnet_stat's second column, packets enqueue_to_backlog " +
			"(net/core/dev.c) dropped because a CPU's backlog held net.core.netdev_max_backlog packets. A raised alarm " +
			"says such drops happened in its window; /proc/net/softnet_stat read twice gives their rate per CPU and " +
			"their share of the packets processed.",
	}), true
}
