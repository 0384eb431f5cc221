package diagnose

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
	"time"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
	"headroom/units"
)

// This file holds the helpers the network rules share: sysctl values from the host or named
// in a text, host memory facts (with lowmem on 32-bit HighMem kernels), counter families,
// phases of a timeline, socket tables, and the bridge to package plan.

// netMentionSource describes where a text named a setting.
func netMentionSource(m model.SettingMention) string {
	where := "the text"
	if m.Source != "" && !strings.HasPrefix(m.Source, "line") {
		where = m.Source
	}
	if m.Line > 0 {
		return fmt.Sprintf("named in %s at line %d (what the author had or tried, not necessarily the host's value)", where, m.Line)
	}
	return fmt.Sprintf("named in %s (what the author had or tried, not necessarily the host's value)", where)
}

// netTripletEvidence lists the values of a triplet sysctl, one line per distinct value with
// every line of the text that names it.
func netTripletEvidence(what string, vs []netTriplet) []Evidence {
	var out []Evidence
	idx := map[string]int{}
	lines := map[string][]string{}
	for _, v := range vs {
		val := v.String()
		if v.Host {
			out = append(out, Evidence{What: what, Value: val, Source: v.Source})
			continue
		}
		if _, ok := idx[val]; !ok {
			idx[val] = len(out)
			out = append(out, Evidence{What: what + " (named in the text)", Value: val})
		}
		lines[val] = append(lines[val], strconv.Itoa(v.Line))
	}
	for val, i := range idx {
		out[i].Source = fmt.Sprintf("the text at line %s (what the author had or tried, not necessarily the host's value)", strings.Join(lines[val], ", "))
	}
	return out
}

// triplets returns the values of a three-integer sysctl (tcp_mem, tcp_rmem, tcp_wmem) that
// parse as three integers, host value first.
func netTriplets(tl *model.Timeline, key string) []netTriplet {
	var out []netTriplet
	for _, sv := range settingValues(tl, key) {
		if v, ok := kernel.SysctlInts(sv.Value); ok && len(v) == 3 {
			out = append(out, netTriplet{setting: sv, V: [3]int64{v[0], v[1], v[2]}})
		}
	}
	return out
}

type netTriplet struct {
	setting
	V      [3]int64
	single bool // only the maximum is known (a single number in prose)
}

func (t netTriplet) String() string { return fmt.Sprintf("%d %d %d", t.V[0], t.V[1], t.V[2]) }

// netMem is what the timeline tells about the host's memory. Zero sizes are unknown.
type netMem struct {
	TotalBytes int64
	TotalSrc   string
	// LowmemBytes is the memory a 32-bit kernel maps permanently (DMA + Normal zones) when the
	// host has a HighMem zone; 0 when there is no split or it is unknown.
	LowmemBytes int64
	LowmemSrc   string
	WordBits    int // 32, 64 or 0 when unknown
}

// basis returns the memory TCP buffers come from: lowmem on a HighMem kernel, else all RAM.
func (m netMem) basis() (bytes int64, name, src string) {
	if m.LowmemBytes > 0 {
		return m.LowmemBytes, "lowmem", m.LowmemSrc
	}
	return m.TotalBytes, "MemTotal", m.TotalSrc
}

// domain is the memory basis returns, for the story (Facts.Memory).
func (m netMem) domain() MemoryDomain {
	if m.LowmemBytes > 0 {
		return MemoryLowmem
	}
	return MemoryAll
}

// netHostMemory is the timeline's memory facts (model.Timeline.Memory, their one home) in
// bytes.
func netHostMemory(tl *model.Timeline) netMem {
	m := tl.Memory()
	return netMem{TotalBytes: m.TotalKB * 1024, TotalSrc: m.TotalSource, LowmemBytes: m.LowmemKB * 1024, LowmemSrc: m.LowmemSource, WordBits: m.WordBits}
}

// netPlanArch returns an architecture name plan accepts for this host: the host's own when
// plan knows it, else a stand-in of the known word size (plan uses the architecture for the
// word size and, without an explicit lowmem size, for the lowmem limit; callers pass the
// lowmem size they know).
func netPlanArch(tl *model.Timeline, m netMem) (string, bool) {
	if kernel.ArchWordBits(tl.Host.Arch) != 0 {
		return tl.Host.Arch, true
	}
	switch m.WordBits {
	case 64:
		return "x86_64", true
	case 32:
		if m.LowmemBytes > 0 {
			return "i686", true
		}
	}
	return "", false
}

