package diagnose

import (
	"fmt"
	"headroom/units"
	"slices"
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
	st := readConntrackStats(tl)
	if okM && maxV <= 0 {
		// No share can be computed against a maximum of 0 (a truncated or placeholder value):
		// judge only the log, as when the maximum is absent.
		okM = false
	}
	if !(okC && okM) && len(recs) == 0 && st == nil {
		if f, ok := conntrackStated(tl); ok {
			return Fired(f)
		}
		if tl.Log.Len() > 0 || tl.LogElsewhere > 0 {
			return Healthy("no \"table full, dropping packet\" in %d log lines; conntrack count and maximum not available (module not loaded, or not in the input)", tl.Log.Len())
		}
		return NotChecked("no nf_conntrack_count/nf_conntrack_max sysctls (a positive nf_conntrack_max and the count), no conntrack statistics (conntrack -S, /proc/net/stat/nf_conntrack) and no kernel log")
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
	// quotedOnly: every "table full" record is a line with no time of its own, and the count
	// the same text shows is under half the maximum. A guide quotes the message as the symptom
	// it explains beside its own calm sysctl output (corpus 2583, 7133); a host whose table did
	// fill has the records with their stamps, or a count near the maximum. The message is then
	// shown, but it proves no full table at the time of the count: Info, and no change.
	quotedOnly := len(recs) > 0 && okC && okM && count*2 < maxV && !slices.ContainsFunc(recs, model.LogRecord.Stamped)
	switch {
	case quotedOnly:
		sev = max(sev, Info)
		ev = append(ev, logEvidence("kernel message quoted without a time (an example, or from another time than the count)", recs))
	case len(recs) > 0:
		sev = Critical
		ev = append(ev, logEvidence("kernel log: new connections dropped", recs))
	}
	// The statistics: drop counts packets dropped because no entry could be had even after
	// early_drop, which counts entries evicted to make room; both happen only at
	// nf_conntrack_max (__nf_conntrack_alloc, net/netfilter/nf_conntrack_core.c).
	// But drop also counts the loser of an insertion clash (nf_ct_resolve_clash's drop path,
	// net/netfilter/nf_conntrack_core.c since 4.19), counted in insert_failed as well: when
	// insert_failed covers every drop, the drops are clashes (conntrackInsertFailed names
	// them), not a full table (h13a).
	if st != nil {
		for _, name := range []string{"drop", "early_drop"} {
			v, ok := st.last.Get(name)
			if !ok || v == 0 {
				continue
			}
			if name == "drop" && dropsAreClashes(st, v) {
				continue
			}
			s := Warning // a since-boot total: the table was full at some time
			if d, grew := st.grew(name); grew {
				if d == 0 {
					s = Info
				} else if name == "drop" {
					s = Critical
				}
			}
			sev = max(sev, s)
			what := "conntrack statistics drop: packets dropped for want of an entry"
			if name == "early_drop" {
				what = "conntrack statistics early_drop: entries evicted to make room for new ones"
			}
			ev = append(ev, Evidence{What: what, Value: st.value(name), Source: st.src})
		}
	}
	var findings []Finding
	if sev >= 0 {
		title := "the connection tracking table is full: new connections are dropped"
		if sev == Info && quotedOnly {
			title = fmt.Sprintf("the text quotes \"table full, dropping packet\", but the count it shows is %d of %d: not full when read", count, maxV)
		}
		f := Finding{
			Severity: sev,
			Title:    title,
			Evidence: ev,
			Explanation: "Every flow through netfilter's stateful rules or NAT takes a conntrack entry until it " +
				"times out (established TCP: 5 days by default; TIME_WAIT 2 min). A full table drops the first " +
				"packet of new flows, so clients time out connecting while existing flows continue. Raise " +
				"nf_conntrack_max (each entry costs about 300 bytes of unswappable slab; also raise " +
				"nf_conntrack_buckets so chains stay short), shorten the timeouts that hold dead flows " +
				"(nf_conntrack_tcp_timeout_established, _time_wait), or exempt high-volume traffic from " +
				"tracking (the raw table's NOTRACK / notrack). The firewall in the LKML firewall report, which degraded after floods " +
				"and never recovered, is the kind of host to check.",
		}
		if okM && sev > Info {
			rec := maxV * 2
			f.Changes = append(f.Changes, model.Change{
				Kind: model.ChangeSysctl, Key: "net.netfilter.nf_conntrack_max", Current: strconv.FormatInt(maxV, 10), Recommended: strconv.FormatInt(rec, 10),
				Why: fmt.Sprintf("twice the entries; at about 300 bytes each the table may then hold %s of slab", units.FormatBytes(rec*300)),
			})
		}
		findings = append(findings, f)
	}
	if f, ok := conntrackInsertFailed(st); ok {
		findings = append(findings, f)
	}
	if len(findings) > 0 {
		return Fired(findings...)
	}
	var parts []string
	if okC && okM {
		parts = append(parts, fmt.Sprintf("conntrack %d of %d entries (%s)", count, maxV, netPct(float64(count)/float64(maxV))))
	}
	if st != nil {
		parts = append(parts, fmt.Sprintf("conntrack statistics: drop %s, early_drop %s, insert_failed %s (summed over the CPUs)", st.value("drop"), st.value("early_drop"), st.value("insert_failed")))
	}
	if tl.Log.Len() > 0 {
		parts = append(parts, fmt.Sprintf("no \"table full, dropping packet\" in %d log lines", tl.Log.Len()))
	}
	return Healthy("%s", strings.Join(parts, "; "))
}

// conntrackStats is the conntrack statistics of the input: the newest reading, and the
// first when there are two to compare.
type conntrackStats struct {
	first, last *kernel.Counters
	src         string
}

func readConntrackStats(tl *model.Timeline) *conntrackStats {
	has := func(s *model.Sample) bool { return s.Conntrack != nil }
	last := tl.LastWith(has)
	if last == nil {
		return nil
	}
	if !last.Conntrack.Has("drop") && !last.Conntrack.Has("early_drop") && !last.Conntrack.Has("insert_failed") {
		return nil // none of the counters judged here: nothing to call healthy
	}
	st := &conntrackStats{last: last.Conntrack, src: sampleSource(last, "conntrack -S")}
	if first := tl.FirstWith(has); first != last {
		st.first = first.Conntrack
	}
	return st
}

// grew returns a counter's growth between the first and last readings, when there are two.
func (st *conntrackStats) grew(name string) (int64, bool) {
	if st.first == nil {
		return 0, false
	}
	a, ok1 := st.first.Get(name)
	b, ok2 := st.last.Get(name)
	if !ok1 || !ok2 {
		return 0, false
	}
	// The per-CPU counters are unsigned int (struct ip_conntrack_stat), summed here: a
	// decrease is a reset (module reload, reboot), never a wrap of the sum.
	d, _ := model.Delta(a, b, model.Width64)
	return d, true
}

// value is a counter as evidence: its total, and its growth when two readings exist.
func (st *conntrackStats) value(name string) string {
	v, ok := st.last.Get(name)
	if !ok {
		return "not printed"
	}
	out := fmt.Sprintf("%d since the module loaded", v)
	if d, ok := st.grew(name); ok {
		out += fmt.Sprintf(", +%d between the readings", d)
	}
	return out
}

// conntrackInsertFailed: insert_failed counts packets dropped when their new entry could
// not be inserted at confirmation (__nf_conntrack_confirm, nf_conntrack_core.c), most often
// because another CPU inserted the same tuple first: two packets of one new UDP flow sent at
// once (a resolver's A and AAAA queries over one socket through DNAT) race, and the loser is
// dropped, which clients see as 5-second DNS timeouts. Since 5.x most such clashes are
// resolved (the clash_resolve counter); what is left in insert_failed is lost packets.
func conntrackInsertFailed(st *conntrackStats) (Finding, bool) {
	if st == nil {
		return Finding{}, false
	}
	v, ok := st.last.Get("insert_failed")
	if !ok || v == 0 {
		return Finding{}, false
	}
	sev := Warning
	if d, grew := st.grew("insert_failed"); grew && d == 0 {
		sev = Info
	}
	ev := []Evidence{{What: "conntrack statistics insert_failed: packets dropped when their entry could not be inserted", Value: st.value("insert_failed"), Source: st.src}}
	if c, ok := st.last.Get("clash_resolve"); ok {
		ev = append(ev, Evidence{What: "conntrack statistics clash_resolve: races the kernel resolved without a drop", Value: strconv.FormatInt(c, 10), Source: st.src})
	}
	return Finding{
		Severity: sev,
		Title:    "conntrack insertions failed: packets of new flows were dropped",
		Evidence: ev,
		Explanation: "A new flow's entry is inserted into the table when its first packet leaves netfilter " +
			"(__nf_conntrack_confirm, net/netfilter/nf_conntrack_core.c). When another CPU inserted the same tuple " +
			"first, as when a resolver sends its A and AAAA queries at once over one UDP socket through DNAT " +
			"(Kubernetes services), the loser is dropped and counted in insert_failed: the client waits for its " +
			"timeout (5 s for DNS). Kernels from 5.x resolve most such clashes (clash_resolve); elsewhere the " +
			"resolver option single-request-reopen, or a node-local DNS cache, avoids the race.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "resolver or kernel",
			Recommended: "options single-request-reopen (or use-vc) in resolv.conf of the affected pods, a node-local DNS cache, or a kernel with conntrack clash resolution",
			Why:         "the drop is a race between two packets of one flow, not a full table: raising nf_conntrack_max does not help"}},
	}, true
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

