package export

import (
	"strings"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"

	"headroom/diagnose"
	"headroom/kernel"
	"headroom/model"
)

// serve --trace: each window sample cuts the tracer once and the counters sum the cuts;
// without --trace no trace series exists (absent, not zero).
func TestTraceCounters(t *testing.T) {
	frag := uint64(3)
	cuts := []*model.TraceWindow{
		{Duration: time.Second, Reasons: true, DropsTotal: 12, Drops: []model.TraceCount{{Name: "PROTO_MEM", Count: 10}, {Name: "SOCKET_RCVBUFF", Count: 2}},
			Reclaim: &model.TraceStalls{Count: 2, Total: 30 * time.Millisecond}, Compaction: &model.TraceStalls{}, Extfrag: &frag, Lost: 1},
		{Duration: 2 * time.Second, Reasons: true, DropsTotal: 5, Drops: []model.TraceCount{{Name: "PROTO_MEM", Count: 5}},
			Reclaim: &model.TraceStalls{Count: 1, Total: 20 * time.Millisecond}, Compaction: &model.TraceStalls{Count: 1, Total: 5 * time.Millisecond}, Extfrag: &frag},
	}
	calls := 0
	clk := &fakeClock{t: captureTime}
	c := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, MinInterval: time.Second, WindowInterval: 2 * time.Second, RulesInterval: -1,
		Trace: func() *model.TraceWindow { w := cuts[calls]; calls++; return w }})
	defer c.Close()
	c.Snapshot() // window sample: cut 1
	clk.Add(time.Second)
	c.Snapshot() // not a window sample: no cut
	if calls != 1 {
		t.Fatalf("%d cuts after one window sample and one other", calls)
	}
	clk.Add(time.Second)
	snap := c.Snapshot() // window sample: cut 2
	if calls != 2 {
		t.Fatalf("%d cuts after two window samples", calls)
	}
	// The rules read the window's cuts merged: the PROTO_MEM drops of both, cited first by
	// tcp-memory-pressure.
	if ev := firstEvidence(snap, "tcp-memory-pressure"); !strings.Contains(ev.What, "PROTO_MEM") || !strings.HasPrefix(ev.Value, "15 in 3s") {
		t.Errorf("tcp-memory-pressure's first evidence %+v, want the 15 PROTO_MEM drops in 3s", ev)
	}
	want := `
# HELP headroom_trace_drops_total Packets the kernel freed as dropped, by its own reason (tracepoint skb:kfree_skb, serve --trace). reason is SKB_DROP_REASON_* without the prefix; "unknown" on kernels before 5.17, whose tracepoint has no reason field.
# TYPE headroom_trace_drops_total counter
headroom_trace_drops_total{reason="PROTO_MEM"} 15
headroom_trace_drops_total{reason="SOCKET_RCVBUFF"} 2
# HELP headroom_trace_extfrag_events_total Page allocations that took a page block of another migrate type (kmem:mm_page_alloc_extfrag, serve --trace): fragmentation in the making.
# TYPE headroom_trace_extfrag_events_total counter
headroom_trace_extfrag_events_total 6
# HELP headroom_trace_lost_events_total Trace events the tracer's buffers lost (overrun or dropped, serve --trace): when it rises, the other trace counters are lower bounds.
# TYPE headroom_trace_lost_events_total counter
headroom_trace_lost_events_total 1
# HELP headroom_trace_seconds_total Time the kernel's tracepoints were traced (serve --trace); the trace counters cover this time.
# TYPE headroom_trace_seconds_total counter
headroom_trace_seconds_total 3
# HELP headroom_trace_stall_seconds_total Time tasks spent stalled in the kernel, by kind (direct_reclaim or compaction), summed over the stalls that ended (serve --trace).
# TYPE headroom_trace_stall_seconds_total counter
headroom_trace_stall_seconds_total{kind="compaction"} 0.005
headroom_trace_stall_seconds_total{kind="direct_reclaim"} 0.05
# HELP headroom_trace_stalls_total Stalls of a task in the kernel that ended, by kind: direct_reclaim (vmscan:mm_vmscan_direct_reclaim_begin/end) or compaction (compaction:mm_compaction_begin/end) (serve --trace).
# TYPE headroom_trace_stalls_total counter
headroom_trace_stalls_total{kind="compaction"} 1
headroom_trace_stalls_total{kind="direct_reclaim"} 3
`
	names := []string{"headroom_trace_drops_total", "headroom_trace_extfrag_events_total", "headroom_trace_lost_events_total",
		"headroom_trace_seconds_total", "headroom_trace_stall_seconds_total", "headroom_trace_stalls_total"}
	if err := testutil.CollectAndCompare(c, strings.NewReader(want), names...); err != nil {
		t.Error(err)
	}

	// A window of one sample keeps one cut for the rules; the counters keep them all.
	calls = 0
	one := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now, WindowSamples: 1, WindowInterval: -1, RulesInterval: -1,
		Trace: func() *model.TraceWindow { w := cuts[calls]; calls++; return w }})
	defer one.Close()
	one.Snapshot()
	clk.Add(time.Second)
	if ev := firstEvidence(one.Snapshot(), "tcp-memory-pressure"); !strings.HasPrefix(ev.Value, "5 in 2s") {
		t.Errorf("one-sample window: tcp-memory-pressure's first evidence %+v, want the last cut's 5 drops in 2s", ev)
	}
	if one.trace.drops["PROTO_MEM"] != 15 {
		t.Errorf("counters after two cuts: %v", one.trace.drops)
	}

	// A kernel before 5.17: the drops are known only in total.
	old := traceTotals{}
	old.add(&model.TraceWindow{Duration: time.Second, DropsTotal: 7})
	if old.drops["unknown"] != 7 || len(old.drops) != 1 {
		t.Errorf("drops without reasons: %v, want unknown 7", old.drops)
	}

	plain := NewCollector(kernel.TxtarRoot(loadCapture(t), "vm.txtar"), Options{Now: clk.Now})
	defer plain.Close()
	if n, err := testutil.GatherAndCount(NewRegistry(plain), names...); err != nil || n != 0 {
		t.Errorf("without --trace: %d trace series (err %v), want none", n, err)
	}
}

func firstEvidence(s *Snapshot, id string) diagnose.Evidence {
	for _, f := range s.Diagnosis.Findings {
		if f.ID == id && len(f.Evidence) > 0 {
			return f.Evidence[0]
		}
	}
	return diagnose.Evidence{}
}
