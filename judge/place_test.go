package judge_test

import (
	"strings"
	"testing"
	"time"

	"headroom/diagnose"
	"headroom/internal/testkit"
	"headroom/judge"
	"headroom/model"
	"headroom/record"
)

var t0 = time.Date(2026, 3, 1, 14, 2, 0, 0, time.UTC)

// A test rule that fires on a window with swap-out: PlaceFindings must find its stretch.
func init() {
	diagnose.Register(diagnose.Rule{ID: "test-record-swap-window", Title: "test", Family: diagnose.FamilyMemory, Check: func(tl *model.Timeline) diagnose.Result {
		for _, s := range tl.Samples {
			if v, ok := s.Rates[model.RateSwapOutKBPerSec]; ok && v > 0 {
				return diagnose.Fired(diagnose.Finding{Severity: diagnose.Warning, Title: "swapping"})
			}
		}
		return diagnose.Healthy("no swap-out")
	}})
}

func TestPlaceFindings(t *testing.T) {
	tl := &model.Timeline{Source: model.SourceInfo{Kind: model.SourceArchive}}
	tl.Host.SetPageSize(4096)
	for i := 0; i < 90; i++ {
		tl.Samples = append(tl.Samples, testkit.SwapRampSample(t0, i))
	}
	tl.DeriveRates()
	d := diagnose.Run(tl, nil)
	var f *diagnose.Finding
	for i := range d.Findings {
		if d.Findings[i].ID == "test-record-swap-window" {
			f = &d.Findings[i]
		}
	}
	if f == nil {
		t.Fatal("test rule did not fire on the whole timeline")
	}
	start := time.Now()
	judge.PlaceFindings(tl, &d)
	t.Logf("placed %d findings in %v", len(d.Findings), time.Since(start))
	if f.When == nil {
		t.Fatal("not placed")
	}
	// Swap-out happened in the intervals ending at samples 21..30; windows are 5 samples
	// moved by 1, so the placement may widen by at most a window on each side.
	from := int(f.When.From.Sub(t0) / time.Second)
	to := int(f.When.To.Sub(t0) / time.Second)
	if from < 16 || from > 21 || to < 30 || to > 35 {
		t.Errorf("placed from sample %d to %d, want about 21..30", from, to)
	}
	last := f.Evidence[len(f.Evidence)-1]
	if last.What != "when it held" || !strings.Contains(last.Value, "14:02:") {
		t.Errorf("evidence %+v", last)
	}
}

// BenchmarkPlaceFindings places the findings of an hour at 1 s: the committed recording
// tiled to 3600 samples, diagnosed with every registered rule.
func BenchmarkPlaceFindings(b *testing.B) {
	rec, err := record.Load("../record/testdata/loopback-flood.jsonl.gz")
	if err != nil {
		b.Fatal(err)
	}
	tl := &model.Timeline{Source: rec.Source, Host: rec.Host}
	start := rec.Samples[0].Time
	for i := 0; i < 3600; i++ {
		s := rec.Samples[i%len(rec.Samples)]
		s.Time = start.Add(time.Duration(i) * time.Second)
		tl.Samples = append(tl.Samples, s)
	}
	// As record's benchmark was: without runner_test.go's probe, which fires on everything.
	d := diagnose.Run(tl, map[string]bool{"test-judge-probe": true})
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		dd := diagnose.Diagnosis{Findings: append([]diagnose.Finding(nil), d.Findings...)}
		for k := range dd.Findings {
			dd.Findings[k].When = nil
		}
		judge.PlaceFindings(tl, &dd)
	}
	b.ReportMetric(float64(len(d.Findings)), "findings")
}
