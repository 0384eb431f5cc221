package plan

import (
	"fmt"
	"strconv"
	"time"

	"headroom/model"
	"headroom/units"
)

// guide is a published set of values. Zero fields are left alone by that guide.
type guide struct {
	name, source       string
	coreRmem, coreWmem int64
	tcpRmem, tcpWmem   [3]int64
	backlog            int64
	cc                 string
}

// The ESnet tiers as published on fasterdata.es.net/host-tuning/linux/ ("For a host with a
// 10G NIC, optimized for network paths up to 100ms RTT" and "... up to 200ms RTT, ... or a
// 40G NIC up on paths up to 50ms RTT"). The page is for hosts at 1 Gbit/s and above and has
// no smaller tier, so a 1 Gbit/s host gets the first one that covers its RTT.
var (
	esnet100ms = guide{
		name:     "ESnet fasterdata, 10G NIC, RTT ≤ 100 ms",
		source:   "fasterdata.es.net/host-tuning/linux/",
		coreRmem: 67108864, coreWmem: 67108864,
		tcpRmem: [3]int64{4096, 87380, 33554432}, tcpWmem: [3]int64{4096, 65536, 33554432},
		backlog: 30000, cc: "htcp",
	}
	esnet200ms = guide{
		name:     "ESnet fasterdata, 10G NIC with RTT ≤ 200 ms or 40G NIC with RTT ≤ 50 ms",
		source:   "fasterdata.es.net/host-tuning/linux/",
		coreRmem: 134217728, coreWmem: 134217728,
		tcpRmem: [3]int64{4096, 87380, 67108864}, tcpWmem: [3]int64{4096, 65536, 67108864},
		backlog: 250000, cc: "htcp",
	}
	// TuneD's network-throughput profile (profiles/network-throughput/tuned.conf in
	// redhat-performance/tuned), which warns "do not account for any potential hugepage
	// allocation. Ensure that you do not oversubscribe system memory" but does not check.
	tunedThroughput = guide{
		name:    "TuneD network-throughput profile",
		source:  "redhat-performance/tuned profiles/network-throughput/tuned.conf",
		tcpRmem: [3]int64{4096, 131072, 16777216}, tcpWmem: [3]int64{4096, 16384, 16777216},
	}
)

// esnetTier picks the published tier for a NIC speed and RTT.
func esnetTier(nicBitsPerSec float64, rtt time.Duration) (guide, string) {
	switch {
	case nicBitsPerSec <= 10e9 && rtt <= 100*time.Millisecond:
		return esnet100ms, ""
	case (nicBitsPerSec <= 10e9 && rtt <= 200*time.Millisecond) || (nicBitsPerSec <= 40e9 && rtt <= 50*time.Millisecond):
		return esnet200ms, ""
	}
	return esnet200ms, "beyond the published tiers; the largest is shown"
}

// guides checks each guide's values against the plan's budget, with the same worst-case
// rule: per stream max(tcp_xmem max, 2 × net.core.xmem_max) for each direction the role uses
// (2× because the kernel doubles SO_RCVBUF/SO_SNDBUF). A guide that leaves net.core.*mem_max
// alone is charged the host's current value when known.
func guides(in Input, p Plan, cur currentMap) []Guide {
	// The tier is chosen by the fastest single NIC, not a bond's sum.
	var nic float64
	for _, m := range in.NICs {
		nic = max(nic, float64(m.SpeedMbps)*1e6)
	}
	if nic <= 0 {
		nic = in.BandwidthBitsPerSec
	}
	es, tierNote := esnetTier(nic, in.RTT)
	var out []Guide
	for _, g := range []guide{es, tunedThroughput} {
		out = append(out, checkGuide(in, p, cur, g, tierNote))
		tierNote = ""
	}
	return out
}

func checkGuide(in Input, p Plan, cur currentMap, g guide, note string) Guide {
	coreR, coreW := g.coreRmem, g.coreWmem
	if coreR == 0 {
		coreR, _ = cur.int("net.core.rmem_max")
	}
	if coreW == 0 {
		coreW, _ = cur.int("net.core.wmem_max")
	}
	var perStream int64
	var parts []string
	if in.receives() {
		r := max(g.tcpRmem[2], 2*coreR)
		perStream += r
		parts = append(parts, units.FormatBytes(r))
	}
	if in.sends() {
		w := max(g.tcpWmem[2], 2*coreW)
		perStream += w
		parts = append(parts, units.FormatBytes(w))
	}
	worst := int64(in.Streams) * perStream
	out := Guide{Name: g.name, Source: g.source, WorstCaseBytes: worst, FitsBudget: worst <= p.Budget.BudgetBytes}

	add := func(key, v, why string) {
		out.Settings = append(out.Settings, model.Change{Kind: model.ChangeSysctl, Key: key, Current: cur.raw(key), Recommended: v, Why: why, Rule: "plan"})
	}
	if g.coreRmem > 0 {
		add("net.core.rmem_max", strconv.FormatInt(g.coreRmem, 10), "guide value")
	}
	if g.coreWmem > 0 {
		add("net.core.wmem_max", strconv.FormatInt(g.coreWmem, 10), "guide value")
	}
	add("net.ipv4.tcp_rmem", fmt.Sprintf("%d %d %d", g.tcpRmem[0], g.tcpRmem[1], g.tcpRmem[2]), "guide value")
	add("net.ipv4.tcp_wmem", fmt.Sprintf("%d %d %d", g.tcpWmem[0], g.tcpWmem[1], g.tcpWmem[2]), "guide value")
	if g.backlog > 0 {
		add("net.core.netdev_max_backlog", strconv.FormatInt(g.backlog, 10), "guide value")
	}
	if g.cc != "" {
		add("net.ipv4.tcp_congestion_control", g.cc, "guide value")
	}

	sum := parts[0]
	if len(parts) == 2 {
		sum = parts[0] + " + " + parts[1]
	}
	verdict := "fits"
	if !out.FitsBudget {
		verdict = fmt.Sprintf("is %.1f× over", float64(worst)/float64(p.Budget.BudgetBytes))
	}
	oneStream := ThroughputBitsPerSec(g.tcpRmem[2], in.RTT, p.WindowRatio)
	out.Why = fmt.Sprintf("worst case %s × (%s) = %s %s the budget %s; one stream could reach %s at %v, the plan needs %s",
		plural(in.Streams, "stream"), sum, units.FormatBytes(worst), verdict, units.FormatBytes(p.Budget.BudgetBytes), units.FormatBitsPerSec(oneStream), in.RTT, units.FormatBitsPerSec(p.StreamBitsPerSec))
	if !out.FitsBudget && p.Budget.WorstCaseBytes > p.Budget.BudgetBytes {
		// With this many streams even the kernel's default maxima, which plan keeps, exceed
		// the budget: the sum is held by tcp_mem, and the guide's caps only decide how much
		// one flow that needs it may take.
		out.Why += fmt.Sprintf("; plan's own maxima (at least the kernel's defaults) give %s as well: with %s the caps cannot hold the budget, tcp_mem's max does",
			units.FormatBytes(p.Budget.WorstCaseBytes), plural(in.Streams, "stream"))
	}
	if note != "" {
		out.Why += "; " + note
	}
	return out
}
