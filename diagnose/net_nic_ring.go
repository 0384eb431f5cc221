package diagnose

import (
	"fmt"
	"sort"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
)

// nic-ring-below-max: the RX ring (descriptors the driver keeps filled with empty buffers
// for the NIC to DMA into) is smaller than the pre-set maximum the driver reports
// (ETHTOOL_GRINGPARAM rx_max_pending). The ring is how long the host may stall its NAPI poll
// before the NIC drops frames: at line rate a 256-entry ring lasts 3 ms at 1 Gbit/s (seed
// 001's e1000 default "set to 256 packets, ... resulting in packet overruns"; seed 004's
// plan to "increase RX ring buffer size to 4096").
func init() {
	Register(Rule{
		ID:     "nic-ring-below-max",
		Title:  "RX ring smaller than the NIC's pre-set maximum",
		Family: FamilyNetwork,
		Check:  checkNICRingBelowMax,
	})
}

func checkNICRingBelowMax(tl *model.Timeline) Result {
	last := tl.LastWith(func(s *model.Sample) bool {
		for _, st := range s.NICStats {
			if st.Ring != nil && st.Ring.RxMax > 0 {
				return true
			}
		}
		return false
	})
	if last == nil {
		return NotChecked("no RX ring sizes: needs ethtool -g (live ETHTOOL_GRINGPARAM or a pasted ethtool -g)")
	}
	var findings []Finding
	var atMax []string
	for _, st := range last.NICStats {
		if st.Ring == nil || st.Ring.RxMax <= 0 {
			continue
		}
		r := st.Ring
		if r.Rx >= r.RxMax {
			atMax = append(atMax, fmt.Sprintf("%s %d", st.Name, r.Rx))
			if f, ok := ringRaisedAfterLoss(tl, last, st.Name, r); ok {
				findings = append(findings, f)
			}
			continue
		}
		lost, src := nicLost(tl, st.Name)
		sev := Info
		ringSrc := "ethtool -g " + st.Name
		if strings.HasPrefix(st.Name, "(stated") {
			ringSrc = last.Source // sizes a sentence gives (artifact/stated.go), not ethtool's table
		}
		ev := []Evidence{{What: st.Name + " RX ring", Value: fmt.Sprintf("%d of pre-set maximum %d", r.Rx, r.RxMax), Source: ringSrc}}
		// Sampled over a window, the losses must have grown in it: a since-boot count that
		// did not move while we watched is history, not a reason to reset the link.
		grew, sampled := nicLostGrowth(tl, st.Name)
		if lost > 0 {
			sev = Warning
			v := fmt.Sprintf("%d since boot", lost)
			if sampled {
				v += fmt.Sprintf(", +%d %s", grew, window(tl))
				if grew == 0 {
					sev = Info
					v += ": none while sampled"
				}
			}
			ev = append(ev, Evidence{What: st.Name + " frames lost for lack of ring or FIFO room", Value: v, Source: src})
		}
		speed := netNICSpeed(tl, st.Name)
		mtu := netNICMTU(tl, st.Name)
		timing := ""
		if speed > 0 {
			pps := plan.PacketsPerSec(speed, mtu)
			timing = fmt.Sprintf("at %s and MTU %d the ring lasts %.1f ms, the maximum %.1f ms", netBits(speed), mtu, plan.RingMillis(r.Rx, pps), plan.RingMillis(r.RxMax, pps))
			ev = append(ev, Evidence{What: st.Name + " time the host may stall before drops", Value: timing, Source: "plan.RingMillis"})
		}
		f := Finding{
			Facts:    Facts{NoLoss: lost == 0},
			ID:       "nic-ring-below-max",
			Severity: sev,
			Title:    fmt.Sprintf("%s RX ring %d is below its pre-set maximum %d", st.Name, r.Rx, r.RxMax),
			Evidence: ev,
			Explanation: "The RX ring is the slack between the NIC and the host's receive processing: frames " +
				"arriving while every descriptor is used are dropped by the NIC (nic-rx-overruns). A ring at " +
				"its maximum rides out longer NAPI poll delays (busy CPUs, softirq squeezes, slow refills when " +
				"memory is short). Costs: ring × buffer size of memory held per queue (for 4096 entries of 2 KiB " +
				"buffers, 8 MiB per queue), a little more latency under overload, and on many drivers " +
				"`ethtool -G` resets the link for a moment. Without losses there is nothing to gain yet.",
		}
		if lost > 0 && sev >= Warning {
			why := fmt.Sprintf("frames were lost on %s; the maximum ring rides out %.1f× longer stalls", st.Name, float64(r.RxMax)/float64(max(r.Rx, 1)))
			if timing != "" {
				why = fmt.Sprintf("frames were lost on %s; %s (ethtool -G %s rx %d)", st.Name, timing, st.Name, r.RxMax)
			}
			f.Changes = []model.Change{{
				Kind: model.ChangeEthtool, Key: st.Name + " rx",
				Current: fmt.Sprint(r.Rx), Recommended: fmt.Sprint(r.RxMax), Why: why,
			}}
		}
		findings = append(findings, f)
	}
	if len(findings) == 0 {
		sort.Strings(atMax)
		return Healthy("RX rings at their maximum: %s", strings.Join(atMax, ", "))
	}
	return Fired(findings...)
}

