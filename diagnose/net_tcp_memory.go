package diagnose

import (
	"fmt"
	"headroom/plan"
	"headroom/units"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// tcp-memory-pressure: TCP's global memory accounting (sk_memory_allocated, printed as
// "mem" in /proc/net/sockstat, in pages) crossed tcp_mem[1] (the kernel enters memory
// pressure: buffers stop growing and are trimmed, net/ipv4/tcp.c tcp_enter_memory_pressure)
// or tcp_mem[2] (hard limit: new allocations fail, receive queues are pruned and
// connections aborted with TCPAbortOnMemory). The same state shows as TcpExt
// TCPMemoryPressures rising, "pressure yes" for TCP in /proc/net/protocols, and
// "TCP: out of memory -- consider tuning tcp_mem" in the log (tcp_out_of_memory).
func init() {
	Register(Rule{
		ID:     "tcp-memory-pressure",
		Title:  "TCP memory at or above tcp_mem pressure or limit",
		Family: FamilyNetwork,
		Check: withTraceDrops(checkTCPMemoryPressure, traceDrops{
			reasons: []string{"PROTO_MEM"}, what: "the protocol's memory limit (tcp_mem, udp_mem) was reached",
			sev:   Warning,
			title: "packets dropped at the protocol memory limit (the kernel's reason PROTO_MEM)",
			explanation: "The kernel charges every TCP (and UDP) socket buffer to one counter per protocol and refuses " +
				"to queue more above the limit (tcp_mem[2], udp_mem[2]; __sk_mem_raise_allocated, net/core/sock.c): " +
				"each refused packet is dropped with SKB_DROP_REASON_PROTO_MEM.",
		}),
	})
}

func checkTCPMemoryPressure(tl *model.Timeline) Result {
	var ev []Evidence
	sev := Info
	fired := false
	raise := func(s Severity) {
		fired = true
		if s > sev {
			sev = s
		}
	}
	haveData := false
	psz, _ := pageSize(tl)

	tcpMem, memSet, haveLimits := tcpMemInForce(tl)
	// Peak of sockstat TCP mem over the samples: pressure is a state the kernel enters
	// and leaves, so the worst sample matters, not the last.
	var peak int64 = -1
	var peakSrc string
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if v, ok := s.SockStat.Get("TCP", "mem"); ok && v > peak {
			peak, peakSrc = v, sampleSource(s, "/proc/net/sockstat")
		}
	}
	if peak >= 0 {
		haveData = true
	}
	// judged names each check actually made; a healthy result says only these (a sockstat
	// figure without tcp_mem, or /proc/net/protocols without a TCP row, judges nothing).
	var judged, unjudged []string
	switch {
	case peak >= 0 && !haveLimits:
		why := "no net.ipv4.tcp_mem"
		if vs := settingValues(tl, "net.ipv4.tcp_mem"); len(vs) > 0 {
			// A value written to a config file or set with sysctl -w is what an author set,
			// not what the host ran with when sockstat was read (currentSetting).
			why = fmt.Sprintf("net.ipv4.tcp_mem is stated only as a value set or advised (%s, line %d), not the one the host ran with", vs[0].Form, vs[0].Line)
		}
		unjudged = append(unjudged, fmt.Sprintf("sockstat TCP mem %s not compared (%s)", pagesStr(peak, psz), why))
	case peak < 0:
		unjudged = append(unjudged, "no sockstat TCP mem")
	}
	if peak >= 0 && haveLimits {
		ev = append(ev, Evidence{What: "TCP memory (sockstat mem, peak)", Value: pagesStr(peak, psz), Source: peakSrc},
			tcpMemEvidence(tcpMem, memSet))
		switch {
		case peak >= tcpMem[2]:
			raise(Critical)
		case peak >= tcpMem[1]:
			raise(Warning)
		}
	}

	for _, c := range []struct {
		name string
		sev  Severity
	}{{"TCPMemoryPressures", Warning}, {"TCPAbortOnMemory", Critical}} {
		g := netGrowth(tl, "/proc/net/netstat", "TcpExt", c.name)
		if !g.hasLast {
			continue
		}
		haveData = true
		judged = append(judged, "TcpExt "+c.name+" is 0") // used only when nothing fired
		switch {
		case g.rising():
			raise(c.sev)
			ev = append(ev, Evidence{What: "TcpExt " + c.name, Value: g.describe(), Source: g.source})
		case g.last > 0:
			// Since boot only: it happened, but not while we watched.
			raise(Info)
			ev = append(ev, Evidence{What: "TcpExt " + c.name, Value: g.describe(), Source: g.source})
		}
	}

	if s := tl.LastWith(func(s *model.Sample) bool { return len(s.Protocols) > 0 }); s != nil {
		haveData = true
		tcpRow := false
		for _, p := range s.Protocols {
			tcpRow = tcpRow || p.Name == "TCP" || p.Name == "TCPv6"
			if (p.Name == "TCP" || p.Name == "TCPv6") && p.Pressure == "yes" {
				raise(Warning)
				ev = append(ev, Evidence{What: p.Name + " memory pressure flag", Value: "yes", Source: sampleSource(s, "/proc/net/protocols")})
			}
		}
		if tcpRow {
			judged = append(judged, "no pressure flag in /proc/net/protocols")
		}
	}
	if tl.Log.Len() > 0 {
		judged = append(judged, fmt.Sprintf("no \"out of memory -- consider tuning tcp_mem\" in %d log lines", tl.Log.Len()))
	}

	if recs := logMatches(tl, kernel.MsgTCPOutOfMemory...); len(recs) > 0 {
		haveData = true
		raise(Critical)
		ev = append(ev, logEvidence("kernel log", recs))
	}
	if recs, cause, why := outOfSocketMemory(tl); len(recs) > 0 {
		haveData = true
		switch cause {
		case socketLimitOrphans:
			judged = append(judged, fmt.Sprintf("%d× \"Out of socket memory\" was the orphan limit: %s", len(recs), why))
		default:
			raise(Critical)
			ev = append(ev, logEvidence("kernel log (2.6's message for either limit"+map[bool]string{true: ": " + why, false: ""}[why != ""]+")", recs))
		}
	}

	if !haveData {
		return NotChecked("no TCP memory data: needs /proc/net/sockstat with net.ipv4.tcp_mem, TcpExt counters, /proc/net/protocols or a kernel log")
	}
	if !fired {
		if peak >= 0 && haveLimits {
			judged = append([]string{fmt.Sprintf("TCP memory peak %s, below tcp_mem pressure %d pages", pagesStr(peak, psz), tcpMem[1])}, judged...)
		}
		if len(judged) == 0 {
			return NotChecked("%s, and no TcpExt TCPMemoryPressures/TCPAbortOnMemory, TCP row of /proc/net/protocols or kernel log: needs net.ipv4.tcp_mem with /proc/net/sockstat, or those counters", strings.Join(unjudged, "; "))
		}
		if len(unjudged) > 0 && !(peak >= 0 && haveLimits) {
			return Healthy("%s; not checked: %s", strings.Join(judged, ", "), strings.Join(unjudged, "; "))
		}
		return Healthy("%s", strings.Join(judged, ", "))
	}
	f := Finding{
		Severity: sev,
		Title:    "TCP ran into its global memory limit (tcp_mem)",
		Evidence: ev,
		Explanation: "When TCP's memory (all sockets' buffers, in pages) passes tcp_mem[1] the kernel enters " +
			"memory pressure: receive buffers stop growing and are collapsed and pruned, so windows " +
			"shrink and throughput falls. At tcp_mem[2] new buffer allocations fail: incoming segments " +
			"are dropped and connections can be aborted. The fix is either a tcp_mem that matches what " +
			"the host can back, or smaller per-socket maxima (tcp_rmem/tcp_wmem) so the same connections " +
			"fit: which one depends on RAM — see `headroom plan` and tcp-mem-oversized.",
	}
	if haveLimits && peak >= 0 {
		if c, ok := tcpPressureChange(tl, tcpMem, sev > Info); ok {
			f.Changes = append(f.Changes, c)
		}
	}
	return Fired(f)
}

