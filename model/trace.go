package model

import (
	"sort"
	"time"
)

// TraceWindow is what the kernel's tracepoints said during a live window (doctor --trace):
// the packets the kernel freed as drops, by the kernel's own reason (skb:kfree_skb, 5.17+)
// and by the code that dropped them, and the allocation stalls the vmscan and compaction
// tracepoints time. It is evidence like a sample, read by the rules through the Timeline.
// Counts are what the tracer read; Lost says how many events the buffers lost, so a count
// is a lower bound when Lost is not zero.
type TraceWindow struct {
	// Mechanism says how the events were read ("tracefs instance, per-CPU binary buffers").
	Mechanism string        `json:"mechanism"`
	Start     time.Time     `json:"start"`
	Duration  time.Duration `json:"duration_ns"`
	// Events are the tracepoints enabled for the window ("skb:kfree_skb", ...).
	Events []string `json:"events"`

	// Reasons is true when skb:kfree_skb has its reason field (5.17+): Drops are then by
	// reason; without it DropsTotal alone is known.
	Reasons    bool         `json:"reasons"`
	DropsTotal uint64       `json:"drops_total"`
	Drops      []TraceCount `json:"drops,omitempty"`          // by reason name, largest first
	Locations  []TraceCount `json:"drop_locations,omitempty"` // by kernel symbol+offset, largest first
	// LocationsNamed is false when /proc/kallsyms hid its addresses (kptr_restrict, not
	// root): Locations then hold bare addresses.
	LocationsNamed bool `json:"locations_named"`

	Reclaim    *TraceStalls `json:"direct_reclaim,omitempty"` // vmscan:mm_vmscan_direct_reclaim_begin/end
	Compaction *TraceStalls `json:"compaction,omitempty"`     // compaction:mm_compaction_begin/end
	// Extfrag counts kmem:mm_page_alloc_extfrag: allocations that took a page block of
	// another migrate type (nil: not traced).
	Extfrag *uint64 `json:"extfrag,omitempty"`

	Lost uint64 `json:"lost_events"`
	// Text, when set, says the drops were read from lines of a pasted text ("lines 13-15"):
	// an excerpt of unknown span, often filtered, so its counts are of the lines shown and a
	// reason it lacks is not shown absent.
	Text string `json:"text,omitempty"`
	// NotTraced are the tracepoints this kernel lacks, each with what it needs.
	NotTraced []Unavailable `json:"not_traced,omitempty"`
}

// TraceCount is one name and how many events had it.
type TraceCount struct {
	Name string `json:"name"`
	// Reason is the drop reason of a location's count (drop_locations only).
	Reason string `json:"reason,omitempty"`
	Count  uint64 `json:"count"`
}

// TraceStalls times a begin/end tracepoint pair per task: the time between a task's begin
// and its end is time that task spent stalled in the kernel.
type TraceStalls struct {
	Count int           `json:"count"`
	Total time.Duration `json:"total_ns"`
	Max   time.Duration `json:"max_ns"`
	// Open counts begins without their end in the window (a stall still running at its end).
	Open  int         `json:"open,omitempty"`
	Tasks []TraceTask `json:"tasks,omitempty"` // longest total first
}

// TraceTask is one task's share of TraceStalls.
type TraceTask struct {
	PID   int           `json:"pid"`
	Comm  string        `json:"comm,omitempty"`
	Count int           `json:"count"`
	Total time.Duration `json:"total_ns"`
	Max   time.Duration `json:"max_ns"`
}

// DropsFor is how many drops had one of reasons; false when reasons were not read.
func (w *TraceWindow) DropsFor(reasons ...string) (uint64, bool) {
	if w == nil || !w.Reasons {
		return 0, false
	}
	var n uint64
	for _, d := range w.Drops {
		for _, r := range reasons {
			if d.Name == r {
				n += d.Count
			}
		}
	}
	return n, true
}