// netPlanInput builds a plan.Input from the host facts of tl. ok is false when plan lacks what it
// needs (memory size, word size).
func netPlanInput(tl *model.Timeline, bandwidthBitsPerSec float64, rtt time.Duration, streams int) (plan.Input, bool) {
	m := netHostMemory(tl)
	arch, ok := netPlanArch(tl, m)
	if !ok || m.TotalBytes <= 0 {
		return plan.Input{}, false
	}
	in := plan.Input{
		BandwidthBitsPerSec: bandwidthBitsPerSec,
		RTT:                 rtt,
		Streams:             max(streams, 1),
		MemoryBytes:         m.TotalBytes,
		Arch:                arch,
		KernelVersion:       tl.Host.Kernel,
		Current:             tl.Host.Sysctls,
	}
	if p, known := pageSize(tl); known {
		in.PageSizeBytes = int(p)
	}
	if m.LowmemBytes > 0 && m.LowmemBytes < m.TotalBytes {
		in.LowmemBytes = m.LowmemBytes
	}
	if _, err := kernel.ParseKernelVersion(in.KernelVersion); err != nil {
		in.KernelVersion = ""
	}
	return in, true
}

// netBudgetPlan asks plan for the socket-buffer budget of this host and the tcp_mem plan
// would set on it. plan sizes buffers from a link (bandwidth × RTT); its tcp_mem maximum does
// not depend on the link as long as the link's worst case fits the budget, so a nominal
// 1 Mbit/s, 1 ms link (a worst case of a few pages) yields the link-independent answer: the
// host's current maximum if within the budget, else the kernel's default for this memory
// (tcp_init_mem) if within the budget, else the budget; pressure ⅔ and min ½ of the maximum.
// The host's own tcp_mem is left out (plan would keep it), so the answer is what the host
// should have. `headroom plan` with the real link raises pressure to the streams' worst case.
func netBudgetPlan(tl *model.Timeline) (plan.Plan, model.Change, bool) {
	in, ok := netPlanInput(tl, 1e6, time.Millisecond, 1)
	if !ok {
		return plan.Plan{}, model.Change{}, false
	}
	cur := map[string]string{}
	for k, v := range in.Current {
		if k != "net.ipv4.tcp_mem" {
			cur[k] = v
		}
	}
	in.Current = cur
	p, err := plan.Compute(in)
	if err != nil {
		return plan.Plan{}, model.Change{}, false
	}
	for _, c := range p.Settings {
		if c.Key != "net.ipv4.tcp_mem" {
			continue
		}
		v, ok := kernel.SysctlInts(c.Recommended)
		if !ok || len(v) != 3 {
			break
		}
		page := int64(in.PageSizeBytes)
		if page == 0 {
			page = 4096
		}
		budgetPages := p.Budget.BudgetBytes / page
		what := "the kernel's own default for this memory (tcp_init_mem: 3/32 of the free buffer pages)"
		if v[2] >= budgetPages {
			what = "plan's budget"
		}
		c.Current, c.Rule = "", ""
		c.Why = fmt.Sprintf("max %d pages (%s) is %s; the budget for socket buffers is 1/%d of %s %s = %s (%d pages); pressure ⅔ and min ½ of max as the kernel's own proportions. `headroom plan --bandwidth B --rtt R --streams N` raises pressure to your streams' worst case",
			v[2], units.FormatBytes(v[2]*page), what, p.Budget.ShareDenominator, p.Budget.Basis, units.FormatBytes(p.Budget.BasisBytes), units.FormatBytes(p.Budget.BudgetBytes), budgetPages)
		return p, c, true
	}
	return p, model.Change{}, false
}

// netLinkBitsPerSec is the summed speed of the host's non-virtual NICs that report one, 0 when
// none does.
func netLinkBitsPerSec(tl *model.Timeline) (float64, string) {
	var sum float64
	var names []string
	for _, n := range tl.Host.NICs {
		if n.Virtual || n.SpeedMbps <= 0 {
			continue
		}
		sum += float64(n.SpeedMbps) * 1e6
		names = append(names, fmt.Sprintf("%s %d Mbit/s", n.Name, n.SpeedMbps))
	}
	return sum, strings.Join(names, ", ")
}

