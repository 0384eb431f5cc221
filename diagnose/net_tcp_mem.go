package diagnose

import (
	"fmt"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// tcp-mem-oversized: net.ipv4.tcp_mem[2] is TCP's hard limit on the pages all its socket
// buffers may hold (sk_memory_allocated, net/core/sock.c __sk_mem_raise_allocated). It only
// protects the host when the host can actually back that many pages. Socket buffers are
// kmalloc'd and page-fragment memory without __GFP_HIGHMEM, so on a 32-bit kernel with
// HighMem they come from lowmem (at most 896 MiB on x86-32), which they share with every slab
// object and page table. Kernels of seed 004's era (2.6.13) set the default from the size of
// the TCP hash tables, which scale with all RAM including HighMem (tcp_init, net/ipv4/tcp.c:
// tcp_mem[2] = 1536 << order pages): 1.6 GB on an 8 GB host with under 600 MB of usable
// lowmem. Current kernels derive it from nr_free_buffer_pages(), which counts lowmem only
// (tcp_init_mem: max = 3/32 of those pages).
//
// tcp-buffers-exceed-budget: per-socket maxima (tcp_rmem[2], tcp_wmem[2]) are caps that
// autotuning reaches only for flows that need them, and tcp_mem bounds their sum; the busy
// flows at their maxima, bounded by tcp_mem, are what TCP can be asked for (see
// checkTCPBuffersBudget; seed 004: 20 × 16 MB × 2 = 640 MB against 600 MB of lowmem).
func init() {
	Register(Rule{
		ID:     "tcp-mem-oversized",
		Title:  "tcp_mem allows TCP more memory than the host (lowmem on 32-bit) can back",
		Family: FamilyNetwork,
		Check:  checkTCPMemOversized,
	})
	Register(Rule{
		ID:     "tcp-buffers-exceed-budget",
		Title:  "busy connections × per-socket buffer maxima exceed tcp_mem pressure or, bounded by tcp_mem, the host's memory",
		Family: FamilyNetwork,
		Check:  checkTCPBuffersBudget,
	})
}

// Share of the budget basis at which tcp_mem[2] is oversized (warning). On a 32-bit kernel
// (lowmem, or all memory when there is no HighMem split) socket buffers compete with slab,
// page tables and the free reserve in the same few hundred MB: seed 004's dump shows 508 MiB
// of slab in an 880 MiB Normal zone. A quarter is plan's budget there. On 64-bit half of RAM
// pinned by unreclaimable socket memory leaves too little for page cache and applications.
// At or above the whole basis the limit cannot be backed at all (critical).
const (
	tcpMemWarnShare32 = 0.25
	tcpMemWarnShare64 = 0.5
)

func checkTCPMemOversized(tl *model.Timeline) Result {
	vals := tcpMemValues(tl)
	if len(vals) == 0 {
		return NotChecked("no net.ipv4.tcp_mem: needs /proc/sys, a sysctl -a paste, or a text that names tcp_mem")
	}
	m := netHostMemory(tl)
	basis, basisName, basisSrc := m.basis()
	psz, pszKnown := pageSize(tl)
	if basis <= 0 {
		return tcpMemWithoutRAM(vals, psz)
	}
	warnShare, warnWhy := tcpMemWarnShare64, "half of RAM on a 64-bit kernel"
	if m.WordBits != 64 {
		warnShare, warnWhy = tcpMemWarnShare32, "a quarter of lowmem on a 32-bit kernel"
		if m.WordBits == 0 {
			warnWhy = "a quarter of the memory (word size unknown: the stricter 32-bit share)"
		}
	}
	var ev []Evidence
	sev := Info
	var worst *netTriplet
	var worstShare float64
	for i := range vals {
		v := &vals[i]
		maxBytes := v.V[2] * psz
		share := float64(maxBytes) / float64(basis)
		what := "net.ipv4.tcp_mem (min pressure max, pages)"
		if !v.Host {
			what = "tcp_mem named in the text"
		}
		val := fmt.Sprintf("%s; max %s = %s of %s", v, pagesStr(v.V[2], psz), netPct(share), basisName)
		if v.single {
			val = fmt.Sprintf("%s = %s of %s", pagesStr(v.V[2], psz), netPct(share), basisName)
		}
		ev = append(ev, Evidence{What: what, Value: val, Source: v.Source})
		s := Severity(-1)
		switch {
		case share >= 1:
			s = Critical
		case share >= warnShare:
			s = Warning
		}
		if s >= 0 && (worst == nil || share > worstShare) {
			worst, worstShare = v, share
			if s > sev {
				sev = s
			}
		}
	}
	if worst == nil {
		msg := fmt.Sprintf("tcp_mem max %s is below %s (%s %s)", pagesStr(vals[0].V[2], psz), netPct(warnShare), basisName, units.FormatBytes(basis))
		if !pszKnown && kernel.ArchFamily(tl.Host.Arch) != "x86" {
			// tcp_mem counts pages; x86 has only 4 KiB base pages, arm64 and ppc64 may
			// have 16 or 64 KiB (CONFIG_ARM64_64K_PAGES, CONFIG_PPC_64K_PAGES).
			msg += "; page size not in the input: 4096 bytes assumed (a 64 KiB-page kernel makes the same limit 16 times larger)"
		}
		return Healthy("%s", msg)
	}
	ev = append(ev, Evidence{What: basisName, Value: units.FormatBytes(basis), Source: basisSrc})
	if m.LowmemBytes > 0 && m.TotalBytes > 0 {
		ev = append(ev, Evidence{What: "all memory (HighMem cannot hold socket buffers)", Value: units.FormatBytes(m.TotalBytes), Source: m.TotalSrc})
	}
	if !pszKnown {
		ev = append(ev, Evidence{What: "page size", Value: "4096 bytes assumed", Source: "not in the input"})
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("tcp_mem lets TCP take %s, %s of %s", units.FormatBytes(worst.V[2]*psz), netPct(worstShare), basisName),
		Evidence: ev,
		Explanation: "tcp_mem[2] is the most memory (in pages) all TCP sockets together may hold; only below it does " +
			"TCP throttle itself (memory pressure, then refusing buffer growth). Socket buffers cannot live in " +
			"HighMem, so on a 32-bit kernel the limit must fit in lowmem, next to slab and page tables; on any " +
			"kernel it must leave room for the page cache and the free reserve. A limit the host cannot back " +
			"is no limit: the host runs out of (low) memory first, and the failures are page allocation " +
			"failures in the receive path and the OOM killer instead of TCP's orderly pressure (Fermilab: " +
			"1.6 GB allowed on a box with 600 MB of kernel memory; the fix was tcp_mem ÷ 4). Kernels of the 2.6.13 era " +
			"(2.6.13) set the default from the hash-table size, which scales with all RAM; current kernels from " +
			"lowmem pages (tcp_init_mem). The threshold here is " + warnWhy + ".",
	}
	f.Facts.Memory = m.domain()
	if _, c, ok := netBudgetPlan(tl); ok {
		c.Current = worst.String()
		if worst.single {
			c.Current = fmt.Sprintf("max %d", worst.V[2])
		}
		f.Changes = append(f.Changes, c)
	} else {
		f.Changes = append(f.Changes, model.Change{
			Kind: model.ChangeOther, Key: "net.ipv4.tcp_mem", Current: worst.String(),
			Recommended: fmt.Sprintf("max ≤ %d pages (%s of %s)", int64(float64(basis)*warnShare)/psz, netPct(warnShare), basisName),
			Why:         "the host's architecture or memory is not known well enough for `headroom plan`; give them to plan for exact values",
		})
	}
	return Fired(f)
}

// tcpMemValues returns the tcp_mem triplets of the host and the text, and single numbers a
// text gives for tcp_mem in prose ("tcp_mem at default value of 98304 pages"), read as the
// maximum: the figure an author quotes for a limit.
func tcpMemValues(tl *model.Timeline) []netTriplet {
	var out []netTriplet
	for _, sv := range settingValues(tl, "net.ipv4.tcp_mem") {
		v, ok := kernel.SysctlInts(sv.Value)
		switch {
		case ok && len(v) == 3:
			out = append(out, netTriplet{setting: sv, V: [3]int64{v[0], v[1], v[2]}})
		case ok && len(v) == 1 && !sv.Host && v[0] > 0:
			sv.Source += "; a single number, read as the maximum"
			out = append(out, netTriplet{setting: sv, V: [3]int64{0, 0, v[0]}, single: true})
		}
	}
	return out
}

// netOpenStates are the TCP states whose sockets can hold receive or send buffers.
var netOpenStates = map[string]bool{
	"ESTABLISHED": true, "SYN_RECV": true, "FIN_WAIT1": true, "FIN_WAIT2": true,
	"CLOSE_WAIT": true, "LAST_ACK": true, "CLOSING": true,
}

// netConnections counts sockets that can hold buffers: the largest count seen in one sample
// (a live dump's per-state summary, or the rows of one pasted table).
func netConnections(tl *model.Timeline) (n int64, src string) {
	f := netFlowCount(tl)
	return f.N, f.Src
}

// netFlows is what a socket dump says about the connections that can hold buffers: how many
// there are, how many of them hold memory or queued data (kernel.Socket.Holds) and what they
// hold (skmem: rmem_alloc + wmem_queued + fwd_alloc + backlog).
type netFlows struct {
	N, Holding, MemBytes int64
	// HoldingKnown: the dump tells idle sockets from busy ones (a live summary with its
	// per-state holding counts, or rows); a summary from before the count existed does not.
	HoldingKnown bool
	Src          string
}

// busyValue is the busy flows and what they hold; a count per state holds no memory figure.
func busyValue(fl netFlows) string {
	if !fl.HoldingKnown && fl.MemBytes == 0 {
		return fmt.Sprintf("%d, their memory not in the input", fl.Holding)
	}
	return fmt.Sprintf("%d, holding %s", fl.Holding, units.FormatBytes(fl.MemBytes))
}

// netFlowCount takes the sample with the most connections.
func netFlowCount(tl *model.Timeline) netFlows {
	var best netFlows
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if s.Sockets != nil && len(s.Sockets.ByState) > 0 {
			var f netFlows
			var queued int64
			for st, t := range s.Sockets.ByState {
				if netOpenStates[netState(st)] {
					f.N += t.Count
					f.Holding += t.Holding
					f.MemBytes += t.MemBytes
					queued += t.RecvQ + t.SendQ
				}
			}
			// Holding is counted by Summarize; a summary recorded before it had the count
			// is known to be idle only when nothing at all was held or queued.
			f.HoldingKnown = f.Holding > 0 || (f.MemBytes == 0 && queued == 0 && !s.Sockets.CountsOnly)
			if !f.HoldingKnown {
				f.Holding = f.N
			}
			if f.N > best.N {
				f.Src = sampleSource(s, "sock_diag dump") + " (sockets per state)"
				best = f
			}
		}
		if s.Sockets != nil && len(s.Sockets.ByState) > 0 {
			continue
		}
		var f netFlows
		for j := range s.SocketList {
			r := &s.SocketList[j]
			if netOpenStates[netState(r.State)] {
				f.N++
				if r.Holds() {
					f.Holding++
					f.MemBytes += r.MemBytes()
				}
			}
		}
		f.HoldingKnown = true
		if f.N > best.N {
			f.Src = sampleSource(s, "socket table") + " (rows of the socket table)"
			best = f
		}
	}
	return best
}

