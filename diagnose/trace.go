package diagnose

import (
	"fmt"
	"strings"
	"time"

	"headroom/model"
)

// The kernel's own reasons (doctor --trace, model.TraceWindow). Since 5.17 every packet the
// kernel frees as a drop passes skb:kfree_skb with a reason (kfree_skb_reason,
// net/core/skbuff.c; the enum is include/net/dropreason-core.h), so a rule that explains a
// kind of drop can cite the kernel's count of exactly that kind, in every namespace and
// whatever the counters and the rate-limited kernel log say. A rule reads the reasons it
// explains through traceDrops; the trace evidence goes first in its finding, so the story's
// proof of that link is the kernel's count.

// traceDrops says what one rule reads of a traced window's drops.
type traceDrops struct {
	reasons []string // the kernel's reason names, as its format file prints them
	what    string   // what those drops are, for the evidence
	// A finding made from the trace alone (the counters did not fire: the drops were in
	// another namespace, or the counters are not read).
	sev         Severity
	title       string
	explanation string
}

// withTraceDrops wraps a rule's check: when the window was traced with reasons, drops of
// spec's reasons join (or make) its finding, and none of them makes a rule that lacked its
// counters checked.
func withTraceDrops(check func(*model.Timeline) Result, spec traceDrops) func(*model.Timeline) Result {
	return func(tl *model.Timeline) Result {
		r := check(tl)
		n, ok := tl.Trace.DropsFor(spec.reasons...)
		if !ok {
			return r
		}
		if n == 0 {
			if len(r.Findings) == 0 && r.NotChecked != "" && tl.Trace.Text == "" {
				return Healthy("no %s drops traced in %s (skb:kfree_skb)", strings.Join(spec.reasons, "/"), traceSpan(tl.Trace))
			}
			return r
		}
		ev := traceDropEvidence(tl.Trace, spec)
		if len(r.Findings) > 0 {
			f := &r.Findings[0]
			f.Evidence = append(ev, f.Evidence...)
			f.Severity = max(f.Severity, spec.sev)
			return r
		}
		where := " The count is the kernel's own (skb:kfree_skb's reason), over every network namespace of the host."
		if tl.Trace.Text != "" {
			where = " The reason is the kernel's own (kfree_skb_reason), as the tool in the text printed it."
		}
		return Fired(Finding{Severity: spec.sev, Title: spec.title, Evidence: ev, Explanation: spec.explanation + where})
	}
}

// traceDropEvidence is one line per reason with drops: the count, the rate, and where the
// kernel dropped them.
func traceDropEvidence(w *model.TraceWindow, spec traceDrops) []Evidence {
	var ev []Evidence
	for _, reason := range spec.reasons {
		n, _ := w.DropsFor(reason)
		if n == 0 {
			continue
		}
		v := fmt.Sprintf("%d in %s (%s/s)", n, traceSpan(w), traceRate(n, w.Duration))
		src := "tracepoint skb:kfree_skb (doctor --trace)"
		if w.Text != "" {
			// Lines pasted in the text: a count of the lines shown, over a span not known.
			v, src = fmt.Sprintf("%d of the %d drop lines shown (%s)", n, w.DropsTotal, w.Mechanism), w.Text
		}
		var locs []string
		for _, l := range w.Locations {
			if l.Reason == reason && len(locs) < 3 {
				locs = append(locs, fmt.Sprintf("%s %d", l.Name, l.Count))
			}
		}
		if len(locs) > 0 {
			v += "; dropped in " + strings.Join(locs, ", ")
		}
		if w.Lost > 0 {
			v += fmt.Sprintf("; at least: the trace buffers lost %d events", w.Lost)
		}
		ev = append(ev, Evidence{What: fmt.Sprintf("packets the kernel dropped as %s (%s)", reason, spec.what), Value: v, Source: src})
	}
	return ev
}

func traceSpan(w *model.TraceWindow) string {
	return w.Duration.Round(100 * time.Millisecond).String()
}

func traceRate(n uint64, d time.Duration) string {
	if d <= 0 {
		return "?"
	}
	r := float64(n) / d.Seconds()
	if r >= 100 {
		return fmt.Sprintf("%.0f", r)
	}
	return fmt.Sprintf("%.1f", r)
}

