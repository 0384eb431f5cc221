package diagnose

import (
	"fmt"
	"headroom/plan"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// conntrack-full: netfilter's connection tracking table holds at most nf_conntrack_max
// entries; when a new connection finds it full and no entry can be evicted early, the packet
// is dropped and the kernel logs "nf_conntrack: table full, dropping packet"
// (__nf_conntrack_alloc, net/netfilter/nf_conntrack_core.c; "ip_conntrack: table full" on
// kernels before the nf_conntrack rewrite of 2.6.15–2.6.22). The drop hits new connections
// (SYNs): clients see connect timeouts while established flows continue.
func init() {
	Register(Rule{
		ID:     "conntrack-full",
		Title:  "netfilter connection tracking table full or nearly full",
		Family: FamilyNetwork,
		Check:  checkConntrackFull,
	})
}

// conntrackWarnShare: netdata's netfilter_conntrack_full warns above 90% (critical above
// 95%); node-mixin's NodeHighNumberConntrackEntriesUsed warns above 75%. We warn at 90%:
// the table is meant to be used, and flows come and go; we call it critical only when
// packets were dropped (the log line) or the count reached the maximum.
const conntrackWarnShare = 0.9

var conntrackCountKeys = []string{"net.netfilter.nf_conntrack_count", "net.ipv4.netfilter.ip_conntrack_count"}
var conntrackMaxKeys = []string{"net.netfilter.nf_conntrack_max", "net.nf_conntrack_max", "net.ipv4.netfilter.ip_conntrack_max"}

func checkConntrackFull(tl *model.Timeline) Result {
	var ev []Evidence
	sev := Severity(-1)
	count, countSrc, okC := netFirstIntSysctl(tl, conntrackCountKeys)
	maxV, maxSrc, okM := netFirstIntSysctl(tl, conntrackMaxKeys)
	recs := logMatches(tl, kernel.MsgConntrackFull...)
	if okM && maxV <= 0 {
		// No share can be computed against a maximum of 0 (a truncated or placeholder value):
		// judge only the log, as when the maximum is absent.
		okM = false
	}
	if !(okC && okM) && len(recs) == 0 {
		if len(tl.Log) > 0 {
			return Healthy("no \"table full, dropping packet\" in %d log lines; conntrack count and maximum not available (module not loaded, or not in the input)", len(tl.Log))
		}
		return NotChecked("no nf_conntrack_count/nf_conntrack_max sysctls (a positive nf_conntrack_max and the count) and no kernel log")
	}
	if okC && okM && maxV > 0 {
		share := float64(count) / float64(maxV)
		ev = append(ev, Evidence{What: "conntrack entries / maximum", Value: fmt.Sprintf("%d / %d = %s", count, maxV, netPct(share)), Source: countSrc + ", " + maxSrc})
		switch {
		case count >= maxV:
			sev = Critical
		case share >= conntrackWarnShare:
			sev = Warning
		}
	}
	if len(recs) > 0 {
		sev = Critical
		ev = append(ev, logEvidence("kernel log: new connections dropped", recs))
	}
	if sev < 0 {
		return Healthy("conntrack %d of %d entries (%s)", count, maxV, netPct(float64(count)/float64(maxV)))
	}
	f := Finding{
		Severity: sev,
		Title:    "the connection tracking table is full: new connections are dropped",
		Evidence: ev,
		Explanation: "Every flow through netfilter's stateful rules or NAT takes a conntrack entry until it " +
			"times out (established TCP: 5 days by default; TIME_WAIT 2 min). A full table drops the first " +
			"packet of new flows, so clients time out connecting while existing flows continue. Raise " +
			"nf_conntrack_max (each entry costs about 300 bytes of unswappable slab; also raise " +
			"nf_conntrack_buckets so chains stay short), shorten the timeouts that hold dead flows " +
			"(nf_conntrack_tcp_timeout_established, _time_wait), or exempt high-volume traffic from " +
			"tracking (the raw table's NOTRACK / notrack). Seed 002's firewall, which degraded after floods " +
			"and never recovered, is the kind of host to check.",
	}
	if okM {
		rec := maxV * 2
		f.Changes = append(f.Changes, model.Change{
			Kind: model.ChangeSysctl, Key: "net.netfilter.nf_conntrack_max", Current: strconv.FormatInt(maxV, 10), Recommended: strconv.FormatInt(rec, 10),
			Why: fmt.Sprintf("twice the entries; at about 300 bytes each the table may then hold %s of slab", plan.FormatBytes(rec*300)),
		})
	}
	return Fired(f)
}

// netFirstIntSysctl returns the first of keys the host has, as an integer.
func netFirstIntSysctl(tl *model.Timeline, keys []string) (int64, string, bool) {
	for _, k := range keys {
		if v, src, ok := tl.Sysctl(k); ok {
			if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); err == nil {
				return n, src, true
			}
		}
	}
	return 0, "", false
}