// netTCPMemNow is TCP's memory now: the peak of sockstat's "mem" (pages charged to
// tcp_memory_allocated, the figure the kernel compares with tcp_mem) over the samples.
func netTCPMemNow(tl *model.Timeline) (pages int64, src string, ok bool) {
	pages = -1
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if v, has := s.SockStat.Get("TCP", "mem"); has && v > pages {
			pages, src = v, sampleSource(s, "/proc/net/sockstat")
		}
	}
	return pages, src, pages >= 0
}

// netMaxTriplet returns the triplet with the largest third value.
func netMaxTriplet(vs []netTriplet) (netTriplet, bool) {
	var best netTriplet
	found := false
	for _, v := range vs {
		if !found || v.V[2] > best.V[2] {
			best, found = v, true
		}
	}
	return best, found
}

// netHostOrMax prefers the host's own value, else the largest a text names.
func netHostOrMax(vs []netTriplet) (netTriplet, bool) {
	for _, v := range vs {
		if v.Host {
			return v, true
		}
	}
	return netMaxTriplet(vs)
}

// checkTCPBuffersBudget judges what the connections can make TCP hold. The kernel bounds the
// sum of all TCP buffers by tcp_mem (tcp_memory_allocated against sysctl_mem[] in
// __sk_mem_raise_allocated, net/core/sock.c: above tcp_mem[1] it enters memory pressure,
// tcp_enter_memory_pressure, and above tcp_mem[2] it refuses to charge more), so the
// exposure is min(connections × maxima, tcp_mem max). The per-socket maxima are caps that
// autotuning reaches only for flows that need them (tcp_rcv_space_adjust grows sk_rcvbuf
// from what the application copied per RTT, tcp_sndbuf_expand from the congestion window),
// and an idle socket holds nothing (its sk_forward_alloc is reclaimed, sk_mem_reclaim). So:
//
//   - critical only when the busy flows at their maxima reach more than the host can back
//     (lowmem on a 32-bit HighMem kernel) and tcp_mem lets them: tcp_mem itself is then
//     larger than the memory (tcp-mem-oversized says so for the limit alone);
//   - info when the busy flows at their maxima would pass tcp_mem's pressure threshold and
//     throttle each other;
//   - without tcp_mem in the input, a warning at most, when the busy flows at their maxima
//     exceed plan's budget: the kernel's limit is not known;
//   - nothing for idle sockets, however many, and nothing from arithmetic alone.
//
// What TCP holds now is read from the sockets themselves (sockstat mem, skmem) and shown as
// evidence; memory at or above tcp_mem's thresholds is tcp-memory-pressure's finding.
func checkTCPBuffersBudget(tl *model.Timeline) Result {
	rmem, okR := netHostOrMax(netTriplets(tl, "net.ipv4.tcp_rmem"))
	wmem, okW := netHostOrMax(netTriplets(tl, "net.ipv4.tcp_wmem"))
	if !okR && !okW {
		return NotChecked("no net.ipv4.tcp_rmem or tcp_wmem: needs /proc/sys, a sysctl -a paste, or a text that names them")
	}
	fl := netFlowCount(tl)
	per := rmem.V[2] + wmem.V[2]
	// A demand the author computes ("20 connections x 16MBytes x 2 = 640MBytes") is what
	// the busy flows may ask of the host when it exceeds what the socket table shows.
	sd, haveSD := statedBufferDemand(tl)
	if haveSD && sd.n*sd.per > fl.Holding*per {
		fl = netFlows{N: sd.n, Holding: sd.n, HoldingKnown: true, Src: sd.src}
		per = sd.per
	} else {
		haveSD = false
	}
	n, nSrc := fl.N, fl.Src
	if n == 0 {
		if d := tl.LastWith(func(s *model.Sample) bool { return s.Sockets != nil }); d != nil {
			return Healthy("no connection holds buffers in the socket dump (%s)", sampleSource(d, "sock_diag dump"))
		}
		return NotChecked("no connection count: needs a socket dump (live) or a pasted netstat/ss table")
	}
	psz, _ := pageSize(tl)
	var ev []Evidence
	if haveSD {
		ev = append(ev, Evidence{What: "buffer demand the text computes (connections × bytes each)", Value: fmt.Sprintf("%d × %s = %s", sd.n, units.FormatBytes(sd.per), units.FormatBytes(sd.n*sd.per)), Source: sd.src})
	}
	if okR {
		ev = append(ev, Evidence{What: "tcp_rmem (min default max; the host's, else the largest the text names)", Value: rmem.String(), Source: rmem.Source})
	}
	if okW {
		ev = append(ev, Evidence{What: "tcp_wmem (min default max; the host's, else the largest the text names)", Value: wmem.String(), Source: wmem.Source})
	}
	worst := n * per
	busy := fl.Holding
	atMax := busy * per
	busyWhat := "of them holding memory or queued data (busy flows; idle sockets hold nothing)"
	if !fl.HoldingKnown {
		busyWhat = "of them counted as busy (the dump does not tell idle sockets from busy ones)"
	}
	ev = append(ev, Evidence{What: "connections that can hold buffers", Value: fmt.Sprint(n), Source: nSrc},
		Evidence{What: busyWhat, Value: busyValue(fl), Source: nSrc},
		Evidence{What: "worst case: connections × (rmem max + wmem max)", Value: fmt.Sprintf("%d × %s = %s", n, units.FormatBytes(per), units.FormatBytes(worst)), Source: "computed"})
	nowPages, nowSrc, haveNow := netTCPMemNow(tl)
	if haveNow {
		ev = append(ev, Evidence{What: "TCP memory now (sockstat mem, peak)", Value: pagesStr(nowPages, psz), Source: nowSrc})
	}
	m := netHostMemory(tl)
	basis, basisName, basisSrc := m.basis()
	mem, haveMem := netHostOrMax(tcpMemValues(tl))
	p, _, havePlan := netBudgetPlan(tl)
	// fire reports a finding with plan's buffer settings for the busy flows as its changes.
	fire := func(sev Severity, title, explanation string) Result {
		f := Finding{Severity: sev, Title: title, Evidence: ev, Explanation: explanation,
			Changes: netBudgetChanges(tl, busy, p, havePlan, atMax)}
		if basis > 0 {
			f.Facts.Memory = m.domain()
		}
		return Fired(f)
	}

	if haveMem {
		lim, pressure := mem.V[2]*psz, mem.V[1]*psz
		exposure := min(worst, lim)
		busyExposure := min(atMax, lim)
		memV := fmt.Sprintf("%d %d %d pages; pressure %s, max %s", mem.V[0], mem.V[1], mem.V[2], units.FormatBytes(pressure), units.FormatBytes(lim))
		if mem.single {
			memV = fmt.Sprintf("max %d pages (%s); min and pressure not in the input", mem.V[2], units.FormatBytes(lim))
		}
		ev = append(ev, Evidence{What: "net.ipv4.tcp_mem (min pressure max)", Value: memV, Source: mem.Source},
			Evidence{What: "exposure: min(connections × maxima, tcp_mem max)", Value: units.FormatBytes(exposure), Source: "computed"})
		if basis > 0 {
			ev = append(ev, Evidence{What: basisName, Value: units.FormatBytes(basis), Source: basisSrc})
		}
		nowText := ""
		if haveNow {
			nowText = fmt.Sprintf("; TCP holds %s now (sockstat)", pagesStr(nowPages, psz))
		}
		switch {
		case basis > 0 && busyExposure >= basis:
			return fire(Critical,
				fmt.Sprintf("%d busy connections × %s of buffer maxima = %s, and tcp_mem lets TCP take %s: more than all of %s (%s)",
					busy, units.FormatBytes(per), units.FormatBytes(atMax), units.FormatBytes(lim), basisName, units.FormatBytes(basis)),
				"tcp_mem[2] is the kernel's bound on all TCP buffers together; here it is larger than the memory that can back "+
					"socket buffers (lowmem on a 32-bit HighMem kernel), and the connections that are moving data can reach it at their "+
					"per-socket maxima. The host then runs out of (low) memory before TCP's memory pressure engages: page allocation "+
					"failures in the receive path and the OOM killer instead of TCP throttling itself (Fermilab). Lower tcp_mem to what the "+
					"memory can back (tcp-mem-oversized), then size the per-socket maxima from each flow's bandwidth-delay product.")
		case basis > 0 && m.LowmemBytes > 0 && havePlan && lim > p.Budget.BudgetBytes && busyExposure > p.Budget.BudgetBytes:
			// A 32-bit HighMem kernel: tcp_mem's default is computed from all memory, so it
			// does not keep TCP within lowmem, and the busy flows at their maxima would take
			// more of lowmem than its budget for socket buffers (seed 004).
			return fire(Warning,
				fmt.Sprintf("%d busy connections × %s of buffer maxima = %s, %s of %s, and tcp_mem (%s) does not stop them",
					busy, units.FormatBytes(per), units.FormatBytes(atMax), netPct(float64(busyExposure)/float64(basis)), basisName, units.FormatBytes(lim)),
				"Socket buffers live in lowmem on a 32-bit HighMem kernel, next to slab and page tables, and tcp_mem[2] bounds them only "+
					"when it is below what lowmem can spare; here it is above plan's budget for socket buffers, and the connections that "+
					"move data, at their per-socket maxima, would take more than that budget: the receive path's atomic refills then fail "+
					"for want of lowmem before TCP's memory pressure engages (Fermilab: \"20 connections x 16MBytes x 2 = 640MBytes\" against "+
					"896 MB of lowmem). Lower tcp_mem to the budget (tcp-mem-oversized) and size the maxima from each stream's bandwidth-delay "+
					"product: Fermilab found 1 MB enough for 20 parallel streams.")
		case atMax > pressure && !mem.single:
			return fire(Info,
				fmt.Sprintf("%d busy connections at their buffer maxima would need %s, over tcp_mem pressure %s: they would throttle each other",
					busy, units.FormatBytes(atMax), units.FormatBytes(pressure)),
				"Each socket may grow its receive buffer to tcp_rmem[2] and its send buffer to tcp_wmem[2], but autotuning grows "+
					"them only for flows that need them (tcp_rcv_space_adjust, tcp_sndbuf_expand), and the sum is bounded by tcp_mem: above "+
					"tcp_mem[1] TCP enters memory pressure and stops growing buffers, at tcp_mem[2] it refuses more. If the busy flows all "+
					"reached their maxima at once they would meet that pressure and share tcp_mem instead of filling their windows. This is "+
					"no risk to the host (tcp_mem fits its memory); it matters only if those flows need their maxima: watch "+
					"tcp-memory-pressure (sockstat mem against tcp_mem)"+nowText+".")
		}
		msg := fmt.Sprintf("%d connections, %d busy: at their maxima the busy flows need %s, within tcp_mem pressure %s; connections × maxima %s is bounded by tcp_mem max %s",
			n, busy, units.FormatBytes(atMax), units.FormatBytes(pressure), units.FormatBytes(worst), units.FormatBytes(lim))
		if basis > 0 {
			msg += fmt.Sprintf(" (%s of %s)", netPct(float64(lim)/float64(basis)), basisName)
		}
		msg += nowText
		var not []string
		if !okR {
			not = append(not, "tcp_rmem not in the input (counted as 0)")
		}
		if !okW {
			not = append(not, "tcp_wmem not in the input (counted as 0)")
		}
		if basis <= 0 {
			not = append(not, "the host's memory (tcp_mem against it is tcp-mem-oversized's)")
		}
		if len(not) > 0 {
			msg += "; not checked: " + strings.Join(not, "; ")
		}
		return Healthy("%s", msg)
	}

	// No tcp_mem in the input: the kernel has one, but what it allows is not known, so the
	// busy flows at their maxima are compared with plan's budget and never called critical.
	if !havePlan {
		return NotChecked("no limit to compare with: needs net.ipv4.tcp_mem or the host's memory size and word size")
	}
	ev = append(ev, Evidence{What: "socket-buffer budget (plan)", Value: fmt.Sprintf("%s = 1/%d of %s %s", units.FormatBytes(p.Budget.BudgetBytes), p.Budget.ShareDenominator, p.Budget.Basis, units.FormatBytes(p.Budget.BasisBytes)), Source: basisSrc},
		Evidence{What: "net.ipv4.tcp_mem", Value: "not in the input: the kernel's bound on all TCP buffers is unknown", Source: "not in the input"})
	if atMax <= p.Budget.BudgetBytes {
		msg := fmt.Sprintf("%d connections, %d busy: at their maxima the busy flows need %s, within the budget %s (1/%d of %s); not checked: no net.ipv4.tcp_mem",
			n, busy, units.FormatBytes(atMax), units.FormatBytes(p.Budget.BudgetBytes), p.Budget.ShareDenominator, p.Budget.Basis)
		if !okR {
			msg += "; tcp_rmem not in the input (counted as 0)"
		}
		if !okW {
			msg += "; tcp_wmem not in the input (counted as 0)"
		}
		return Healthy("%s", msg)
	}
	over := fmt.Sprintf("%s over the budget for socket buffers", units.FormatBytes(atMax-p.Budget.BudgetBytes))
	if basis > 0 && atMax >= basis {
		over = fmt.Sprintf("more than all of %s (%s) unless tcp_mem stops them", basisName, units.FormatBytes(basis))
	}
	return fire(Warning, fmt.Sprintf("%d busy connections × %s of buffer maxima = %s: %s", busy, units.FormatBytes(per), units.FormatBytes(atMax), over),
		"Each socket may grow its receive buffer to tcp_rmem[2] and its send buffer to tcp_wmem[2] (charged at skb truesize) "+
			"when its flow needs it; the connections that are moving data, at those maxima, are what TCP can be asked to hold. The kernel "+
			"bounds the sum by tcp_mem, which the input does not give, so whether the host or TCP's memory pressure stops them first is "+
			"not known. Size the maxima from the bandwidth-delay product of each stream's share of the link, not from the whole link: "+
			"Fermilab found 1 MB buffers enough for 20 parallel GridFTP streams where 16 MB crashed the host.")
}

