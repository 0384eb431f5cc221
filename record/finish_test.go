package record_test

import (
	"context"
	"path/filepath"
	"testing"

	"headroom/input"
	"headroom/model"
	"headroom/record"
)

// A recording read as the commands read it (input.Open): rates within each session, none
// across the break at a restarted recorder, and the events of the recorded kernel log.
func TestRecordingFinished(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host.jsonl.gz")
	record.WriteSynth(t, path, 40, record.WriterOptions{MemberFlushes: 7})
	tl, err := input.Open(context.Background(), path, input.Options{Kind: input.Snapshot})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 40 || len(tl.Samples[0].Rates) != 0 {
		t.Fatalf("%d samples, first rates %v", len(tl.Samples), tl.Samples[0].Rates)
	}
	// 256 pages of 4 KiB a second between samples 20 and 30.
	if v := tl.Samples[25].Rates[model.RateSwapOutKBPerSec]; v != 1024 {
		t.Errorf("swap out at 25: %v kB/s, want 1024", v)
	}
	if v, ok := tl.Samples[35].Rates[model.RateSwapOutKBPerSec]; !ok || v != 0 {
		t.Errorf("swap out at 35: %v %v", v, ok)
	}
	if len(tl.Events) != 1 || tl.Events[0].Kind != model.EventAllocFailure || tl.Events[0].AllocFailure.Order != 3 || !tl.Events[0].Time.Equal(tl.Samples[25].Time) {
		t.Errorf("events %+v", tl.Events)
	}

	// A second session appended: its first sample gets no rate from the last of the first.
	w, err := record.Create(path, record.TestHeader(), record.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := 40; i < 43; i++ {
		s := record.SynthSample(i)
		w.WriteSample(&s)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	tl, err = input.Open(context.Background(), path, input.Options{Kind: input.Snapshot})
	if err != nil {
		t.Fatal(err)
	}
	if len(tl.Samples) != 43 || len(tl.Breaks) != 1 || tl.Breaks[0] != 40 {
		t.Fatalf("%d samples, breaks %v", len(tl.Samples), tl.Breaks)
	}
	if len(tl.Samples[40].Rates) != 0 || len(tl.Samples[41].Rates) == 0 {
		t.Errorf("rates at the session boundary: %v / %v", tl.Samples[40].Rates, tl.Samples[41].Rates)
	}
}
