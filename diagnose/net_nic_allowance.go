package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
)

// nic-allowance-exceeded: a cloud guest's NIC reports packets the provider's network queued
// or dropped because the instance went over an allowance of its type (AWS ENA's
// *_allowance_exceeded, kernel.CloudAllowanceLimit). The loss is real and costs throughput
// (a queued packet waits, a dropped one is retransmitted), but it happens outside the guest:
// no free memory, ring size or sysctl of this host changes it. The finding says so, so that a
// drop count beside these counters is not blamed on the host's memory.
func init() {
	Register(Rule{
		ID:     "nic-allowance-exceeded",
		Title:  "packets queued or dropped by the cloud's allowance (ENA *_allowance_exceeded), not by this host",
		Family: FamilyNetwork,
		Check:  checkNICAllowance,
	})
}

// allowanceRead is one interface's allowance counters, in the latest and the earliest sample
// that hold them.
type allowanceRead struct {
	name        string
	last, first *kernel.NICStats
	lastS       *model.Sample
}

func hasAllowanceCounter(st *kernel.NICStats) bool {
	if st == nil || st.Stats == nil {
		return false
	}
	for _, n := range st.Stats.Names() {
		if _, ok := kernel.CloudAllowanceLimit(n); ok {
			return true
		}
	}
	return false
}

func checkNICAllowance(tl *model.Timeline) Result {
	var reads []allowanceRead
	seen := map[string]bool{}
	for i := len(tl.Samples) - 1; i >= 0; i-- {
		s := &tl.Samples[i]
		for k := range s.NICStats {
			st := &s.NICStats[k]
			if seen[st.Name] || !hasAllowanceCounter(st) {
				continue
			}
			seen[st.Name] = true
			r := allowanceRead{name: st.Name, last: st, first: st, lastS: s}
			for j := 0; j < i; j++ {
				if f := nicStats(&tl.Samples[j], st.Name); hasAllowanceCounter(f) {
					r.first = f
					break
				}
			}
			reads = append(reads, r)
		}
	}
	if len(reads) == 0 {
		return NotChecked("no cloud allowance counter in the input (AWS ENA's bw_in/bw_out/pps/conntrack/linklocal_allowance_exceeded, in ethtool -S of an ENA interface)")
	}
	sort.Slice(reads, func(i, j int) bool { return reads[i].name < reads[j].name })
	var findings []Finding
	var zero []string
	for _, r := range reads {
		if f, ok := allowanceFinding(tl, r); ok {
			findings = append(findings, f)
			continue
		}
		// Absent is not zero: a counter the paste cut off is named as unread.
		z := nicLabel(r.name)
		if missing := kernel.CloudAllowancesMissing(*r.last.Stats); len(missing) > 0 {
			z += " (not in the input: " + strings.Join(missing, ", ") + ")"
		}
		zero = append(zero, z)
	}
	if len(findings) == 0 {
		return Healthy("cloud allowance counters at 0 on %s: no packet queued or dropped by the provider's allowances", strings.Join(zero, "; "))
	}
	return Fired(findings...)
}

func nicLabel(name string) string {
	if name == "" {
		return "the ENA interface (its name not in the input)"
	}
	return name
}