// statedDemand is a socket-buffer demand stated in the text.
type statedDemand struct {
	n, per int64
	src    string
}

func statedBufferDemand(tl *model.Timeline) (statedDemand, bool) {
	s := tl.LastWith(func(s *model.Sample) bool {
		return s.Rates[model.RateStatedFlows] > 0 && s.Rates[model.RateStatedFlowBufferBytes] > 0
	})
	if s == nil {
		return statedDemand{}, false
	}
	return statedDemand{n: int64(s.Rates[model.RateStatedFlows]), per: int64(s.Rates[model.RateStatedFlowBufferBytes]), src: sampleSource(s, "the text")}, true
}

// netBudgetChanges returns plan's buffer settings for n streams when the link speed and RTT are
// known (live sockets carry their RTT), else a ceiling per connection that fits the budget.
func netBudgetChanges(tl *model.Timeline, n int64, p plan.Plan, havePlan bool, worst int64) []model.Change {
	bw, bwSrc := netLinkBitsPerSec(tl)
	rtt, rttOK := netMedianRTT(tl)
	if bw > 0 && rttOK {
		if in, ok := netPlanInput(tl, bw, rtt, int(min(n, 1<<20))); ok {
			if lp, err := plan.Compute(in); err == nil {
				var out []model.Change
				for _, c := range lp.Settings {
					switch c.Key {
					case "net.ipv4.tcp_rmem", "net.ipv4.tcp_wmem", "net.ipv4.tcp_mem":
						c.Rule = ""
						c.Why = fmt.Sprintf("plan for %d streams over %s (%s) at the sockets' median RTT %v: %s", n, netBits(bw), bwSrc, rtt.Round(time.Millisecond), c.Why)
						out = append(out, c)
					}
				}
				if len(out) > 0 {
					return out
				}
			}
		}
	}
	if !havePlan {
		return []model.Change{{Kind: model.ChangeOther, Key: "net.ipv4.tcp_rmem, net.ipv4.tcp_wmem",
			Recommended: fmt.Sprintf("run `headroom plan --bandwidth B --rtt R --streams %d`", n),
			Why:         "size per-stream maxima from the bandwidth-delay product so that streams × buffers fit tcp_mem and the host's memory"}}
	}
	ceiling := p.Budget.BudgetBytes / max(n, 1)
	missing := "the link speed and RTT are"
	switch {
	case bw > 0:
		missing = "the RTT is" // the link was read (bwSrc); the sockets' RTT was not
	case rttOK:
		missing = "the link speed is"
	}
	return []model.Change{{Kind: model.ChangeOther, Key: "net.ipv4.tcp_rmem, net.ipv4.tcp_wmem",
		Current:     units.FormatBytes(worst/max(n, 1)) + " per connection",
		Recommended: fmt.Sprintf("rmem max + wmem max ≤ %s per connection; exact values: `headroom plan --bandwidth B --rtt R --streams %d`", units.FormatBytes(ceiling), n),
		Why:         fmt.Sprintf("%d connections share plan's budget of %s (1/%d of %s); %s not in the input, so BDP-sized values need plan", n, units.FormatBytes(p.Budget.BudgetBytes), p.Budget.ShareDenominator, p.Budget.Basis, missing)}}
}

