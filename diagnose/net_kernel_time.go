package diagnose

import (
	"fmt"
	"strconv"
	"strings"

	"headroom/internal/lazyre"
	"headroom/model"
)

// kernel-time-growth: across the phases of one timeline (the tables of a paste, or the
// stretches between markers of a recording), system CPU time rises and stays up while the
// interrupts and context switches, which follow the work done, fall for a comparable load.
// The kernel spends more per unit of work: something it walks on every connection or packet
// has grown and does not shrink when the load goes away. Seed 002 (2.4 firewall with forking
// proxies): ~50% sy at ~210 connections/s when fresh, ~92% sy at ~40 connections/s after four
// floods, recovered only by a reboot. Candidates: slab caches that grew and fragmented
// (dentry, inode, skbuff, socket caches), hash tables with long chains (conntrack with too
// few buckets, the TCP bind hash full of TIME_WAIT buckets), ever-longer lists walked per
// connection; perf (or readprofile on 2.4) names the function.
func init() {
	Register(Rule{
		ID:     "kernel-time-growth",
		Title:  "system CPU per unit of work grows across phases and does not recover",
		Family: FamilyNetwork,
		Check:  checkKernelTimeGrowth,
	})
}

// Thresholds: a later phase's system share must be at least ktgRisePts percentage points
// above an earlier one's and at least ktgSysHighPct, with interrupts and context switches at
// most ktgFallRatio of the earlier phase's (less work done, not more); the last phase must
// still be ktgRisePts/2 above the baseline ("stays up"). A phase needs ktgMinRows busy samples
// (idle below ktgBusyIdlePct: the idle seconds between runs of a benchmark are not the load).
// Critical when the later phase's system share is at least ktgCritSysPct and the stated load
// fell to half or less.
const (
	ktgRisePts     = 20.0
	ktgSysHighPct  = 60.0
	ktgFallRatio   = 0.75
	ktgMinRows     = 3
	ktgBusyIdlePct = 90.0
	ktgCritSysPct  = 85.0
)

type ktgPhase struct {
	p            netPhase
	rows         int
	sy, in, cs   float64
	hasIn, hasCS bool
	r            float64
	hasR         bool
	load         float64 // from the label, 0 when not stated
	loadUnit     string
	workload     string // the label's last line without numbers in parentheses
}

// ktgLoadRE finds a stated rate in a phase label: "(219 connections/sec)", "~40 conn/s",
// "1200 req/s".
var ktgLoadRE = lazyre.New(`(?i)[~>< ]*([0-9]+(?:\.[0-9]+)?)\s*(connections?|conns?|requests?|reqs?|transactions?|packets?|pkts?)\s*(?:/|per\s*)\s*(?:s|sec|second)\b`)

var ktgParenRE = lazyre.New(`\([^)]*\)`)