// tcpPressureChange: when tcp_mem is below what the host can back (plan's budget), raising it
// to the budget gives the connections room at no risk to the host; when it is already at or
// above the budget, the per-socket maxima must shrink instead, which needs the link (plan).
// A tcp_mem that is the kernel's own default is not "below": the model differs from the
// kernel's boot-time count by a few per cent (plan.IsKernelDefaultTCPMemMax). With only
// since-boot counters (now false) and tcp_mem already at plan's value there is nothing to
// change: the pressure happened at another time, under another load or another tcp_mem (a
// test that lowered it), and this input does not show the demand that would size a change.
func tcpPressureChange(tl *model.Timeline, cur []int64, now bool) (model.Change, bool) {
	curStr := fmt.Sprintf("%d %d %d", cur[0], cur[1], cur[2])
	if p, c, ok := netBudgetPlan(tl); ok {
		if v, ok := kernel.SysctlInts(c.Recommended); ok && len(v) == 3 && v[2] > cur[2] && !plan.IsKernelDefaultTCPMemMax(cur[2], v[2]) {
			c.Current = curStr
			c.Why = fmt.Sprintf("the current max %d pages is below what plan sets for this host: %s", cur[2], c.Why)
			return c, true
		}
		if !now {
			return model.Change{}, false
		}
		n, _ := netConnections(tl)
		return model.Change{
			Kind: model.ChangeOther, Key: "net.ipv4.tcp_rmem, net.ipv4.tcp_wmem", Current: "tcp_mem " + curStr,
			Recommended: fmt.Sprintf("keep tcp_mem; size per-socket maxima with `headroom plan --bandwidth B --rtt R --streams %d`", max(n, 1)),
			Why:         fmt.Sprintf("tcp_mem is already what plan sets for this host (%s; the budget for socket buffers is %s, 1/%d of %s): the connections × buffers want more than that; smaller per-stream maxima let them fit", c.Recommended, units.FormatBytes(p.Budget.BudgetBytes), p.Budget.ShareDenominator, p.Budget.Basis),
		}, true
	}
	return model.Change{
		Kind: model.ChangeOther, Key: "net.ipv4.tcp_mem", Current: curStr,
		Recommended: "run `headroom plan` for your link, stream count and memory",
		Why:         "the host's memory or word size is not in the input, so the budget tcp_mem should fit is unknown",
	}, true
}

