package diagnose

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
)

// softnet-squeeze: net_rx_action() (net/core/dev.c), the NET_RX softirq, polls NAPI devices
// and the per-CPU backlog until it has processed net.core.netdev_budget packets (default
// 300) or run for net.core.netdev_budget_usecs (4.12+, commit 7acf8a1e8a28, default 2000 µs;
// before 4.12 a fixed 2 jiffies); if work is left it counts sd->time_squeeze (third column of
// /proc/net/softnet_stat) and defers the rest to the next softirq round or to ksoftirqd, an
// ordinary thread that waits behind runnable tasks. Meanwhile the NIC ring and the backlog
// keep filling: squeezes are the precursor of softnet-backlog-drops and nic-rx-overruns.
func init() {
	Register(Rule{
		ID:     "softnet-squeeze",
		Title:  "receive softirq ran out of budget or time with packets left (softnet_stat time_squeeze)",
		Family: FamilyNetwork,
		Check:  checkSoftnetSqueeze,
	})
}

// squeezeWarnPerSec: at one squeeze a second, a round ends with work left every second;
// netdata's 1hour_netdev_budget_ran_outs warns at more than 10 in an hour, a level meant for
// fleets watched continuously; a few seconds of doctor sampling needs a rate.
const squeezeWarnPerSec = 1.0

func checkSoftnetSqueeze(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool { return len(s.Softnet) > 0 })
	if last == nil {
		return NotChecked("no /proc/net/softnet_stat in the input")
	}
	src := sampleSource(last, "/proc/net/softnet_stat")
	var total int64
	for _, c := range last.Softnet {
		total += c.TimeSqueeze
	}
	per, seconds, hasWindow := tl.SoftnetWindow()
	win := model.SoftnetTotals(per)
	delta, dropDelta := win.TimeSqueeze, win.Dropped
	perCPU := map[int]int64{}
	if hasWindow {
		for _, d := range per {
			perCPU[d.CPU] += d.TimeSqueeze
		}
	} else {
		for _, c := range last.Softnet {
			perCPU[c.CPU] += c.TimeSqueeze
		}
	}
	if total == 0 {
		return Healthy("time_squeeze is 0 on all %d CPUs", len(last.Softnet))
	}
	ev := []Evidence{{What: "softnet_stat time_squeeze since boot", Value: fmt.Sprintf("%d (%s)", total, netCPUList(netPerCPU(last.Softnet, func(c kernel.SoftnetCPU) int64 { return c.TimeSqueeze }))), Source: src}}
	sev := Info
	if hasWindow {
		v := fmt.Sprintf("+%d", delta)
		rate := 0.0
		if seconds > 0 {
			rate = float64(delta) / seconds
			v += fmt.Sprintf(" over %.1f s (%s)", seconds, netRate(rate))
		}
		ev = append(ev, Evidence{What: "time_squeeze while sampled", Value: v, Source: src})
		if delta > 0 && (seconds == 0 || rate >= squeezeWarnPerSec) {
			sev = Warning
			if dropDelta > 0 {
				sev = Critical
				ev = append(ev, Evidence{What: "softnet_stat dropped while sampled", Value: fmt.Sprintf("+%d: the backlog overflowed in the same window", dropDelta), Source: src})
			}
		}
	} else {
		// One sample (a paste): a since-boot total says it happened, not how often.
		sev = Info
	}
	if spread := softnetSpread(perCPU); spread != "" {
		ev = append(ev, Evidence{What: "squeeze distribution", Value: spread, Source: src})
	}
	if softnetRPSOff(last.Softnet) {
		ev = append(ev, Evidence{What: "received_rps (packets steered to this CPU by RPS)", Value: "0 on every CPU: RPS/RFS not in use", Source: src})
	}
	for _, k := range []string{"net.core.netdev_budget", "net.core.netdev_budget_usecs"} {
		if v, s, ok := tl.Sysctl(k); ok {
			ev = append(ev, Evidence{What: k, Value: v, Source: s})
		}
	}
	f := Finding{
		Severity: sev,
		Title:    "receive processing ran out of its softirq budget with packets waiting",
		Evidence: ev,
		Explanation: "Each NET_RX softirq round stops after netdev_budget packets or netdev_budget_usecs " +
			"(2 jiffies before 4.12) and leaves the rest for later, often to ksoftirqd, which then competes " +
			"with every runnable task. While it waits, the NIC ring and the per-CPU backlog fill; when they " +
			"are full, packets are lost (softnet-backlog-drops, nic-rx-overruns). A larger netdev_budget lets " +
			"a round finish bursts; a CPU that squeezes all the time is simply saturated: spread the load " +
			"(RSS queues, interrupt affinity, RPS) rather than raise budgets, which lengthen the time other " +
			"work waits behind softirq.",
	}
	if c, ok := netdevBudgetChange(tl); ok && sev >= Warning {
		f.Changes = append(f.Changes, c)
	}
	return Fired(f)
}