// netNICSpeed is the link speed of one interface, 0 when unknown.
func netNICSpeed(tl *model.Timeline, name string) float64 {
	for _, n := range tl.Host.NICs {
		if n.Name == name && n.SpeedMbps > 0 {
			return float64(n.SpeedMbps) * 1e6
		}
	}
	return 0
}

// netNICMTU is the MTU of one interface, 1500 when unknown.
func netNICMTU(tl *model.Timeline, name string) int {
	for _, n := range tl.Host.NICs {
		if n.Name == name && n.MTU > 0 {
			return int(n.MTU)
		}
	}
	return 1500
}

// netCounter names one kernel counter of a family a rule reads.
type netCounter struct {
	Group, Name string
	// Rising is the severity when the counter grew while sampled; a counter seen only as a
	// since-boot total is Info.
	Rising  Severity
	Meaning string
}

// netCounterReading is one counter's growth.
type netCounterReading struct {
	netCounter
	growth
}

// netReadCounters reads a family of /proc/net/netstat or /proc/net/snmp counters. present is
// false when no sample had any of them.
func netReadCounters(tl *model.Timeline, file string, specs []netCounter) (out []netCounterReading, present bool) {
	for _, c := range specs {
		g := netGrowth(tl, file, c.Group, c.Name)
		if !g.hasLast {
			continue
		}
		present = true
		out = append(out, netCounterReading{netCounter: c, growth: g})
	}
	return out, present
}

// netWindowShare is a counter's growth as a share of another counter's growth over the same
// window (drops of the segments received, overflows of the handshakes attempted): a rate alone
// reads the same on a host passing a thousand packets a second and one passing a million.
// extra is added to the denominator when the numerator's events are not counted in it
// (ListenOverflows are handshakes that never became PassiveOpens). ok is false when the
// denominator was not read over a window of the same length (within 10%): then no share is
// claimed and the caller judges by the rate alone, as before.
func netWindowShare(tl *model.Timeline, num growth, file, group, name string, extra bool) (share float64, den int64, ok bool) {
	if !num.hasDelta || num.delta <= 0 {
		return 0, 0, false
	}
	d := netGrowth(tl, file, group, name)
	if !d.hasDelta || d.delta < 0 {
		return 0, 0, false
	}
	if num.seconds > 0 && (d.seconds <= 0 || d.seconds < 0.9*num.seconds || d.seconds > 1.1*num.seconds) {
		return 0, 0, false
	}
	den = d.delta
	if extra {
		den += num.delta
	}
	if den <= 0 {
		return 0, 0, false
	}
	return float64(num.delta) / float64(den), den, true
}

// netBelowShare is the evidence line of a rate that would be critical but is a small share.
func netBelowShare(share float64, num, den int64, of string, floor float64) Evidence {
	return Evidence{What: "share of " + of + " while sampled",
		Value: fmt.Sprintf("%s (%d of %d): below the %s that makes continuing drops critical", netPct(share), num, den, netPct(floor))}
}

// perSec is the growth rate, 0 when the window has no duration.
func netPerSec(g growth) float64 {
	if !g.hasDelta || g.seconds <= 0 {
		return 0
	}
	return float64(g.delta) / g.seconds
}

// netPhase is a stretch of samples that belong together: a pasted table (a Segment) or the
// samples between two markers of a recording.
type netPhase struct {
	Label       string // the text above a pasted table, or the marker text
	Name        string
	First, Last int // sample indexes, inclusive
}

