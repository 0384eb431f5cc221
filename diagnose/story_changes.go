package diagnose

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"headroom/kernel"
	"headroom/model"
	"headroom/plan"
)

// The first change of a story: the root cause's own change when it is a value that can be
// applied; otherwise the kernel version that removes the root cause when a known limit says
// so (batched TLB flushes for kswapd and TLB storms); otherwise the remedy of the root's
// mechanism. What follows: the other links' changes, the meanwhile remedies, the kernel.

// TellDiagnosis is Tell with the Timeline and the checks at hand: a change that plan can
// size only with the link speed or memory (vm.min_free_kbytes) gets plan's value, with what
// was assumed, and only causes whose rules could not check are asked for.
func TellDiagnosis(tl *model.Timeline, d Diagnosis) Story {
	checks := map[string]Status{}
	for _, c := range d.Checks {
		checks[c.ID] = c.Status
	}
	s := tell(d.Findings, checks)
	if tl == nil {
		return s
	}
	// size gives a min_free_kbytes step plan's value; false when that value is not above
	// the current one (lowering a reserve is never a fix for a shortage).
	size := func(st *Step) bool {
		if st == nil || st.Key != "vm.min_free_kbytes" || digitValue(st.Value) {
			return true
		}
		in, missing := memPlanInput(tl)
		assumed := ""
		if len(in.NICs) == 0 {
			in.BandwidthBitsPerSec = 1e9
			assumed = "a 1 Gbit/s link (the input names none; give yours: headroom plan --bandwidth B)"
		}
		kb, why := plan.MinFreeKBytes(in)
		st.Value = strconv.FormatInt(kb, 10)
		st.Command = "sysctl -w vm.min_free_kbytes=" + st.Value + "  # persist in /etc/sysctl.d/"
		st.Why = "plan's value: " + why
		if assumed != "" {
			st.Why += "; assumed " + assumed
		}
		if len(missing) > 0 && in.MemoryBytes == 0 {
			st.Why += "; not capped by memory (MemTotal not in the input)"
		}
		// The reserve now: the finding's, else the value the text shows set (corpus 7086:
		// "echo 540732 > /proc/sys/vm/min_free_kbytes", told as the cure); plan's value
		// for an assumed link is no fix below it.
		cur, err := strconv.ParseInt(strings.Fields(st.Current + " x")[0], 10, 64)
		if err != nil {
			for _, m := range settingMentions(tl, "vm.min_free_kbytes") {
				if v, e := strconv.ParseInt(strings.Fields(m.Value + " x")[0], 10, 64); e == nil && (err != nil || v > cur) {
					cur, err = v, nil
				}
			}
		}
		return err != nil || kb > cur
	}
	// keep sizes a step once: the first chain's change is the story's first change (the
	// same Step), and a step size turned down is turned down wherever it stands (a sized
	// value reads as a number the second time).
	turnedDown := map[*Step]bool{}
	keep := func(st *Step) bool {
		if st == nil {
			return true
		}
		if turnedDown[st] {
			return false
		}
		if !size(st) {
			turnedDown[st] = true
			return false
		}
		return true
	}
	for s.FirstChange != nil && !keep(s.FirstChange) {
		if len(s.Then) > 0 {
			s.FirstChange, s.Then = &s.Then[0], s.Then[1:]
		} else {
			s.FirstChange = nil
		}
	}
	then := s.Then[:0]
	for i := range s.Then {
		if keep(&s.Then[i]) {
			then = append(then, s.Then[i])
		}
	}
	s.Then = then
	for i := range s.Chains {
		if !keep(s.Chains[i].Change) {
			s.Chains[i].Change = nil
		}
	}
	if len(s.Chains) > 0 && s.FirstChange != nil {
		s.Chains[0].Change = s.FirstChange
	}
	return s
}

func digitValue(v string) bool {
	_, err := strconv.ParseInt(strings.Fields(v + " x")[0], 10, 64)
	return err == nil
}