// ringRaisedAfterLoss: the newest ring of name is at its maximum, but an earlier reading in
// the input had it below while the NIC lost frames (corpus 268: a blog's ethtool -g at 453
// of 4078 beside 1673109 overruns, then `ethtool -G` and a second ethtool -g at 4078). The
// ring was the loss's setting when it was counted and is fixed now: named at info, with no
// change to make.
func ringRaisedAfterLoss(tl *model.Timeline, last *model.Sample, name string, now *kernel.Ring) (Finding, bool) {
	var before *kernel.Ring
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if s == last {
			break
		}
		if st := nicStats(s, name); st != nil && st.Ring != nil && st.Ring.RxMax > 0 && st.Ring.Rx < st.Ring.RxMax {
			before = st.Ring
		}
	}
	if before == nil {
		return Finding{}, false
	}
	lost, src := nicLost(tl, name)
	if lost <= 0 {
		return Finding{}, false
	}
	return Finding{
		ID:       "nic-ring-below-max",
		Severity: Info,
		Title:    fmt.Sprintf("%s RX ring was %d of its maximum %d while frames were lost; a later reading has it at %d", name, before.Rx, before.RxMax, now.Rx),
		Evidence: []Evidence{
			{What: name + " RX ring, earlier reading", Value: fmt.Sprintf("%d of pre-set maximum %d", before.Rx, before.RxMax), Source: "ethtool -g " + name},
			{What: name + " RX ring, newest reading", Value: fmt.Sprintf("%d of pre-set maximum %d", now.Rx, now.RxMax), Source: "ethtool -g " + name},
			{What: name + " frames lost for lack of ring or FIFO room", Value: fmt.Sprintf("%d since boot", lost), Source: src},
		},
		Explanation: "The ring was below its maximum when the losses were counted, and has been raised since " +
			"(`ethtool -G`): whether that stopped them is for the overrun counters read again after the change to say.",
	}, true
}

// nicLost returns the frames a NIC lost for lack of ring or FIFO room since boot: the
// standard overrun counters of its newest netdev line, else the driver's own names in its
// newest ethtool -S.
func nicLost(tl *model.Timeline, name string) (int64, string) {
	if s := tl.LastWith(func(s *model.Sample) bool { return hasNetDev(s, name) }); s != nil {
		if lost, _ := netdevLost(s, name); lost > 0 {
			return lost, sampleSource(s, "/proc/net/dev")
		}
	}
	s := tl.LastWith(func(s *model.Sample) bool { st := nicStats(s, name); return st != nil && st.Stats != nil })
	if s == nil {
		return 0, ""
	}
	if lost, _ := ethtoolLost(tl, s, name); lost > 0 {
		return lost, "ethtool -S " + name
	}
	return 0, ""
}

// netdevLost sums the standard overrun counters of name's netdev line in s.
func netdevLost(s *model.Sample, name string) (sum int64, found bool) {
	for _, d := range s.NetDev {
		if d.Name != name {
			continue
		}
		for _, c := range kernel.RxOverrunNetDevCounters {
			if v, ok := d.Counters.Get(c); ok {
				sum, found = sum+v, true
			}
		}
	}
	return sum, found
}

// ethtoolLost sums the driver's overrun counters of name's ethtool -S in s.
func ethtoolLost(tl *model.Timeline, s *model.Sample, name string) (int64, bool) {
	st := nicStats(s, name)
	if st == nil || st.Stats == nil {
		return 0, false
	}
	var sum int64
	for _, l := range kernel.ClassifyNICStats(st.Stats, isVirtualNIC(tl, name)) {
		if l.RxOverrun() {
			sum += l.Value
		}
	}
	return sum, true
}

// nicLostGrowth is how much nicLost's counters grew between the first and last samples that
// have them; sampled is false for a single snapshot (a paste, one capture).
func nicLostGrowth(tl *model.Timeline, name string) (grew int64, sampled bool) {
	if d, _, ok := tl.CounterDelta(func(s *model.Sample) (int64, bool) { return netdevLost(s, name) }); ok {
		return d, true
	}
	d, _, ok := tl.CounterDelta(func(s *model.Sample) (int64, bool) { return ethtoolLost(tl, s, name) })
	return d, ok
}