// phases returns the timeline's segments, or phases cut at its markers when it has no
// segments. Fewer than two phases means there is nothing to compare.
func netPhases(tl *model.Timeline) []netPhase {
	var out []netPhase
	for _, s := range tl.Segments {
		if s.First < 0 || s.Last >= len(tl.Samples) || s.First > s.Last {
			continue
		}
		out = append(out, netPhase{Label: s.Label, Name: s.Name, First: s.First, Last: s.Last})
	}
	if len(out) > 0 || len(tl.Markers) == 0 || len(tl.Samples) == 0 {
		return out
	}
	ms := append([]model.Marker(nil), tl.Markers...)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Index < ms[j].Index })
	if ms[0].Index > 0 {
		out = append(out, netPhase{Label: "before " + ms[0].Text, Name: "samples before the first marker", First: 0, Last: min(ms[0].Index, len(tl.Samples)) - 1})
	}
	for i, mk := range ms {
		end := len(tl.Samples) - 1
		if i+1 < len(ms) {
			end = ms[i+1].Index - 1
		}
		if mk.Index < 0 || mk.Index > end || mk.Index >= len(tl.Samples) {
			continue
		}
		out = append(out, netPhase{Label: mk.Text, Name: "phase " + strconv.Quote(mk.Text), First: mk.Index, Last: min(end, len(tl.Samples)-1)})
	}
	return out
}

// title names a phase for evidence.
func (p netPhase) title() string {
	l := strings.Join(strings.Fields(p.Label), " ")
	if l == "" {
		return p.Name
	}
	if len(l) > 90 {
		l = l[:87] + "..."
	}
	if p.Name == "" {
		return strconv.Quote(l)
	}
	return fmt.Sprintf("%s (%s)", strconv.Quote(l), p.Name)
}

// netSocketTable is the rows of one socket table (one sample's SocketList) with where they came
// from.
type netSocketTable struct {
	Rows   []kernel.Socket
	Source string
	Sample *model.Sample
}

// netSocketTables returns every sample's socket rows as a table of its own: a pasted text may
// hold several netstat tables (seed 004 has three), a live run one dump per sample.
func netSocketTables(tl *model.Timeline) []netSocketTable {
	var out []netSocketTable
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if len(s.SocketList) == 0 {
			continue
		}
		out = append(out, netSocketTable{Rows: s.SocketList, Source: sampleSource(s, "sock_diag dump"), Sample: s})
	}
	return out
}

// isTCPState reports whether a row is a TCP socket state (not LISTEN or a UDP row).
func netState(s string) string {
	return strings.ToUpper(strings.ReplaceAll(strings.ReplaceAll(s, "-", "_"), " ", "_"))
}

// median of a non-empty slice.
func netMedian(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	c := append([]float64(nil), v...)
	sort.Float64s(c)
	if len(c)%2 == 1 {
		return c[len(c)/2]
	}
	return (c[len(c)/2-1] + c[len(c)/2]) / 2
}

func netMean(v []float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	var s float64
	for _, x := range v {
		s += x
	}
	return s / float64(len(v))
}

// pct formats a share as a percentage with a sensible number of digits.
func netPct(share float64) string {
	p := 100 * share
	switch {
	case p >= 10:
		return fmt.Sprintf("%.0f%%", p)
	case p >= 1:
		return fmt.Sprintf("%.1f%%", p)
	case p > 0 && p < 0.01:
		return fmt.Sprintf("%.2g%%", p) // 0.0003%, not 0.00%: a small share is not none
	default:
		return fmt.Sprintf("%.2f%%", p)
	}
}

// rateStr formats an events-per-second rate.
func netRate(perSec float64) string {
	switch {
	case perSec >= 100:
		return fmt.Sprintf("%.0f/s", perSec)
	case perSec >= 1:
		return fmt.Sprintf("%.1f/s", perSec)
	default:
		return fmt.Sprintf("%.2f/s", perSec)
	}
}

// bitsStr formats a bit rate.
func netBits(bps float64) string { return units.FormatBitsPerSec(bps) }

// netZeroText says which counters were read and found quiet ("TcpExt A, B are 0") and which
// of want the input did not hold ("not in the input: C"): a healthy result names only the
// counters it rests on, since a grep of netstat -s or nstat may keep some and not others.
func netZeroText(rs []netCounterReading, want []netCounter) string {
	read := map[string]bool{}
	var names []string
	for _, r := range rs {
		read[r.Group+" "+r.Name] = true
		names = append(names, r.Group+" "+r.Name)
	}
	verb := " are 0"
	if len(names) == 1 {
		verb = " is 0"
	}
	out := strings.Join(names, ", ") + verb
	var missing []string
	for _, c := range want {
		if !read[c.Group+" "+c.Name] {
			missing = append(missing, c.Group+" "+c.Name)
		}
	}
	if len(missing) > 0 {
		out += "; not in the input: " + strings.Join(missing, ", ")
	}
	return out
}