// stepOf turns a finding's change into a step, false when it is advice rather than a value.
func stepOf(id string, c model.Change) (Step, bool) {
	st := Step{Finding: id, Key: c.Key, Current: c.Current, Value: c.Recommended, Why: c.Why}
	switch c.Kind {
	case model.ChangeSysctl:
		if strings.Contains(c.Recommended, "headroom plan") {
			if c.Key == "vm.min_free_kbytes" {
				return st, true // sized by TellTimeline
			}
			return st, false
		}
		st.Command = "sysctl -w " + c.Key + "=" + quoteValue(c.Recommended) + "  # persist in /etc/sysctl.d/"
		return st, true
	case model.ChangeEthtool:
		if f := strings.Fields(c.Key); len(f) == 2 {
			st.Command = "ethtool -G " + f[0] + " " + f[1] + " " + c.Recommended
		}
		return st, true
	case model.ChangeTC:
		return st, true
	}
	switch {
	case c.Key == "vm.min_free_kbytes":
		return st, true
	case strings.HasPrefix(c.Key, "net.") || strings.HasPrefix(c.Key, "vm."):
		// A sysctl whose recommendation reads "max 98304 → 28672 38229 57344" or "max ≤ N".
		if v := lastNumbers(c.Recommended); v != "" && !strings.Contains(c.Recommended, "headroom plan") {
			st.Value = v
			st.Command = "sysctl -w " + c.Key + "=" + quoteValue(v) + "  # persist in /etc/sysctl.d/"
			return st, true
		}
	}
	return st, false
}

// lastNumbers returns the run of numbers after the last arrow of a recommendation, or the
// whole recommendation when it is only numbers.
func lastNumbers(r string) string {
	if i := strings.LastIndex(r, "→"); i >= 0 {
		r = r[i+len("→"):]
	}
	var nums []string
	for _, f := range strings.Fields(r) {
		if _, err := strconv.ParseInt(f, 10, 64); err != nil {
			break
		}
		nums = append(nums, f)
	}
	return strings.Join(nums, " ")
}

func quoteValue(v string) string {
	if strings.ContainsAny(v, " \t") {
		return `"` + v + `"`
	}
	return v
}

// remedy is the change a mechanism calls for when its finding carries no value to apply.
type remedy struct {
	steps func(k kernel.KernelVersion, known bool) []Step
}

var remedies = map[string]remedy{
	// kswapd that cannot keep up: start it earlier, so allocations stay out of direct
	// reclaim (the low watermark wakes it: wakeup_kswapd, mm/page_alloc.c).
	"kswapd-saturated":      {steps: startKswapdEarlier},
	"direct-reclaim-stalls": {steps: startKswapdEarlier},
	"tlb-shootdown-storm":   {steps: startKswapdEarlier},
	// Per-packet allocation: a longer ring absorbs the slow refills now; recycling the
	// receive buffers removes the allocation (2.4: the skb hot list, net/core/skbuff.c
	// sysctl_hot_list_len; current kernels: page_pool, net/core/page_pool.c).
	"allocator-churn": {steps: func(k kernel.KernelVersion, known bool) []Step {
		reuse := Step{Finding: "allocator-churn", Key: "receive buffers", Value: "reuse receive buffers instead of allocating per packet",
			Why: "a driver with page_pool or NAPI skb recycling (net/core/page_pool.c) keeps buffers out of the allocator"}
		if known && !k.AtLeast(2, 6, 0) {
			reuse.Value = "reuse receive buffers: a larger skb hot list (net/core/skbuff.c sysctl_hot_list_len) or a fixed receive pool"
			reuse.Why = "on 2.4 the per-CPU hot list is the allocator's reuse; current kernels do this with page_pool / NAPI skb recycling"
		}
		ring := Step{Finding: "allocator-churn", Key: "IFACE rx", Value: "the ring's maximum (ethtool -g IFACE shows it)", Command: "ethtool -G IFACE rx MAX",
			Why: "a longer RX ring absorbs the bursts the slow allocate/free path cannot keep up with"}
		if cmd, why := kernel.RingSetting(k, known); cmd != ring.Command {
			ring.Value, ring.Command = "the driver's ring size at load (module parameter)", cmd
			ring.Why += "; " + why
		}
		return []Step{ring, reuse}
	}},
}