func checkKernelTimeGrowth(tl *model.Timeline) Result {
	ps := netPhases(tl)
	var st []ktgPhase
	for _, p := range ps {
		if k, ok := ktgStats(tl, p); ok {
			st = append(st, k)
		}
	}
	if len(st) < 2 {
		return NotChecked("needs two or more phases with system time (pasted vmstat tables, or a recording with phase markers); have %d", len(st))
	}
	type pair struct {
		a, b         int
		rise         float64
		sameWorkload bool
		loadCompared bool
		runqCompared bool
	}
	var best *pair
	// unread: pairs whose system time rose enough but whose interrupt and context-switch
	// rates were not both in the input, so the fall that makes the finding was not checked.
	unread := 0
	for i := 0; i < len(st); i++ {
		for j := i + 1; j < len(st); j++ {
			a, b := st[i], st[j]
			rise := b.sy - a.sy
			if rise < ktgRisePts || b.sy < ktgSysHighPct {
				continue
			}
			if !(a.hasIn && b.hasIn) && !(a.hasCS && b.hasCS) {
				unread++
				continue
			}
			fell := 0
			if a.hasIn && b.hasIn {
				if b.in > ktgFallRatio*a.in {
					continue
				}
				fell++
			}
			if a.hasCS && b.hasCS {
				if b.cs > ktgFallRatio*a.cs {
					continue
				}
				fell++
			}
			if fell == 0 {
				continue
			}
			same := a.workload != "" && a.workload == b.workload
			loadOK := a.load > 0 && b.load > 0 && a.loadUnit == b.loadUnit && b.load <= a.load
			runqOK := a.hasR && b.hasR && a.r > 0 && b.r >= 0.5*a.r && b.r <= 2*a.r
			if a.load > 0 && b.load > 0 && a.loadUnit == b.loadUnit && b.load > a.load {
				continue // the later phase did more work: more system time is no surprise
			}
			if !same && !loadOK && !runqOK {
				continue // nothing says the loads are comparable
			}
			c := pair{a: i, b: j, rise: rise, sameWorkload: same, loadCompared: loadOK, runqCompared: runqOK}
			if best == nil || (c.sameWorkload && !best.sameWorkload) || (c.sameWorkload == best.sameWorkload && c.rise > best.rise) {
				best = &c
			}
		}
	}
	if best == nil {
		if unread > 0 {
			// The rise is there; whether it is the same work costing more cannot be told.
			return NotChecked("system time rose by %.0f points or more between %d pair(s) of phases, but their interrupt and context-switch rates are not in the input: needs vmstat in/cs or /proc/stat over time to tell more work from costlier work", ktgRisePts, unread)
		}
		return Healthy("system time does not rise across %d phases while interrupts and context switches fall", len(st))
	}
	a, b := st[best.a], st[best.b]
	lastK := st[len(st)-1]
	staysUp := lastK.sy >= a.sy+ktgRisePts/2
	if !staysUp {
		return Healthy("system time rose from %.0f%% (%s) to %.0f%% (%s) but recovered to %.0f%% (%s)", a.sy, a.p.title(), b.sy, b.p.title(), lastK.sy, lastK.p.title())
	}
	ev := []Evidence{
		ktgEvidence("baseline phase", a),
		ktgEvidence("later phase", b),
	}
	if best.b != len(st)-1 {
		ev = append(ev, ktgEvidence("last phase, still up", lastK))
	}
	switch {
	case best.sameWorkload:
		ev = append(ev, Evidence{What: "comparable load", Value: fmt.Sprintf("same workload %q in both phases", a.workload), Source: "phase labels"})
	case best.loadCompared:
		ev = append(ev, Evidence{What: "comparable load", Value: fmt.Sprintf("the later phase did less work (%g vs %g %s)", b.load, a.load, a.loadUnit), Source: "phase labels"})
	default:
		ev = append(ev, Evidence{What: "comparable load", Value: fmt.Sprintf("similar run queues (%.0f vs %.0f runnable)", a.r, b.r), Source: "vmstat r"})
	}
	if a.load > 0 && b.load > 0 && a.loadUnit == b.loadUnit {
		ca, cb := a.sy/a.load, b.sy/b.load
		e := Evidence{What: "system CPU per unit of work", Value: fmt.Sprintf("%.2f%% per %s/s → %.2f%% per %s/s (%.1f×)", ca, a.loadUnit, cb, b.loadUnit, cb/ca), Source: "system share ÷ stated rate"}
		if ca > 0 {
			e.Role = Factor // a finite factor proves the growth
		}
		ev = append(ev, e)
	}
	ev = append(ev, ktgNextLooks(tl, a.p, b.p)...)
	sev := Warning
	if b.sy >= ktgCritSysPct && a.load > 0 && b.load > 0 && b.load <= a.load/2 {
		sev = Critical
	}
	f := Finding{
		Severity: sev,
		Title:    fmt.Sprintf("system time rose from %.0f%% to %.0f%% while interrupts and context switches fell: the kernel does more per unit of work, and it stays", a.sy, b.sy),
		Evidence: ev,
		Explanation: "Interrupts and context switches follow the packets and connections handled; system time " +
			"that rises while they fall means each unit of work costs the kernel more. When it stays up after " +
			"the load ends, something grew and did not shrink: a slab cache that grew and fragmented (slabtop, " +
			"/proc/slabinfo: dentry, inode, skbuff, sock and conntrack caches), a hash table whose chains grew " +
			"(conntrack entries against nf_conntrack_buckets; the TCP bind/established hashes full of TIME_WAIT " +
			"entries: sockstat tw), or a list walked per connection. Next: `perf top -g` (readprofile on 2.4) " +
			"during the slow phase names the function; compare slabtop and /proc/net/sockstat before and after " +
			"a flood; check nf_conntrack_count against nf_conntrack_max and its bucket count.",
	}
	return Fired(f)
}

