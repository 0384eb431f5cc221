package diagnose

import (
	"strings"
	"testing"
	"time"

	"headroom/kernel"
	"headroom/model"
)

// tracedTimeline is a live timeline whose window was traced with the drops given.
func tracedTimeline(drops ...model.TraceCount) *model.Timeline {
	tl := timeline(2)
	w := &model.TraceWindow{Duration: 3 * time.Second, Reasons: true, Drops: drops}
	for _, d := range drops {
		w.DropsTotal += d.Count
		w.Locations = append(w.Locations, model.TraceCount{Name: "some_fn+0x10", Reason: d.Name, Count: d.Count})
	}
	tl.Trace = w
	return tl
}

// Each reason family reaches its rule, and the kernel's count is the finding's first
// evidence (the story's proof), even when the rule's counters are not in the input.
func TestTraceReasonsReachTheirRules(t *testing.T) {
	for _, c := range []struct{ reason, rule string }{
		{"SOCKET_RCVBUFF", "udp-rcvbuf-errors"},
		{"PROTO_MEM", "tcp-memory-pressure"},
		{"CPU_BACKLOG", "softnet-backlog-drops"},
		{"FULL_RING", "nic-rx-overruns"},
		{"NOMEM", "alloc-fail-skb-drops"},
		{"PFMEMALLOC", "alloc-fail-skb-drops"},
		{"TCP_OFO_QUEUE_PRUNE", "rcvq-pruning"},
	} {
		t.Run(c.reason, func(t *testing.T) {
			tl := tracedTimeline(model.TraceCount{Name: c.reason, Count: 30000}, model.TraceCount{Name: "NO_SOCKET", Count: 7})
			f := mustFire(t, run(t, c.rule, tl), Warning)
			e := f.Evidence[0]
			if !strings.Contains(e.What, c.reason) || !strings.HasPrefix(e.Value, "30000 in 3s (10000/s); dropped in some_fn+0x10 30000") || !strings.Contains(e.Source, "skb:kfree_skb") {
				t.Errorf("first evidence %+v", e)
			}
			if evidenceHas(f, "NO_SOCKET", "") {
				t.Error("a reason of another rule cited")
			}
		})
	}
}

// Without drops of its reasons a traced window checks a rule that lacked its counters;
// without the reason field (before 5.17) or without a trace nothing changes.
func TestTraceReasonsAbsentOrZero(t *testing.T) {
	tl := tracedTimeline(model.TraceCount{Name: "NO_SOCKET", Count: 7})
	mustBeHealthy(t, run(t, "alloc-fail-skb-drops", tl))
	mustBeHealthy(t, run(t, "udp-rcvbuf-errors", tl))
	tl.Trace.Reasons = false
	mustNotCheck(t, run(t, "alloc-fail-skb-drops", tl), "doctor --trace")
	tl.Trace = nil
	mustNotCheck(t, run(t, "alloc-fail-skb-drops", tl), "doctor --trace")
}

// The rule's own finding keeps its evidence after the kernel's count, and its severity when
// higher.
func TestTraceReasonsJoinAFinding(t *testing.T) {
	tl := tracedTimeline(model.TraceCount{Name: "SOCKET_RCVBUFF", Count: 900})
	tl.Samples[0].NetStat = kernel.Groups{group("Udp", "InDatagrams", 100, "RcvbufErrors", 1000, "SndbufErrors", 0)}
	tl.Samples[1].NetStat = kernel.Groups{group("Udp", "InDatagrams", 200, "RcvbufErrors", 5000, "SndbufErrors", 0)}
	f := mustFire(t, run(t, "udp-rcvbuf-errors", tl), Critical)
	if !strings.Contains(f.Evidence[0].What, "SOCKET_RCVBUFF") || !evidenceHas(f, "RcvbufErrors", "") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	d := Run(tl, nil)
	found := false
	for _, ch := range d.Story.Chains {
		for _, l := range ch.Links {
			if l.ID == "udp-rcvbuf-errors" && strings.Contains(l.Proof.What, "SOCKET_RCVBUFF") && strings.HasPrefix(l.Proof.Value, "900 in") {
				found = true
			}
		}
	}
	if !found {
		t.Errorf("the story does not cite the reason count: %+v", d.Story.Chains)
	}
}

func TestTraceReclaimStalls(t *testing.T) {
	tl := timeline(2)
	ext := uint64(12)
	tl.Trace = &model.TraceWindow{Duration: 3 * time.Second, Reclaim: &model.TraceStalls{}, Extfrag: &ext}
	mustBeHealthy(t, run(t, "direct-reclaim-stalls", tl))
	tl.Trace.Reclaim = &model.TraceStalls{Count: 4, Total: 20 * time.Millisecond, Max: 8 * time.Millisecond,
		Tasks: []model.TraceTask{{PID: 42, Comm: "java", Count: 4, Total: 20 * time.Millisecond, Max: 8 * time.Millisecond}}}
	f := mustFire(t, run(t, "direct-reclaim-stalls", tl), Info)
	if !evidenceHas(f, "direct reclaim stalls (measured)", "4 in 3s, 20.0 ms in all, longest 8.0 ms; java[42] 4× 20.0 ms") || !evidenceHas(f, "extfrag", "12 in 3s") {
		t.Errorf("evidence %+v", f.Evidence)
	}
	tl.Trace.Reclaim.Max = 150 * time.Millisecond
	mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning)
	tl.Trace.Reclaim.Max, tl.Trace.Reclaim.Total = 8*time.Millisecond, 40*time.Millisecond // 1.3% of 3 s
	mustFire(t, run(t, "direct-reclaim-stalls", tl), Warning)
}

// TcpExt PFMemallocDrop is read without a trace: rising while sampled is a warning, since
// boot only is information, 0 is healthy with NOMEM named as not checked, and absent is not
// checked.
func TestPFMemallocDropCounter(t *testing.T) {
	tl := timeline(2)
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "PFMemallocDrop", 10)}
	tl.Samples[1].NetStat = kernel.Groups{group("TcpExt", "PFMemallocDrop", 25)}
	f := mustFire(t, run(t, "alloc-fail-skb-drops", tl), Warning)
	if !evidenceHas(f, "PFMemallocDrop", "+15 over 1.0 s") {
		t.Errorf("evidence: %+v", f.Evidence)
	}
	tl.Samples[0].NetStat = kernel.Groups{group("TcpExt", "PFMemallocDrop", 25)}
	mustFire(t, run(t, "alloc-fail-skb-drops", tl), Info)
	for i := range tl.Samples {
		tl.Samples[i].NetStat = kernel.Groups{group("TcpExt", "PFMemallocDrop", 0)}
	}
	mustBeHealthyNaming(t, run(t, "alloc-fail-skb-drops", tl), "not checked: NOMEM")
	mustNotCheck(t, run(t, "alloc-fail-skb-drops", timeline(2)), "PFMemallocDrop")
}