func startKswapdEarlier(k kernel.KernelVersion, known bool) []Step {
	out := []Step{{Finding: "kswapd-saturated", Key: "vm.min_free_kbytes", Value: "`headroom plan --bandwidth B --memory RAM`",
		Why: "a larger reserve raises the low watermark, so kswapd starts earlier and allocations stay out of direct reclaim"}}
	if has, _ := kernel.SysctlExists("vm.watermark_scale_factor", k, known); has {
		out = append(out, Step{Finding: "kswapd-saturated", Key: "vm.watermark_scale_factor", Value: "`headroom plan` (4.6+)",
			Why: "widens the gap between kswapd's wake-up and the min watermark without raising min"})
	} else {
		out = append(out, Step{Finding: "kswapd-saturated", Key: "vm.watermark_scale_factor", Value: "after the upgrade (it exists from 4.6)",
			Why: "widens the gap between kswapd's wake-up and the min watermark without raising min"})
	}
	return out
}

func tellChanges(s *Story, g *graph, findings []Finding) {
	kv, kvKnown, limits := kernelOf(findings)
	for ci := range s.Chains {
		c := &s.Chains[ci]
		var steps []Step
		seen := map[string]bool{}
		add := func(st Step) {
			if seen[st.Key] {
				return
			}
			seen[st.Key] = true
			steps = append(steps, st)
		}
		var kernelSteps []Step
		ids := []string{}
		for _, l := range c.Links {
			ids = append(ids, l.ID)
		}
		for _, l := range c.Also {
			ids = append(ids, l.ID)
		}
		for _, id := range ids {
			for _, ch := range g.nodes[id].f.Changes {
				if ch.Key == "kernel" {
					kernelSteps = append(kernelSteps, Step{Finding: id, Key: "kernel", Current: ch.Current, Value: ch.Recommended, Why: ch.Why})
					continue
				}
				if st, ok := stepOf(id, ch); ok {
					add(st)
				}
			}
		}
		// A kernel that lacks the fix for the root is the fix.
		var fix *Step
		for _, lf := range limits {
			if b := limitBearings[lf.id]; b.fixes && slices.Contains(b.bears, c.Root) {
				fix = &Step{Finding: "kernel-known-limits", Key: "kernel", Value: fmt.Sprintf("%d.%d or later (%s)", lf.major, lf.minor, lf.what),
					Why: lf.consequence}
				break
			}
		}
		var meanwhile []Step
		for _, id := range ids {
			if r, ok := remedies[id]; ok {
				for _, st := range r.steps(kv, kvKnown) {
					if !seen[st.Key] {
						seen[st.Key] = true
						meanwhile = append(meanwhile, st)
					}
				}
				break
			}
		}
		var ordered []Step
		switch {
		case len(steps) > 0:
			ordered = append(append(ordered, steps...), meanwhile...)
			if fix != nil {
				ordered = append(ordered, *fix)
			}
		case fix != nil:
			ordered = append(append(ordered, *fix), meanwhile...)
		default:
			ordered = meanwhile
		}
		if fix == nil && len(kernelSteps) > 0 {
			ordered = append(ordered, kernelSteps[0])
		}
		if len(ordered) == 0 {
			continue
		}
		first := ordered[0]
		c.Change = &first
		if ci == 0 {
			s.FirstChange = &first
			s.Then = ordered[1:]
		}
	}
}

// kernelOf reads the kernel release and its limits from the kernel-known-limits finding.
func kernelOf(findings []Finding) (kernel.KernelVersion, bool, []kernelFact) {
	var kv kernel.KernelVersion
	known := false
	var facts []kernelFact
	for _, f := range findings {
		if f.ID != "kernel-known-limits" {
			continue
		}
		if f.Facts.Kernel.Known {
			kv, known = f.Facts.Kernel, true
		}
		for _, e := range f.Evidence {
			if lf, ok := kernelFactByID(e.Fact); ok {
				facts = append(facts, lf)
			}
		}
	}
	return kv, known, facts
}