// The two limits 2.6's "Out of socket memory" stands for (kernel.MsgOutOfSocketMemory).
const (
	socketLimitUnknown = iota
	socketLimitMemory
	socketLimitOrphans
)

// outOfSocketMemory finds 2.6's "Out of socket memory" lines and says which limit the
// input's numbers point at. tcp_too_many_orphans (net/ipv4/tcp_timer.c, 2.6) printed it when
// the orphans reached tcp_max_orphans or TCP's memory (sockstat mem) was above tcp_mem[2]:
// with TCP's memory read beside tcp_mem and below tcp_mem[2] it was the orphans (corpus 478:
// 102910 pages against 6961536, 126800 orphans); at or above, the memory; without the
// numbers, undecided (counted as the memory limit, the message's wording).
func outOfSocketMemory(tl *model.Timeline) (recs []model.LogRecord, cause int, why string) {
	recs = logMatches(tl, kernel.MsgOutOfSocketMemory...)
	if len(recs) == 0 {
		return nil, socketLimitUnknown, ""
	}
	tcpMem, _, ok := tcpMemInForce(tl)
	var peak int64 = -1
	for i := range tl.Samples {
		if v, have := tl.Samples[i].SockStat.Get("TCP", "mem"); have && v > peak {
			peak = v
		}
	}
	if !ok || peak < 0 {
		return recs, socketLimitUnknown, ""
	}
	if peak >= tcpMem[2] {
		return recs, socketLimitMemory, fmt.Sprintf("sockstat TCP mem %d pages at or above tcp_mem[2] %d", peak, tcpMem[2])
	}
	return recs, socketLimitOrphans, fmt.Sprintf("sockstat TCP mem %d pages is below tcp_mem[2] %d, which leaves tcp_max_orphans", peak, tcpMem[2])
}

// tcpMemInForce is the tcp_mem the kernel judged sockstat's TCP mem against: the host's own,
// else the one a text states the host runs with (a `sysctl -a` listing, a sentence; not a
// value an author set or was told to set: currentSetting). The three limits, in pages.
func tcpMemInForce(tl *model.Timeline) ([]int64, setting, bool) {
	s, ok := currentSetting(tl, "net.ipv4.tcp_mem")
	if !ok {
		return nil, setting{}, false
	}
	v, ok := kernel.SysctlInts(s.Value)
	if !ok || len(v) != 3 {
		return nil, setting{}, false
	}
	return v, s, true
}

// tcpMemEvidence cites the limits, saying when they are the text's words, not the host's.
func tcpMemEvidence(v []int64, s setting) Evidence {
	what := "net.ipv4.tcp_mem (min pressure max)"
	if !s.Host {
		what += " (as the text states it, not read from the host)"
	}
	return Evidence{What: what, Value: fmt.Sprintf("%d %d %d pages", v[0], v[1], v[2]), Source: s.Source}
}