// conntrackStated: only words say the host's table filled ("heavy churn managed to fill up
// the conntrack table"), with no count, maximum, statistics or "table full" line in the
// input: a warning (weighStated) that says the share is not known.
func conntrackStated(tl *model.Timeline) (Finding, bool) {
	stated := tl.LastWith(func(s *model.Sample) bool { return s.Rates[model.RateStatedConntrackFull] > 0 })
	if stated == nil {
		return Finding{}, false
	}
	return Finding{
		Severity: Warning,
		Title:    "the connection tracking table filled: new connections were dropped",
		Evidence: []Evidence{{What: "conntrack table full", Value: statedBy(stated) + "; no nf_conntrack_count/nf_conntrack_max, conntrack -S or \"table full, dropping packet\" line in the input says how full, or how many packets were dropped", Source: sampleSource(stated, "the text")}},
		Explanation: "At nf_conntrack_max a new flow that finds no entry to evict early has its first packet dropped " +
			"(__nf_conntrack_alloc, net/netfilter/nf_conntrack_core.c): new connections time out, the host's own " +
			"(ssh) included, while established flows continue.",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "net.netfilter.nf_conntrack_max",
			Recommended: "read sysctl net.netfilter.nf_conntrack_count net.netfilter.nf_conntrack_max and conntrack -S at the next churn; then raise nf_conntrack_max (and nf_conntrack_buckets) to the peak with room, or exempt the churning traffic from tracking (notrack)",
			Why:         "the text names the full table but not its size"}},
	}, true
}

// dropsAreClashes: every drop of the newest reading (drop, v > 0) is matched by an
// insert_failed, and no entry was evicted for room (early_drop 0): the drops are insertion
// clashes, not a full table.
func dropsAreClashes(st *conntrackStats, v int64) bool {
	ins, ok := st.last.Get("insert_failed")
	if !ok || ins < v {
		return false
	}
	ed, ok := st.last.Get("early_drop")
	return !ok || ed == 0
}