// ktgStats summarises the busy samples of one phase.
func ktgStats(tl *model.Timeline, p netPhase) (ktgPhase, bool) {
	k := ktgPhase{p: p}
	var sy, in, cs, r []float64
	for i := p.First; i <= p.Last && i < len(tl.Samples); i++ {
		rt := tl.Samples[i].Rates
		s, ok := rt.Get(model.RateCPUSystemPct)
		if !ok {
			continue
		}
		if id, ok := rt.Get(model.RateCPUIdlePct); ok && id >= ktgBusyIdlePct {
			continue
		}
		sy = append(sy, s)
		if v, ok := rt.Get(model.RateIntrPerSec); ok {
			in = append(in, v)
		}
		if v, ok := rt.Get(model.RateCtxtPerSec); ok {
			cs = append(cs, v)
		}
		if v, ok := rt.Get(model.RateRunnable); ok {
			r = append(r, v)
		}
	}
	if len(sy) < ktgMinRows {
		return k, false
	}
	k.rows = len(sy)
	k.sy = netMean(sy)
	if len(in) == len(sy) {
		k.in, k.hasIn = netMean(in), true
	}
	if len(cs) == len(sy) {
		k.cs, k.hasCS = netMean(cs), true
	}
	if len(r) == len(sy) {
		k.r, k.hasR = netMean(r), true
	}
	label := strings.TrimSpace(p.Label)
	if m := ktgLoadRE.FindAllStringSubmatch(label, -1); len(m) > 0 {
		last := m[len(m)-1]
		if v, err := strconv.ParseFloat(last[1], 64); err == nil && v > 0 {
			k.load = v
			k.loadUnit = ktgUnit(last[2])
		}
	}
	// Labels join the lines above a table with newlines or " / " (artifact's Segment.Label).
	lines := strings.Split(strings.ReplaceAll(label, " / ", "\n"), "\n")
	for i := len(lines) - 1; i >= 0; i-- {
		l := strings.Join(strings.Fields(ktgParenRE.ReplaceAllString(lines[i], " ")), " ")
		if l != "" {
			k.workload = strings.ToLower(l)
			break
		}
	}
	return k, true
}

func ktgUnit(s string) string {
	s = strings.ToLower(s)
	switch {
	case strings.HasPrefix(s, "conn"):
		return "connections"
	case strings.HasPrefix(s, "req"):
		return "requests"
	case strings.HasPrefix(s, "trans"):
		return "transactions"
	}
	return "packets"
}

func ktgEvidence(role string, k ktgPhase) Evidence {
	v := fmt.Sprintf("%.0f%% system over %d busy samples", k.sy, k.rows)
	if k.hasIn {
		v += fmt.Sprintf(", %.0f interrupts/s", k.in)
	}
	if k.hasCS {
		v += fmt.Sprintf(", %.0f context switches/s", k.cs)
	}
	if k.hasR {
		v += fmt.Sprintf(", %.0f runnable", k.r)
	}
	if k.load > 0 {
		v += fmt.Sprintf("; stated load %g %s/s", k.load, k.loadUnit)
	}
	return Evidence{What: role + ": " + k.p.title(), Value: v, Source: fmt.Sprintf("samples %d-%d", k.p.First, k.p.Last)}
}

// ktgNextLooks adds what the timeline itself shows about the usual suspects between the two
// phases: TIME_WAIT sockets, slab size, conntrack entries.
func ktgNextLooks(tl *model.Timeline, a, b netPhase) []Evidence {
	var ev []Evidence
	at := func(p netPhase, get func(*model.Sample) (int64, bool)) (int64, bool) {
		for i := p.Last; i >= p.First && i >= 0 && i < len(tl.Samples); i-- {
			if v, ok := get(&tl.Samples[i]); ok {
				return v, true
			}
		}
		return 0, false
	}
	for _, c := range []struct {
		what string
		get  func(*model.Sample) (int64, bool)
		unit string
	}{
		{"TIME_WAIT sockets (sockstat tw)", func(s *model.Sample) (int64, bool) { return s.SockStat.Get("TCP", "tw") }, ""},
		{"slab memory (meminfo Slab)", func(s *model.Sample) (int64, bool) { return s.Mem("Slab") }, " kB"},
		{"unreclaimable slab (meminfo SUnreclaim)", func(s *model.Sample) (int64, bool) { return s.Mem("SUnreclaim") }, " kB"},
	} {
		va, okA := at(a, c.get)
		vb, okB := at(b, c.get)
		if okA && okB && vb > va {
			ev = append(ev, Evidence{What: c.what, Value: fmt.Sprintf("%d%s → %d%s", va, c.unit, vb, c.unit), Source: "last sample of each phase"})
		}
	}
	return ev
}
