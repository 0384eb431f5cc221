package record

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/judge"
	"headroom/model"
)

// A traced recording (record --trace) keeps its parts; the timeline's Trace is their sum, and
// a finding made of the kernel's counts is placed where the part that held them is.
func TestTracedRecording(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	w, err := Create(path, testHeader(), WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	part := func(i int, rcvbuf uint64) *model.TraceWindow {
		return &model.TraceWindow{Mechanism: "test", Start: synthSample(i).Time, Duration: 10 * time.Second, Reasons: true,
			DropsTotal: rcvbuf + 1, Drops: model.SortCounts([]model.TraceCount{{Name: "SOCKET_RCVBUFF", Count: rcvbuf}, {Name: "NO_SOCKET", Count: 1}}, 0),
			Reclaim: &model.TraceStalls{Count: 1, Total: time.Millisecond, Max: time.Millisecond, Tasks: []model.TraceTask{{PID: 7, Comm: "java", Count: 1, Total: time.Millisecond, Max: time.Millisecond}}}}
	}
	for i := 0; i < 90; i++ {
		s := synthSample(i)
		if err := w.WriteSample(&s); err != nil {
			t.Fatal(err)
		}
		if i%10 == 9 {
			// Drops only in the part that ends at sample 59.
			n := uint64(0)
			if i == 59 {
				n = 5000
			}
			if err := w.WriteTrace(part(i-9, n)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tl, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.TraceParts) != 9 || tl.Trace == nil {
		t.Fatalf("%d parts, trace %+v", len(tl.TraceParts), tl.Trace)
	}
	if n, _ := tl.Trace.DropsFor("SOCKET_RCVBUFF"); n != 5000 || tl.Trace.DropsTotal != 5009 || tl.Trace.Duration != 90*time.Second {
		t.Errorf("merged: SOCKET_RCVBUFF %d, total %d, span %v", n, tl.Trace.DropsTotal, tl.Trace.Duration)
	}
	if r := tl.Trace.Reclaim; r.Count != 9 || r.Total != 9*time.Millisecond || len(r.Tasks) != 1 || r.Tasks[0].Count != 9 || r.Tasks[0].Comm != "java" {
		t.Errorf("merged stalls %+v", r)
	}
	d := diagnose.Run(tl, nil)
	judge.PlaceFindings(tl, &d)
	for _, f := range d.Findings {
		if f.ID != "udp-rcvbuf-errors" {
			continue
		}
		if f.When == nil {
			t.Fatal("not placed")
		}
		from, to := int(f.When.From.Sub(t0)/time.Second), int(f.When.To.Sub(t0)/time.Second)
		if from < 45 || to > 65 || !strings.Contains(f.Evidence[0].What, "SOCKET_RCVBUFF") {
			t.Errorf("placed at samples %d..%d (the drops were in 50..59); evidence %+v", from, to, f.Evidence[0])
		}
		return
	}
	t.Fatalf("no udp-rcvbuf-errors finding: %+v", d.Findings)
}