// SortCounts orders counts largest first, then by name and reason, and keeps at most n
// (n ≤ 0: all).
func SortCounts(out []TraceCount, n int) []TraceCount {
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].Reason < out[j].Reason
	})
	if n > 0 && len(out) > n {
		out = out[:n]
	}
	return out
}

// MergeTraces sums traced windows into one (a recording's, written a part at a time):
// counts and stall times add up, the longest stall is the longest of all, and the span runs
// from the first part's start over the parts' durations. Nil when there are none.
func MergeTraces(parts []TraceWindow) *TraceWindow {
	if len(parts) == 0 {
		return nil
	}
	first := parts[0]
	w := &TraceWindow{Mechanism: first.Mechanism, Start: first.Start, Events: first.Events, Reasons: true,
		LocationsNamed: true, NotTraced: first.NotTraced}
	drops := map[string]uint64{}
	locs := map[[2]string]uint64{}
	var ext uint64
	haveExt := false
	for _, p := range parts {
		w.Duration += p.Duration
		w.DropsTotal += p.DropsTotal
		w.Lost += p.Lost
		w.Reasons = w.Reasons && p.Reasons
		w.LocationsNamed = w.LocationsNamed && p.LocationsNamed
		for _, d := range p.Drops {
			drops[d.Name] += d.Count
		}
		for _, l := range p.Locations {
			locs[[2]string{l.Name, l.Reason}] += l.Count
		}
		if p.Extfrag != nil {
			ext += *p.Extfrag
			haveExt = true
		}
		w.Reclaim = mergeStalls(w.Reclaim, p.Reclaim)
		w.Compaction = mergeStalls(w.Compaction, p.Compaction)
	}
	if w.Reasons {
		for n, c := range drops {
			w.Drops = append(w.Drops, TraceCount{Name: n, Count: c})
		}
		w.Drops = SortCounts(w.Drops, 0)
	}
	for k, c := range locs {
		w.Locations = append(w.Locations, TraceCount{Name: k[0], Reason: k[1], Count: c})
	}
	w.Locations = SortCounts(w.Locations, 20)
	if haveExt {
		w.Extfrag = &ext
	}
	return w
}

func mergeStalls(a, b *TraceStalls) *TraceStalls {
	if b == nil {
		return a
	}
	if a == nil {
		a = &TraceStalls{}
	}
	out := &TraceStalls{Count: a.Count + b.Count, Total: a.Total + b.Total, Max: max(a.Max, b.Max), Open: b.Open}
	tasks := map[int]TraceTask{}
	for _, t := range append(append([]TraceTask{}, a.Tasks...), b.Tasks...) {
		x := tasks[t.PID]
		x.PID, x.Count, x.Total, x.Max = t.PID, x.Count+t.Count, x.Total+t.Total, max(x.Max, t.Max)
		if t.Comm != "" {
			x.Comm = t.Comm
		}
		tasks[t.PID] = x
	}
	for _, t := range tasks {
		out.Tasks = append(out.Tasks, t)
	}
	out.Tasks = TopTasks(out.Tasks)
	return out
}

// TopTasks orders tasks by their total stall, longest first, and keeps ten.
func TopTasks(tasks []TraceTask) []TraceTask {
	sort.Slice(tasks, func(i, j int) bool {
		if tasks[i].Total != tasks[j].Total {
			return tasks[i].Total > tasks[j].Total
		}
		return tasks[i].PID < tasks[j].PID
	})
	if len(tasks) > 10 {
		tasks = tasks[:10]
	}
	return tasks
}

// TracesBetween merges the parts that overlap [from, to].
func TracesBetween(parts []TraceWindow, from, to time.Time) *TraceWindow {
	var in []TraceWindow
	for _, p := range parts {
		if !p.Start.After(to) && !p.Start.Add(p.Duration).Before(from) {
			in = append(in, p)
		}
	}
	return MergeTraces(in)
}