// netdevBudgetChange sizes netdev_budget with plan from the packet rate of the links (line
// rate) or, without link speeds, twice the highest packet rate measured.
func netdevBudgetChange(tl *model.Timeline) (model.Change, bool) {
	curStr, _, ok := tl.Sysctl("net.core.netdev_budget")
	if !ok {
		return model.Change{}, false
	}
	cur, err := strconv.ParseInt(strings.TrimSpace(curStr), 10, 64)
	if err != nil {
		return model.Change{}, false
	}
	usecs := int64(plan.DefaultNetdevBudgetUsecs)
	if v, _, ok := tl.Sysctl("net.core.netdev_budget_usecs"); ok {
		if u, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil && u > 0 {
			usecs = u
		}
	}
	pps, why := netPacketRate(tl)
	if pps <= 0 {
		return model.Change{}, false
	}
	want := plan.NetdevBudgetPackets(pps, usecs)
	rec := want
	reason := fmt.Sprintf("%s × netdev_budget_usecs %d µs = %d packets per round (plan.NetdevBudgetPackets)", why, usecs, want)
	if want <= cur {
		rec = min(cur*2, 4096)
		reason = fmt.Sprintf("%s needs only %d per round, yet rounds end with work left: the time limit or the CPU is the bound; doubling the packet budget lets bursts finish, at the cost of longer softirq runs", why, want)
	}
	if rec <= cur {
		return model.Change{}, false
	}
	return model.Change{Kind: model.ChangeSysctl, Key: "net.core.netdev_budget", Current: curStr, Recommended: strconv.FormatInt(rec, 10), Why: reason}, true
}

// netPacketRate is the rate to size per-round budgets for: the NICs' line rate at their MTU, or
// twice the highest measured receive packet rate.
func netPacketRate(tl *model.Timeline) (float64, string) {
	var pps float64
	var parts []string
	for _, n := range tl.Host.NICs {
		if n.Virtual || n.SpeedMbps <= 0 {
			continue
		}
		mtu := int(n.MTU)
		if mtu <= 0 {
			mtu = 1500
		}
		p := plan.PacketsPerSec(float64(n.SpeedMbps)*1e6, mtu)
		pps += p
		parts = append(parts, fmt.Sprintf("%s %d Mbit/s at MTU %d", n.Name, n.SpeedMbps, mtu))
	}
	if pps > 0 {
		return pps, fmt.Sprintf("line rate %.0f packets/s (%s)", pps, strings.Join(parts, ", "))
	}
	_, vals := tl.Series(model.RateRxPacketsPerSec)
	peak := 0.0
	for _, v := range vals {
		peak = max(peak, v)
	}
	if peak > 0 {
		return 2 * peak, fmt.Sprintf("2 × the peak measured %.0f packets/s", peak)
	}
	return 0, ""
}

func netPerCPU(cpus []kernel.SoftnetCPU, get func(kernel.SoftnetCPU) int64) map[int]int64 {
	m := map[int]int64{}
	for _, c := range cpus {
		m[c.CPU] += get(c)
	}
	return m
}

// netCPUList prints the non-zero per-CPU values: "cpu0 12, cpu3 4".
func netCPUList(m map[int]int64) string {
	cpus := make([]int, 0, len(m))
	for c, v := range m {
		if v != 0 {
			cpus = append(cpus, c)
		}
	}
	sort.Ints(cpus)
	parts := make([]string, 0, len(cpus))
	for _, c := range cpus {
		parts = append(parts, fmt.Sprintf("cpu%d %d", c, m[c]))
	}
	if len(parts) > 8 {
		parts = append(parts[:8], fmt.Sprintf("... %d more CPUs", len(parts)-8))
	}
	return strings.Join(parts, ", ")
}

// softnetSpread says when one CPU takes most of the squeezes on a multi-CPU host.
func softnetSpread(m map[int]int64) string {
	var total, top int64
	topCPU := -1
	for c, v := range m {
		total += v
		if v > top || (v == top && c < topCPU) {
			top, topCPU = v, c
		}
	}
	if total <= 0 || len(m) < 2 {
		return ""
	}
	if share := float64(top) / float64(total); share >= 0.9 {
		return fmt.Sprintf("cpu%d has %s of them: one CPU does the receive work; spread it (RSS queues, IRQ affinity, RPS)", topCPU, netPct(share))
	}
	return ""
}

// softnetRPSOff reports whether the received_rps column (2.6.35+) is printed and zero everywhere.
func softnetRPSOff(cpus []kernel.SoftnetCPU) bool {
	if len(cpus) < 2 {
		return false
	}
	for _, c := range cpus {
		if c.Columns < 10 || c.ReceivedRPS != 0 {
			return false
		}
	}
	return true
}
