package diagnose

import "headroom/model"

// slabMachines splits a pasted text's /proc/meminfo dumps by machine when they print
// different MemTotal values: MemTotal is the memory the kernel manages from boot
// (totalram_pages), so two untimed dumps that differ in it are two machines or two boots (an
// explainer's "another example", a thread comparing hosts), and a series or a share must not
// mix them: one dump's SUnreclaim against the other's LowTotal, or the last dump hiding the
// first. Each part holds a run of samples from a dump with MemTotal up to the next dump with
// another MemTotal (a sample without MemTotal, a grep of three lines, stays with the dump
// before it; those before the first dump go with it), and the host's memory facts of that
// part alone. Timed samples (a live host, a recording) are one machine whose MemTotal may
// move (memory hotplug, a balloon driver): nil, as for a single MemTotal.
func slabMachines(tl *model.Timeline) []*model.Timeline {
	var starts []int
	var cur int64
	for i := range tl.Samples {
		s := &tl.Samples[i]
		if !s.Time.IsZero() {
			return nil
		}
		v, ok := s.Mem("MemTotal")
		if !ok || v <= 0 || v == cur {
			continue
		}
		if cur != 0 {
			starts = append(starts, i)
		}
		cur = v
	}
	if len(starts) == 0 {
		return nil
	}
	starts = append([]int{0}, starts...)
	parts := make([]*model.Timeline, 0, len(starts))
	for k, from := range starts {
		to := len(tl.Samples)
		if k+1 < len(starts) {
			to = starts[k+1]
		}
		p := *tl
		p.Samples = tl.Samples[from:to]
		p.Segments, p.Breaks = nil, nil
		// The host facts were gathered over the whole text: this part's own dumps say
		// its memory (model.Timeline.Memory reads MemTotal and LowTotal from the samples).
		p.Host.MemTotalKB, p.Host.LowTotalKB, p.Host.HighMem, p.Host.WordBits = 0, 0, nil, 0
		parts = append(parts, &p)
	}
	return parts
}

// slabWorst is the result of the machines' parts that says the most: the most severe
// finding, else a healthy reading (each part's, joined), else the first part's not-checked
// reason. A part left unchecked never turns healthy: the healthy message says it was not
// checked.
func slabWorst(rs []Result) Result {
	best, bestSev := -1, Severity(-1)
	var healthy, unchecked []string
	for i, r := range rs {
		for _, f := range r.Findings {
			if best < 0 || f.Severity > bestSev {
				best, bestSev = i, f.Severity
			}
		}
		switch {
		case len(r.Findings) > 0:
		case r.NotChecked != "":
			unchecked = append(unchecked, r.NotChecked)
		case r.Checked != "":
			healthy = append(healthy, r.Checked)
		}
	}
	if best >= 0 {
		return rs[best]
	}
	if len(healthy) > 0 {
		msg := healthy[0]
		for _, h := range healthy[1:] {
			msg += "; another machine's dump: " + h
		}
		for _, u := range unchecked {
			msg += "; another machine's dump not checked: " + u
		}
		return Healthy("%s", msg)
	}
	return rs[0]
}