// traceStallEvidence describes measured stalls: count, total, longest, and the tasks that
// waited most.
func traceStallEvidence(what, tp string, w *model.TraceWindow, s *model.TraceStalls) Evidence {
	v := fmt.Sprintf("%d in %s, %s in all, longest %s", s.Count, traceSpan(w), traceDur(s.Total), traceDur(s.Max))
	var tasks []string
	for i, t := range s.Tasks {
		if i == 3 {
			break
		}
		name := t.Comm
		if name == "" {
			name = "pid"
		}
		tasks = append(tasks, fmt.Sprintf("%s[%d] %d× %s (longest %s)", name, t.PID, t.Count, traceDur(t.Total), traceDur(t.Max)))
	}
	if len(tasks) > 0 {
		v += "; " + strings.Join(tasks, ", ")
	}
	if s.Open > 0 {
		v += fmt.Sprintf("; %d still stalled at the end", s.Open)
	}
	return Evidence{What: what, Value: v, Source: "tracepoints " + tp + " (doctor --trace)"}
}

func traceDur(d time.Duration) string {
	switch {
	case d >= time.Second:
		return fmt.Sprintf("%.2f s", d.Seconds())
	case d >= time.Millisecond:
		return fmt.Sprintf("%.1f ms", float64(d)/1e6)
	}
	return fmt.Sprintf("%.0f µs", float64(d)/1e3)
}

// Direct reclaim stalls measured by vmscan:mm_vmscan_direct_reclaim_begin/end (a task that
// allocates and finds too little free reclaims itself before it may continue,
// __alloc_pages_direct_reclaim → try_to_free_pages, mm/vmscan.c, which fires the pair): the
// time between them is time the task did no work. traceStallWarn: one stall of 100 ms is a
// visible hiccup for a request or a packet queue, and 1% of the window spent stalled is a
// host that is short of memory, not one that reclaims now and then.
const (
	traceStallWarnMax   = 100 * time.Millisecond
	traceStallWarnShare = 0.01
)

// withTraceStalls wraps direct-reclaim-stalls: measured stall times join (or make) its
// finding; a traced window without any makes a rule that lacked its counters checked.
func withTraceStalls(check func(*model.Timeline) Result) func(*model.Timeline) Result {
	return func(tl *model.Timeline) Result {
		r := check(tl)
		w := tl.Trace
		if w == nil || w.Reclaim == nil {
			return r
		}
		s := w.Reclaim
		if s.Count == 0 && s.Open == 0 {
			if len(r.Findings) == 0 && r.NotChecked != "" {
				return Healthy("no direct reclaim traced in %s (vmscan:mm_vmscan_direct_reclaim_begin/end)", traceSpan(w))
			}
			return r
		}
		sev := Info
		if s.Max >= traceStallWarnMax || (w.Duration > 0 && float64(s.Total) >= traceStallWarnShare*float64(w.Duration)) || s.Open > 0 {
			sev = Warning
		}
		ev := []Evidence{traceStallEvidence("direct reclaim stalls (measured)", "vmscan:mm_vmscan_direct_reclaim_begin/end", w, s)}
		if c := w.Compaction; c != nil && c.Count > 0 {
			ev = append(ev, traceStallEvidence("compaction runs (measured; kcompactd's among them)", "compaction:mm_compaction_begin/end", w, c))
		}
		if w.Extfrag != nil && *w.Extfrag > 0 {
			ev = append(ev, Evidence{What: "allocations that took a page block of another migrate type (extfrag)", Value: fmt.Sprintf("%d in %s", *w.Extfrag, traceSpan(w)), Source: "tracepoint kmem:mm_page_alloc_extfrag (doctor --trace)"})
		}
		if len(r.Findings) > 0 {
			f := &r.Findings[0]
			f.Evidence = append(ev, f.Evidence...)
			f.Severity = max(f.Severity, sev)
			return r
		}
		return Fired(Finding{Severity: sev, Title: "tasks stalled in direct reclaim (measured by tracepoint)", Evidence: ev,
			Explanation: "An allocation that finds the free pages below the low watermark, with kswapd behind, makes the " +
				"allocating task reclaim pages itself before it may continue (__alloc_pages_direct_reclaim, " +
				"mm/page_alloc.c). The times are the kernel's, from the begin and end tracepoints of each stall: " +
				"the task did no work meanwhile."})
	}
}