// netMedianRTT is the median smoothed RTT of the established sockets a live dump carries.
func netMedianRTT(tl *model.Timeline) (time.Duration, bool) {
	var rtts []float64
	for _, t := range netSocketTables(tl) {
		for _, r := range t.Rows {
			if r.Info != nil && r.Info.RTTUsec > 0 && netState(r.State) == "ESTABLISHED" {
				rtts = append(rtts, float64(r.Info.RTTUsec))
			}
		}
	}
	if len(rtts) == 0 {
		return 0, false
	}
	return time.Duration(netMedian(rtts)) * time.Microsecond, true
}

// tcpMemUnknownRAMWarnBytes: with the memory size unknown, a tcp_mem max of at least this is
// reported anyway. It is within half of RAM (the 64-bit threshold) only on a host of twice
// that (512 GiB or more), and above the kernel's own default (about 9% of RAM, tcp_init_mem)
// on any host up to 2.7 TiB; a tuning guide's tcp_mem written in bytes instead of pages lands
// far above it.
const tcpMemUnknownRAMWarnBytes = 256 << 30

// tcpMemWithoutRAM judges tcp_mem by what memory it would need, when the input does not give
// the memory size.
func tcpMemWithoutRAM(vals []netTriplet, psz int64) Result {
	var worst *netTriplet
	for i := range vals {
		if worst == nil || vals[i].V[2] > worst.V[2] {
			worst = &vals[i]
		}
	}
	maxBytes := worst.V[2] * psz
	if maxBytes < tcpMemUnknownRAMWarnBytes {
		return NotChecked("memory size unknown: needs /proc/meminfo (MemTotal, LowTotal), /proc/zoneinfo or an allocation-failure dump (tcp_mem max %s)", pagesStr(worst.V[2], psz))
	}
	what := "net.ipv4.tcp_mem (min pressure max, pages)"
	if !worst.Host {
		what = "tcp_mem named in the text"
	}
	return Fired(Finding{
		Severity: Warning,
		Title:    fmt.Sprintf("tcp_mem lets TCP take %s: more than half of the memory of any host with less than %s", units.FormatBytes(maxBytes), units.FormatBytes(2*maxBytes)),
		Evidence: []Evidence{
			{What: what, Value: fmt.Sprintf("%s; max %s", worst, pagesStr(worst.V[2], psz)), Source: worst.Source},
			{What: "memory size", Value: "not in the input: the limit is judged by the memory it would need (tcp_mem is in pages, not bytes)", Source: "not in the input"},
		},
		Explanation: "tcp_mem[2] is the most memory, in pages of " + fmt.Sprint(psz) + " bytes, that all TCP sockets together may hold. " +
			"A value copied from a guide that meant bytes, or sized for another machine, is no limit on this one: the host runs out of " +
			"memory before TCP's pressure mode ever starts. Compare it with the host's RAM (half of it on 64-bit, a quarter of lowmem on 32-bit).",
		Changes: []model.Change{{Kind: model.ChangeOther, Key: "net.ipv4.tcp_mem", Current: worst.String(),
			Recommended: "run `headroom plan --bandwidth LINK --rtt RTT --memory RAM` (or `headroom doctor` on the host) for values sized to its memory",
			Why:         "the input does not give the memory size, so no number can be computed here"}},
	})
}
