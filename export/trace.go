package export

import (
	"maps"
	"sort"
	"time"

	"headroom/model"
)

// serve --trace: the kernel's tracepoints (source.Tracer, the same traced window as doctor
// --trace) cut at every window sample and summed since serve started, exported as counters:
// drops by the kernel's reason (skb:kfree_skb), the time tasks spent stalled in direct
// reclaim and compaction (vmscan/compaction begin-end pairs), extfrag events, and the events
// the trace buffers lost. The tracer is cut at window samples only, not at every scrape: a
// cut names the drop locations through /proc/kallsyms, which costs milliseconds.

var (
	mTraceSeconds = def("headroom_trace_seconds_total", counter,
		"Time the kernel's tracepoints were traced (serve --trace); the trace counters cover this time.")
	mTraceDrops = def("headroom_trace_drops_total", counter,
		"Packets the kernel freed as dropped, by its own reason (tracepoint skb:kfree_skb, serve --trace). reason is SKB_DROP_REASON_* without the prefix; \"unknown\" on kernels before 5.17, whose tracepoint has no reason field.",
		"reason")
	mTraceStalls = def("headroom_trace_stalls_total", counter,
		"Stalls of a task in the kernel that ended, by kind: direct_reclaim (vmscan:mm_vmscan_direct_reclaim_begin/end) or compaction (compaction:mm_compaction_begin/end) (serve --trace).",
		"kind")
	mTraceStallSeconds = def("headroom_trace_stall_seconds_total", counter,
		"Time tasks spent stalled in the kernel, by kind (direct_reclaim or compaction), summed over the stalls that ended (serve --trace).",
		"kind")
	mTraceExtfrag = def("headroom_trace_extfrag_events_total", counter,
		"Page allocations that took a page block of another migrate type (kmem:mm_page_alloc_extfrag, serve --trace): fragmentation in the making.")
	mTraceLost = def("headroom_trace_lost_events_total", counter,
		"Trace events the tracer's buffers lost (overrun or dropped, serve --trace): when it rises, the other trace counters are lower bounds.")
)

// traceTotals are the traced windows summed since serve started.
type traceTotals struct {
	on       bool
	seconds  time.Duration
	reasons  bool
	drops    map[string]uint64 // by reason ("unknown" without the reason field)
	stalls   [2]uint64         // direct reclaim, compaction
	stallDur [2]time.Duration
	stalled  [2]bool // the tracepoint pair exists on this kernel
	extfrag  uint64
	haveFrag bool
	lost     uint64
}

var traceStallKinds = [2]string{"direct_reclaim", "compaction"}

// add sums one cut window into the totals.
func (t *traceTotals) add(w *model.TraceWindow) {
	if w == nil {
		return
	}
	t.on = true
	if t.drops == nil {
		t.drops = map[string]uint64{}
	}
	t.seconds += w.Duration
	t.reasons = w.Reasons
	if w.Reasons {
		var named uint64
		for _, d := range w.Drops {
			t.drops[d.Name] += d.Count
			named += d.Count
		}
		if w.DropsTotal > named {
			t.drops["unknown"] += w.DropsTotal - named
		}
	} else {
		t.drops["unknown"] += w.DropsTotal
	}
	for i, s := range [2]*model.TraceStalls{w.Reclaim, w.Compaction} {
		if s != nil {
			t.stalled[i] = true
			t.stalls[i] += uint64(s.Count)
			t.stallDur[i] += s.Total
		}
	}
	if w.Extfrag != nil {
		t.haveFrag = true
		t.extfrag += *w.Extfrag
	}
	t.lost += w.Lost
}

// clone copies the totals for a snapshot (the drops map is the collector's). Without drops
// (serve without --trace: every scrape) it makes no map.
func (t traceTotals) clone() traceTotals {
	t.drops = maps.Clone(t.drops) // nil for nil, and an empty map stays empty
	return t
}

func traceMetrics(b *pointBuf, t *traceTotals) {
	if !t.on {
		return
	}
	b.add(mTraceSeconds, t.seconds.Seconds())
	reasons := make([]string, 0, len(t.drops))
	for r := range t.drops {
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	for _, r := range reasons {
		b.add(mTraceDrops, float64(t.drops[r]), r)
	}
	for i, k := range traceStallKinds {
		if t.stalled[i] {
			b.add(mTraceStalls, float64(t.stalls[i]), k)
			b.add(mTraceStallSeconds, t.stallDur[i].Seconds(), k)
		}
	}
	if t.haveFrag {
		b.add(mTraceExtfrag, float64(t.extfrag))
	}
	b.add(mTraceLost, float64(t.lost))
}