func allowanceFinding(tl *model.Timeline, r allowanceRead) (Finding, bool) {
	src := "ethtool -S " + r.name
	if r.lastS != nil {
		src = sampleSource(r.lastS, src)
	}
	var ev []Evidence
	var total, grown int64
	hasDelta := false
	var limits []string
	for i := 0; i < r.last.Stats.Len(); i++ {
		name, v := r.last.Stats.At(i)
		limit, ok := kernel.CloudAllowanceLimit(name)
		if !ok || v <= 0 {
			continue // 0 is no packet over the allowance; a negative value is no count
		}
		total += v
		val := fmt.Sprintf("%d packets since the driver loaded", v)
		if r.first != r.last {
			if p, ok := r.first.Stats.Get(name); ok {
				d, kind := model.Delta(p, v, model.Width64)
				hasDelta = true
				grown += d
				val = fmt.Sprintf("%d since the driver loaded, +%d %s%s", v, d, window(tl), deltaNote(kind))
			}
		}
		ev = append(ev, Evidence{What: nicLabel(r.name) + " " + strings.TrimSpace(name), Value: val + ": over " + limit, Source: src})
		limits = append(limits, strings.TrimSpace(name))
	}
	if total == 0 {
		return Finding{}, false
	}
	sev := Warning
	if pk, pkSrc, ok := packetsThrough(tl, r); ok && pk > 0 {
		ratio := float64(total) / float64(pk+total)
		ev = append(ev, Evidence{What: nicLabel(r.name) + " share of packets over the allowances", Value: fmt.Sprintf("%.4f%% (%d of %d)", 100*ratio, total, pk+total), Source: pkSrc})
		if ratio < overrunRatioWarn && !hasDelta {
			sev = Info
		}
	} else if !hasDelta {
		sev = Info
		ev = append(ev, Evidence{What: nicLabel(r.name) + " share of packets over the allowances", Value: "not known: the input has no packet count for this interface (a since-boot total alone is not judged large)", Source: src})
	}
	if hasDelta {
		if grown == 0 {
			sev = Info
		} else {
			sev = Warning
		}
	}
	if v, ok := r.last.Stats.Get(kernel.CloudConntrackAvailable); ok {
		ev = append(ev, Evidence{What: nicLabel(r.name) + " " + kernel.CloudConntrackAvailable, Value: fmt.Sprintf("%d connections may still be tracked: a remaining quota, not a drop count", v), Source: src, Role: Background})
	}
	return Finding{
		Severity: sev,
		Title: fmt.Sprintf("%s: the cloud's allowances queued or dropped %d packets (%s): the provider's limit, not this host's memory",
			nicLabel(r.name), total, strings.Join(limits, ", ")),
		Evidence: ev,
		Explanation: "These ENA counters count packets the AWS network (the Nitro card, outside this guest) queued or dropped because " +
			"the instance went over an allowance of its instance type: aggregate inbound or outbound bandwidth, packets per second, " +
			"tracked connections, or packets per second to link-local services (the Amazon DNS resolver, instance metadata, Time " +
			"Sync). The packets never reached this kernel, or left it and were held back: no free memory, RX ring size or sysctl of " +
			"this host changes them, and drops beside them are not the guest's memory running short. What helps: an instance type " +
			"with larger allowances or the traffic spread over more instances (an \"up to\" bandwidth is a burst that runs out under " +
			"sustained load); for conntrack, fewer tracked flows (security-group rules that leave flows untracked, shorter idle " +
			"timeouts); for link-local, a local DNS cache (NodeLocal DNSCache, systemd-resolved) so each query does not go to the " +
			"resolver. The counters are since the driver loaded: two readings a minute apart show whether it is going on now.",
	}, true
}

// packetsThrough finds the packets an interface moved, to weigh the allowance counters
// against: its rx and tx packets from /proc/net/dev or ip -s link (any sample), else ENA's
// per-queue queue_N_rx_cnt and queue_N_tx_cnt (ena_queue_strings, ena_ethtool.c) summed.
func packetsThrough(tl *model.Timeline, r allowanceRead) (int64, string, bool) {
	if r.name != "" {
		for i := len(tl.Samples) - 1; i >= 0; i-- {
			for _, d := range tl.Samples[i].NetDev {
				if d.Name != r.name {
					continue
				}
				rx, okR := d.Counters.Get("rx_packets")
				tx, okT := d.Counters.Get("tx_packets")
				if okR && okT && rx+tx > 0 {
					return rx + tx, sampleSource(&tl.Samples[i], "/proc/net/dev") + " (rx + tx packets)", true
				}
			}
		}
	}
	st := r.last.Stats
	rx, okR := st.Get("rx_packets")
	tx, okT := st.Get("tx_packets")
	if okR && okT && rx+tx > 0 {
		return rx + tx, "ethtool -S " + r.name + " (rx + tx packets)", true
	}
	var sum int64
	for i := 0; i < st.Len(); i++ {
		name, v := st.At(i)
		if rest, ok := strings.CutPrefix(name, "queue_"); ok && (strings.HasSuffix(rest, "_rx_cnt") || strings.HasSuffix(rest, "_tx_cnt")) {
			if q, _, ok := strings.Cut(rest, "_"); ok && kernel.IsDigits(q) {
				sum += v
			}
		}
	}
	if sum > 0 {
		return sum, "ethtool -S " + r.name + " (queue_N_rx_cnt + queue_N_tx_cnt summed)", true
	}
	return 0, "", false
}
